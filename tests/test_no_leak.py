"""No view leaks: over random games and every seat, ``view_for(game, seat)``
never contains a card that seat cannot know: no card of another seat's hand or of the stock
appears anywhere in the view; the own hand is exact; other hands and the stock are counts;
the log's private draw details reach only their owner. The view is the seat's observation
(``Observation.for_seat``, what the bots read) written as JSON plus its legal moves, so the
observation is checked the same way, and the view is checked to be written from it alone."""

from __future__ import annotations

import json
import random

import pytest
from conftest import ALL_TABLES, random_positions

from py_engine.ai.act import bot_move
from py_engine.moves import parse_move
from py_engine.simulate import random_move
from py_engine.state import Game
from py_engine.views import view_for

# keys under which a bare int (or list of ints) would be a physical card id
CARDISH_KEYS = {
    "card",
    "cards",
    "hand",
    "drawn",
    "ids",
    "replaced_by",
    "private",
    "stock_cards",
    "top",
}


def collect_ids(node, key=None, out=None, path="view"):
    """Every physical card id in a view: {"id": n, "c": ...} objects anywhere, and ints (or
    lists of ints) under card-ish keys."""
    if out is None:
        out = {}
    if isinstance(node, dict):
        if "c" in node and "id" in node:
            out.setdefault(node["id"], path)
        elif "id" in node:
            # the only other objects with an id are melds
            assert "type" in node and "cards" in node, f"unexpected id object at {path}: {node}"
        for k, v in node.items():
            collect_ids(v, k, out, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            collect_ids(v, key, out, f"{path}[{i}]")
    elif isinstance(node, int) and not isinstance(node, bool) and key in CARDISH_KEYS:
        out.setdefault(node, path)
    return out


def hidden_from(game: Game, seat: int) -> set[int]:
    """The cards the seat may not see: the stock and the other seats' hands."""
    hidden = set(game.stock)
    for s in range(game.players):
        if s != seat:
            hidden |= set(game.hands[s])
    return hidden


def public_to(game: Game, seat: int) -> set[int]:
    """The cards the seat may see: its hand, the pile, the melds and the red threes laid."""
    visible = set(game.hands[seat]) | set(game.pile)
    visible |= {c for side in game.melds for m in side for c in m.cards}
    visible |= {c for side in game.red3 for c in side}
    return visible


def check_view(game: Game, seat: int) -> None:
    view = view_for(game, seat)
    view = json.loads(json.dumps(view))  # JSON only: no Python objects inside
    ids = collect_ids(view)
    hidden = hidden_from(game, seat)
    leaked = {c: p for c, p in ids.items() if c in hidden}
    assert not leaked, f"seat {seat} sees hidden cards: {leaked}"
    assert set(ids) <= public_to(game, seat)
    # own hand exact, others as counts, the stock as a count
    assert sorted(c["id"] for c in view["hand"]) == sorted(game.hands[seat])
    assert view["hand_sizes"] == [len(h) for h in game.hands]
    assert view["stock"] == len(game.stock) and isinstance(view["stock"], int)
    assert [c["id"] for c in view["pile"]["cards"]] == game.pile
    # private log details only for their owner
    for e in view["log"]:
        if e.get("seat") != seat:
            assert "cards" not in e, f"seat {seat} sees another seat's private log: {e}"
            assert "private" not in e
    # legal moves only for the seat to act
    if game.phase in ("draw", "meld", "answer") and game.current != seat:
        assert view["legal"] is None
    # a pending question goes only to the asker's side
    if game.turn.pending and game.side_of(game.turn.asker) != game.side_of(seat):
        assert view["turn"]["pending"] is None
        assert all(e["text"] == "ask" for e in view["log"] if e["text"].startswith("ask"))


def first_deal(rules: str, players: int, seed: int, check, also=None) -> int:
    """Random moves through a game's first deal (``seed``): ``check(game, seat)`` for every seat
    at every third move, at each question and at the deal's end, ``also(game, n, rng)`` before
    each move; the number of moves played."""
    game = Game.new(rules, players, 2500, seed=seed)
    rng = random.Random(seed)
    n = 0
    deals = 0
    while game.phase != "game_over" and deals < 1:
        if n % 3 == 0 or game.phase in ("deal_over", "answer"):
            for seat in range(players):
                check(game, seat)
        if also is not None:
            also(game, n, rng)
        if game.phase == "deal_over":
            deals += 1
        game.play(random_move(game, rng))
        n += 1
    for seat in range(players):
        check(game, seat)
    return n


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_no_view_leaks_in_random_games(rules, players):
    assert first_deal(rules, players, 31, check_view) > 50


def test_checker_catches_a_leak():
    """The leak check must be able to fail: a view with another seat's card in it."""
    game = Game.new("samba", 4, seed=2)
    view = view_for(game, 0)
    other = game.hands[1][0]
    view["log"].append({"seat": 1, "text": "draw", "cards": [other]})
    ids = collect_ids(view)
    assert other in ids
    view2 = view_for(game, 0)
    view2["hand"].append({"id": game.stock[-1], "c": "??"})
    assert game.stock[-1] in collect_ids(view2)


def test_own_draw_details_shown_to_owner_only():
    game = Game.new("samba", 2, seed=5)
    seat = game.current
    stock_top = game.stock[-2:]
    game.play("draw")
    mine = view_for(game, seat)["log"][-1]
    theirs = view_for(game, 1 - seat)["log"][-1]
    assert mine["text"] == theirs["text"] == "draw"
    assert len(mine.get("cards", [])) == 2
    assert "cards" not in theirs
    assert sorted(mine["cards"]) == sorted(
        __import__("py_engine.cards", fromlist=["id_text"]).id_text(c) for c in stock_top
    )


def test_card_ids_finds_card_objects_at_any_depth():
    """``card_ids`` (the soak's and the netplay tests' leak check) finds every ``{"id", "c"}``
    object in dicts and lists at any depth, and nothing else."""
    from py_engine.views import card_ids

    message = {
        "a": [{"id": 5, "c": "5H"}, ({"id": 6, "c": "6H"},)],
        "b": {"x": {"y": [[{"c": "7H", "id": 7}], "8H", 9]}},
        "not_a_card": {"id": "5", "c": "x"},
        "extra_key": {"id": 8, "c": "8H", "z": 1},
    }
    assert card_ids(message) == {5, 7}
    assert card_ids([{"id": 0, "c": "3C"}] * 3 + [[]]) == {0}
    assert card_ids("5H") == set()


# The observation (``Observation.for_seat``: what bots read) holds the same knowledge. Two
# checks, neither trusting its type: (1) every field is walked (named tuples' fields, tuples,
# mappings, at any depth; the walk must reach every field of the observation) and every int
# under a card-bearing name is a card the seat may see; the log names kinds, so it is compared
# with the game's own log instead. (2) Moving the hidden cards (the other hands and the stock,
# counts kept) leaves the observation equal: whatever a field holds, it cannot depend on them.
OBS_CARD_FIELDS = {"hand", "pile", "cards", "red_threes"}
OBS_APART = {"log"}  # checked against the game's log (kinds, not card ids)
# the scoring records: their "cards" are points (walked, but compared with the game's records)
OBS_SCORES = {"deal_result", "breakdowns", "result"}


def walk_obs(node, key=None, out=None, path="obs", fields=None, names=OBS_CARD_FIELDS):
    """(card ids under card-bearing ``names`` -> a path, every field name reached)."""
    from collections.abc import Mapping

    if out is None:
        out, fields = {}, set()
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        for name in node._fields:
            fields.add(name)
            if name not in OBS_APART:
                inner = set() if name in OBS_SCORES else names
                walk_obs(getattr(node, name), name, out, f"{path}.{name}", fields, inner)
    elif isinstance(node, Mapping):
        for k, v in node.items():
            walk_obs(v, k, out, f"{path}[{k!r}]", fields, names)
    elif isinstance(node, (tuple, list, set, frozenset)):
        for i, v in enumerate(node):
            walk_obs(v, key, out, f"{path}[{i}]", fields, names)
    elif isinstance(node, int) and not isinstance(node, bool) and key in names:
        out.setdefault(node, path)
    return out, fields


def check_observation(game: Game, seat: int) -> None:
    from py_engine.cards import KIND_OF_ID
    from py_engine.observation import Observation

    obs = Observation.for_seat(game, seat)
    ids, fields = walk_obs(obs)
    assert set(Observation._fields) <= fields, "the walk missed a field"
    hidden = hidden_from(game, seat)
    leaked = {c: p for c, p in ids.items() if c in hidden}
    assert not leaked, f"seat {seat}'s observation holds hidden cards: {leaked}"
    assert set(ids) <= public_to(game, seat)
    assert set(ids) == obs.cards()
    assert sorted(obs.hand) == sorted(game.hands[seat])
    assert obs.deal_result == game.deal_result and obs.result == game.result
    assert list(obs.breakdowns) == game.breakdowns
    assert list(obs.hand_sizes) == [len(h) for h in game.hands]
    assert type(obs.stock) is int and obs.stock == len(game.stock)
    assert list(obs.pile) == game.pile
    for e in obs.log:
        g = game.log[e.i]
        assert (e.deal, e.seat) == (g["deal"], g["seat"])
        for k, v in e.public.items():
            if k == "card":
                assert v == KIND_OF_ID[g["public"][k]]
            elif k in ("laid", "with"):
                assert list(v) == [KIND_OF_ID[c] for c in g["public"][k]]
        if e.own_cards is not None:
            assert e.seat == seat, f"seat {seat} sees another seat's private log: {e}"
            assert list(e.own_cards) == [KIND_OF_ID[c] for c in g["private"]["cards"]]
    if game.turn.pending and game.side_of(game.turn.asker) != game.side_of(seat):
        assert obs.turn.pending is None and obs.turn.proposal is None
        assert all(e.text == "ask" for e in obs.log if e.kind == "ask")
    elif game.turn.pending:  # the asker's side: the proposal is the asked action, as a Move
        assert obs.turn.pending == game.turn.pending
        assert obs.turn.proposal == parse_move(game.turn.pending)
    else:
        assert obs.turn.pending is None and obs.turn.proposal is None


def check_observation_blind(game: Game, seat: int, rng: random.Random) -> None:
    """Moving the cards ``seat`` cannot see leaves its observation as it was."""
    from test_fairness import shuffle_hidden

    from py_engine.observation import Observation
    from py_engine.record import state_from_json, state_to_json

    other = state_from_json(state_to_json(game))
    shuffle_hidden(other, seat, rng)
    assert Observation.for_seat(other, seat) == Observation.for_seat(game, seat), (
        "the observation changed when only hidden cards moved"
    )


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_no_observation_leaks_in_random_games(rules, players):
    def blind(game: Game, n: int, rng: random.Random) -> None:
        if n % 17 == 0:
            check_observation_blind(game, n % players, rng)

    assert first_deal(rules, players, 32, check_observation, blind) > 50


def test_observation_checks_catch_a_leak():
    """The observation checks must be able to fail: another seat's card in the hand, in a
    meld's cards, under a new field, or another seat's draw in the log."""
    from collections import namedtuple

    from py_engine.observation import MeldSeen, Observation

    game = Game.new("samba", 4, seed=2)
    game.play("draw")
    check_observation(game, 1)
    check_observation_blind(game, 1, random.Random(1))
    real = Observation.for_seat
    obs = real(game, 1)
    other = game.hands[2][0]
    bad_hand = obs._replace(hand=obs.hand + (other,))
    meld = MeldSeen(1, "group", 5, -1, (other,), 0, None, 2, False, 5, 0)
    bad_meld = obs._replace(melds=((meld,), *obs.melds[1:]))
    draw = next(e for e in real(game, 0).log if e.own_cards)  # seat 0's own draw
    bad_log = obs._replace(log=tuple(draw if e.i == draw.i else e for e in obs.log))
    for bad in (bad_hand, bad_meld, bad_log):
        try:
            Observation.for_seat = classmethod(lambda cls, g, s, bad=bad: bad)
            with pytest.raises(AssertionError):
                check_observation(game, 1)
        finally:
            Observation.for_seat = real
    # a field the walk does not know of, holding the stock's top card: the walk reaches it (and
    # would miss an unnamed field), and moving the hidden cards changes it
    Peek = namedtuple("Peek", [*Observation._fields, "secret"])
    try:
        Observation.for_seat = classmethod(lambda cls, g, s: Peek(*real(g, s), g.stock[-1]))
        _, fields = walk_obs(Observation.for_seat(game, 1))
        assert "secret" in fields
        with pytest.raises(AssertionError, match="hidden cards moved"):
            for seed in range(5):
                check_observation_blind(game, 1, random.Random(seed))
    finally:
        Observation.for_seat = real


def test_observation_blind_to_hidden_cards_after_medium_play():
    """At decision points of deals ``medium`` plays, in every rule set, moving the hidden
    cards leaves every seat's observation equal."""
    from py_engine.ai import make_bot

    for rules, players in (("samba", 4), ("dutch", 3), ("crawford", 6)):
        game = Game.new(rules, players, seed=11)
        bots = [make_bot("medium", seed=s) for s in range(players)]
        rng = random.Random(11)
        for step in range(120):
            if game.phase not in ("draw", "meld", "answer"):
                break
            if step % 7 == 0:
                for seat in range(players):
                    check_observation_blind(game, seat, rng)
            game.play(bot_move(bots[game.current], game, game.current))


# The view is the observation written as JSON (``views.view_json``) plus the legal part: so the
# checks above of the observation hold for the page's view too. Two checks: its cards are the
# observation's (hand and pile in the same order, the log's entries the same), and the view
# without its legal part changes with the observation alone (given another game's observation,
# ``view_for`` writes that game's view: it reads nothing else of the game).


def test_the_view_is_the_observation_serialized():
    from py_engine.observation import Observation

    game = Game.new("samba", 4, seed=9)
    rng = random.Random(9)
    for _ in range(120):
        for seat in range(4):
            obs = Observation.for_seat(game, seat)
            view = view_for(game, seat, with_legal=False)
            assert [c["id"] for c in view["hand"]] == list(obs.hand)
            assert [c["id"] for c in view["pile"]["cards"]] == list(obs.pile)
            assert set(collect_ids(json.loads(json.dumps(view)))) == obs.cards()
            assert [e["i"] for e in view["log"]] == [e.i for e in obs.log]
            assert [e["text"] for e in view["log"]] == [e.text for e in obs.log]
        if game.phase == "game_over":
            break
        game.play(random_move(game, rng))


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 3), ("crawford", 6)])
def test_the_view_reads_the_game_only_through_its_observation(rules, players, monkeypatch):
    from py_engine import views
    from py_engine.observation import observe
    from py_engine.record import state_from_json, state_to_json

    # ``other`` at positions of a random deal, ``game`` the same deal some moves behind,
    # ``fresh`` a copy of ``other`` through its record (nothing kept of either game)
    game = Game.new(rules, players, seed=4)
    checked = 0
    for other in random_positions(rules, players, seed=4, every=15):
        while game.version < other.version - 20:
            game.play(other.moves[len(game.moves)])
        if game.version == other.version:
            continue
        for seat in range(players):
            want = view_for(other, seat, with_legal=False)
            fresh = view_for(state_from_json(state_to_json(other)), seat, with_legal=False)
            assert fresh == want
            view_for(game, seat)  # what ``game``'s cache keeps is of another position
            with monkeypatch.context() as m:
                m.setattr(
                    views.Observation,
                    "for_seat",
                    classmethod(lambda cls, g, s, o=other: observe(o, s)),
                )
                got = view_for(game, seat, with_legal=False)
            assert got == want, "the view took something from the game, not its observation"
            assert got != view_for(game, seat, with_legal=False)
            checked += 1
    assert checked >= 4 * players
