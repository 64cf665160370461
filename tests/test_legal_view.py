"""The legal part of a view is the documented dict (docs/bridge.md: the same keys in the same
order, the same values, the same JSON) that the listing makes from the engine's legal moves, a
plain dict that a JSON round trip leaves as it is."""

from __future__ import annotations

import json

import pytest

from py_engine.ai import make_bot
from py_engine.ai.act import bot_move
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.state import Game
from py_engine.views import _listing, view_for

TABLES = [("samba", 4), ("dutch", 3), ("crawford", 6), ("canasta", 2), ("bolivia", 4)]
KEYS = ["moves", "discard", "adds", "melds", "takes", "can_ask", "targets"]


def _eager(g: Game, legal: dict) -> dict:
    """The legal part made at once, from the engine's legal moves (what it always was)."""
    moves = legal_moves(g)
    got = _listing(moves, [m.text() for m in moves])
    return {
        "moves": got["moves"],
        "discard": got["discard"],
        "adds": got["adds"],
        "melds": got["melds"],
        "takes": got["takes"],
        "can_ask": legal["can_ask"],
        "targets": got["targets"],
    }


def _positions(rules: str, players: int, seed: int):
    g = Game.new(rules, players, seed=seed)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    steps = 0
    while g.phase in ("draw", "meld", "answer") and steps < 150:
        yield g
        g.play(bot_move(bots[g.current], g, g.current))
        steps += 1


@pytest.mark.parametrize("rules,players", TABLES)
def test_the_legal_part_is_the_documented_dict(rules, players):
    checked = 0
    for g in _positions(rules, players, 5):
        legal = view_for(g, g.current)["legal"]
        assert type(legal) is dict
        want = _eager(g, legal)
        assert list(want) == KEYS and list(legal) == KEYS
        assert legal == want
        assert json.loads(json.dumps(legal)) == legal
        assert json.dumps(legal) == json.dumps(want)
        checked += 1
    assert checked > 40


def test_the_comparison_can_fail():
    """A legal part made for another position reads differently: the checks above see it."""
    g = Game.new("samba", 4, seed=5)
    first = view_for(g, g.current)["legal"]
    g.play("draw")
    later = view_for(g, g.current)["legal"]
    assert json.dumps(first) != json.dumps(later) and first != later
    assert _eager(g, later) != first


def test_medium_ranks_the_moves_a_view_lists_before_and_after_json():
    """``medium`` ranks, from the seat's observation, exactly the moves the seat's view lists
    (its other moves, then its meld moves), for a view of ``view_for`` and for the same view
    through JSON, and plays the first."""
    for rules, players in TABLES:
        bot = make_bot("medium", seed=1)
        for g in _positions(rules, players, 9):
            view = view_for(g, g.current)
            obs, legal = Observation.for_seat(g, g.current), legal_moves(g)
            ranked = [m.text() for _, m in bot.ranking(obs, legal)]
            for v in (view, json.loads(json.dumps(view))):
                listed = v["legal"]["moves"] + ["meld " + p for p in v["legal"]["melds"]]
                assert sorted(ranked) == sorted(listed) and len(listed) == len(set(listed))
            assert bot.decide(obs, legal).text() == ranked[0]
