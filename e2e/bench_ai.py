#!/usr/bin/env python3
"""``hard``'s decision times inside Pyodide in Chromium, normal and with the CPU throttled
(issue 15, goal 4: p95 <= 1 s, and <= 1.5 s throttled four times, a phone).

    python e2e/bench_ai.py [--level hard] [--decisions 150] [--rules samba:4,dutch:4,crawford:6]
                           [--throttle 1,4] [--seed 1] [--warmup 40] [--no-hints]

Opens the built site (dist/, built first if missing) in headless Debian Chromium, served on
loopback like the e2e tests, and starts a second engine worker from the page (the same
worker.js the table uses). It plays games where the other seats are ``--level`` and times each
``bot`` request round trip on the page's clock (view + choose + play + JSON). For each
``--throttle`` rate the page's CPU is slowed with CDP ``Emulation.setCPUThrottlingRate``
(the rate applies to the page and its worker). Afterwards every timed decision is replayed
in CPython from the game records, and the ones where ``hard`` searches (more than one
shortlisted move: the decisions its budget is about) are told apart from the obvious ones.
Seat 0 is a "human" who asks the Hint button (``hint``, ``hard`` in its own time box) at
each of its turns and plays the hinted move; those requests are timed apart, with the
samples the hint's search used. A first untimed run (``--warmup``) lets the wasm code warm up.

Prints one JSON line per table and rate (to stderr while it runs) and a JSON summary: for all
decisions and for the searched ones, p50/p95/max/mean in milliseconds, and the machine's load
average when the run ended (the budget is wall-clock time: other processes' load counts like a
slower machine).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

from bench_page import WORKER, hard_searches, pct, site_page

JS = (
    """async ([rules, players, level, n, seed, hints]) => {"""
    + WORKER
    + """
  // seat 0 is a "human" who plays the Hint button's move when hints are timed too
  const seats = Array(players).fill(level);
  if (hints) seats[0] = "human";
  const games = [];   // {record, decisions: [[move index, ms, kind, samples]]}
  let g = 0, moves = 0, decisions = [];
  let r = await call({op: "new_game", rules, players, seed, seats});
  let timed = 0;
  const finish = async () => {
    const rec = await call({op: "record"});
    games.push({record: rec.record, decisions});
  };
  while (timed < n) {
    const phase = r.view.phase;
    if (phase === "game_over") {
      await finish(); g += 1; moves = 0; decisions = [];
      r = await call({op: "new_game", rules, players, seed: seed + 1000 * g, seats});
    } else if (phase === "deal_over") {
      r = await call({op: "move", move: "next"}); moves += 1;
    } else if (hints && r.view.seat === 0 && r.view.current === 0) {
      const t0 = performance.now();
      const h = await call({op: "hint"});
      const ms = performance.now() - t0;
      if (!h.ok) throw new Error(JSON.stringify(h.error));
      decisions.push([moves, ms, "hint", h.samples]);
      r = await call({op: "move", move: h.move, version: h.version});
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      moves += 1;
    } else {
      const t0 = performance.now();
      r = await call({op: "bot"});
      const ms = performance.now() - t0;
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      decisions.push([moves, ms, "bot", null]); moves += 1; timed += 1;
    }
  }
  await finish();
  w.terminate();
  return games;
}"""
)


def summary(times: list[float]) -> dict:
    if not times:
        return {"decisions": 0}
    return {
        "decisions": len(times),
        "p50_ms": round(pct(times, 50), 1),
        "p95_ms": round(pct(times, 95), 1),
        "max_ms": round(max(times), 1),
        "mean_ms": round(statistics.mean(times), 1),
    }


def searched_flags(games: list[dict]) -> list[tuple[float, bool, str, int | None]]:
    """(ms, whether ``hard`` searches there, "bot" or "hint", the hint's samples) per timed
    decision, from the game records."""
    return [
        (ms, hard_searches(game["record"], index), kind, samples)
        for game in games
        for index, ms, kind, samples in game["decisions"]
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="hard")
    ap.add_argument("--decisions", type=int, default=150, help="timed decisions per table/rate")
    ap.add_argument("--rules", default="samba:4,dutch:4,crawford:6")
    ap.add_argument("--throttle", default="1,4", help="CPU throttling rates (1: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--warmup",
        type=int,
        default=40,
        help="untimed decisions first (the wasm code warms up in the first worker)",
    )
    ap.add_argument(
        "--no-hints",
        action="store_true",
        help="every seat a computer (default: seat 0 plays the Hint's move, timed)",
    )
    args = ap.parse_args()
    out: dict = {
        "level": args.level,
        "where": "Pyodide in headless Chromium, bot request round trip (page clock)",
        "runs": {},
    }
    with site_page() as (ctx, page):
        cdp = ctx.new_cdp_session(page)
        if args.warmup:
            rules, players = args.rules.split(",")[0].split(":")
            page.evaluate(JS, [rules, int(players), args.level, args.warmup, args.seed + 7, False])
        for rate in [float(x) for x in args.throttle.split(",")]:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            for spec in args.rules.split(","):
                rules, players = spec.split(":")
                games = page.evaluate(
                    JS,
                    [
                        rules,
                        int(players),
                        args.level,
                        args.decisions,
                        args.seed,
                        not args.no_hints,
                    ],
                )
                load = round(os.getloadavg()[0], 1)
                flags = searched_flags(games)
                key = f"{spec} throttle {rate:g}x"
                bots = [f for f in flags if f[2] == "bot"]
                hints = [f for f in flags if f[2] == "hint"]
                run = out["runs"][key] = {
                    "all": summary([f[0] for f in bots]),
                    "searched": summary([f[0] for f in bots if f[1]]),
                    "load_average_1min": load,
                }
                if hints:
                    samples = sorted(f[3] for f in hints if f[1])
                    run["hint_searched"] = summary([f[0] for f in hints if f[1]])
                    run["hint_samples_p50_min"] = (
                        [pct(samples, 50), samples[0]] if samples else None
                    )
                print(json.dumps({key: out["runs"][key]}), file=sys.stderr, flush=True)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
