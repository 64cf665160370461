#!/usr/bin/env python3
"""The engine benchmark: this tree against a pinned revision, side by side in one run.

    python tools/bench_engine.py [--base 4572f22] [--rounds 5] [--pyodide] [--instructions]

It checks the base revision out in a temporary git worktree and runs the same workloads
(tools/engine_workload.py) against both engines in alternating subprocesses, round after round,
so that both see the same machine load. It prints each round's figures and the median ratio
(this tree / base) of:
- random play: moves per second (samba 4, the same seeded games in both engines);
- medium: seconds per deal of four ``medium`` players (base / this tree: how much faster);
- hard: ``hard``'s samples per second (12 samples at each of the same positions);
and with ``--pyodide`` the same random-play and medium workloads of this tree inside Pyodide under
Node against CPython (how much slower Pyodide is; the target is at most 2), both sides timed by
CPU time (``--pyodide-clock cpu``, the default: CPython's process time against the Node process's
``process.cpuUsage()``, which counts every thread of Node, its compiler's and garbage collector's
too) or by elapsed time (``--pyodide-clock wall``).

``--instructions`` counts instead the instructions each engine executes for a smaller run of
each workload (``valgrind --tool=callgrind``, minus the same command's start-up with no
repetitions; for ``hard``, minus the same positions' set-up with no search, so that it counts
the searches alone, as the timed comparison does): that figure does not depend on what else
the machine runs, so it tells apart changes of a few per cent that CPU times on a loaded
machine cannot (it is no time, though: memory and cache effects count for nothing).

The engines are compared by CPU time (``engine_workload.py --clock cpu``): on a machine that
others load, elapsed times swing by a factor of two from one run to the next while CPU times
barely move. Inside Pyodide Python has no process clock: the Node process's CPU time stands in
for it (or elapsed time on both sides, ``--pyodide-clock wall``). The Pyodide comparison runs each
workload once untimed before the timed run on both sides (Node compiles Pyodide's WebAssembly in
tiers: without it, a workload of half a second partly measures that warm-up).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOAD = ROOT / "tools" / "engine_workload.py"
BASE = "4572f22"  # the engine at the time of issue 11
REPS = {"random": 12, "medium": 6, "hard": 5}
IREPS = {"random": 6, "medium": 4, "hard": 2}  # under callgrind (about 50 times slower)
# The Pyodide comparison's runs: four times the engine comparison's, so that a run (CPython:
# random play about 0.4 s, medium 0.2 s) measures the steady state rather than Node's compiler
# threads, which its CPU clock counts.
PYODIDE_REPS = {"random": 48, "medium": 24}


def run(
    tree: Path,
    workload: str,
    reps: int,
    rules: str = "samba",
    players: int = 4,
    clock: str = "cpu",
    warm: bool = False,
) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run(
        [
            sys.executable,
            str(WORKLOAD),
            workload,
            str(reps),
            "--rules",
            rules,
            "--players",
            str(players),
            "--clock",
            clock,
        ]
        + (["--warm"] if warm else []),
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def callgrind(tree: Path, script: Path, args: list[str]) -> int:
    """Instructions executed by ``python script args`` with ``tree``'s engine (callgrind)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            str(script),
            *args,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")


def instructions(tree: Path, workload: str, reps: int) -> int:
    """Instructions executed by ``reps`` repetitions of ``workload`` (callgrind), start-up
    (the same command with 0 repetitions) subtracted; for ``hard``, what its positions cost
    (finding them by ``medium`` self-play, the views, the shortlists: ``hard-setup``) too, so
    that the count is the searches' own."""

    def count(n: int, name: str = workload) -> int:
        return callgrind(tree, WORKLOAD, [name, str(n)])

    if workload == "hard":
        return count(reps) - count(reps, "hard-setup")
    return count(reps) - count(0)


