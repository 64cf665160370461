"""How much can ``hard``'s search gain over ``medium``, decision by decision?

    python -m research.hard_gain --rules samba --players 4 --deals 12 --every 2 --truth 200 \\
        --jobs 2 --variant '{"iterations": 60}' --variant '{"iterations": 40, "rounds": 1000}'

1. Positions: ``medium`` plays every seat of ``--deals`` deals; every ``--every``-th decision
   where ``hard`` (shortlist 3, meld-or-keep searched too) would search is kept, as the moves
   that lead there with its candidate moves.
2. Reference values: each candidate is played in ``--truth`` determinizations of the seat's
   observation and
   the deal is played out to its end by ``medium`` at every seat (common random numbers); the
   mean deal-score margin is the candidate's value under ``medium``'s continuation.
3. ``oracle``: per kind of decision, how much the best candidate's reference value exceeds that
   of ``medium``'s own choice (an upper bound on what a one-move search over ``medium`` can gain,
   biased upwards by the reference values' own noise).
4. Each ``--variant`` (``StudyHard`` keyword arguments, ``research/study_hard.py``; use
   ``iterations`` to make it reproducible) chooses at every position with its own seed; its ``gain`` is the mean
   reference value of its choice minus that of ``medium``'s choice, with a standard error, and
   ``by_confidence`` gives the same for other overruling thresholds (standard errors).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from py_engine.ai.act import bot_move
from py_engine.ai.hard import HardBot
from py_engine.ai.medium import MediumBot
from py_engine.legal import legal_moves
from py_engine.moves import Move
from py_engine.observation import Observation
from py_engine.spread import run
from py_engine.state import Game
from research.study_hard import StudyHard


def positions(rules: str, players: int, deals: int, every: int, seed: int) -> list:
    """(the position as (rules, players, deal seed, the moves' texts before it), its candidate
    moves' texts) of every ``every``-th searched decision: texts, so that the positions go to
    other processes as they are (``spread.run``)."""
    out = []
    probe = StudyHard(seed=0, iterations=1, shortlist=3, hold=True)
    for d in range(deals):
        g = Game.new(rules, players, seed=seed * 1000 + d)
        bots = [MediumBot(seed=s) for s in range(players)]
        k = 0
        while g.phase not in ("deal_over", "game_over"):
            cands = probe.searched(Observation.for_seat(g, g.current), legal_moves(g))
            if len(cands) >= 2:
                k += 1
                if k % every == 0:
                    spot = (rules, players, seed * 1000 + d, list(g.moves))
                    out.append((spot, [m.text() for m in cands]))
            g.play(bot_move(bots[g.current], g, g.current))
    return out


def _at(spot: tuple) -> tuple[Observation, list[Move]]:
    """The seat to act's observation and legal moves at a position of ``positions``."""
    rules, players, seed, moves = spot
    g = Game.new(rules, players, seed=seed)
    for t in moves:
        g.play(t)
    return Observation.for_seat(g, g.current), list(legal_moves(g))


def reference(args: tuple) -> dict:
    spot, cands, n = args
    obs, legal = _at(spot)
    by_text = {m.text(): m for m in legal}
    h = HardBot(seed=999, iterations=n, rounds=1000, fast=False)
    h.search(obs, legal, [by_text[t] for t in cands])
    return {m.text(): v for m, v in h.last_stats["means"].items()}


def choose(args: tuple) -> tuple:
    spot, kw = args
    obs, legal = _at(spot)
    h = StudyHard(seed=7, **kw)
    cands = h.searched(obs, legal)
    t = time.perf_counter()
    choice = cands[0] if len(cands) < 2 else h.search(obs, legal, cands)
    stats = h.last_stats if len(cands) >= 2 else {}
    return (
        choice.text(),
        time.perf_counter() - t,
        stats.get("samples", 0),
        {m.text(): g for m, g in stats.get("gains", {}).items()},
        h.confidence,
    )


def kind_of(cands: list[str]) -> str:
    return "meld_or_keep" if cands[0].startswith("meld") else cands[0].split()[0]


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = (sum((x - m) ** 2 for x in xs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    return round(m, 1), round(sd / n**0.5, 1)


def study(
    rules: str,
    players: int,
    deals: int,
    every: int,
    truth: int,
    variants: list[dict],
    seed: int = 3,
    jobs: int = 1,
) -> dict:
    pos = positions(rules, players, deals, every, seed)
    if not pos:
        raise SystemExit("no searched decision in these deals; play more deals")
    ref = run(reference, [(v, c, truth) for v, c in pos], jobs)
    oracle: dict[str, list[float]] = {}
    for (_v, c), r in zip(pos, ref):
        oracle.setdefault(kind_of(c), []).append(max(r.values()) - r[c[0]])
    out: dict[str, Any] = {
        "rules": rules,
        "players": players,
        "deals": deals,
        "positions": len(pos),
        "truth_samples": truth,
        "oracle": {k: {"n": len(g), "mean": mean_se(g)[0]} for k, g in sorted(oracle.items())},
        "variants": [],
    }
    for kw in variants:
        res = run(choose, [(v, kw) for v, _ in pos], jobs)
        gains, switched, secs, samples = [], 0, 0.0, 0
        by_z: dict[float, list[float]] = {z: [] for z in (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)}
        for (_v, c), r, (ch, dt, n, gs, conf) in zip(pos, ref, res):
            secs += dt
            samples += n
            gains.append(r.get(ch, r[c[0]]) - r[c[0]])
            switched += ch != c[0]
            for z, acc in by_z.items():
                best, bg = c[0], 0.0
                for mv, (mean, lower) in gs.items():
                    se = (mean - lower) / conf if conf else 0.0
                    if n >= 8 and mean - z * se > 0 and mean > bg:
                        best, bg = mv, mean
                acc.append(r.get(best, r[c[0]]) - r[c[0]])
        g, se = mean_se(gains)
        out["variants"].append(
            {
                "kw": kw,
                "gain": g,
                "se": se,
                "switched": switched,
                "seconds_per_decision": round(secs / len(pos), 3),
                "samples_per_decision": round(samples / len(pos), 1),
                "by_confidence": {str(z): mean_se(acc)[0] for z, acc in by_z.items()},
            }
        )
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m research.hard_gain")
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=12)
    p.add_argument("--every", type=int, default=2)
    p.add_argument("--truth", type=int, default=200)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--variant", action="append", default=[])
    a = p.parse_args(argv)
    try:
        variants = [json.loads(s) for s in a.variant]
    except ValueError as e:
        raise SystemExit(f"--variant must be a JSON object of HardBot arguments: {e}") from e
    if not all(isinstance(k, dict) for k in variants):
        raise SystemExit("--variant must be a JSON object of HardBot arguments")
    print(
        json.dumps(
            study(a.rules, a.players, a.deals, a.every, a.truth, variants, a.seed, max(1, a.jobs)),
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
