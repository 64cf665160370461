#!/usr/bin/env python3
"""What the first frame costs the renderer in CPU: Chromium traces of first and return visits
of variants of the built index.html, side by side in one run.

    python tools/paint_trace.py [--runs 3] [--variants site,flat2,noshadow2] [--no-build]

The variants are those of tools/boot_paint_probe.py (e.g. `site`, `nostyle`, the `...2`
overrides appended to the inlined styles). Each run, in alternating order, opens each variant
in a fresh browser context with tracing on (first visit: until the engine is ready), deals a
game, waits for the service worker and the copy of the table, and traces a return visit
(until the saved game is resumed). Prints, per variant and visit, the medians of first
contentful paint (wall, page clock) and of the renderer's work before it, as thread time
(CPU, the trace events' `tdur`) and as wall time: on a busy machine the wall time of a task
is mostly waiting for a core, the thread time is what the page asked for. Launches Chromium
as e2e/bench_boot.py does. A diagnostic tool, not a test.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))
sys.path.insert(0, str(ROOT / "tools"))
import build  # noqa: E402

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "blink",
    "cc",
    "toplevel",
    "v8",
    "loading",
]
# trace event -> what it is
STEPS = {
    "ParseHTML": "parse",
    "v8.evaluateModule": "script",
    "EvaluateScript": "script",
    "FunctionCall": "script",
    "TimerFire": "script",
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "PrePaint": "paint",
    "Paint": "paint",
    "Layerize": "paint",
    "Commit": "commit",
    "RasterTask": "raster",
}
COPY_WRITTEN = """() => {
  const c = JSON.parse(localStorage.getItem("samba.paint.v1") || "null");
  return !!(c && c.table && String(c.table.version) === document.body.dataset.saved);
}"""


def summarise(raw: bytes, fcp_ms: float) -> dict | None:
    """Thread and wall time per step in the page's renderer from navigation to the first
    contentful paint (nested events of one step counted once: the outermost)."""
    events = json.loads(raw)["traceEvents"]
    fcp = [e for e in events if e.get("name") == "firstContentfulPaint"]
    if not fcp or fcp_ms is None:
        return None
    end, pid = fcp[0]["ts"], fcp[0]["pid"]
    start = end - fcp_ms * 1000
    out: collections.Counter = collections.Counter()
    spans: dict = collections.defaultdict(list)  # (tid, step) -> [(start, end)] counted
    for e in sorted(events, key=lambda e: e["ts"]):
        step = STEPS.get(e.get("name"))
        if not step or e.get("ph") != "X" or e["pid"] != pid or not start <= e["ts"] <= end:
            continue
        key = (e["tid"], step)
        if spans[key] and e["ts"] < spans[key][-1]:
            continue  # inside an event of the same step already counted
        spans[key].append(e["ts"] + e.get("dur", 0))
        out[f"cpu_{step}"] += e.get("tdur", 0) / 1000
        out[f"wall_{step}"] += e.get("dur", 0) / 1000
    out["cpu_total"] = sum(v for k, v in out.items() if k.startswith("cpu_"))
    out["fcp"] = fcp_ms
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variants", default="site,nostyle")
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    from bench_boot import BROWSER_START, PAINT
    from boot_paint_probe import variants
    from conftest import chromium_args, chromium_path
    from play_driver import start_game
    from playwright.sync_api import expect, sync_playwright

    dist = build.DIST if args.no_build else build.build(quiet=True)
    names = args.variants.split(",")
    pages = variants((dist / "index.html").read_text())
    unknown = [n for n in names if n not in pages]
    if unknown:
        sys.exit(f"paint_trace: unknown variants {unknown}; known: {sorted(pages)}")
    rows: dict = {n: {"first": [], "return": []} for n in names}
    with tempfile.TemporaryDirectory(prefix="samba-trace-") as tmp:
        bases, servers = {}, []
        for name in names:  # one tree and origin per variant (its own service worker)
            tree = Path(tmp) / name
            shutil.copytree(dist, tree, copy_function=os.link)
            (tree / "index.html").unlink()
            (tree / "index.html").write_text(pages[name])
            (tree / build.SW_NAME).unlink()
            build.write_service_worker(tree)
            server = build.make_server(tree, 0, "", quiet=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            bases[name] = f"http://127.0.0.1:{server.server_address[1]}/"
        with sync_playwright() as pw:
            launch_args = chromium_args(pw, BROWSER_START)
            for i in range(args.runs):
                for name in names if i % 2 == 0 else names[::-1]:
                    browser = pw.chromium.launch(
                        executable_path=chromium_path(), headless=True, args=launch_args
                    )
                    try:
                        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                        page = ctx.new_page()
                        browser.start_tracing(page=page, categories=CATEGORIES)
                        page.goto(bases[name])
                        expect(page.locator('body[data-ready="1"]')).to_have_count(
                            1, timeout=120_000
                        )
                        fcp = page.evaluate(PAINT)
                        rows[name]["first"].append(summarise(browser.stop_tracing(), fcp))
                        start_game(page, level="random")
                        page.wait_for_function(
                            "() => navigator.serviceWorker.controller !== null", timeout=60_000
                        )
                        page.wait_for_function(COPY_WRITTEN, timeout=60_000)
                        page.close()
                        page = ctx.new_page()
                        browser.start_tracing(page=page, categories=CATEGORIES)
                        page.goto(bases[name])
                        expect(
                            page.locator('body[data-ready="1"][data-save="resumed"]')
                        ).to_have_count(1, timeout=120_000)
                        fcp = page.evaluate(PAINT)
                        rows[name]["return"].append(summarise(browser.stop_tracing(), fcp))
                    finally:
                        browser.close()
                    got = {
                        v: round((rows[name][v][-1] or {}).get("cpu_total", -1)) for v in rows[name]
                    }
                    print(
                        f"[trace] {name}: cpu before first paint (ms) {got}",
                        file=sys.stderr,
                        flush=True,
                    )
        for server in servers:
            server.shutdown()

    print(
        f"{'variant':12s} {'visit':6s} {'fcp':>5s} {'cpu':>5s} "
        + " ".join(f"{s:>13s}" for s in ("raster", "layout", "style", "script", "paint", "parse"))
        + "   (cpu/wall ms)"
    )
    for name in names:
        for visit in ("first", "return"):
            rs = [r for r in rows[name][visit] if r]
            if not rs:
                continue

            def med(key):
                return statistics.median(r.get(key, 0) for r in rs)  # noqa: B023 (called in this iteration)

            cols = " ".join(
                f"{med('cpu_' + s):6.1f}/{med('wall_' + s):6.1f}"
                for s in ("raster", "layout", "style", "script", "paint", "parse")
            )
            print(f"{name:12s} {visit:6s} {med('fcp'):5.0f} {med('cpu_total'):5.1f} {cols}")
    try:
        print(f"load average (1 min) at the end: {os.getloadavg()[0]:.2f}")
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
