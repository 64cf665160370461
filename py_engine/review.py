"""After a deal: all hands and a step-by-step replay, so a player can check that nobody cheated."""

from __future__ import annotations

from .cards import id_text
from .record import game_record, replay
from .state import Game
from .views import log_entry, sorted_hand


def snapshot(g: Game) -> dict:
    return {
        "hands": [[id_text(c) for c in sorted_hand(h)] for h in g.hands],
        "pile": [id_text(c) for c in g.pile],
        "stock": len(g.stock),
        "melds": [[[id_text(c) for c in m.cards] for m in side] for side in g.melds],
        "red_threes": [[id_text(c) for c in s] for s in g.red3],
    }


def deal_review(game: Game) -> dict:
    """The finished deal of ``game`` replayed from its record: the position after the deal and
    after every move of it, each move with its place in the record's ``moves`` (``index``, as
    the coach's entries name it) and its log entries (docs/bridge.md "log": a ``kind`` and
    its facts; the first is the move's own, events such as a red three laid or the deal's end
    follow)."""
    rec = game_record(game)
    moves = rec["moves"]
    starts = [i + 1 for i, m in enumerate(moves) if m == "next"]
    start = starts[-1] if starts else 0
    g = replay(rec, upto=start)
    steps = [{"seat": None, "index": None, "move": "deal", "entries": [], **snapshot(g)}]
    for index, text in enumerate(moves[start:], start):
        seat = g.current
        first = len(g.log)
        g.play(text)
        # The move's log entries (its kind and facts, as the mover saw them: every hand of the
        # deal is shown by now), so the page tells the step from them.
        entries = [log_entry(e, seat, g, i) for i, e in enumerate(g.log[first:], first)]
        steps.append(
            {"seat": seat, "index": index, "move": text, "entries": entries, **snapshot(g)}
        )
    return {"deal": game.deal_no, "steps": steps, "result": game.deal_result}
