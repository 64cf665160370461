"""Fit ``hard``'s leaf estimate (``leaf.py``) on finished deals of ``medium`` self-play.

    python -m py_engine.ai.fit_leaf --rules samba --players 4 --deals 400 --seed 1

Every ``medium`` seat plays one deal per seed from ``Game.new(rules, players, seed)``; at the
start of every turn the features of every side are recorded, and once the deal is over each
record's target is that side's final deal score. A ridge regression (features scaled, the
constant unpenalized) is fitted on four fifths of the deals and checked on the rest: the
command prints the weights (for ``weights.LEAF_WEIGHTS``) and the held-out R² of the fitted
estimate and of ``hard``'s hand-set one. Pure Python; no dependency.
"""

from __future__ import annotations

import argparse
import json
import sys

from py_engine.ai.act import bot_move
from py_engine.ai.leaf import NAMES, features
from py_engine.ai.medium import MediumBot
from py_engine.state import Game


def positions(rules: str, players: int, deals: int, seed: int):
    """Yield (deal index, features per side, final score per side, hand-set estimate per side)
    at the start of every turn."""
    from py_engine.ai.rollout import evaluate_side

    for d in range(deals):
        g = Game.new(rules, players, seed=seed * 100_003 + d)
        bots = [MediumBot(seed=seed * 31 + s) for s in range(players)]
        recs = []
        last = None
        while g.phase not in ("deal_over", "game_over"):
            if g.phase == "draw" and g.current != last:
                last = g.current
                recs.append(
                    (
                        [features(g, s) for s in range(g.n_sides)],
                        [evaluate_side(g, s) for s in range(g.n_sides)],
                    )
                )
            g.play(bot_move(bots[g.current], g, g.current))
        final = g.history[-1]
        for xs, olds in recs:
            yield d, xs, list(final), olds


def pairs(xs: list[list[float]], ys: list[float]):
    """Every ordered pair of sides: (feature difference, score difference)."""
    for a in range(len(xs)):
        for b in range(len(xs)):
            if a != b:
                yield [p - q for p, q in zip(xs[a], xs[b])], ys[a] - ys[b]


def margin(vals: list[float], side: int = 0) -> float:
    return vals[side] - max(v for s, v in enumerate(vals) if s != side)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c] or 1e-12
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / piv
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / (m[i][i] or 1e-12) for i in range(n)]


def fit(rows: list[tuple[list[float], float]], ridge: float = 1.0) -> list[float]:
    k = len(rows[0][0])
    mean = [sum(x[j] for x, _ in rows) / len(rows) for j in range(k)]
    sd = [
        max(1e-9, (sum((x[j] - mean[j]) ** 2 for x, _ in rows) / len(rows)) ** 0.5)
        for j in range(k)
    ]
    sd[0], mean[0] = 1.0, 0.0  # the constant: unscaled, unpenalized
    z = [([x[0]] + [(x[j] - mean[j]) / sd[j] for j in range(1, k)], y) for x, y in rows]
    a = [
        [
            sum(x[i] * x[j] for x, _ in z) + (ridge * len(z) / 1000 if i == j and i else 0)
            for j in range(k)
        ]
        for i in range(k)
    ]
    b = [sum(x[i] * y for x, y in z) for i in range(k)]
    w = solve(a, b)
    # back to raw features
    raw = [0.0] * k
    raw[0] = w[0] - sum(w[j] * mean[j] / sd[j] for j in range(1, k))
    for j in range(1, k):
        raw[j] = w[j] / sd[j]
    return raw


def r2(pred: list[float], ys: list[float]) -> float:
    my = sum(ys) / len(ys)
    ss = sum((y - my) ** 2 for y in ys)
    return 1 - sum((p - y) ** 2 for p, y in zip(pred, ys)) / ss if ss else 0.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m py_engine.ai.fit_leaf")
    p.add_argument("--rules", default="samba")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ridge", type=float, default=1.0)
    a = p.parse_args(argv)
    data = list(positions(a.rules, a.players, a.deals, a.seed))
    cut = a.deals * 4 // 5
    train = [pr for d, xs, ys, _ in data if d < cut for pr in pairs(xs, ys)]
    test = [(xs, ys, old) for d, xs, ys, old in data if d >= cut]
    w = fit(train, a.ridge)
    w[0] = 0.0  # the constant cancels between sides
    ys = [margin(y) for _, y, _ in test]
    fitted = [margin([sum(wi * xi for wi, xi in zip(w, x)) for x in xs]) for xs, _, _ in test]
    print(
        json.dumps(
            {
                "rules": a.rules,
                "players": a.players,
                "deals": a.deals,
                "seed": a.seed,
                "positions": len(data),
                "test_positions": len(test),
                "r2_fitted": round(r2(fitted, ys), 3),
                "r2_hand_set": round(r2([margin(o) for _, _, o in test], ys), 3),
                "weights": dict(zip(NAMES, (round(v, 3) for v in w))),
            },
            indent=1,
        )
    )
    print(json.dumps([round(v, 3) for v in w]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
