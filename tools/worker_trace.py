#!/usr/bin/env python3
"""Where a return visit's engine worker spends its CPU: a Chromium trace with V8's sampling
profiler, summed per function and per trace event, for each thread of the page's renderer.

    python tools/worker_trace.py [--runs 2] [--no-build] [--top 25] [--phone] [--save DIR]

Each run opens the built site in a fresh browser profile (first visit), deals a game, waits
for the service worker and the snapshot kept on the device, then traces a return visit from
navigation until the saved game is resumed. Prints, per thread (the page's main thread, the
engine's worker, the wasm helper), the CPU time seen by the sampling profiler (1 sample every
100 µs), its top functions by self time (wasm functions by their index), and the longest
trace events by thread time (`tdur`). Samples are CPU time, so the figures hold on a busy
machine; the sums of several runs are printed. `--phone`: the first-visit benchmark's phone
profile (its viewport, and the page's main thread throttled 4×). With `--timeline`, each
thread's sampled CPU per 50 ms after navigation, with its top functions, and the page's own
moments (the saved table drawn, the engine's "ready" handled, the game resumed). A diagnostic
tool, not a test.
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


def print_timeline(events: list, names: dict, moments: dict, marks: dict) -> None:
    """Each thread's sampled CPU per 50 ms after navigation, with its top functions."""
    nav = [e["ts"] for e in events if e.get("name") == "navigationStart"]
    t0 = min(nav) if nav else min(e["ts"] for e in events if e.get("ts"))
    starts = {
        (e["pid"], e["id"]): (e["tid"], e["args"]["data"]["startTime"])
        for e in events
        if e.get("name") == "Profile"
    }
    labels: dict = {}
    clock: dict = {}
    buckets: dict = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for e in events:
        if e.get("name") != "ProfileChunk":
            continue
        key = (e["pid"], e["id"])
        tid, start = starts.get(key, (e["tid"], e["ts"]))
        data = e["args"]["data"]
        prof = data.get("cpuProfile", {})
        for n in prof.get("nodes", []):
            cf = n.get("callFrame", {})
            labels[(key, n["id"])] = (
                (cf.get("functionName") or "(anonymous)")
                + "@"
                + cf.get("url", "").rsplit("/", 1)[-1][:24]
            )
        now = clock.get(key, start)
        for sample, dt in zip(prof.get("samples", []), data.get("timeDeltas", [])):
            last, now = now, now + dt
            label = labels.get((key, sample), "?")
            if not label.startswith("(idle)"):
                buckets[f"{names.get((e['pid'], tid), tid)} {tid}"][
                    int((now - t0) / 1000 // 50) * 50
                ][label] += (now - last) / 1000
        clock[key] = now
    page = {k: round(v) for k, v in (moments or {}).items() if isinstance(v, (int, float))}
    worker = {
        k: marks[k] + marks.get("origin", 0)
        for k in ("instantiate_asked", "wasm_compiled", "module_created", "bridge")
        if k in marks
    }
    print(
        f"page moments (ms after navigation): {page}; worker (page time): {worker}, started {marks.get('start')}"
    )
    for thread, rows in buckets.items():
        if sum(sum(c.values()) for c in rows.values()) < 20:
            continue
        print(f"== {thread}")
        for b in sorted(rows):
            c = rows[b]
            top = ", ".join(f"{k} {v:.0f}" for k, v in c.most_common(3))
            print(f"  {b:5d} {sum(c.values()):4.0f} ms  {top}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--save", type=Path, help="also write each return visit's trace here")
    ap.add_argument("--phone", action="store_true", help="the phone profile, main thread 4x slower")
    ap.add_argument("--timeline", action="store_true")
    args = ap.parse_args()
    from bench_boot import BROWSER_START
    from bench_first_visit import CPU_SLOWDOWN, INIT, PHONE
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
                ctx = browser.new_context(
                    **(PHONE if args.phone else {"viewport": PHONE["viewport"]})
                )
                ctx.add_init_script(INIT)

                def new_page(ctx=ctx):
                    p = ctx.new_page()
                    if args.phone:
                        ctx.new_cdp_session(p).send(
                            "Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN}
                        )
                    return p

                page = new_page()
                page.goto(base)
                expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=120_000)
                start_game(page, level="random")
                page.wait_for_function(SNAPSHOT_KEPT, timeout=120_000)
                page.wait_for_function(
                    "() => navigator.serviceWorker.controller !== null", timeout=60_000
                )
                page.close()
                page = new_page()
                browser.start_tracing(page=page, categories=CATEGORIES)
                page.goto(base)
                expect(page.locator('body[data-ready="1"][data-save="resumed"]')).to_have_count(
                    1, timeout=120_000
                )
                marks = json.loads(page.locator("html").get_attribute("data-engine-marks") or "{}")
                moments = page.evaluate("window.__bench")
                raw = browser.stop_tracing()
                events = json.loads(raw)["traceEvents"]
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"return-{i + 1}.json").write_bytes(raw)
            finally:
                browser.close()
            names = threads_of(events)
            if args.timeline:
                print_timeline(events, names, moments, marks)
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
