#!/usr/bin/env python3
"""Variants of ``medium`` played against it on duplicate deals (issue 15: what the share of
decided deals measures).

    python tools/medium_variants.py --variant shed --rules samba --players 4 --deals 400 --seed 780
    python tools/medium_variants.py --variant endgame --deals 400 --seed 782

prints the tournament's JSON (``py_engine.ai.tournament``), with the deals decided by a few
points counted apart (``a_won_small``, ``b_won_small``). The variants (study levels, never
offered to players):

- ``shed``: ``medium`` that, while an opponent side can go out, sheds high cards four times as
  hard (``value_shed`` x4). It keeps fewer points in hand when the deal ends, so it wins many
  deals by 5 or 10 points, and loses others by more.
- ``endgame``: ``medium`` with ``hard``'s exact going-out turn (``ai.endgame``).

TUNING seeds only: the reserved measurement seeds 9000-9099 are refused.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hard_overrides import RESERVED  # noqa: E402

from py_engine.ai import register  # noqa: E402
from py_engine.ai.endgame import best_going_out  # noqa: E402
from py_engine.ai.medium import Info, MediumBot  # noqa: E402
from py_engine.ai.tournament import tournament  # noqa: E402


class ShedBot(MediumBot):
    """``medium``, shedding high cards harder while an opponent side can go out."""
    level = "medium_shed"
    FACTOR = 4.0

    def scored_moves(self, view: dict) -> list[tuple[float, str]]:
        base = self.w
        if Info(view).opponents_can_out():
            self.w = dict(base, value_shed=base["value_shed"] * self.FACTOR)
        try:
            return super().scored_moves(view)
        finally:
            self.w = base


class DumpBot(MediumBot):
    """``medium`` that, when the deal looks about to end by an opponent's going out (its side
    can go out and one of its players holds at most ``CARDS`` cards), lays everything it can
    (wild cards too, no natural pair kept for the pile) and sheds high cards ``FACTOR`` times
    as hard."""
    level = "medium_dump"
    FACTOR = 4.0
    CARDS = 3

    def imminent(self, info: Info) -> bool:
        sizes = info.view["hand_sizes"]
        return any(c >= info.req and any(sizes[p] <= self.CARDS for p in range(info.n)
                                         if info.side_of[p] == s)
                   for s, c in enumerate(info.canastas) if s != info.side)

    def scored_moves(self, view: dict) -> list[tuple[float, str]]:
        base = self.w
        self._dump = self.imminent(Info(view))
        if self._dump:
            self.w = dict(base, value_shed=base["value_shed"] * self.FACTOR, keep_pair_pile=999)
        try:
            return super().scored_moves(view)
        finally:
            self.w = base

    def meld_score(self, info: Info, text: str) -> float:
        if getattr(self, "_dump", False) and not info.can_out:
            info.want_out = True        # lay wild cards as if going out
            try:
                return super().meld_score(info, text)
            finally:
                info.want_out = None
        return super().meld_score(info, text)


class DumpAnyBot(DumpBot):
    """``DumpBot`` whenever an opponent side can go out (any hand size)."""
    level = "medium_dumpany"
    CARDS = 99


class EndgameBot(MediumBot):
    """``medium`` with ``hard``'s exact going-out turn."""
    level = "medium_endgame"

    def __init__(self, seed: int = 0, **kw):
        super().__init__(seed=seed, **kw)
        self.plain = MediumBot(seed=seed)

    def choose(self, view: dict) -> str:
        return best_going_out(view, self.plain) or super().choose(view)


VARIANTS = {"shed": ShedBot, "endgame": EndgameBot, "dump": DumpBot, "dumpany": DumpAnyBot}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", choices=sorted(VARIANTS), required=True)
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--jobs", type=int, default=1)
    a = p.parse_args(argv)
    if a.seed in RESERVED:
        p.error(f"seed {a.seed} is reserved for measurement (9000-9099)")
    cls = VARIANTS[a.variant]
    register(cls.level, cls)
    out = tournament(a.rules, a.players, cls.level, "medium", a.deals, a.seed, jobs=a.jobs)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
