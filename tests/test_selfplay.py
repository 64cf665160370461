"""Random self-play invariants for every rule set and player count:
all the deck's cards (162, Canasta 108) accounted for after every move, each side's deal score equal to the sum of its
parts, the game totals the sum of the deals, and every game ends within the 60-deal cap."""

from __future__ import annotations

import random

import pytest
from conftest import ALL_TABLES

from py_engine.cards import deck_ids
from py_engine.simulate import PARTS, invariant_violations, random_move
from py_engine.state import Game

# Complete games: small targets keep this fast (the suite also runs inside Pyodide).
GAMES = [("samba", 4, 2500, s) for s in (1, 2, 3)] + [
    ("samba", 2, 2500, 1),
    ("samba", 3, 2500, 1),
    ("dutch", 2, 2500, 1),
    ("dutch", 3, 2500, 1),
    ("dutch", 4, 2500, 1),
    ("dutch", 4, 5000, 2),
    ("dutch", 5, 2500, 1),
    ("dutch", 6, 2500, 1),
    ("crawford", 4, 2500, 1),
    ("crawford", 6, 2500, 1),
    ("crawford", 6, 2500, 2),
    ("bolivia", 2, 2500, 1),
    ("bolivia", 4, 2500, 1),
    ("bolivia", 6, 2500, 1),
    ("canasta", 2, 2500, 1),
    ("canasta", 3, 2500, 1),
    ("canasta", 4, 2500, 1),
    ("canasta", 4, 5000, 2),
]


def _own_check(game: Game) -> None:
    """The invariants, checked here independently of simulate.invariant_violations."""
    ids = sorted(game.all_card_ids())
    assert ids == deck_ids(game.rules.decks, game.rules.jokers), "cards do not add up to the deck"
    assert len(game.hands) == game.players
    if game.phase in ("deal_over", "game_over"):
        res = game.deal_result
        assert res is not None
        for side in res["sides"]:
            assert side["total"] == sum(side[p] for p in PARTS)
        assert [s["total"] for s in res["sides"]] == game.history[-1]
    assert [sum(col) for col in zip(*game.history)] == game.scores or not game.history


def play_game(rules, players, target, seed, max_moves=30000):
    game = Game.new(rules, players, target, seed=seed)
    rng = random.Random(seed)
    moves = 0
    deal_moves = 0
    dealers = [game.dealer]
    while game.phase != "game_over":
        game.play(random_move(game, rng))
        moves += 1
        deal_moves += 1
        assert invariant_violations(game) == [], (rules, players, seed, moves)
        _own_check(game)
        if game.phase == "deal_over":
            deal_moves = 0
        if len(dealers) < game.deal_no:
            dealers.append(game.dealer)
        assert moves < max_moves, "game does not end"
        assert game.deal_no <= 60
    return game, moves, dealers


@pytest.mark.parametrize("rules,players,target,seed", GAMES)
def test_random_game_keeps_invariants_and_ends(rules, players, target, seed):
    game, moves, dealers = play_game(rules, players, target, seed)
    assert game.phase == "game_over"
    res = game.result
    assert res["scores"] == game.scores
    top = max(game.scores)
    assert top >= target or game.deal_no == 60
    assert len(game.history) == game.deal_no
    leaders = [i for i, s in enumerate(game.scores) if s == top]
    if len(leaders) == 1 and top >= target:
        assert res["winner"] == leaders[0] and not res["draw"]
    else:
        assert res["winner"] is None and res["draw"]
    # the dealer rotates one seat clockwise each deal
    for a, b in zip(dealers, dealers[1:]):
        assert b == (a + 1) % players
    # nothing more can be played
    with pytest.raises(ValueError):
        game.play("next")


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_invariant_checker_catches_a_lost_card(rules, players):
    """The checker used above must be able to fail."""
    game = Game.new(rules, players, seed=1)
    assert invariant_violations(game) == []
    lost = game.stock.pop()
    assert invariant_violations(game)
    game.stock.append(lost)
    game.hands[0].append(game.hands[1][0])  # a duplicate
    assert invariant_violations(game)


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_fresh_deal_shape(rules, players):
    game = Game.new(rules, players, seed=3)
    from py_engine.rules import get_rules

    n = get_rules(rules).hand_size(players)
    laid = sum(len(s) for s in game.red3)
    # automatic red threes are replaced, so every hand is full unless the stock ran out
    if game.rules.red_threes_automatic:
        assert all(len(h) == n for h in game.hands)
    else:
        assert laid == 0 and all(len(h) == n for h in game.hands)
    deck = deck_ids(game.rules.decks, game.rules.jokers)
    assert len(game.stock) + len(game.pile) + laid == len(deck) - n * players
    assert game.current == (game.dealer + 1) % players
    assert game.phase == "draw"
    # the up-card rule: the top of the pile is a natural card
    from py_engine.cards import IS_NATURAL

    assert IS_NATURAL[game.top_kind()]
    assert sorted(game.all_card_ids()) == deck


def test_deal_cap_ends_a_game_as_a_draw():
    """A game still below the target after deal 60 stops there as a draw."""
    game = Game.new("samba", 2, 10000, seed=1)
    game.deal_no = 60  # pretend 59 deals have been played
    game.scores = [-50000, -50000]
    game.history = [[0, 0]] * 59
    play_random_deal(game, random.Random(1))
    assert game.phase == "game_over"
    assert game.result["draw"] is True and game.result["winner"] is None
    assert game.result["reason"] == "deal_cap"


def test_deal_before_cap_continues():
    game = Game.new("samba", 2, 10000, seed=1)
    game.deal_no = 59
    game.scores = [-50000, -50000]
    play_random_deal(game, random.Random(1))
    assert game.phase == "deal_over"
    game.play("next")
    assert game.deal_no == 60


def play_random_deal(game, rng):
    while game.phase not in ("deal_over", "game_over"):
        game.play(random_move(game, rng))


@pytest.mark.parametrize("rules,players", [("bolivia", 4), ("canasta", 4)])
def test_random_play_reaches_the_distinctive_moves_of_bolivia_and_canasta(rules, players):
    """The random games above do play the new rules: wild-card melds in bolivia, pile takes
    with one natural and a wild card in canasta (so their invariants were checked there)."""
    from py_engine.cards import IS_WILD
    from py_engine.moves import TakePile

    wild_melds = natural_and_wild = 0
    for seed in (1, 2, 3):
        game = Game.new(rules, players, 2500, seed=seed)
        rng = random.Random(seed)
        while game.phase != "game_over":
            move = random_move(game, rng)
            if isinstance(move, TakePile) and sum(not IS_WILD[k] for k in move.cards) == 1:
                natural_and_wild += 1
            game.play(move)
            if game.phase != "draw" and game.deal_result is not None:
                wild_melds += sum(m.type == "wild" for side in game.melds for m in side)
    if rules == "bolivia":
        assert wild_melds > 0 and natural_and_wild == 0
    else:
        assert natural_and_wild > 0 and wild_melds == 0
