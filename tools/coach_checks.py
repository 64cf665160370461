#!/usr/bin/env python3
"""The coach's checks (issue 39; docs/ai.md, "The coach"): each prints JSON lines, the last one
the figures.

    python tools/coach_checks.py blunders [--budget 0.5] [--id CASE]
    python tools/coach_checks.py agreement [--deals 200] [--first 0] [--budget 0.5] [--rules samba]
    python tools/coach_checks.py bench [--deals 5] [--budget 0.5] [--rules samba]

- ``blunders``: for each position of the blunder suite (``tests/blunders``), the coach weighs
  the labelled blunder line's move (``medium``'s best-ranked move that is a blunder of the case)
  and the good line's (its best-ranked move that is not); the figures are the share of blunder
  lines marked (mistake or blunder) and the share of good lines left unmarked. For a case whose
  blunder is going out (``after.not_out``) the lines are ``medium``'s best move that goes out
  and its best that does not; for one whose blunder is keeping cards (``after.not_held``),
  ``medium``'s best move that lays one of them and its best discard that keeps them all.
- ``agreement``: ``easy`` self-play deals (one deal each, on the deal seeds reserved for this
  measurement, ``AGREEMENT_SEEDS``; the reviewed seat turns round the table from deal to deal)
  reviewed at ``--budget``; every marked decision is weighed again at four times the samples
  with other samples (seed 1): the figure is the share still marked.
- ``bench``: a whole deal's review (``easy`` self-play deals on the same reserved seeds) beside a
  normal ``hard`` decision (its default configuration and the reference machine's budget,
  ``hard.DEFAULT_BUDGET``, on this process's CPU clock; the decisions of the same seat where it
  searches), in CPU seconds, side by side in one run: the ratio is what a review costs in
  ``hard`` moves.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from py_engine.ai.act import bot_move  # noqa: E402
from py_engine.ai.coach import assess, review, samples_for  # noqa: E402
from py_engine.ai.explain import _laid  # noqa: E402
from py_engine.ai.hard import DEFAULT_BUDGET, HardBot  # noqa: E402
from py_engine.ai.info import Info  # noqa: E402
from py_engine.ai.judge import goes_out, is_blunder, load_cases, position  # noqa: E402
from py_engine.ai.levels import make_bot  # noqa: E402
from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.cards import parse_kind  # noqa: E402
from py_engine.legal import legal_moves  # noqa: E402
from py_engine.moves import Discard, LayRedThree, Move, parse_move  # noqa: E402
from py_engine.observation import Observation  # noqa: E402
from py_engine.record import game_record  # noqa: E402
from py_engine.state import Game  # noqa: E402

LIVE = ("draw", "meld", "answer")
# Deal seeds for the coach's measurements only (never for tuning its thresholds or hard): the
# agreement and the benchmark play their deals here.
AGREEMENT_SEEDS = range(39000, 39200)


def lines(case: dict, g: Game) -> tuple[Observation, list[Move], Move | None, Move | None]:
    """(the observation weighed, its legal moves, the blunder line's move, the good line's
    move) at the case's position (module doc); for ``after.not_out``, at the first step of
    ``medium``'s turn where one move goes out and another does not (the steps before are the
    same in both lines)."""
    seat = g.current
    for _ in range(12):
        obs, legal = Observation.for_seat(g, seat), legal_moves(g)
        info = Info.from_observation(obs, legal)
        ranked = [m for _, m in MediumBot(seed=1).rank(info, legal)]
        bad, good = _split(case, info, ranked)
        if bad and good or not case.get("after", {}).get("not_out") or not ranked:
            break
        g.play(ranked[0])
        if g.current != seat or g.phase not in LIVE:
            break
    return obs, legal, (bad[0] if bad else None), (good[0] if good else None)


def _lays(move: Move) -> set[int]:
    """The kinds a move lays from the hand: a meld's or a take's cards, a red three laid."""
    return set(_laid(move)) | ({move.card} if isinstance(move, LayRedThree) else set())


def _split(case: dict, info: Info, ranked: list[Move]) -> tuple[list[Move], list[Move]]:
    after = case.get("after", {})
    if after.get("not_out"):
        bad = [m for m in ranked if goes_out(info, m)]
        good = [m for m in ranked if not goes_out(info, m)]
    elif after.get("not_held"):
        kinds = {parse_kind(t) for t in after["not_held"]}
        good = [m for m in ranked if type(m) is not Discard and kinds & _lays(m)]
        bad = [m for m in ranked if type(m) is Discard and m.card not in kinds]
    else:
        bad = [m for m in ranked if is_blunder(case, m.text())]
        good = [m for m in ranked if not is_blunder(case, m.text())]
    return bad, good


def case_verdicts(case: dict, samples: int, seed: int = 0) -> dict:
    """The coach's verdicts on one case's blunder line and good line (``lines``)."""
    obs, legal, bad, good = lines(case, position(case))
    row: dict = {"id": case["id"]}
    for name, move in (("blunder_line", bad), ("good_line", good)):
        if move is not None:
            e = assess(obs, legal, move, samples, seed)
            row[name] = {k: e[k] for k in ("move", "best", "cost", "interval", "mark")}
    return row


def blunders(a) -> int:
    cases = [c for c in load_cases(a.path) if not a.id or c["id"] in a.id]
    samples = samples_for(a.budget)
    rows = []
    for c in cases:
        rows.append(case_verdicts(c, samples, a.seed))
        print(json.dumps(rows[-1]), flush=True)
    bad = [r["blunder_line"] for r in rows if "blunder_line" in r]
    good = [r["good_line"] for r in rows if "good_line" in r]
    print(
        json.dumps(
            {
                "cases": len(cases),
                "samples": samples,
                "blunder_lines_marked": [sum(e["mark"] is not None for e in bad), len(bad)],
                "good_lines_unmarked": [sum(e["mark"] is None for e in good), len(good)],
            }
        )
    )
    return 0


def selfplay(rules: str, seed: int, level: str = "easy") -> dict:
    """The record of one deal of ``level`` self-play on the deal seed ``seed``."""
    g = Game.new(rules, None, seed=seed)
    bots = [make_bot(level, seed=seed * 10 + s) for s in range(g.players)]
    while g.phase in LIVE:
        g.play(bot_move(bots[g.current], g, g.current))
    return game_record(g)


def agreement(a) -> int:
    seeds = list(AGREEMENT_SEEDS)[a.first : a.first + a.deals]
    samples = samples_for(a.budget)
    marked = confirmed = same_best = 0
    for k, seed in enumerate(seeds):
        rec = selfplay(a.rules, seed)
        seat = (a.first + k) % rec["players"]
        r = review(rec, seat, a.budget, 0)
        for e in r["decisions"]:
            if e["mark"] is None:
                continue
            g2 = _at(rec, e["index"])
            legal = legal_moves(g2)
            played = next(m for m in legal if m == parse_move(e["move"]))
            check = assess(Observation.for_seat(g2, seat), legal, played, 4 * samples, 1)
            marked += 1
            confirmed += check["mark"] is not None
            same_best += check["best"] == e["best"]
            print(
                json.dumps(
                    {
                        "seed": seed,
                        "seat": seat,
                        "index": e["index"],
                        "move": e["move"],
                        "mark": e["mark"],
                        "cost": e["cost"],
                        "check_mark": check["mark"],
                        "check_cost": check["cost"],
                        "check_interval": check["interval"],
                    }
                ),
                flush=True,
            )
        print(
            json.dumps({"deal": seed, "done": k + 1, "marked": marked, "confirmed": confirmed}),
            file=sys.stderr,
            flush=True,
        )
    print(
        json.dumps(
            {
                "rules": a.rules,
                "deals": len(seeds),
                "seeds": [seeds[0], seeds[-1]] if seeds else [],
                "samples": samples,
                "check_samples": 4 * samples,
                "marked": marked,
                "confirmed": confirmed,
                "share": round(confirmed / marked, 3) if marked else None,
                "same_best_move": same_best,
            }
        )
    )
    return 0


def _at(rec: dict, index: int) -> Game:
    g = Game.new(rec["rules"], rec["players"], seed=rec["seed"])
    for m in rec["moves"][:index]:
        g.play(m)
    return g


def bench(a) -> int:
    seeds = list(AGREEMENT_SEEDS)[: a.deals]
    reviews, hard_times = [], []
    for k, seed in enumerate(seeds):
        rec = selfplay(a.rules, seed)
        seat = k % rec["players"]
        t = time.process_time()
        r = review(rec, seat, a.budget, 0)
        reviews.append(time.process_time() - t)
        # a normal hard decision at each of the seat's decisions that hard searches
        g = Game.new(rec["rules"], rec["players"], seed=rec["seed"])
        bot = HardBot(seed=0, budget=DEFAULT_BUDGET, clock="cpu")
        for m in rec["moves"]:
            if g.current == seat and g.phase in LIVE:
                obs, legal = Observation.for_seat(g, seat), legal_moves(g)
                t = time.process_time()
                bot.decide(obs, legal)
                dt = time.process_time() - t
                if bot.last_stats.get("samples"):
                    hard_times.append(dt)
            g.play(m)
        print(
            json.dumps(
                {"deal": seed, "decisions": len(r["decisions"]), "review_s": round(reviews[-1], 2)}
            ),
            flush=True,
        )
    reviews.sort()
    hard_times.sort()
    p95 = reviews[min(len(reviews) - 1, int(round(0.95 * (len(reviews) - 1))))]
    hard_mean = sum(hard_times) / len(hard_times) if hard_times else float("nan")
    print(
        json.dumps(
            {
                "rules": a.rules,
                "deals": len(reviews),
                "budget": a.budget,
                "samples": samples_for(a.budget),
                "review_s_p50": round(reviews[len(reviews) // 2], 2),
                "review_s_p95": round(p95, 2),
                "hard_decision_s_mean": round(hard_mean, 3),
                "hard_decisions": len(hard_times),
                "ratio_p95_to_hard_decision": round(p95 / hard_mean, 1),
                "ratio_p95_to_hard_budget": round(p95 / DEFAULT_BUDGET, 1),
            }
        )
    )
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("blunders")
    b.add_argument(
        "--path", default=str(Path(__file__).resolve().parent.parent / "tests" / "blunders")
    )
    b.add_argument("--id", action="append", default=[])
    for q in (b, sub.add_parser("agreement"), sub.add_parser("bench")):
        q.add_argument("--budget", type=float, default=0.5)
        q.add_argument("--seed", type=int, default=0)
        if q is not b:
            q.add_argument("--rules", default="samba")
            q.add_argument("--deals", type=int, default=200 if q.prog.endswith("agreement") else 5)
            q.add_argument("--first", type=int, default=0)
    a = p.parse_args(argv)
    return {"blunders": blunders, "agreement": agreement, "bench": bench}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
