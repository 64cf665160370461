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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import _Servers as Servers
from conftest import launch_chromium

import build

JS = """async ([rules, players, level, n, seed, hints]) => {
  const w = new Worker(new URL("./worker.js", location.href), {type: "module"});
  let next = 1; const waiting = new Map();
  const ready = new Promise((res, rej) => {
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === "ready") res();
      else if (m.type === "error") rej(new Error(m.message));
      else if (m.type === "response" && waiting.has(m.id)) { waiting.get(m.id)(m.response); waiting.delete(m.id); }
    };
  });
  const ask = (request) => new Promise((res) => { const id = next++; waiting.set(id, res); w.postMessage({type: "request", id, request}); });
  await ready;
  // seat 0 is a "human" who plays the Hint button's move when hints are timed too
  const seats = Array(players).fill(level);
  if (hints) seats[0] = "human";
  const games = [];   // {record, decisions: [[move index, ms, kind, samples]]}
  let g = 0, moves = 0, decisions = [];
  let r = await ask({op: "new_game", rules, players, seed, seats});
  let timed = 0;
  const finish = async () => {
    const rec = await ask({op: "record"});
    games.push({record: rec.record, decisions});
  };
  while (timed < n) {
    const phase = r.view.phase;
    if (phase === "game_over") {
      await finish(); g += 1; moves = 0; decisions = [];
      r = await ask({op: "new_game", rules, players, seed: seed + 1000 * g, seats});
    } else if (phase === "deal_over") {
      r = await ask({op: "move", move: "next"}); moves += 1;
    } else if (hints && r.view.seat === 0 && r.view.current === 0) {
      const t0 = performance.now();
      const h = await ask({op: "hint"});
      const ms = performance.now() - t0;
      if (!h.ok) throw new Error(JSON.stringify(h.error));
      decisions.push([moves, ms, "hint", h.samples]);
      r = await ask({op: "move", move: h.move, version: h.version});
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      moves += 1;
    } else {
      const t0 = performance.now();
      r = await ask({op: "bot"});
      const ms = performance.now() - t0;
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      decisions.push([moves, ms, "bot", null]); moves += 1; timed += 1;
    }
  }
  await finish();
  w.terminate();
  return games;
}"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


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
    from py_engine.ai.hard import HardBot
    from py_engine.legal import legal_moves
    from py_engine.observation import Observation
    from py_engine.record import replay

    out = []
    for game in games:
        rec = game["record"]
        for index, ms, kind, samples in game["decisions"]:
            g = replay(rec, upto=index)
            h = HardBot(seed=0, iterations=1)
            searched = len(h.searched(Observation.for_seat(g, g.current), legal_moves(g))) > 1
            out.append((ms, searched, kind, samples))
    return out


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
    dist = ROOT / "dist"
    if not (dist / "worker.js").exists():
        build.build()
    from playwright.sync_api import sync_playwright

    servers = Servers()
    url = servers.start(dist)
    out: dict = {
        "level": args.level,
        "where": "Pyodide in headless Chromium, bot request round trip (page clock)",
        "runs": {},
    }
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            ctx = browser.new_context(service_workers="block")
            page = ctx.new_page()
            page.goto(url + "index.html")
            cdp = ctx.new_cdp_session(page)
            if args.warmup:
                rules, players = args.rules.split(",")[0].split(":")
                page.evaluate(
                    JS, [rules, int(players), args.level, args.warmup, args.seed + 7, False]
                )
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
            browser.close()
    finally:
        servers.close()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
