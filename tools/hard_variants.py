#!/usr/bin/env python3
"""Two configurations of ``hard`` played against each other on duplicate deals, on the same
time budget (issue 11: strength per second).

    python tools/hard_variants.py --a rounds=0.5 --deals 100 --seed 787 --budget 0.75 --clock cpu
    python tools/hard_variants.py --a rounds=0.5 --b rounds=1 --deals 400 --seed 9046 \\
        --budget 0.75 --clock cpu --jobs 2 --measure

``--a`` and ``--b`` are ``HardBot`` keyword arguments (``key=value[,key=value]``, as
``tools/hard_overrides.py`` takes them); ``--b`` defaults to the shipped ``hard``. Both play on
the same ``--budget`` (seconds per decision, on ``--clock``), so a configuration whose samples
are cheaper takes more of them: the result is what it plays for the same time. A side's own
``budget=`` replaces ``--budget`` for that side (``--a budget=0.375``: what half the time
costs). Prints the tournament's JSON (``py_engine.ai.tournament``; ``a`` is ``hard_a``, ``b`` is
``hard_b``) with the two configurations and every setting each side played with. ``--jobs``
plays deals in processes forked from this one (they inherit the two levels).

TUNING seeds by default: the reserved measurement seeds 9000-9099 are refused unless
``--measure`` is given, for the one check of a configuration chosen on tuning seeds
(docs/ai.md, "Tuning").
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hard_overrides import RESERVED, parse_variant  # noqa: E402

from py_engine.ai import register  # noqa: E402
from py_engine.ai.hard import HardBot  # noqa: E402
from py_engine.ai.tournament import tournament  # noqa: E402

# What the tournament gives every bot (``play_deal``) and a side may not set for itself (its
# ``budget`` replaces the command's).
_GIVEN = {"seed", "clock"}


def _defaults() -> dict:
    """``HardBot``'s settings and their shipped values (``seed`` and ``clock`` left out)."""
    return {k: p.default for k, p in inspect.signature(HardBot.__init__).parameters.items()
            if k not in {"self", "kw"} | _GIVEN}


def configuration(text: str) -> dict:
    """``"rounds=0.5,shortlist=2"`` -> ``HardBot`` keyword arguments; ``""`` -> none (the
    shipped ``hard``). A name ``HardBot`` does not take is refused."""
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
    """Every ``HardBot`` setting a side plays with (its own over the shipped defaults and the
    command's budget): what a saved result was measured with, whatever the defaults become."""
    return {**_defaults(), "budget": budget, **kw}


def variant_class(level: str, kw: dict) -> type:
    """A ``HardBot`` with the settings ``kw``, over what the tournament gives (it builds bots by
    level name)."""
    def __init__(self, seed: int = 0, **given):
        HardBot.__init__(self, seed=seed, **{**given, **kw})
    return type(f"HardBot_{level}", (HardBot,), {"level": level, "__init__": __init__})


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", required=True, help="HardBot settings of side a (key=value,...)")
    p.add_argument("--b", default="", help="side b's settings (default: the shipped hard)")
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--budget", type=float, required=True, help="seconds per decision, both sides")
    p.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--measure", action="store_true",
                   help="allow the reserved measurement seeds 9000-9099 (a final check only)")
    a = p.parse_args(argv)
    if a.seed in RESERVED and not a.measure:
        p.error(f"seed {a.seed} is reserved for measurement (9000-9099); --measure for the "
                "final check of a configuration chosen on tuning seeds")
    if a.deals < 1 or a.budget <= 0 or a.jobs < 1:
        p.error("--deals and --jobs must be at least 1, --budget above 0")
    try:
        sides = {"a": configuration(a.a), "b": configuration(a.b)}
    except ValueError as e:
        p.error(str(e))
    for name, kw in sides.items():
        register(f"hard_{name}", variant_class(f"hard_{name}", kw))
    out = tournament(a.rules, a.players, "hard_a", "hard_b", a.deals, a.seed, budget=a.budget,
                     jobs=a.jobs, clock=a.clock)
    out["configurations"] = sides
    out["settings"] = {name: settings(kw, a.budget) for name, kw in sides.items()}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
