"""Where ``hard`` overrules ``medium``, and whether a full-deal judge agrees (issue 15).

    python -m research.hard_overrides collect --seeds 20000-20039 --out /tmp/ov.jsonl \\
        [--iterations 24] [--variant leaf=hand] [--variant rounds=3]
    python -m research.hard_overrides judge /tmp/ov.jsonl --out /tmp/ov_judged.jsonl [--samples 150] \\
        [--open]
    python -m research.hard_overrides report /tmp/ov_judged.jsonl [--confidence 2.5]

``collect`` plays medium self-play deals (every seat ``medium``, so the positions are the ones
``medium`` reaches) on TUNING seeds (never the reserved 9000-9099, refused) and, at every
decision, asks ``HardBot`` with a fixed ``iterations`` (reproducible, independent of the machine
load) and each ``--variant`` (``key=value``: ``StudyHard`` keyword arguments, ``iterations`` too)
what it would play. A decision where any of them differs from ``medium``'s move is written as
one JSON line: the deal (rules, players, seed) and the moves played before it (enough to rebuild
the position exactly), ``medium``'s move and, per configuration, its move, mean gain, paired
lower bound and sample count. ``medium``'s move is always the one played on.

``judge`` rebuilds each position and compares every overriding move with ``medium``'s over the
FULL rest of the deal, the unbiased yardstick of ``py_engine/ai/judge.py``: many
determinizations of the seat's observation (common random numbers across the moves), the move, the rest
of the seat's turn by ``medium``, then ``medium`` for every seat to the end of the deal
(``HardBot.rollout`` with ``rounds=1000, fast=False``, as ``judge.judge`` does); the outcome is
the seat's side's deal-score margin over the best other side. ``--open`` judges in the true
game instead: every hand as it is, only the stock reshuffled per sample. That is what the move
earns at this table; the view's determinizations judge it as if the other hands were as random
as the view makes them, which they are not (their owners chose what to keep), so they cannot
credit a move for reading them better (``HardBot(infer=True)``).

``report`` prints, per configuration and move kind (and by the size of the predicted gain): the
overrides, ``hard``'s predicted mean gain, the judged mean gain with its 95 % interval (over the
overrides) and the share of the overrides whose judged gain is positive. ``--confidence z`` also
reports the default configuration's overrides that a higher ``confidence`` would keep (the same
samples: the lower bound is recomputed from the recorded mean and bound); ``--min-gain g`` those
whose predicted gain is at least ``g``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys

from py_engine.ai.act import bot_move  # noqa: E402
from py_engine.ai.determinize import determinize, laid_red_threes  # noqa: E402
from py_engine.ai.hard import HardBot  # noqa: E402
from py_engine.ai.info import Info  # noqa: E402
from py_engine.ai.judge import _turn, goes_out, outcome  # noqa: E402
from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.legal import legal_moves  # noqa: E402
from py_engine.moves import parse_move  # noqa: E402
from py_engine.observation import Observation  # noqa: E402
from py_engine.state import Game  # noqa: E402
from research.options import study_commands  # noqa: E402
from research.study_hard import StudyHard  # noqa: E402

RESERVED = range(9000, 9100)


def refuse_reserved(p: argparse.ArgumentParser, seed: int, measure: bool) -> None:
    """A study's command line refuses the reserved measurement seeds unless ``--measure``."""
    if seed in RESERVED and not measure:
        p.error(
            f"seed {seed} is reserved for measurement (9000-9099); --measure for the final "
            "check of a configuration chosen on tuning seeds"
        )


KINDS = ("draw phase", "go out/ask/answer", "discard", "meld")


