"""Where the random player's choosing goes: how much of it an opened side's meld listing takes.

    python -m research.choosing_split [--deals 60] [--rules samba --players 4]

Plays the random-play workload's games (``engine_workload.random_play``: the same seeds) with
timing wrappers around ``random_move`` and around the opened side's meld listing inside it
(``has_meld_move``, and ``opened_meld_choices`` where a meld move is drawn), and prints:
- the listing's share of choosing, and its share at the decisions right after a meld move by the
  same seat in the same turn (the decisions a listing derived from the last one could serve);
- the time per decision of the fixed parts of an opened side's meld-phase decision
  (``ActingSide``, ``other_moves``, the hand's counts, ``has_meld_move``), each timed on its own
  at the same positions, in a second pass over the same games.

The wrappers' own cost is in every figure, so the figures are for comparing with each other only
(docs/journal/2026-12-05-engine-speed-and-soak.md, "Where it stands"). The games are the workload's: the wrappers call the same
functions with the same arguments.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from py_engine import legal, simulate  # noqa: E402
from py_engine.cards import counts_of  # noqa: E402
from py_engine.moves import Meld  # noqa: E402
from py_engine.state import Game  # noqa: E402
from tools import engine_workload  # noqa: E402

clock = time.perf_counter


def play_workload(deals: int, rules: str, players: int, choose) -> None:
    """Play the workload's games (``engine_workload.random_play``), each move the one
    ``choose(game, rng)`` returns (``rng``: the random player's generator for that deal)."""
    engine_workload.random_play(deals, rules, players, choose=choose)


def shares(deals: int, rules: str, players: int) -> Counter:
    """Seconds of choosing, and of the opened side's listing inside it (all of it, and right
    after the same seat's meld move)."""
    spent: Counter = Counter()
    after_meld = [False]
    last: list = [None]
    choices, has = legal.opened_meld_choices, simulate.has_meld_move

    def timed(name, fn):
        def wrapper(*args):
            t = clock()
            out = fn(*args)
            d = clock() - t
            spent[name] += d
            if after_meld[0]:
                spent[name + " after the seat's meld move"] += d
            return out

        return wrapper

    def choose(g, rng):
        seat = g.current
        after_meld[0] = last[0] == (g, seat, True) and g.phase == "meld"
        t = clock()
        move = simulate.random_move(g, rng)
        spent["choosing"] += clock() - t
        last[0] = (g, seat, type(move) is Meld)
        return move

    legal.opened_meld_choices = timed("opened_meld_choices", choices)
    simulate.has_meld_move = timed("has_meld_move", has)
    try:
        play_workload(deals, rules, players, choose)
    finally:
        legal.opened_meld_choices, simulate.has_meld_move = choices, has
    return spent


def fixed_parts(deals: int, rules: str, players: int) -> tuple[Counter, int]:
    """Seconds of each fixed part of an opened side's meld-phase decision, each timed alone at
    the same positions (a pass of its own, so that it warms no cache the shares read), and how
    many such decisions there were."""
    spent: Counter = Counter()
    decisions = [0]

    def choose(g, rng):
        seat = g.current
        if g.phase == "meld" and g.melds[seat % g.n_sides]:
            decisions[0] += 1
            t0 = clock()
            acting = legal.ActingSide(g)
            t1 = clock()
            legal.other_moves(g, acting, takes=False)
            t2 = clock()
            counts = counts_of(g.hand_kinds(seat))
            t3 = clock()
            legal.has_meld_move(g, acting, counts)
            t4 = clock()
            spent["ActingSide"] += t1 - t0
            spent["other_moves"] += t2 - t1
            spent["the hand's counts"] += t3 - t2
            spent["has_meld_move"] += t4 - t3
        return simulate.random_move(g, rng)

    play_workload(deals, rules, players, choose)
    return spent, decisions[0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    a = p.parse_args(argv)
    if a.deals < 1:
        p.error("--deals must be at least 1")
    try:
        Game.new(a.rules, a.players)
    except ValueError as e:  # (an unknown rule set, a player count it does not allow)
        p.error(str(e))
    spent = shares(a.deals, a.rules, a.players)
    fixed, decisions = fixed_parts(a.deals, a.rules, a.players)
    total = spent["choosing"]
    print(
        f"random play, {a.rules} {a.players}, {a.deals} deals: choosing {total:.3f} s "
        "(timed by wrappers: for comparing with each other only)"
    )
    for name in ("has_meld_move", "opened_meld_choices"):
        for key in (name, name + " after the seat's meld move"):
            print(f"  {key:50s} {spent[key] / total * 100:5.1f} % of choosing")
    listing = spent["has_meld_move"] + spent["opened_meld_choices"]
    derivable = (
        spent["has_meld_move after the seat's meld move"]
        + spent["opened_meld_choices after the seat's meld move"]
    )
    print(
        f"  the opened side's meld listing {listing / total * 100:.1f} % of choosing; "
        f"right after the seat's meld move {derivable / total * 100:.1f} %"
    )
    print(
        f"fixed parts of an opened side's meld-phase decision ({decisions} decisions), "
        "each timed alone:"
    )
    for name, s in fixed.items():
        print(f"  {name:20s} {s / max(1, decisions) * 1e6:6.2f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
