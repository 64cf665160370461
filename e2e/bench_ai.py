#!/usr/bin/env python3
"""Computer decision times inside Pyodide in Chromium (issue 4's speed target).

    python e2e/bench_ai.py [--level hard] [--decisions 120] [--rules samba:4,dutch:4,crawford:6]

Opens the built site in headless Debian Chromium, starts a second engine worker from the page
(the same worker.js the table uses), plays games where every seat is the given level, and times
each `bot` request round trip on the page's clock (view + choose + play + JSON). Prints JSON with
p50/p95/max per rule set. Run `python build.py` first (or it builds dist/ itself).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import build  # noqa: E402
from conftest import _Servers as Servers, launch_chromium  # noqa: E402

JS = """async ([rules, players, level, n, seed]) => {
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
  const seats = Array(players).fill(level);
  let r = await ask({op: "new_game", rules, players, seed, seats});
  const times = [];
  while (times.length < n) {
    const phase = r.view.phase;
    if (phase === "game_over") r = await ask({op: "new_game", rules, players, seed: seed + times.length, seats});
    else if (phase === "deal_over") r = await ask({op: "move", move: "next"});
    else {
      const t0 = performance.now();
      r = await ask({op: "bot"});
      times.push(performance.now() - t0);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    }
  }
  w.terminate();
  return times;
}"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="hard")
    ap.add_argument("--decisions", type=int, default=120)
    ap.add_argument("--rules", default="samba:4,dutch:4,crawford:6")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    dist = ROOT / "dist"
    if not (dist / "worker.js").exists():
        build.build()
    from playwright.sync_api import sync_playwright
    servers = Servers()
    url = servers.start(dist)
    out = {"level": args.level, "where": "Pyodide in headless Chromium (bot request round trip)"}
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            ctx = browser.new_context(service_workers="block")
            page = ctx.new_page()
            page.goto(url + "index.html")
            for spec in args.rules.split(","):
                rules, players = spec.split(":")
                times = page.evaluate(JS, [rules, int(players), args.level, args.decisions,
                                           args.seed])
                out[spec] = {"decisions": len(times), "p50_ms": round(pct(times, 50), 1),
                             "p95_ms": round(pct(times, 95), 1), "max_ms": round(max(times), 1),
                             "mean_ms": round(statistics.mean(times), 1)}
                print(json.dumps({spec: out[spec]}), file=sys.stderr, flush=True)
            browser.close()
    finally:
        servers.close()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
