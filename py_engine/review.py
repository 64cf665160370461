"""After a deal: all hands and a step-by-step replay, so a player can check that nobody cheated."""
from __future__ import annotations

from .cards import id_text
from .record import game_record, replay
from .state import Game
from .views import sorted_hand


def snapshot(g: Game) -> dict:
    return {"hands": [[id_text(c) for c in sorted_hand(h)] for h in g.hands],
            "pile": [id_text(c) for c in g.pile], "stock": len(g.stock),
            "melds": [[[id_text(c) for c in m.cards] for m in side] for side in g.melds],
            "red_threes": [[id_text(c) for c in s] for s in g.red3]}


def deal_review(game: Game) -> dict:
    """The finished deal of ``game`` replayed from its record: the position after the deal and
    after every move of it."""
    rec = game_record(game)
    moves = rec["moves"]
    starts = [i + 1 for i, m in enumerate(moves) if m == "next"]
    start = starts[-1] if starts else 0
    g = replay(rec, upto=start)
    steps = [{"seat": None, "move": "deal", **snapshot(g)}]
    for text in moves[start:]:
        seat = g.current
        g.play(text)
        steps.append({"seat": seat, "move": text, **snapshot(g)})
    return {"deal": game.deal_no, "steps": steps, "result": game.deal_result}
