"""One engine workload, run against whatever ``py_engine`` is first on ``sys.path``.

    PYTHONPATH=<tree> python tools/engine_workload.py <workload> <reps> [--rules R --players N]
        [--clock cpu|wall] [--warm]

Prints one JSON line: the work done and the seconds it took (``--clock cpu``, the default: the
process's CPU time, which other programs loading the machine change much less; ``wall``: elapsed
time, what a Pyodide comparison must use, as Pyodide has no process clock; ``--warm``: run the
workload once untimed first, on other games, as the Pyodide comparison does on both sides). Used by
tools/bench_engine.py, which runs the same workload against two engine revisions side by side.
It uses only the
engine API both revisions share (Game.new, play, legal_moves via simulate.random_move,
views.view_for, ai.make_bot), so the old and the new engine do the same work.
"""

from __future__ import annotations

import json
import random
import sys
import time

clock = time.process_time


def random_play(reps: int, rules: str, players: int, offset: int = 0, choose=None) -> dict:
    """The random player's games (``choose(game, rng)``: a stand-in for ``random_move`` with
    the same draws, e.g. ``research/choosing_split.py``'s timed one)."""
    from py_engine.simulate import random_move
    from py_engine.state import Game

    choose = choose or random_move
    moves = 0
    t0 = clock()
    for i in range(reps):
        g = Game.new(rules, players, seed=1000 + offset + i)
        rng = random.Random(offset + i)
        while g.phase in ("draw", "meld", "answer"):
            g.play(choose(g, rng))
            moves += 1
    return {"moves": moves, "deals": reps, "seconds": clock() - t0}


_MOVER: list = []  # the way ``_move`` asks a bot, found once per process


def _move(bot, g):
    """``bot``'s move for the seat to act: ``act.bot_move`` (the bot decides on the seat's
    observation), or in an older engine the text ``choose`` gives on the seat's view."""
    if not _MOVER:
        try:
            from py_engine.ai.act import bot_move

            _MOVER.append(bot_move)
        except ImportError:
            from py_engine.views import view_for

            _MOVER.append(lambda bot, g, seat: bot.choose(view_for(g, seat)))
    return _MOVER[0](bot, g, g.current)


def medium_deals(reps: int, rules: str, players: int, offset: int = 0) -> dict:
    from py_engine.ai import make_bot
    from py_engine.state import Game

    moves = 0
    t0 = clock()
    for i in range(reps):
        g = Game.new(rules, players, seed=2000 + offset + i)
        bots = [make_bot("medium", seed=s) for s in range(players)]
        while g.phase in ("draw", "meld", "answer"):
            g.play(_move(bots[g.current], g))
            moves += 1
    return {"moves": moves, "deals": reps, "seconds": clock() - t0}


def hard_positions(rules: str, players: int, count: int, seed: int = 3000) -> list:
    """Decisions where ``hard`` searches, from medium self-play (the same texts in both
    engines): (record moves up to the decision)."""
    from py_engine.ai import make_bot
    from py_engine.state import Game

    out = []
    while len(out) < count:
        g = Game.new(rules, players, seed=seed)
        bots = [make_bot("medium", seed=s) for s in range(players)]
        texts = []
        while g.phase in ("draw", "meld", "answer") and len(out) < count:
            move = _move(bots[g.current], g)
            text = move if isinstance(move, str) else move.text()
            if g.phase == "meld" and text.startswith("discard") and len(texts) % 3 == 0:
                out.append((seed, list(texts)))
            g.play(text)
            texts.append(text)
        seed += 1
    return out


def hard_samples(reps: int, rules: str, players: int, offset: int = 0, search: bool = True) -> dict:
    """``hard``'s searches at ``reps`` positions (timed: the searches only; ``search=False``:
    everything but the searches, what an instruction count subtracts)."""
    from py_engine.ai.hard import HardBot
    from py_engine.state import Game
    from py_engine.views import view_for

    positions = hard_positions(rules, players, reps, 3000 + offset)
    samples = 0
    seconds = 0.0
    for seed, texts in positions:
        g = Game.new(rules, players, seed=seed)
        for t in texts:
            g.play(t)
        bot = HardBot(seed=seed, iterations=12)
        if hasattr(bot, "decide"):  # (hard on the seat's observation)
            from py_engine.ai.info import Info
            from py_engine.legal import legal_moves
            from py_engine.observation import Observation

            obs, legal = Observation.for_seat(g, g.current), legal_moves(g)
            ranked = bot.medium.rank(Info.from_observation(obs, legal), legal)
            cands = [m for _, m in ranked][:2]
            args: tuple = (obs, legal, cands)
        else:  # (hard on the JSON view: an older engine)
            view = view_for(g, g.current)
            ranked = bot.medium.rank_moves(view)
            cands = [m for _, m in ranked][:2]
            args = (view, cands)
        if len(cands) < 2 or not search:
            continue
        t0 = clock()
        bot.search(*args)
        seconds += clock() - t0
        samples += bot.last_stats["samples"]
    return {"samples": samples, "positions": len(positions), "seconds": seconds}


def hard_setup(reps: int, rules: str, players: int, offset: int = 0) -> dict:
    return hard_samples(reps, rules, players, offset, search=False)


WORKLOADS = {
    "random": random_play,
    "medium": medium_deals,
    "hard": hard_samples,
    "hard-setup": hard_setup,
}


def main(argv: list[str]) -> None:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("workload", choices=sorted(WORKLOADS))
    p.add_argument("reps", type=int)
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    p.add_argument("--warm", action="store_true")
    a = p.parse_args(argv)
    global clock
    clock = time.process_time if a.clock == "cpu" else time.perf_counter
    if a.warm:  # other games: the caches warm up, but not on the timed games
        WORKLOADS[a.workload](a.reps, a.rules, a.players, offset=500)
    print(json.dumps(WORKLOADS[a.workload](a.reps, a.rules, a.players)))


if __name__ == "__main__":
    main(sys.argv[1:])
