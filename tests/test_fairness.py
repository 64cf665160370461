"""Bots cannot see hidden cards.

With the bot's RNG fixed, shuffling the cards its seat cannot see (the other players' hands,
partner's included, and the stock: cards swapped between those places, counts kept) never
changes its decision. And a bot only ever receives its seat's observation and legal moves.
"""

from __future__ import annotations

import random

import pytest

from py_engine.ai import make_bot
from py_engine.ai import tournament as tournament_mod
from py_engine.ai.act import bot_move
from py_engine.ai.hard import HardBot
from py_engine.cards import IS_RED3, KIND_OF_ID
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.state import Game
from py_engine.views import view_for

TABLES = [("samba", 4), ("samba", 2), ("dutch", 4), ("dutch", 3), ("crawford", 6)]


def shuffle_hidden(game: Game, seat: int, rng: random.Random) -> None:
    """Swap cards between the places ``seat`` cannot see, keeping every place's size.

    Where red threes are laid at once they never sit in a hand, so they stay where they are."""
    slots = [(s, i) for s in range(game.players) if s != seat for i in range(len(game.hands[s]))]
    slots += [(-1, i) for i in range(len(game.stock))]

    def get(slot):
        s, i = slot
        return game.stock[i] if s < 0 else game.hands[s][i]

    def put(slot, c):
        s, i = slot
        if s < 0:
            game.stock[i] = c
        else:
            game.hands[s][i] = c

    fixed = game.rules.red_threes_automatic
    movable = [sl for sl in slots if not (fixed and IS_RED3[KIND_OF_ID[get(sl)]])]
    cards = [get(sl) for sl in movable]
    before = sorted(cards)
    rng.shuffle(cards)
    for sl, c in zip(movable, cards):
        put(sl, c)
    assert sorted(get(sl) for sl in movable) == before


def positions(rules: str, players: int, seed: int, every: int):
    """Decision points of a deal played by ``medium`` bots: (game, seat) every few moves."""
    game = Game.new(rules, players, seed=seed)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    step = 0
    while game.phase in ("draw", "meld", "answer") and step < 200:
        seat = game.current
        view = view_for(game, seat)
        if step % every == 0 and len(view["legal"]["moves"]) + len(view["legal"]["melds"]) > 1:
            yield game, seat
        game.play(bot_move(bots[seat], game, seat))
        step += 1


def _decision_after_shuffles(game: Game, seat: int, make, shuffles: int, rng) -> None:
    from py_engine.record import state_from_json, state_to_json

    view = view_for(game, seat)
    first = bot_move(make(), game, seat)
    for _ in range(shuffles):
        other = state_from_json(state_to_json(game))
        shuffle_hidden(other, seat, rng)
        assert other.hands[seat] == game.hands[seat]
        view2 = view_for(other, seat)
        assert view2 == view, "the view changed when only hidden cards moved"
        assert Observation.for_seat(other, seat) == Observation.for_seat(game, seat), (
            "the observation changed when only hidden cards moved"
        )
        assert bot_move(make(), other, seat) == first


@pytest.mark.parametrize("rules,players", TABLES)
def test_medium_ignores_hidden_cards(rules, players):
    rng = random.Random(7)
    n = 0
    for game, seat in positions(rules, players, seed=21, every=5):
        _decision_after_shuffles(game, seat, lambda: make_bot("medium", seed=3), 2, rng)
        n += 1
    assert n >= 5


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6)])
def test_hard_ignores_hidden_cards(rules, players):
    """Only positions where ``hard`` really searches (several candidate moves)."""
    rng = random.Random(8)
    n = 0
    for game, seat in positions(rules, players, seed=22, every=1):
        probe = HardBot(seed=3, iterations=2, rounds=0.5, shortlist=3)
        if len(probe.searched(Observation.for_seat(game, seat), legal_moves(game))) < 2:
            continue
        # confidence 0: any sampled advantage overrules medium, the most sensitive setting
        _decision_after_shuffles(
            game,
            seat,
            lambda: HardBot(
                seed=3,
                iterations=3,
                rounds=0.5,
                shortlist=3,
                min_samples=2,
                confidence=0.0,
                min_gain=0.0,
            ),
            1,
            rng,
        )
        n += 1
        if n >= 5:
            break
    assert n >= 5


def test_shuffling_really_moves_hidden_cards():
    """The check above can fail: the shuffle changes the hidden cards (and decisions that
    peek at them would change)."""
    game = Game.new("samba", 4, seed=1)
    before = [list(h) for h in game.hands]
    shuffle_hidden(game, 0, random.Random(1))
    assert game.hands[0] == before[0]
    assert any(game.hands[s] != before[s] for s in (1, 2, 3))

    class Peeker:
        """A cheating bot: reads seat 1's hand from the game it should not have."""

        def __init__(self, g):
            self.g = g

        def choose(self, view):
            return view["legal"]["moves"][sum(self.g.hands[1]) % len(view["legal"]["moves"])]

    game.play("draw")
    changed = False
    for i in range(10):
        g2 = Game.new("samba", 4, seed=1)
        g2.play("draw")
        shuffle_hidden(g2, 0, random.Random(i))
        changed |= Peeker(g2).choose(view_for(g2, 0)) != Peeker(game).choose(view_for(game, 0))
    assert changed


class Spy:
    """Wraps a bot and records what it is given."""

    seen: list = []

    def __init__(self, inner):
        self.inner = inner

    def decide(self, obs, legal):
        Spy.seen.append((obs, legal))
        return self.inner.decide(obs, legal)


def test_bots_only_receive_observations(monkeypatch):
    """A bot is given its seat's observation (counts for what it may not see) and the legal
    moves as the engine's ``Move`` objects, nothing else."""
    from py_engine.moves import Move

    real = tournament_mod.make_bot
    Spy.seen = []
    monkeypatch.setattr(
        tournament_mod, "make_bot", lambda level, seed=0, **kw: Spy(real(level, seed=seed, **kw))
    )
    tournament_mod.tournament("dutch", 4, "medium", "easy", 1, 3)
    assert Spy.seen
    for obs, legal in Spy.seen:
        assert type(obs) is Observation
        assert isinstance(obs.stock, int)
        assert all(isinstance(n, int) for n in obs.hand_sizes)
        assert len(obs.hand) == obs.hand_sizes[obs.seat]
        assert type(legal) is list and legal and all(isinstance(m, Move) for m in legal)
