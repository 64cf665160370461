"""Tune ``medium``'s weights by self-play on duplicate deals (coordinate search).

    python -m research.tune --rules samba --players 4 --deals 60 --seed 5 --rounds 1 \
        [--jobs N | --ray auto|HOST:PORT]

For each weight in turn, a variant with the weight scaled (x0.5, x1.5; signs kept) plays
duplicate deals against the current weights (the same deals for every variant); a variant that
wins more than ``--accept`` of the deals *and* has a positive mean score difference replaces
the current weights. The result is printed as a Python dict to paste into ``weights.py``.
Bots receive views only, as in the tournament. ``--jobs`` plays each duel's deals in processes,
``--ray`` on a Ray cluster (``py_engine/spread.py``): the same deals, the same result. Each duel
prints a progress line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from py_engine import spread
from py_engine.ai.act import bot_move
from py_engine.ai.medium import MediumBot
from py_engine.ai.tournament import a_sides_of, margin
from py_engine.ai.weights import MEDIUM_WEIGHTS
from py_engine.cli import spread_options
from py_engine.rules import get_rules
from py_engine.spread import run
from py_engine.state import Game


def duel(
    rules: str,
    players: int,
    wa: dict,
    wb: dict,
    deals: int,
    seed: int,
    jobs: int = 1,
    ray: str | None = None,
    progress: str | None = None,
) -> tuple[float, float]:
    """(share of duplicate deals won by weights ``wa``, mean score difference per deal).

    ``jobs`` > 1 plays the deals in that many processes, ``ray`` on a Ray cluster (the same
    deals, the same result); ``progress``: the label of a progress line on stderr."""
    totals = run(
        _duel_deal, [(rules, players, wa, wb, seed, i) for i in range(deals)], jobs, ray, progress
    )
    wins = sum(1.0 if t > 0 else (0.5 if t == 0 else 0.0) for t in totals)
    return wins / deals, sum(totals) / deals


def _duel_deal(args: tuple) -> float:
    """Deal ``i`` played twice, seats swapped, ``medium`` everywhere: ``wa``'s sides minus
    ``wb``'s."""
    rules, players, wa, wb, seed, i = args
    n_sides = get_rules(rules).n_sides(players)
    total = 0.0
    for swap in (False, True):
        game = Game.new(rules, players, seed=seed * 100_003 + i)
        a_sides = a_sides_of(n_sides, swap)
        bots = [
            MediumBot(seed=s, weights=wa if s % n_sides in a_sides else wb) for s in range(players)
        ]
        while game.phase not in ("deal_over", "game_over"):
            game.play(bot_move(bots[game.current], game, game.current))
        total += margin(game.history[-1], a_sides)
    return total


def tune(
    rules: str,
    players: int,
    deals: int,
    seed: int,
    rounds: int,
    accept: float,
    keys: list[str] | None = None,
    out=sys.stderr,
    factors: tuple[float, ...] = (0.5, 1.5),
    jobs: int = 1,
    ray: str | None = None,
) -> dict:
    current = dict(MEDIUM_WEIGHTS)
    keys = keys or [k for k, v in current.items() if isinstance(v, (int, float))]
    for r in range(rounds):
        for k in keys:
            for f in factors:
                trial = dict(current)
                trial[k] = type(current[k])(current[k] * f) if current[k] else (5 if f > 1 else -5)
                if trial[k] == current[k]:
                    continue
                share, diff = duel(
                    rules,
                    players,
                    trial,
                    current,
                    deals,
                    seed + r,
                    jobs,
                    ray,
                    f"tune {k} x{f}" if out is sys.stderr else None,
                )
                print(
                    json.dumps(
                        {
                            "round": r,
                            "weight": k,
                            "value": trial[k],
                            "share": share,
                            "diff": round(diff, 1),
                        }
                    ),
                    file=out,
                    flush=True,
                )
                if share > accept and diff > 0:
                    current = trial
                    break
    return current


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m research.tune", description=__doc__)
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--accept", type=float, default=0.55)
    p.add_argument("--keys", default="", help="comma-separated weight names (default: all)")
    spread_options(p)
    p.add_argument(
        "--factors",
        default="0.5,1.5",
        help="comma-separated scale factors tried for each weight, in order",
    )
    a = p.parse_args(argv)
    players = a.players or get_rules(a.rules).default_players
    keys = [k for k in a.keys.split(",") if k] or None
    factors = tuple(float(f) for f in a.factors.split(",") if f)
    try:
        spread.check(a.jobs, a.ray)
        if a.ray is not None:
            spread.connect(a.ray)  # a clear error before any deal is played
    except spread.SpreadError as e:
        p.error(str(e))
    best = tune(
        a.rules,
        players,
        a.deals,
        a.seed,
        a.rounds,
        a.accept,
        keys,
        factors=factors,
        jobs=a.jobs,
        ray=a.ray,
    )
    print(json.dumps(best, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
