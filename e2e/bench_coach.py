#!/usr/bin/env python3
"""The coach's review of a whole deal inside Pyodide in Chromium, beside normal ``hard``
decisions in the same worker (issue 39: a deal's review, p95 over 20 deals, as a ratio).

    python e2e/bench_coach.py [--deals 20] [--budget 0.5] [--rules samba] [--throttle 1]

The deals are ``easy`` self-play deals on the coach's measurement seeds
(``tools/coach_checks.py``, ``AGREEMENT_SEEDS``), made in CPython; the reviewed seat turns
round the table from deal to deal. The built site (dist/, built first if missing) is served on
loopback as in the e2e tests and opened in headless Debian Chromium, which starts a second
engine worker from the page (the table's worker.js). For each deal the page loads the record,
runs the review as the page does (``coach`` ``start``, then ``step`` until finished: a few
samples a request), and times it on the page's clock; then, at each of the reviewed
seat's decisions that had a choice, it loads the record up to that decision with the seat played by ``hard`` and
times one ``bot`` request (a normal ``hard`` decision at the level's own budget); the ratio
is taken to the decisions where ``hard`` searches (told apart in CPython afterwards). With
``--throttle 4`` the page's CPU is slowed as a phone's (CDP ``Emulation.setCPUThrottlingRate``).

Prints one JSON line per deal (to stderr) and a JSON summary: the review's p50/p95/max in
seconds, the longest single step in milliseconds (what a player's request may wait), the
``hard`` decisions' mean, the ratio of the review's p95 to a ``hard`` decision, and the machine's
load (wall-clock times: other processes' load counts like a slower machine).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

from bench_page import ROOT, WORKER, hard_searches, pct, site_page

sys.path.insert(0, str(ROOT / "tools"))

JS = (
    """async ([records, budget]) => {"""
    + WORKER
    + """
  const ask = async (request) => {
    const r = await call(request);
    const out = typeof r === "string" ? JSON.parse(r) : r;
    if (!out.ok) throw new Error(`${request.op}: ${JSON.stringify(out.error)}`);
    return out;
  };
  const out = [];
  for (const {record, seat} of records) {
    await ask({op: "load", record});
    const t0 = performance.now();
    let r = await ask({op: "coach", action: "start", seat, deal: 1, budget});
    let steps = 0, longest = 0;
    while (!r.coach.finished) {
      const s0 = performance.now();
      r = await ask({op: "coach", action: "step"});
      longest = Math.max(longest, performance.now() - s0);
      steps += 1;
    }
    const review = performance.now() - t0;
    const entries = r.result.decisions;
    const hard = [];
    for (const e of entries.filter((x) => !x.forced)) {
      const seats = record.seats.map((s, i) => (i === seat ? "hard" : "easy"));
      await ask({op: "load", record: {...record, seats, moves: record.moves.slice(0, e.index)}});
      const h0 = performance.now();
      await ask({op: "bot"});
      hard.push([e.index, performance.now() - h0]);
    }
    out.push({review_ms: review, steps, longest_step_ms: longest, decisions: entries.length,
              marked: entries.filter((e) => e.mark).length, hard_ms: hard});
  }
  w.terminate();
  return out;
}"""
)


def searched(recs: list[dict], deals: list[dict]) -> list[float]:
    """The timed ``hard`` decisions (seconds) where it searches (more than one shortlisted
    move, ``bench_page.hard_searches``): the decisions its budget is for."""
    return [
        ms / 1000
        for r, d in zip(recs, deals)
        for index, ms in d["hard_ms"]
        if hard_searches(r["record"], index)
    ]


def records(n: int, rules: str) -> list[dict]:
    from coach_checks import AGREEMENT_SEEDS, selfplay

    out = []
    for k, seed in enumerate(list(AGREEMENT_SEEDS)[:n]):
        rec = selfplay(rules, seed)
        seat = k % rec["players"]
        rec = {**rec, "seats": ["human" if i == seat else "easy" for i in range(rec["players"])]}
        rec.pop("check", None)
        out.append({"record": rec, "seat": seat, "seed": seed})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--budget", type=float, default=0.5, help="seconds per decision (samples)")
    ap.add_argument("--rules", default="samba")
    ap.add_argument("--throttle", type=float, default=1.0, help="CPU throttling rate (1: none)")
    args = ap.parse_args()
    recs = records(args.deals, args.rules)
    deals = []
    with site_page() as (ctx, page):
        if args.throttle != 1:
            ctx.new_cdp_session(page).send(
                "Emulation.setCPUThrottlingRate", {"rate": args.throttle}
            )
        for r in recs:
            (d,) = page.evaluate(JS, [[{"record": r["record"], "seat": r["seat"]}], args.budget])
            d["seed"] = r["seed"]
            print(
                json.dumps(
                    {
                        k: (round(v) if isinstance(v, float) else v)
                        for k, v in d.items()
                        if k != "hard_ms"
                    }
                ),
                file=sys.stderr,
                flush=True,
            )
            deals.append(d)
    reviews = [d["review_ms"] / 1000 for d in deals]
    hard = searched(recs, deals)
    hard_mean = statistics.mean(hard) if hard else float("nan")
    p95 = pct(reviews, 95)
    print(
        json.dumps(
            {
                "where": "Pyodide in headless Chromium, page clock",
                "rules": args.rules,
                "deals": len(deals),
                "budget": args.budget,
                "throttle": args.throttle,
                "review_s_p50": round(pct(reviews, 50), 2),
                "review_s_p95": round(p95, 2),
                "review_s_max": round(max(reviews), 2),
                "longest_step_ms": round(max(d["longest_step_ms"] for d in deals)),
                "hard_decisions": len(hard),
                "hard_decision_s_mean": round(hard_mean, 3),
                "ratio_review_p95_to_hard_decision": round(p95 / hard_mean, 1),
                "load_average_1min": round(os.getloadavg()[0], 1),
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