def rate(workload: str, r: dict) -> float:
    """Higher is better: moves/s, deals/s, samples/s."""
    key = {"random": "moves", "medium": "deals", "hard": "samples"}[workload]
    return r[key] / r["seconds"]


def pyodide_dir() -> Path | None:
    for cand in (
        ROOT / "node_modules" / "pyodide",
        *sorted((ROOT / ".cache").glob("pyodide-*/package")),
    ):
        if (cand / "pyodide.mjs").exists():
            return cand
    return None


def run_pyodide(workload: str, reps: int, clock: str = "cpu") -> dict:
    pkg = pyodide_dir()
    if pkg is None:
        raise SystemExit("no Pyodide runtime found: run `python build.py` first")
    script = ROOT / "tools" / "pyodide_workload.mjs"
    out = subprocess.run(
        ["node", str(script), str(pkg), str(ROOT), workload, str(reps), "warm"]
        + (["cpu"] if clock == "cpu" else []),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", default=BASE)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--pyodide", action="store_true")
    p.add_argument(
        "--pyodide-clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="how the Pyodide comparison times both sides (default: CPU time)",
    )
    p.add_argument("--only", choices=sorted(REPS), action="append")
    p.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions executed (valgrind) instead of timing",
    )
    a = p.parse_args(argv)
    workloads = a.only or list(REPS)
    if a.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="samba-base-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), a.base],
            check=True,
        )
        try:
            if a.instructions:
                print(
                    f"instructions executed (callgrind, start-up subtracted), {a.base} / this"
                    " tree (higher is less work):"
                )
                for w in workloads:
                    got = {
                        name: instructions(tree, w, IREPS[w])
                        for tree, name in ((base, "base"), (ROOT, "this"))
                    }
                    print(
                        f"  {w:7s} x{IREPS[w]}  base {got['base'] / 1e6:8.1f}M  this "
                        f"{got['this'] / 1e6:8.1f}M  x{got['base'] / got['this']:.2f}",
                        flush=True,
                    )
                return 0
            ratios: dict[str, list[float]] = {w: [] for w in workloads}
            for i in range(a.rounds):
                for w in workloads:
                    # alternate which engine goes first
                    order = [(base, "base"), (ROOT, "this")][:: 1 if i % 2 == 0 else -1]
                    got = {name: rate(w, run(tree, w, REPS[w])) for tree, name in order}
                    ratios[w].append(got["this"] / got["base"])
                    print(
                        f"round {i + 1} {w:7s} base {got['base']:9.1f}/s  this {got['this']:9.1f}/s"
                        f"  ratio {ratios[w][-1]:5.2f}",
                        flush=True,
                    )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False
            )
    print(f"\nthis tree against {a.base} (median of {a.rounds} rounds, higher is faster):")
    names = {
        "random": "random play, moves per second",
        "medium": "medium deals per second",
        "hard": "hard samples per second",
    }
    for w in workloads:
        print(f"  {names[w]:32s} x{statistics.median(ratios[w]):.2f}")
    if a.pyodide:
        slow = []
        ck = a.pyodide_clock
        for i in range(a.rounds):
            for w in ("random", "medium"):
                # alternate which goes first
                order = ("cpython", "pyodide") if i % 2 == 0 else ("pyodide", "cpython")
                got = {}
                for name in order:
                    n = PYODIDE_REPS[w]
                    got[name] = rate(
                        w,
                        run(ROOT, w, n, clock=ck, warm=True)
                        if name == "cpython"
                        else run_pyodide(w, n, ck),
                    )
                cp, py = got["cpython"], got["pyodide"]
                slow.append(cp / py)
                print(
                    f"round {i + 1} {w:7s} cpython {cp:9.1f}/s  pyodide {py:9.1f}/s"
                    f"  slower x{cp / py:.2f}  ({ck} time)",
                    flush=True,
                )
        print(
            f"  Pyodide (Node) slower than CPython, median ({ck} time):"
            f" x{statistics.median(slow):.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
