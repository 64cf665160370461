#!/usr/bin/env python3
"""Where a return visit's engine worker spends its CPU: a Chromium trace with V8's sampling
profiler, summed per function and per trace event, for each thread of the page's renderer.

    python tools/worker_trace.py [--runs 2] [--no-build] [--top 25]

Each run opens the built site in a fresh browser profile (first visit), deals a game, waits
for the service worker and the snapshot kept on the device, then traces a return visit from
navigation until the saved game is resumed. Prints, per thread (the page's main thread, the
engine's worker, the wasm helper), the CPU time seen by the sampling profiler (1 sample every
100 µs), its top functions by self time (wasm functions by their index), and the longest
trace events by thread time (`tdur`). Samples are CPU time, so the figures hold on a busy
machine; the sums of several runs are printed. A diagnostic tool, not a test.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))
import build  # noqa: E402

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "v8",
    "v8.execute",
    "v8.wasm",
    "disabled-by-default-v8.cpu_profiler",
    "disabled-by-default-v8.wasm.detailed",
    "toplevel",
    "blink",
    "loading",
]
SNAPSHOT_KEPT = "() => document.documentElement.dataset.engineSnapshot === 'kept'"


def threads_of(events: list) -> dict:
    """(pid, tid) -> thread name, from the trace's metadata."""
    return {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }


def profile(events: list) -> dict:
    """(pid, tid) -> Counter of function -> self ms, from the sampling profiler's chunks."""
    nodes: dict = {}  # (pid, profile id, node id) -> (label)
    owner: dict = {}  # (pid, profile id) -> (pid, tid)
    out: dict = collections.defaultdict(collections.Counter)
    for e in events:
        if e.get("name") == "Profile":
            owner[(e["pid"], e["id"])] = (e["pid"], e["tid"])
    for e in events:
        if e.get("name") != "ProfileChunk":
            continue
        key = (e["pid"], e["id"])
        data = e["args"]["data"]
        prof = data.get("cpuProfile", {})
        for n in prof.get("nodes", []):
            cf = n.get("callFrame", {})
            name = cf.get("functionName") or "(anonymous)"
            url = cf.get("url", "")
            where = url.rsplit("/", 1)[-1][:30] if url else cf.get("codeType", "")
            nodes[(key, n["id"])] = f"{name} [{where}]"
        samples = prof.get("samples", [])
        deltas = data.get("timeDeltas", [])
        thread = owner.get(key, (e["pid"], e["tid"]))
        for i, s in enumerate(samples):
            dt = deltas[i + 1] if i + 1 < len(deltas) else 100
            out[thread][nodes.get((key, s), "?")] += max(dt, 0) / 1000
    return out


def slices(events: list) -> dict:
    """(pid, tid) -> Counter of trace event name -> thread ms (outermost of each name)."""
    out: dict = collections.defaultdict(collections.Counter)
    for e in events:
        if e.get("ph") == "X" and "tdur" in e:
            out[(e["pid"], e["tid"])][e["name"]] += e["tdur"] / 1000
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--save", type=Path, help="also write each return visit's trace here")
    args = ap.parse_args()
    from bench_boot import BROWSER_START
    from conftest import chromium_args, chromium_path
    from play_driver import start_game
    from playwright.sync_api import expect, sync_playwright

    dist = build.DIST if args.no_build else build.build(quiet=True)
    server = build.make_server(dist, 0, "", quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    funcs: dict = collections.defaultdict(collections.Counter)
    events_by: dict = collections.defaultdict(collections.Counter)
    with sync_playwright() as pw:
        launch_args = chromium_args(pw, BROWSER_START)
        for i in range(args.runs):
            browser = pw.chromium.launch(
                executable_path=chromium_path(), headless=True, args=launch_args
            )
            try:
                ctx = browser.new_context(viewport={"width": 390, "height": 844})
                page = ctx.new_page()
                page.goto(base)
                expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=120_000)
                start_game(page, level="random")
                page.wait_for_function(SNAPSHOT_KEPT, timeout=120_000)
                page.wait_for_function(
                    "() => navigator.serviceWorker.controller !== null", timeout=60_000
                )
                page.close()
                page = ctx.new_page()
                browser.start_tracing(page=page, categories=CATEGORIES)
                page.goto(base)
                expect(page.locator('body[data-ready="1"][data-save="resumed"]')).to_have_count(
                    1, timeout=120_000
                )
                marks = json.loads(page.locator("html").get_attribute("data-engine-marks") or "{}")
                raw = browser.stop_tracing()
                events = json.loads(raw)["traceEvents"]
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"return-{i + 1}.json").write_bytes(raw)
            finally:
                browser.close()
            names = threads_of(events)
            for thread, counter in profile(events).items():
                funcs[names.get(thread, str(thread))].update(counter)
            for thread, counter in slices(events).items():
                name = names.get(thread, str(thread))
                if "Worker" in name or name == "CrRendererMain":
                    events_by[name].update(counter)
            print(
                f"[trace] run {i + 1}: bridge at {marks.get('bridge')} ms after the worker's start, "
                f"worker started {marks.get('start')} ms after navigation",
                file=sys.stderr,
                flush=True,
            )
    server.shutdown()
    for name, counter in sorted(funcs.items(), key=lambda kv: -sum(kv[1].values())):
        total = sum(v for k, v in counter.items() if not k.startswith("(idle)"))
        if total < 5:
            continue
        print(f"\n== {name}: {total / args.runs:.0f} ms sampled per run (idle excluded)")
        for fn, ms in counter.most_common(args.top):
            if fn.startswith("(idle)"):
                continue
            print(f"  {ms / args.runs:8.1f}  {fn}")
    for name, counter in events_by.items():
        print(f"\n== {name}: trace events by thread time (ms per run, nested events counted each)")
        for ev, ms in counter.most_common(args.top):
            print(f"  {ms / args.runs:8.1f}  {ev}")
    try:
        print(f"\nload average (1 min) at the end: {os.getloadavg()[0]:.2f}")
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
