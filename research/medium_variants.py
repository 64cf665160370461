"""Variants of ``medium`` played against it on duplicate deals (issue 15: what the share of
decided deals measures).

    python -m research.medium_variants --variant shed --rules samba --players 4 --deals 400 \
        --seed 780
    python -m research.medium_variants --variant endgame --deals 400 --seed 782
    python -m research.medium_variants --variant dump --set CARDS=2 --deals 800 --seed 784

prints the tournament's JSON (``py_engine.ai.tournament``), with the deals decided by a few
points counted apart (``a_won_small``, ``b_won_small``). The variants (study levels, never
offered to players):

- ``shed``: ``medium`` that, while an opponent side can go out, sheds high cards four times as
  hard (``value_shed`` x4). It keeps fewer points in hand when the deal ends, so it wins many
  deals by 5 or 10 points, and loses others by more.
- ``endgame``: ``medium`` with ``hard``'s exact going-out turn (``ai.endgame``).
- ``dump``: ``medium`` with ``hard``'s last-turn habit (``ai.lastturn``: when an opponent side
  can go out and one of its players holds at most ``CARDS`` cards, lay everything, shed high
  cards ``SHED`` times as hard); ``dumpany``: the same whenever an opponent side can go out.

TUNING seeds only: the reserved measurement seeds 9000-9099 are refused.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from py_engine.ai.endgame import best_going_out  # noqa: E402
from py_engine.ai.info import Info  # noqa: E402
from py_engine.ai.lastturn import LastTurnMedium  # noqa: E402
from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.ai.tournament import Player, tournament  # noqa: E402
from py_engine.cli import spread_options  # noqa: E402
from py_engine.moves import Move  # noqa: E402
from py_engine.observation import Observation  # noqa: E402
from py_engine.spread import SpreadError  # noqa: E402
from research.hard_overrides import RESERVED  # noqa: E402


class ShedBot(MediumBot):
    """``medium``, shedding high cards harder while an opponent side can go out."""

    level = "medium_shed"
    FACTOR = 4.0

    def scored(self, info: Info, moves: Sequence[Move]) -> list[tuple[float, Move]]:
        base = self.w
        if info.opponents_can_out():
            self.w = dict(base, value_shed=base["value_shed"] * self.FACTOR)
        try:
            return super().scored(info, moves)
        finally:
            self.w = base


class DumpBot(LastTurnMedium):
    """``hard``'s last-turn habit on ``medium`` (``ai.lastturn``); ``--set CARDS=3 --set
    SHED=8`` for its settings."""

    level = "medium_dump"


class DumpAnyBot(DumpBot):
    """The habit whenever an opponent side can go out (any hand size)."""

    level = "medium_dumpany"
    CARDS = 99


class DumpPartnerBot(DumpBot):
    """The habit also when the own side can go out and a partner holds at most ``CARDS``
    cards (the partner may end the deal next)."""

    level = "medium_dumppartner"

    def about_to_end(self, info: Info) -> bool:
        sizes = info.hand_sizes
        return super().about_to_end(info) or (
            info.can_out and any(sizes[p] <= self.CARDS for p in info.partners)
        )


class EndgameBot(MediumBot):
    """``medium`` with ``hard``'s exact going-out turn."""

    level = "medium_endgame"

    def __init__(self, seed: int = 0, **kw):
        super().__init__(seed=seed, **kw)
        self.plain = MediumBot(seed=seed)

    def decide(self, obs: Observation, legal: list[Move]) -> Move:
        return best_going_out(obs, legal, self.plain) or super().decide(obs, legal)


VARIANTS = {
    "shed": ShedBot,
    "endgame": EndgameBot,
    "dump": DumpBot,
    "dumpany": DumpAnyBot,
    "dumppartner": DumpPartnerBot,
}
_BUILT: dict[tuple, type] = {}


def build(seed: int, variant: str, attrs: dict[str, float], **given):
    """The variant ``variant`` with its class settings ``attrs`` (``--set``), as the tournament
    builds its players (by a function it can send to other processes: the class with the
    settings is made where the deal is played)."""
    key = (variant, tuple(sorted(attrs.items())))
    if key not in _BUILT:
        base = VARIANTS[variant]
        _BUILT[key] = type(base.__name__, (base,), dict(attrs)) if attrs else base
    return _BUILT[key](seed=seed, **given)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--variant", choices=sorted(VARIANTS), required=True)
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, required=True)
    spread_options(p)
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=NUMBER",
        help="a class setting of the variant (e.g. CARDS=2 SHED=8)",
    )
    a = p.parse_args(argv)
    if a.seed in RESERVED:
        p.error(f"seed {a.seed} is reserved for measurement (9000-9099)")
    cls = VARIANTS[a.variant]
    attrs: dict[str, float] = {}
    if a.set:
        for item in a.set:
            name, _, value = item.partition("=")
            if not name.isupper() or not hasattr(cls, name):
                p.error(f"{a.variant} has no setting {name!r}")
            try:
                attrs[name] = float(value)
            except ValueError:
                p.error(f"{item!r}: a number is needed")
    try:
        out = tournament(
            a.rules,
            a.players,
            Player(cls.level, build, {"variant": a.variant, "attrs": attrs}),
            "medium",
            a.deals,
            a.seed,
            jobs=a.jobs,
            ray=a.ray,
            progress=True,
        )
    except SpreadError as e:  # (before any deal: no Ray, no cluster there)
        p.error(str(e))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
