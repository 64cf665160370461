"""Views share what every seat sees alike: a log entry without an ask or cards only one seat saw
is rendered once for all seats (``views.seat_log``); the others stay each seat's own."""

from __future__ import annotations

from py_engine.ai.act import bot_move
from py_engine.ai.medium import MediumBot
from py_engine.state import Game
from py_engine.views import log_entry, seat_log


def test_log_entries_shared_only_where_every_seat_sees_them_alike():
    g = Game.new("samba", 4, seed=5)
    bots = [MediumBot(seed=s) for s in range(4)]
    for _ in range(160):
        if g.phase not in ("draw", "meld", "answer"):
            break
        g.play(bot_move(bots[g.current], g, g.current))
    logs = [seat_log(g, s, last=10_000) for s in range(4)]
    shared = private = 0
    for i, e in enumerate(g.log):
        for s in range(4):
            assert logs[s][i] == log_entry(e, s, g, i)  # what the seat may see, no more
        mine = e["seat"] is not None and e["private"].get("cards")
        if mine or e["kind"] == "ask":
            assert "cards" not in logs[(e["seat"] + 1) % 4][i]
            private += 1
        else:
            assert all(logs[s][i] is logs[0][i] for s in range(4))
            shared += 1
    assert shared > 50 and private > 20
