"""The legal part of a view (``views.LegalView``) makes its lists when first read: read any way,
a fresh one is the documented dict (the same keys in the same order, the same values, the same
JSON) that the listing makes from the legal moves, and its ``objects`` are exactly the moves
its texts list."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from py_engine.ai import make_bot
from py_engine.ai.act import bot_move
from py_engine.legal import legal_moves
from py_engine.state import Game
from py_engine.views import LegalView, _listing, view_for

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


READS = {
    "json": lambda v: json.dumps(v),
    "json sorted": lambda v: json.dumps(v, sort_keys=True),
    "json compact": lambda v: json.dumps(v, separators=(",", ":")),
    "keys": lambda v: list(v),
    "len": len,
    "repr": repr,
    "items": lambda v: list(v.items()),
    "values": lambda v: list(v.values()),
    "in": lambda v: [k in v for k in KEYS + ["x"]],
    "get": lambda v: [v.get(k) for k in KEYS + ["x"]],
    "item": lambda v: v["melds"],
    "dict": dict,
    "unpack": lambda v: {**v},
    "copy": lambda v: v.copy(),
    "deepcopy": copy.deepcopy,
    "pickle": lambda v: pickle.loads(pickle.dumps(v)),
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
def test_a_fresh_legal_part_reads_as_the_documented_dict(rules, players):
    checked = 0
    for g in _positions(rules, players, 5):
        legal = view_for(g, g.current)["legal"]
        assert type(legal) is LegalView
        want = _eager(g, legal)
        assert list(want) == KEYS
        assert [m.text() for m in legal.objects] == want["targets"]["all"]
        for name, read in READS.items():
            fresh = view_for(g, g.current)["legal"]
            assert read(fresh) == read(want), (name, rules, g.version)
        fresh, again = view_for(g, g.current), view_for(g, g.current)
        assert fresh == again and not fresh != again
        assert fresh["legal"] == want and want == again["legal"]
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


def test_medium_ranks_alike_from_the_objects_and_from_the_texts():
    """``medium`` ranks the objects of a ``view_for`` view; a view that has only the texts (the
    same view through JSON) gets the same ranking."""
    for rules, players in TABLES:
        bot = make_bot("medium", seed=1)
        for g in _positions(rules, players, 9):
            view = view_for(g, g.current)
            assert bot.rank_moves(view) == bot.rank_moves(json.loads(json.dumps(view)))
