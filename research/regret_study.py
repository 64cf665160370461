"""Where ``medium`` loses most at the true table, by kind of decision (issue 15).

    python -m research.regret_study collect --seeds 20400-20419 --out /tmp/regret.jsonl \\
        [--every 3] [--top 5] [--samples 40]
    python -m research.regret_study report /tmp/regret.jsonl [--show 10]

``collect`` plays ``medium`` self-play deals on TUNING seeds (the reserved 9000-9099 are
refused) and, at every ``--every``-th decision with a choice (the draw phase, a discard, going
out, asking or answering; melds are left out), plays ``medium``'s ``--top`` best-ranked moves in
the true game (every hand as it is, only the stock reshuffled per sample; the same worlds for
every move) to the end of the deal with ``medium`` everywhere (``hard_overrides.play_lines``).
One JSON line per position: the deal and the moves before it, the kind, ``medium``'s ranking and
each move's per-sample margins.

``report`` prints, per kind, how much the best of the ranked moves would gain over ``medium``'s
choice — chosen on the first half of the samples and scored on the other half, so that picking
the luckiest of several noisy means does not count as a gain — and at which rank of
``medium``'s ranking the best move sits; ``--show`` lists the positions that lose most.
"""

from __future__ import annotations

import json
import sys

from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.legal import legal_moves  # noqa: E402
from py_engine.observation import Observation  # noqa: E402
from py_engine.state import Game  # noqa: E402
from research.hard_overrides import mean_se, move_kind, parse_seeds, play_lines, read_jsonl  # noqa: E402
from research.options import study_commands  # noqa: E402


def choice_kind(obs: Observation, ranked: list[str]) -> str | None:
    """The decision's kind (``hard_overrides.KINDS``) when it is one this study judges."""
    if len(ranked) < 2:
        return None
    kind = move_kind(obs, ranked[0], ranked[1])
    return None if kind == "meld" else kind


def collect(
    seeds: list[int],
    every: int,
    top: int,
    samples: int,
    rules: str = "samba",
    players: int = 4,
    out=None,
    log=None,
) -> list[dict]:
    recs = []
    for seed in seeds:
        g = Game.new(rules, players, seed=seed)
        med = MediumBot(seed=seed)
        moves: list[str] = []
        n = 0
        while g.phase not in ("deal_over", "game_over") and len(moves) < 3000:
            obs = Observation.for_seat(g, g.current)
            ranked = [m.text() for _, m in med.ranking(obs, legal_moves(g))]
            kind = choice_kind(obs, ranked)
            if kind is not None:
                n += 1
                if n % every == 0:
                    lines = ranked[:top]
                    per = play_lines(g, lines, samples, seed=seed)
                    rec = {
                        "rules": rules,
                        "players": players,
                        "deal_seed": seed,
                        "moves": list(moves),
                        "seat": g.current,
                        "kind": kind,
                        "lines": lines,
                        "margins": per,
                        "pile": len(obs.pile),
                        "stock": obs.stock,
                    }
                    recs.append(rec)
                    if out is not None:
                        out.write(json.dumps(rec) + "\n")
                        out.flush()
            mm = ranked[0]
            g.play(mm)
            moves.append(mm)
        if log is not None:
            print(
                f"seed {seed}: {len(moves)} moves, {len(recs)} positions so far",
                file=log,
                flush=True,
            )
    return recs


def split_gain(rec: dict) -> tuple[float, int]:
    """(the held-out gain of the move that looks best on the first half of the samples over
    ``medium``'s, that move's rank in ``medium``'s ranking, 0 = medium's own)."""
    lines = rec["lines"]
    per = rec["margins"]
    base = per[lines[0]]
    half = len(base) // 2
    best, best_m = 0, 0.0
    for i, m in enumerate(lines[1:], 1):
        d = [a - b for a, b in zip(per[m][:half], base[:half])]
        mean = sum(d) / max(1, len(d))
        if mean > best_m:
            best, best_m = i, mean
    if best == 0:
        return 0.0, 0
    d = [a - b for a, b in zip(per[lines[best]][half:], base[half:])]
    return sum(d) / max(1, len(d)), best


def report(recs: list[dict], show: int = 0, out=sys.stdout) -> list[dict]:
    rows = []
    kinds = sorted({r["kind"] for r in recs})
    for kind in kinds + ["all"]:
        rs = [r for r in recs if kind in ("all", r["kind"])]
        gains = [split_gain(r) for r in rs]
        m, se = mean_se([g for g, _ in gains])
        ranks: dict[int, int] = {}
        for _, rank in gains:
            ranks[rank] = ranks.get(rank, 0) + 1
        row = {
            "kind": kind,
            "positions": len(rs),
            "held_out_gain": round(m, 1),
            "ci95": (round(m - 1.96 * se, 1), round(m + 1.96 * se, 1)),
            "best_rank": dict(sorted(ranks.items())),
        }
        rows.append(row)
        print(json.dumps(row), file=out)
    if show:
        full = []
        for r in recs:
            base = r["margins"][r["lines"][0]]
            for m in r["lines"][1:]:
                d = [a - b for a, b in zip(r["margins"][m], base)]
                mean, se = mean_se(d)
                full.append((mean, se, r, m))
        full.sort(key=lambda x: -x[0] / (x[1] or 1))
        for mean, se, r, m in full[:show]:
            print(
                json.dumps(
                    {
                        "seed": r["deal_seed"],
                        "at": len(r["moves"]),
                        "kind": r["kind"],
                        "pile": r.get("pile"),
                        "stock": r.get("stock"),
                        "medium": r["lines"][0],
                        "better": m,
                        "gain": round(mean, 1),
                        "se": round(se, 1),
                    }
                ),
                file=out,
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    p, sub, c = study_commands(__doc__)
    c.add_argument("--seeds", required=True)
    c.add_argument("--every", type=int, default=3)
    c.add_argument("--top", type=int, default=5)
    c.add_argument("--samples", type=int, default=40)
    c.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("path")
    r.add_argument("--show", type=int, default=0)
    a = p.parse_args(argv)
    if a.cmd == "collect":
        try:
            seeds = parse_seeds(a.seeds)
        except ValueError as e:
            p.error(str(e))
        with open(a.out, "a", encoding="utf-8") as out:
            collect(seeds, a.every, a.top, a.samples, a.rules, a.players, out, sys.stderr)
        return 0
    report(read_jsonl(a.path), a.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