def parse_seeds(text: str) -> list[int]:
    """``"20000-20009,20020"`` -> the seeds; the reserved measurement seeds are refused."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.strip().partition("-")
        lo, hi = int(a), int(b or a)
        if hi < lo:
            raise ValueError(f"empty seed range {part!r}")
        out.extend(range(lo, hi + 1))
    bad = [s for s in out if s in RESERVED]
    if bad:
        raise ValueError(f"seeds {bad[0]}... are reserved for measurement (9000-9099)")
    return out


def parse_variant(text: str) -> tuple[str, dict]:
    """``"leaf=hand,rounds=3"`` -> (the name, ``HardBot`` keyword arguments)."""
    kw: dict = {}
    for item in text.split(","):
        k, sep, v = item.partition("=")
        if not sep or not k:
            raise ValueError(f"a variant is key=value[,key=value]: {text!r}")
        for conv in (int, float):
            try:
                kw[k] = conv(v)
                break
            except ValueError:
                pass
        else:
            kw[k] = {"true": True, "false": False}.get(v.lower(), v)
    return text, kw


def move_kind(obs: Observation, a: str, b: str) -> str:
    """The kind of a decision between moves ``a`` and ``b`` (one of ``KINDS``) at the seat's
    observation."""
    if obs.phase == "draw":
        return "draw phase"
    info = Info.from_observation(obs)
    if any(m.startswith(("ask", "answer")) or goes_out(info, parse_move(m)) for m in (a, b)):
        return "go out/ask/answer"
    if a.startswith("discard") and b.startswith("discard"):
        return "discard"
    return "meld"


def rebuild(rec: dict) -> Game:
    g = Game.new(rec["rules"], rec["players"], seed=rec["deal_seed"])
    for mv in rec["moves"]:
        g.play(mv)
    return g


def collect(
    seeds: list[int],
    iterations: int,
    variants: list[tuple[str, dict]],
    rules: str = "samba",
    players: int = 4,
    out=None,
    log=None,
) -> list[dict]:
    recs = []
    configs = [("default", {})] + variants
    for seed in seeds:
        g = Game.new(rules, players, seed=seed)
        med = MediumBot(seed=seed)
        bots = [
            (name, StudyHard(seed=seed, **{"iterations": iterations, **kw})) for name, kw in configs
        ]
        moves: list[str] = []
        decisions = 0
        while g.phase not in ("deal_over", "game_over") and len(moves) < 3000:
            seat = g.current
            obs = Observation.for_seat(g, seat)
            mm = med.ranking(obs, legal_moves(g))[0][1].text()
            per = {}
            for name, bot in bots:
                move = bot_move(bot, g, seat)
                hm = move.text()
                st = bot.last_stats
                if st.get("gains"):
                    decisions += name == "default"
                if hm != mm:
                    mean, lower = st.get("gains", {}).get(move, (None, None))
                    per[name] = {
                        "move": hm,
                        "mean": mean,
                        "lower": lower,
                        "samples": st.get("samples", 0),
                        "signs": st.get("signs", {}).get(move),
                    }
            if per:
                other = next(iter(per.values()))["move"]
                rec = {
                    "rules": rules,
                    "players": players,
                    "deal_seed": seed,
                    "moves": list(moves),
                    "seat": seat,
                    "phase": obs.phase,
                    "medium": mm,
                    "iterations": iterations,
                    "configs": per,
                    "kind": move_kind(obs, mm, other),
                }
                recs.append(rec)
                if out is not None:
                    out.write(json.dumps(rec) + "\n")
                    out.flush()
            g.play(mm)
            moves.append(mm)
        if log is not None:
            print(
                f"seed {seed}: {len(moves)} moves, {decisions} searched decisions, "
                f"{len(recs)} recorded so far",
                file=log,
                flush=True,
            )
    return recs


def judge_position(rec: dict, samples: int = 150, seed: int = 1, open_hands: bool = False) -> dict:
    """The full-deal judged gain of each recorded override over ``medium``'s move; with
    ``open_hands`` in the true game, every hand as it is and only the stock reshuffled per
    sample (what the move earns at this very table: a yardstick that does not assume the
    other hands are as random as the seat's view makes them)."""
    g0 = rebuild(rec)
    seat = g0.current
    if seat != rec["seat"]:
        raise ValueError("the rebuilt position is not the recorded one")
    lines = [rec["medium"]] + sorted({c["move"] for c in rec["configs"].values()} - {rec["medium"]})
    per = play_lines(g0, lines, samples, seed, open_hands)
    judged = {}
    for m in lines[1:]:
        d = [a - b for a, b in zip(per[m], per[lines[0]])]
        mean, se = mean_se(d)
        judged[m] = {
            "mean": round(mean, 1),
            "se": round(se, 1),
            "won": sum(1 for x in d if x > 0),
            "lost": sum(1 for x in d if x < 0),
        }
    return {**rec, "judged": judged, "judge_samples": samples, "judge_open": open_hands}


def play_lines(
    g0: Game, lines: list[str], samples: int, seed: int = 1, open_hands: bool = False
) -> dict[str, list[float]]:
    """Each move of ``lines`` (legal for the current seat of ``g0``) played in the same
    ``samples`` worlds (common random numbers), the rest of the seat's turn by ``medium``, then
    ``medium`` at every seat to the end of the deal: per move, the seat's side's deal-score
    margin over the best other side in each world. The worlds: determinizations of the seat's
    view, or with ``open_hands`` the true game with only the stock reshuffled."""
    seat = g0.current
    obs = Observation.for_seat(g0, seat)
    side = obs.my_side
    med = MediumBot(seed=1)
    player = HardBot(seed=seed, rounds=1000, fast=False)
    per: dict[str, list[float]] = {m: [] for m in lines}
    for i in range(samples):
        for m in lines:
            if open_hands:
                g = g0.copy(log=True)
                random.Random(f"judge:{seed}:{i}").shuffle(g.stock)
            else:
                g = determinize(obs, random.Random(f"judge:{seed}:{i}"))
                laid_red_threes(g, seat)
            g.play(m)
            _turn(g, seat, {}, None, med)
            player.rollout(g, seat, random.Random(f"judge:{seed}:{i}:r"))
            per[m].append(outcome(g, side, False))
    return per


def mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, float("inf")
    m = sum(xs) / n
    if n < 2:
        return m, float("inf")
    return m, (sum((x - m) ** 2 for x in xs) / (n - 1) / n) ** 0.5


def t_of(z: float, n: int) -> float:
    """``HardBot``'s quantile: Cornish-Fisher for n - 1 degrees of freedom."""
    return z + (z**3 + z) / (4 * (n - 1)) if n > 1 else z


def keeps(c: dict, z: float, base_z: float = 1.5) -> bool:
    """Would ``confidence=z`` keep this override (the same samples)? One played without a search
    (no mean) is kept: no confidence decides it."""
    if c["mean"] is None:
        return True
    n = c["samples"]
    se = (c["mean"] - c["lower"]) / t_of(base_z, n)
    return c["mean"] - t_of(z, n) * se > 0


BUCKETS = ((25, "predicted < 25"), (75, "predicted 25-75"), (float("inf"), "predicted >= 75"))
UNSEARCHED = "not searched"  # the exact going-out turn, the last-turn habit: no predicted gain


def gain_bucket(gain: float | None) -> str:
    """The row of an override by the size of the gain ``hard`` predicted for it (``None``: a
    move ``hard`` played without a search)."""
    if gain is None:
        return UNSEARCHED
    return next(name for top, name in BUCKETS if gain < top)


def detail_kind(rec: dict, move: str) -> str | None:
    """A finer row for the kinds where the overrides split: a discard instead of ``medium``'s
    black three or of another card; a take with a wild card more or less than ``medium``'s
    (the same take otherwise), or another draw-phase choice."""
    mm = rec["medium"]
    if rec["kind"] == "discard":
        return (
            "discard, not medium's black three"
            if mm in ("discard 3S", "discard 3C")
            else "discard, other"
        )
    if rec["kind"] == "draw phase":
        a, b = sorted((mm.split(";")[0].split(), move.split(";")[0].split()), key=len)
        if a[0] == b[0] == "take" and b[: len(a)] == a:
            return "take, with or without a wild"
        return "draw phase, other"
    return None


def summarize(
    recs: list[dict], confidences: list[float] = (), min_gains: list[float] = ()
) -> list[dict]:
    """Rows per (configuration, kind): overrides, predicted and judged mean gain, 95 %
    interval of the judged mean over the overrides, share judged positive. ``confidences``
    and ``min_gains``: also the default configuration's overrides that a higher confidence,
    or a minimum predicted gain, would keep (in-sample: the same overrides)."""
    groups: dict[tuple[str, str], list[tuple[float | None, float]]] = {}
    for r in recs:
        for name, c in r["configs"].items():
            j = r["judged"][c["move"]]["mean"]
            names = [name]
            if name == "default":
                names += [f"default, confidence {z}" for z in confidences if keeps(c, z)]
                names += [
                    f"default, predicted >= {g}"
                    for g in min_gains  # (as ``keeps``)
                    if c["mean"] is None or c["mean"] >= g
                ]
            for nm in names:
                for kind in (r["kind"], detail_kind(r, c["move"]), gain_bucket(c["mean"]), "all"):
                    if kind is None:
                        continue
                    groups.setdefault((nm, kind), []).append((c["mean"], j))
    rows = []
    for (name, kind), xs in groups.items():
        preds = [p for p, _ in xs if p is not None]
        m, se = mean_se([j for _, j in xs])
        rows.append(
            {
                "config": name,
                "kind": kind,
                "n": len(xs),
                "predicted": round(sum(preds) / len(preds), 1) if preds else None,
                "judged": round(m, 1),
                "ci95": (round(m - 1.96 * se, 1), round(m + 1.96 * se, 1))
                if math.isfinite(se)
                else None,
                "agree": round(sum(j > 0 for _, j in xs) / len(xs), 2),
            }
        )
    details = (
        "discard, not medium's black three",
        "discard, other",
        "take, with or without a wild",
        "draw phase, other",
    )
    order = {
        k: i
        for i, k in enumerate(KINDS + details + tuple(n for _, n in BUCKETS) + (UNSEARCHED, "all"))
    }
    rows.sort(key=lambda r: (r["config"], order[r["kind"]]))
    return rows


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> int:
    p, sub, c = study_commands(__doc__)
    c.add_argument("--seeds", required=True)
    c.add_argument("--iterations", type=int, default=24)
    c.add_argument("--variant", action="append", default=[])
    c.add_argument("--out", required=True)
    j = sub.add_parser("judge")
    j.add_argument("path")
    j.add_argument("--out", required=True)
    j.add_argument("--samples", type=int, default=150)
    j.add_argument("--seed", type=int, default=1)
    j.add_argument(
        "--open",
        action="store_true",
        help="judge in the true game (hands as they are, the stock reshuffled)",
    )
    r = sub.add_parser("report")
    r.add_argument("path")
    r.add_argument("--confidence", type=float, action="append", default=[])
    r.add_argument("--min-gain", type=float, action="append", default=[])
    a = p.parse_args(argv)
    if a.cmd == "collect":
        try:
            seeds = parse_seeds(a.seeds)
            variants = [parse_variant(v) for v in a.variant]
        except ValueError as e:
            p.error(str(e))
        with open(a.out, "a", encoding="utf-8") as out:
            collect(seeds, a.iterations, variants, a.rules, a.players, out, sys.stderr)
        return 0
    if a.cmd == "judge":
        done = set()
        if os.path.exists(a.out):  # resumable: positions already judged are skipped
            done = {(x["deal_seed"], len(x["moves"])) for x in read_jsonl(a.out)}
        with open(a.out, "a", encoding="utf-8") as out:
            for rec in read_jsonl(a.path):
                if (rec["deal_seed"], len(rec["moves"])) in done:
                    continue
                res = judge_position(rec, a.samples, a.seed, a.open)
                out.write(json.dumps(res) + "\n")
                out.flush()
                print(
                    json.dumps(
                        {
                            "seed": rec["deal_seed"],
                            "at": len(rec["moves"]),
                            "kind": rec["kind"],
                            "medium": rec["medium"],
                            "configs": {
                                k: (v["move"], v["mean"]) for k, v in rec["configs"].items()
                            },
                            "judged": res["judged"],
                        }
                    ),
                    file=sys.stderr,
                    flush=True,
                )
        return 0
    for row in summarize(read_jsonl(a.path), a.confidence, a.min_gain):
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
