"""Duplicate-deal tournaments between two bot levels (``python -m py_engine tournament``).

Each deal is played twice with the same cards (``Game.new(rules, players, seed=...)`` with the
same seed), the second time with the levels' seats swapped, to cancel the luck of the cards:

- two sides: in the first play side 0 is level ``a`` and side 1 level ``b``; in the second
  play side 0 is ``b`` and side 1 is ``a``;
- three or more sides: in the first play side 0 is ``a`` and every other side ``b``; in the
  second play side 0 is ``b`` and every other side ``a``. A play's score for a level is the
  mean of its sides' deal scores.

Only one deal is played each time (until ``deal_over``/``game_over``). The deal's score
difference is ``a`` minus ``b``, summed over the two plays; ``a`` wins the deal when it is
positive. Bots only ever receive their seat's observation and legal moves (``act.bot_move``).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..rules import get_rules
from ..spread import run
from ..state import Game
from .act import bot_move
from .hard import CLOCKS
from .levels import LEVELS, make_bot

SMALL_MARGIN = 30  # points: a deal decided by at most this is "decided by a few points"


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def percentiles(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    s = sorted(xs)

    def q(f):
        return s[min(len(s) - 1, int(round(f * (len(s) - 1))))]

    return {"n": len(s), "p50": round(q(0.5), 2), "p95": round(q(0.95), 2), "max": round(s[-1], 2)}


@dataclass(frozen=True)
class Player:
    """A computer player that is no level of the product (a study's, in ``research/``): named
    ``name`` in the results, built as ``factory(seed=..., **given, **settings)`` (``given``: the
    tournament's budget and clock; ``settings`` win). ``factory`` (a class or function) must be
    importable by its module's name: the deals may be played in other processes or machines."""

    name: str
    factory: Callable
    settings: dict = field(default_factory=dict)

    def make(self, seed: int, **given):
        return self.factory(seed=seed, **{**given, **self.settings})


def name_of(level: str | Player) -> str:
    return level.name if isinstance(level, Player) else level


def play_deal(
    rules: str,
    players: int,
    deal_seed: int,
    levels: list,
    bot_seed: int,
    budget: float | None = None,
    times: dict | None = None,
    clock: str = "wall",
) -> list[int]:
    """Play one deal with ``levels[seat]``; returns the deal's score per side. ``clock``: what
    ``hard``'s time budget runs on (``hard.CLOCKS``)."""
    game = Game.new(rules, players, seed=deal_seed)
    kw: dict = {} if budget is None else {"budget": budget}
    if clock != "wall":
        kw["clock"] = clock
    bots = [
        levels[s].make(bot_seed * 1009 + s, **kw)
        if isinstance(levels[s], Player)
        else make_bot(levels[s], seed=bot_seed * 1009 + s, **kw)
        for s in range(players)
    ]
    guard = 0
    while game.phase not in ("deal_over", "game_over"):
        seat = game.current
        t0 = time.perf_counter()
        move = bot_move(bots[seat], game, seat)
        dt = (time.perf_counter() - t0) * 1000
        if times is not None:
            times.setdefault(name_of(levels[seat]), []).append(dt)
        game.play(move)
        guard += 1
        if guard > 5000:
            raise RuntimeError(f"deal {deal_seed} did not end")
    return list(game.history[-1])


def a_sides_of(n_sides: int, swap: bool) -> list[int]:
    """The sides ``a`` plays in one half of a duplicate deal (side 0, or the others)."""
    return [s for s in range(n_sides) if (s == 0) != swap]


def margin(scores, a_sides: list[int]) -> float:
    """``a``'s mean deal score per side minus ``b``'s (with more than two sides, means)."""
    b_sides = [s for s in range(len(scores)) if s not in a_sides]
    return sum(scores[s] for s in a_sides) / len(a_sides) - sum(scores[s] for s in b_sides) / len(
        b_sides
    )


def duplicate_deal(
    rules: str,
    players: int,
    a: str | Player,
    b: str | Player,
    seed: int,
    i: int,
    budget: float | None = None,
    clock: str = "wall",
) -> tuple[float, dict]:
    """Deal ``i`` played twice, seats swapped: (``a`` minus ``b``, decision times per level)."""
    n_sides = get_rules(rules).n_sides(players)
    deal_seed = seed * 100_003 + i
    times: dict[str, list[float]] = {}
    total = 0.0
    for swap in (False, True):
        a_sides = a_sides_of(n_sides, swap)
        levels = [a if s % n_sides in a_sides else b for s in range(players)]
        sc = play_deal(
            rules, players, deal_seed, levels, seed * 7 + i * 2 + swap, budget, times, clock
        )
        total += margin(sc, a_sides)
    return total, times


def _deal_job(args: tuple) -> tuple[float, dict]:
    return duplicate_deal(*args)


def tournament(
    rules: str,
    players: int | None,
    a: str | Player,
    b: str | Player,
    deals: int,
    seed: int,
    budget: float | None = None,
    jobs: int = 1,
    clock: str = "wall",
    ray: str | None = None,
    progress: bool = False,
) -> dict:
    """``a`` and ``b``: levels (``LEVELS``) or study players (``Player``). ``jobs`` > 1 plays
    deals in that many processes, ``ray`` on a Ray cluster (``spread.run``: the same deals and
    results, but time-budgeted bots then share the machine's cores; in Pyodide, which has no
    processes, the deals are played one after the other). ``clock="cpu"``: ``hard``'s budget in
    this process's CPU time (a busy machine then measures what a quiet one plays).
    ``progress``: a progress line on stderr."""
    if clock not in CLOCKS:
        raise ValueError(f"unknown clock {clock!r} (one of {', '.join(CLOCKS)})")
    for level in (a, b):
        if not isinstance(level, Player) and level not in LEVELS:
            raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
    rs = get_rules(rules)
    players = players or rs.default_players
    times: dict[str, list[float]] = {}
    diffs: list[float] = []
    wins_a = wins_b = ties = 0
    t_start = time.perf_counter()
    args = [(rules, players, a, b, seed, i, budget, clock) for i in range(deals)]
    done = run(_deal_job, args, jobs, ray, "tournament" if progress else None)
    for total, t in done:
        for lv, ts in t.items():
            times.setdefault(lv, []).extend(ts)
        diffs.append(total)
        if total > 0:
            wins_a += 1
        elif total < 0:
            wins_b += 1
        else:
            ties += 1
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    la, ha = wilson(wins_a, n)
    lb, hb = wilson(wins_b, n)
    decided = wins_a + wins_b
    ld, hd = wilson(wins_a, decided)
    # Deals decided by a few points only (a card more or less in a hand at the end): the share
    # of decided deals counts them as much as any other, so they are counted apart.
    small_a = sum(1 for d in diffs if 0 < d <= SMALL_MARGIN)
    small_b = sum(1 for d in diffs if -SMALL_MARGIN <= d < 0)
    big = decided - small_a - small_b
    lg, hg = wilson(wins_a - small_a, big)
    return {
        "rules": rules,
        "players": players,
        "a": name_of(a),
        "b": name_of(b),
        "deals": n,
        "seed": seed,
        "budget": budget,
        "clock": clock,
        "jobs": jobs,
        "ray": ray,
        "method": "duplicate deals, seats swapped; >2 sides: mean of sides",
        "mean_score_diff": round(mean, 1),
        "mean_score_diff_95": [round(mean - half, 1), round(mean + half, 1)],
        "score_diff_sd": round(sd, 2),
        "a_won": wins_a,
        "b_won": wins_b,
        "ties": ties,
        "a_share": round(wins_a / n, 3) if n else None,
        "a_share_95": [round(la, 3), round(ha, 3)],
        "b_share": round(wins_b / n, 3) if n else None,
        "b_share_95": [round(lb, 3), round(hb, 3)],
        "a_share_decided": round(wins_a / decided, 3) if decided else None,
        "a_share_decided_95": [round(ld, 3), round(hd, 3)],
        "small_margin": SMALL_MARGIN,
        "a_won_small": small_a,
        "b_won_small": small_b,
        "a_share_decided_beyond_small": round((wins_a - small_a) / big, 3) if big else None,
        "a_share_decided_beyond_small_95": [round(lg, 3), round(hg, 3)],
        "decision_ms": {lv: percentiles(ts) for lv, ts in sorted(times.items())},
        "seconds": round(time.perf_counter() - t_start, 1),
    }


def pool(results: list[dict]) -> dict:
    """Several tournaments of the same two levels at the same table (other seeds) as one: deals
    and wins added, the mean difference and its 95 % interval from the runs' means and standard
    deviations (``score_diff_sd``, or recovered from the interval of a run without it)."""
    if not results:
        raise ValueError("nothing to pool")
    keys = {
        (r["rules"], r["players"], r["a"], r["b"], r.get("budget"), r.get("clock", "wall"))
        for r in results
    }
    if len(keys) != 1:
        raise ValueError(f"not the same tournament: {sorted(map(str, keys))}")
    n = sum(r["deals"] for r in results)
    total = sum(r["mean_score_diff"] * r["deals"] for r in results)
    mean = total / n
    ss = 0.0
    for r in results:
        k = r["deals"]
        sd = r.get("score_diff_sd")
        if sd is None:
            lo, hi = r["mean_score_diff_95"]
            sd = (hi - lo) / 2 / 1.96 * math.sqrt(k)
        ss += (k - 1) * sd * sd + k * (r["mean_score_diff"] - mean) ** 2
    sd_all = math.sqrt(ss / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd_all / math.sqrt(n)
    a = sum(r["a_won"] for r in results)
    b = sum(r["b_won"] for r in results)
    ld, hd = wilson(a, a + b)
    r0 = results[0]
    small = {}
    if all("a_won_small" in r for r in results):
        sa = sum(r["a_won_small"] for r in results)
        sb = sum(r["b_won_small"] for r in results)
        lg, hg = wilson(a - sa, a + b - sa - sb)
        small = {
            "small_margin": r0["small_margin"],
            "a_won_small": sa,
            "b_won_small": sb,
            "a_share_decided_beyond_small": round((a - sa) / (a + b - sa - sb), 3)
            if a + b - sa - sb
            else None,
            "a_share_decided_beyond_small_95": [round(lg, 3), round(hg, 3)],
        }
    return {
        "rules": r0["rules"],
        "players": r0["players"],
        "a": r0["a"],
        "b": r0["b"],
        "budget": r0.get("budget"),
        "clock": r0.get("clock", "wall"),
        "runs": len(results),
        "seeds": sorted(r["seed"] for r in results),
        "deals": n,
        "mean_score_diff": round(mean, 1),
        "mean_score_diff_95": [round(mean - half, 1), round(mean + half, 1)],
        "a_won": a,
        "b_won": b,
        "ties": sum(r["ties"] for r in results),
        "a_share_decided": round(a / (a + b), 3) if a + b else None,
        "a_share_decided_95": [round(ld, 3), round(hd, 3)],
        **small,
        "a_p95_ms": [r["decision_ms"].get(r["a"], {}).get("p95") for r in results],
        "a_max_ms": max((r["decision_ms"].get(r["a"], {}).get("max") or 0) for r in results),
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m py_engine.ai.tournament pool RESULT.json...``: pooled figures of several runs
    (the JSON ``python -m py_engine tournament`` prints), as JSON."""
    import json

    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2 or args[0] != "pool":
        print("usage: python -m py_engine.ai.tournament pool RESULT.json...", file=sys.stderr)
        return 2
    results = []
    for path in args[1:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if text.strip():  # a run still going has written nothing yet
            results.append(json.loads(text))
    print(json.dumps(pool(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
