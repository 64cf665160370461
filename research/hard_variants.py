"""Two configurations of ``hard`` played against each other on duplicate deals, on the same
time budget (issue 11: strength per second).

    python -m research.hard_variants --a rounds=0.5 --deals 100 --seed 787 --budget 0.75 --clock cpu
    python -m research.hard_variants --a rounds=0.5 --b rounds=1 --deals 400 --seed 9046 \\
        --budget 0.75 --clock cpu --jobs 2 --measure

``--a`` and ``--b`` are ``StudyHard`` settings (``research/study_hard.py``;
``key=value[,key=value]``, as ``research/hard_overrides.py`` takes them); ``--b`` defaults to the shipped ``hard``. Both play on
the same ``--budget`` (seconds per decision, on ``--clock``), so a configuration whose samples
are cheaper takes more of them: the result is what it plays for the same time. A side's own
``budget=`` replaces ``--budget`` for that side (``--a budget=0.375``: what half the time
costs). Prints the tournament's JSON (``py_engine.ai.tournament``; ``a`` is ``hard_a``, ``b`` is
``hard_b``) with the two configurations and every setting each side played with. ``--jobs``
plays deals in processes, ``--ray`` on a Ray cluster (``py_engine/spread.py``).

TUNING seeds by default: the reserved measurement seeds 9000-9099 are refused unless
``--measure`` is given, for the one check of a configuration chosen on tuning seeds
(docs/ai.md, "Tuning").
"""

from __future__ import annotations

import argparse
import json
from dataclasses import fields

from py_engine.ai.tournament import Player, tournament  # noqa: E402
from py_engine.cli import spread_options  # noqa: E402
from py_engine.spread import SpreadError  # noqa: E402
from research.hard_overrides import parse_variant, refuse_reserved  # noqa: E402
from research.study_hard import StudyConfig, StudyHard  # noqa: E402

# What the tournament gives every bot (``play_deal``) and a side may not set for itself (its
# ``budget`` replaces the command's).
_GIVEN = {"seed", "clock"}


def _defaults() -> dict:
    """``StudyHard``'s settings and their shipped values (``clock`` left out)."""
    return {f.name: f.default for f in fields(StudyConfig) if f.name not in _GIVEN}


def configuration(text: str) -> dict:
    """``"rounds=0.5,shortlist=2"`` -> ``StudyHard`` keyword arguments; ``""`` -> none (the
    shipped ``hard``). A name ``StudyHard`` does not take is refused."""
    if not text.strip():
        return {}
    _, kw = parse_variant(text)
    known = _defaults()
    for k in kw:
        if k in _GIVEN:
            raise ValueError(f"{k!r} is the same for both sides (the command's --{k})")
        if k not in known:
            raise ValueError(f"hard has no setting {k!r}; one of {', '.join(sorted(known))}")
    return kw


def settings(kw: dict, budget: float) -> dict:
    """Every ``StudyHard`` setting a side plays with (its own over the shipped defaults and the
    command's budget): what a saved result was measured with, whatever the defaults become."""
    return {**_defaults(), "budget": budget, **kw}


def variant(name: str, kw: dict) -> Player:
    """The tournament's player ``name``: ``StudyHard`` with the settings ``kw`` over what the
    tournament gives (its budget and clock; a side's own ``budget`` wins)."""
    return Player(name, StudyHard, dict(kw))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--a", required=True, help="StudyHard settings of side a (key=value,...)")
    p.add_argument("--b", default="", help="side b's settings (default: the shipped hard)")
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--budget", type=float, required=True, help="seconds per decision, both sides")
    p.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    spread_options(p)
    p.add_argument(
        "--measure",
        action="store_true",
        help="allow the reserved measurement seeds 9000-9099 (a final check only)",
    )
    a = p.parse_args(argv)
    refuse_reserved(p, a.seed, a.measure)
    if a.deals < 1 or a.budget <= 0 or a.jobs < 1:
        p.error("--deals and --jobs must be at least 1, --budget above 0")
    try:
        sides = {"a": configuration(a.a), "b": configuration(a.b)}
    except ValueError as e:
        p.error(str(e))
    try:
        out = tournament(
            a.rules,
            a.players,
            variant("hard_a", sides["a"]),
            variant("hard_b", sides["b"]),
            a.deals,
            a.seed,
            budget=a.budget,
            jobs=a.jobs,
            clock=a.clock,
            ray=a.ray,
            progress=True,
        )
    except SpreadError as e:  # (before any deal: no Ray, no cluster there)
        p.error(str(e))
    out["configurations"] = sides
    out["settings"] = {name: settings(kw, a.budget) for name, kw in sides.items()}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
