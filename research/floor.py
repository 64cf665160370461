"""How fast each benchmark workload could get if choosing moves cost nothing (issue 11).

    python -m research.floor [--base 4572f22] [--only random|medium|hard]

For each workload of tools/bench_engine.py it counts, with callgrind, the instructions of
- the pinned revision's workload (``base``) and this tree's (``this``), as
  ``bench_engine.py --instructions`` does;
- this tree's **floor**: the same games with every decision replayed from a record instead of
  made: random play without ``random_move``; ``medium`` deals with the views still built
  (``floor``) and without them too (``play``); ``hard``'s searches with every rollout move
  replayed (the determinizations, the copies, the candidate moves, ``play`` and the leaf
  estimate stay).

A replayed meld move is marked as generated at its position, as the generator marks it, so
``play`` trusts it as in the workload; the other moves are verified, as most of them are in the
workload too (a floor a little above the true one, if anything). ``base / floor`` is the
largest ratio ``bench_engine.py`` could print by making the choosing cheaper alone.

A run: ``floor.py --count W N MODE`` (MODE ``record``: the workload, its moves recorded;
``replay``: the same, then the recorded moves replayed; ``replay-play``: ``medium`` only, the
moves replayed without views), counted as ``replay`` minus ``record``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from tools import (
    bench_engine,
    engine_workload,
)


def _replay(g, moves) -> int:
    """Play ``moves`` (``Move`` objects) on ``g``, each meld move marked as generated at its
    position first (what the generator does); returns how many."""
    from py_engine.moves import Meld

    for mv in moves:
        if type(mv) is Meld:
            g.generation()[mv] = None
        g.play(mv)
    return len(moves)


def random_floor(reps: int, mode: str) -> int:
    """The random-play workload's games, recorded, and with ``mode="replay"`` replayed;
    returns the moves replayed (each floor function alike)."""
    from py_engine.simulate import random_move
    from py_engine.state import Game

    record = []
    for i in range(reps):  # engine_workload.random_play's games
        g = Game.new("samba", 4, seed=1000 + i)
        rng = random.Random(i)
        moves = []
        while g.phase in ("draw", "meld", "answer"):
            mv = random_move(g, rng)
            moves.append(mv)
            g.play(mv)
        record.append((moves, g.history))
    done = 0
    if mode == "replay":
        for i, (moves, history) in enumerate(record):
            g = Game.new("samba", 4, seed=1000 + i)
            done += _replay(g, moves)
            assert g.history == history, "the replay left the recorded game"
    return done


def medium_floor(reps: int, mode: str) -> int:
    from py_engine.ai import make_bot
    from py_engine.ai.act import bot_move
    from py_engine.state import Game
    from py_engine.views import view_for

    record = []
    for i in range(reps):  # engine_workload.medium_deals's games
        g = Game.new("samba", 4, seed=2000 + i)
        bots = [make_bot("medium", seed=s) for s in range(4)]
        texts = []
        while g.phase in ("draw", "meld", "answer"):
            t = bot_move(bots[g.current], g, g.current).text()
            texts.append(t)
            g.play(t)
        record.append((texts, g.history))
    done = 0
    if mode.startswith("replay"):
        views = mode == "replay"
        for i, (texts, history) in enumerate(record):
            g = Game.new("samba", 4, seed=2000 + i)
            for t in texts:
                if views:
                    view_for(g, g.current)
                g.play(t)
            done += len(texts)
            assert g.history == history, "the replay left the recorded game"
    return done


def hard_floor(reps: int, mode: str) -> int:
    from py_engine.ai.hard import HardBot
    from py_engine.legal import legal_moves
    from py_engine.observation import Observation
    from py_engine.state import Game

    class Recorder(HardBot):
        """``HardBot`` that keeps each rollout's moves (``tape``) or replays them (``replay``)."""

        def __init__(self, *a, tape=None, replay=False, **kw):
            super().__init__(*a, **kw)
            self.tape, self.replaying, self.at, self.done = tape, replay, 0, 0

        def rollout(self, g, me, rng=None):
            if self.replaying:
                moves = self.tape[self.at]
                self.at += 1
                self.done += _replay(g, moves)
                return
            moves = []
            play = g.play

            def keep(mv):
                moves.append(mv)
                return play(mv)

            g.play = keep
            try:
                super().rollout(g, me)
            finally:
                del g.play
            self.tape.append(moves)

    searches = []
    for seed, texts in engine_workload.hard_positions("samba", 4, reps, 3000):  # hard_samples's
        g = Game.new("samba", 4, seed=seed)
        for t in texts:
            g.play(t)
        obs, legal = Observation.for_seat(g, g.current), legal_moves(g)
        bot = HardBot(seed=seed, iterations=12)
        cands = [m for _, m in bot.medium.ranking(obs, legal)][:2]
        if len(cands) < 2:
            continue
        tape: list = []
        bot = Recorder(seed=seed, iterations=12, tape=tape)
        bot.search(obs, legal, cands)
        searches.append((seed, obs, legal, cands, tape, bot.last_stats["means"]))
    done = 0
    if mode == "replay":
        for seed, obs, legal, cands, tape, means in searches:
            bot = Recorder(seed=seed, iterations=12, tape=tape, replay=True)
            bot.search(obs, legal, cands)
            assert bot.last_stats["means"] == means, "the replayed rollouts scored otherwise"
            done += bot.done
    return done


FLOORS = {"random": random_floor, "medium": medium_floor, "hard": hard_floor}


def count(args: list[str]) -> int:
    """Instructions executed by ``floor.py --count ARGS`` with this tree's engine."""
    return bench_engine.callgrind(ROOT, Path(__file__).resolve(), ["--count", *args])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", default=bench_engine.BASE)
    p.add_argument("--only", choices=sorted(FLOORS), action="append")
    p.add_argument(
        "--count",
        nargs=3,
        metavar=("WORKLOAD", "N", "MODE"),
        help="one run to count (what the comparison starts itself)",
    )
    a = p.parse_args(argv)
    if a.count:
        w, n, mode = a.count
        if (
            w not in FLOORS
            or mode not in ("record", "replay", "replay-play")
            or (mode == "replay-play" and w != "medium")
        ):
            raise SystemExit(f"bad run: {' '.join(a.count)}")
        FLOORS[w](int(n), mode)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("floor.py needs valgrind (apt-get install valgrind)")
    workloads = a.only or list(FLOORS)
    with tempfile.TemporaryDirectory(prefix="samba-base-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), a.base],
            check=True,
        )
        try:
            print(
                f"instructions executed (callgrind), {a.base} / this tree / this tree with "
                "every decision replayed (higher is less work):"
            )
            for w in workloads:
                n = bench_engine.IREPS[w]
                old = bench_engine.instructions(base, w, n)
                new = bench_engine.instructions(ROOT, w, n)
                rec = count([w, str(n), "record"])
                floors = [("floor", count([w, str(n), "replay"]) - rec)]
                if w == "medium":
                    floors.append(("play", count([w, str(n), "replay-play"]) - rec))
                line = (
                    f"  {w:7s} x{n}  base {old / 1e6:8.1f}M  this {new / 1e6:8.1f}M"
                    f" x{old / new:.2f}"
                )
                for name, f in floors:
                    line += f"  {name} {f / 1e6:7.1f}M x{old / f:.2f}"
                print(line, flush=True)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
