"""Views for the page's logic tests (tests/js/*.test.mjs): seeded games of every offered rule
set, played by random and `medium` players, and the viewer's JSON view (docs/bridge.md) at
positions where the viewer acts, chosen so that every kind of move appears. Prints one JSON
list on stdout. The page's modules are tested on what the engine really sends, not on
hand-written views.

    python tests/js/engine_views.py [--per-kind 12]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from py_engine.ai import make_bot  # noqa: E402
from py_engine.ai.act import bot_move  # noqa: E402
from py_engine.simulate import random_move  # noqa: E402
from py_engine.state import Game  # noqa: E402
from py_engine.views import view_for  # noqa: E402

TABLES = (("samba", 4), ("samba", 2), ("dutch", 4), ("crawford", 6), ("bolivia", 4), ("canasta", 4))
LIVE = ("draw", "meld", "answer")


def verbs(view: dict) -> set[str]:
    """The kinds of the view's moves: their verbs, a whole pile taken onto a meld ("take m3")
    apart from a pile take with cards from the hand."""
    return {
        text
        if text.startswith("answer")
        else "take_onto"
        if text.startswith("take m")
        else text.split(" ")[0]
        for text in view["legal"]["targets"]["all"]
    }


def collect(per_kind: int) -> list[dict]:
    seen: dict[str, int] = {}
    out = []
    for rules, players in TABLES:
        for seed in range(3):
            for kind in ("random", "medium"):
                g = Game.new(rules, players, seed=900 + seed)
                rng = random.Random(seed)
                bots = [make_bot("medium", seed=s) for s in range(players)]
                while g.phase in LIVE:
                    view = view_for(g, g.current)
                    new = [v for v in verbs(view) if seen.get(v, 0) < per_kind]
                    if view["legal"] and new:
                        for v in verbs(view):
                            seen[v] = seen.get(v, 0) + 1
                        out.append(view)
                    move = (
                        random_move(g, rng)
                        if kind == "random"
                        else bot_move(bots[g.current], g, g.current)
                    )
                    g.play(move)
                if g.phase == "deal_over":  # the next deal's word
                    view = view_for(g, g.current)
                    if view["legal"] and seen.get("next", 0) < per_kind:
                        seen["next"] = seen.get("next", 0) + 1
                        out.append(view)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-kind", type=int, default=12)
    views = collect(ap.parse_args().per_kind)
    json.dump(views, sys.stdout, ensure_ascii=False)
