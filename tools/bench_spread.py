#!/usr/bin/env python3
"""The long runs' speed-up on a Ray cluster: the same tournament in one process and on Ray, side
by side in one run.

    python tools/bench_spread.py [--deals 300] [--rounds 3] [--ray auto] [--a medium --b easy]
        [--rules samba --players 4] [--jobs 2]

It joins the cluster (``--ray auto``: this machine's, or a local one with all its cores) once,
and prints how long that took; then, round after round, it plays the same duplicate deals (the
same seed) in this process and on the cluster (the order alternating, so that both see the same
machine load), with ``--jobs N`` on a process pool too, prints each round's elapsed seconds and
the median of the ratios (one process / Ray: how many times faster), and checks that every run
gave the same summary (wins, points, intervals). Needs Ray (``pip install '.[cluster]'``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from py_engine import spread  # noqa: E402
from py_engine.ai.tournament import tournament  # noqa: E402

TIMING = ("seconds", "jobs", "ray", "decision_ms")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--ray", default="auto")
    p.add_argument("--jobs", type=int, default=1, help="also on a pool of this many processes")
    p.add_argument("--a", default="medium")
    p.add_argument("--b", default="easy")
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=31)
    a = p.parse_args(argv)
    t = time.perf_counter()
    try:
        ray = spread.connect(a.ray)
    except spread.SpreadError as e:
        p.error(str(e))
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(
        f"joined the cluster ({a.ray}, {cpus} CPUs) in {time.perf_counter() - t:.1f} s", flush=True
    )
    ways = {"one": {}, "ray": {"ray": a.ray}}
    if a.jobs > 1:
        ways["pool"] = {"jobs": a.jobs}
    secs: dict[str, list[float]] = {w: [] for w in ways}
    summaries = set()
    for i in range(a.rounds):
        order = list(ways) if i % 2 == 0 else list(reversed(ways))
        for w in order:
            t = time.perf_counter()
            r = tournament(a.rules, a.players, a.a, a.b, a.deals, a.seed, **ways[w])
            secs[w].append(time.perf_counter() - t)
            summaries.add(repr(sorted((k, v) for k, v in r.items() if k not in TIMING)))
        load = Path("/proc/loadavg")
        print(
            f"round {i + 1}: "
            + "  ".join(f"{w} {secs[w][-1]:6.1f} s" for w in ways)
            + (f"  (load {load.read_text().split()[0]})" if load.exists() else ""),
            flush=True,
        )
    print(
        f"\n{a.deals} duplicate deals of {a.a} against {a.b} ({a.rules} {a.players}), median of"
        f" {a.rounds} rounds, one process / other (higher is faster):"
    )
    for w in ways:
        if w != "one":
            ratio = statistics.median(o / x for o, x in zip(secs["one"], secs[w]))
            print(f"  {w:5s} x{ratio:.2f}")
    print(
        "the same summary every run"
        if len(summaries) == 1
        else f"SUMMARIES DIFFER: {len(summaries)} different"
    )
    ray.shutdown()
    return 0 if len(summaries) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
