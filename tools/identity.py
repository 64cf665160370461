#!/usr/bin/env python3
"""Fingerprints of what the engine and its computer players do, to show that a speed change
changed nothing else.

    python tools/identity.py [--deals 4] [--hard 6] [--only moves,views,medium,hard]

For each offered table (every rule set at 4 players, samba 2 and 3, dutch and crawford 6) it
plays seeded deals by random players and by ``medium`` players, and hashes, in order:
- ``moves``: the texts of ``legal_moves`` at every position (in the engine's order);
- ``views``: every seat's ``view_for`` (JSON with sorted keys) at every position;
- ``medium``: every ``medium`` decision;
- ``hard``: ``hard``'s decision with a fixed number of samples (``iterations``, no clock) at a few
  positions of each table where it searches, with its samples and each candidate's mean sample
  value (to 6 decimals): a change to the rollouts that leaves those decisions alone still shows.
It prints one JSON line: counts and one SHA-256 per fingerprint. Run it before and after a
change (the same arguments) and compare the lines: equal hashes mean the same behaviour on
those games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from py_engine.ai import make_bot  # noqa: E402
from py_engine.ai.act import bot_move  # noqa: E402
from py_engine.ai.hard import HardBot  # noqa: E402
from py_engine.legal import legal_moves  # noqa: E402
from py_engine.rules import PRESETS  # noqa: E402
from py_engine.simulate import random_move  # noqa: E402
from py_engine.state import Game  # noqa: E402
from py_engine.views import view_for  # noqa: E402

LIVE = ("draw", "meld", "answer")


def tables() -> list[tuple[str, int]]:
    out = [(name, 4) for name in PRESETS]
    out += [("samba", 2), ("samba", 3), ("dutch", 6), ("crawford", 6)]
    return out


class Prints:
    def __init__(self, only: set[str]):
        self.only = only
        self.h = {k: hashlib.sha256() for k in ("moves", "views", "medium", "hard")}
        self.n = dict.fromkeys(self.h, 0)

    def add(self, kind: str, value) -> None:
        self.h[kind].update(json.dumps(value, sort_keys=True, default=str).encode() + b"\n")
        self.n[kind] += 1

    def position(self, g: Game) -> None:
        if "moves" in self.only:
            self.add("moves", [m.text() for m in legal_moves(g)])
        if "views" in self.only:
            for seat in range(g.players):
                self.add("views", view_for(g, seat))


def play(p: Prints, rules: str, players: int, seed: int, kind: str) -> None:
    g = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    while g.phase in LIVE:
        p.position(g)
        if kind == "random":
            move = random_move(g, rng)
        else:
            move = bot_move(bots[g.current], g, g.current).text()
            if "medium" in p.only:
                p.add("medium", move)
        g.play(move)


def hard_decisions(p: Prints, rules: str, players: int, seed: int, count: int) -> None:
    """``hard``'s choice at the first ``count`` meld-phase decisions of a medium game where it
    has at least two candidates (every seventh decision, from the seventh on)."""
    g = Game.new(rules, players, seed=seed)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    done = step = 0
    while g.phase in LIVE and done < count:
        move = bot_move(bots[g.current], g, g.current)
        if g.phase == "meld" and step >= 7 and step % 7 == 0:
            bot = HardBot(seed=seed + step, iterations=8)
            choice = bot_move(bot, g, g.current).text()
            stats = bot.last_stats
            means = {m.text(): round(v, 6) for m, v in (stats.get("means") or {}).items()}
            p.add("hard", [step, choice, stats.get("samples"), means])
            done += 1
        g.play(move)
        step += 1


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4, help="deals per table and player kind")
    ap.add_argument("--hard", type=int, default=6, help="hard decisions per table")
    ap.add_argument("--only", default="moves,views,medium,hard")
    a = ap.parse_args(argv)
    only = set(a.only.split(","))
    p = Prints(only)
    for rules, players in tables():
        for i in range(a.deals):
            for kind in ("random", "medium"):
                play(p, rules, players, 7000 + i, kind)
        if "hard" in only:
            hard_decisions(p, rules, players, 7100, a.hard)
    print(
        json.dumps({k: {"count": p.n[k], "sha256": p.h[k].hexdigest()[:16]} for k in sorted(only)})
    )


if __name__ == "__main__":
    main(sys.argv[1:])
