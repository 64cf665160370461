#!/usr/bin/env python3
"""First-visit benchmark on a phone network (issue 35): the site against a bare page that boots
the same Pyodide alone, side by side in one run, on a phone profile over a shaped link.

    python build.py bench --first-visit [--runs 1] [--profiles fast4g,slow4g]
    (or, after a build: python e2e/bench_first_visit.py --no-build)

- the link: shaped in the server (e2e/netshape.py): one rate shared by every connection
  (Fast 4G 9 Mbit/s, Slow 4G 1.6 Mbit/s), 150 ms per connection and per response; the server
  compresses as GitHub Pages does (gzip on the fly for text, JavaScript, JSON and wasm; the
  `.br`/`.gz` files beside the large ones are not used) and sends ETags;
- the phone: 390x844, touch, mobile, CPU throttled 4x (CDP Emulation.setCPUThrottlingRate; it
  slows the page's main thread, not the workers, so a real phone's worker boot is slower);
- each visitor: a fresh browser profile (empty disk cache, no service worker), first visit,
  then a return visit in a new tab of the same profile;
- bare: a page whose module worker only runs loadPyodide from the npm runtime as shipped
  (`bare-pyodide/`, bench_boot.prepare_tree) with the same lock file;
- site, first visit: ready = <body data-ready="1"> (the engine answers; the new-game dialog is
  open and Deal works: "playable"); then Deal is pressed (the hand on the table: "dealt"), and
  the visit goes on until the service worker controls the page and the worker has kept its
  snapshot (as a player's first game would); return visit: the saved game resumed;
- bytes on the wire: what crossed the shaped link (headers and bodies as sent) from navigation
  to ready, and for the whole first visit (the service worker's install included);
- progress: the texts the boot status showed (how many while downloading, the longest pause).
Times from the page's clock (navigation start = 0). Prints JSON, then one line per measure with
the ratios against the goals.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from netshape import PROFILES, Link  # noqa: E402

import build  # noqa: E402

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-GB",
}
CPU_SLOWDOWN = 4
INIT = """(() => {
  const t = (window.__bench = { texts: [] });
  const check = () => {
    const b = document.body;
    const box = document.getElementById("boot-status");
    if (box) {
      const text = box.textContent;
      const last = t.texts[t.texts.length - 1];
      if (!last || last[1] !== text) t.texts.push([performance.now(), text]);
    }
    if (!b) return;
    if (t.ready === undefined && b.dataset.ready === "1") t.ready = performance.now();
    if (t.resumed === undefined && b.dataset.ready === "1" && b.dataset.save === "resumed") t.resumed = performance.now();
    if (t.dealt === undefined && t.ready !== undefined && document.querySelector("#hand .card")) t.dealt = performance.now();
    if (t.drawn === undefined && b.dataset.save === "drawn") t.drawn = performance.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();"""
CONTROLLED = "Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"
DOWNLOADING = re.compile(r"Downloading")


def _wait(page, selector: str, timeout_s: float = 400) -> None:
    from playwright.sync_api import expect

    expect(page.locator(selector)).to_have_count(1, timeout=timeout_s * 1000)


def _poll(page, script: str, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.evaluate(script):
            return True
        time.sleep(0.2)
    return False


def _phone_page(ctx):
    page = ctx.new_page()
    ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return page


def _progress(texts: list, ready: float) -> dict:
    down = [t for t, text in texts if DOWNLOADING.search(text) and t <= ready]
    steps = [t for t, _ in texts if t <= ready]
    gaps = [b - a for a, b in zip(steps, steps[1:])]
    return {
        "texts": len(steps),
        "download_texts": len(down),
        "longest_pause_ms": round(max(gaps), 0) if gaps else None,
    }


def visit(pw, kind: str, url: str, link: Link, launch) -> dict:
    from play_driver import start_game

    out = {}
    with tempfile.TemporaryDirectory(prefix="samba-bench-fv-") as profile:
        ctx = launch(pw, profile)
        try:
            page = _phone_page(ctx)
            link.reset()
            page.goto(url)
            _wait(page, 'body[data-ready="1"]')
            bench = page.evaluate("window.__bench")
            out["ready"] = bench["ready"]
            out["bytes_to_ready"] = link.total()
            if kind == "site":
                out["boot"] = page.locator("html").get_attribute("data-engine-boot")
                out["marks"] = json.loads(
                    page.locator("html").get_attribute("data-engine-marks") or "{}"
                )
                out["progress"] = _progress(bench["texts"], bench["ready"])
                start_game(page, players=2, level="random")
                _wait(page, "body[data-saved]")
                out["dealt"] = page.evaluate("window.__bench.dealt")
                out["controlled"] = _poll(page, CONTROLLED, 300)
                _wait(page, "html[data-engine-snapshot]")
                out["snapshot"] = page.locator("html").get_attribute("data-engine-snapshot")
                out["snapshot_about"] = json.loads(
                    page.locator("html").get_attribute("data-engine-snapshot-about") or "{}"
                )
                _wait(page, "html[data-code-cache]")
                time.sleep(1)  # the table's copy for the next first frame (150 ms after a save)
                out["bytes_first_visit"] = link.total()
            page.close()
            page = _phone_page(ctx)
            link.reset()
            page.goto(url)
            _wait(
                page,
                'body[data-ready="1"][data-save="resumed"]'
                if kind == "site"
                else 'body[data-ready="1"]',
            )
            bench = page.evaluate("window.__bench")
            out["return"] = bench["resumed"] if kind == "site" else bench["ready"]
            # The page's side of a return visit: the saved table drawn by app.js (before the
            # engine), the engine's "ready" handled, the saved game resumed (ms after navigation).
            out["return_page"] = {
                k: round(bench[k]) for k in ("drawn", "ready", "resumed") if k in bench
            }
            out["return_bytes"] = link.total()
            if kind == "site":
                out["return_boot"] = page.locator("html").get_attribute("data-engine-boot")
                out["return_marks"] = json.loads(
                    page.locator("html").get_attribute("data-engine-marks") or "{}"
                )
        finally:
            ctx.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--profiles", default="fast4g,slow4g")
    ap.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    args = ap.parse_args()
    profiles = [p for p in args.profiles.split(",") if p]

    from bench_boot import BROWSER_START, prepare_tree
    from conftest import chromium_args, chromium_path
    from playwright.sync_api import sync_playwright

    launch_args: list = []

    def launch(pw, profile):
        if not launch_args:
            launch_args.extend(chromium_args(pw, BROWSER_START))
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), headless=True, args=launch_args, **PHONE
        )
        ctx.add_init_script(INIT)
        ctx.set_default_timeout(120_000)
        return ctx

    dist = (
        build.DIST
        if args.no_build and (build.DIST / "index.html").exists()
        else build.build(quiet=True)
    )
    rows = {p: {"bare": [], "site": []} for p in profiles}
    loads = [round(os.getloadavg()[0], 1)]
    with tempfile.TemporaryDirectory(prefix="samba-bench-fv-") as tmp:
        tree = prepare_tree(dist, Path(tmp))
        with sync_playwright() as pw:
            for name in profiles:
                link = Link(*PROFILES[name])
                server = build.make_server(tree, 0, precompressed=False, handler_mixin=link.mixin())
                threading.Thread(target=server.serve_forever, daemon=True).start()
                base = f"http://127.0.0.1:{server.server_address[1]}/"
                urls = {"bare": base + "bench-bare.html", "site": base}
                for i in range(args.runs):
                    for kind in ["bare", "site"] if i % 2 == 0 else ["site", "bare"]:
                        rows[name][kind].append(visit(pw, kind, urls[kind], link, launch))
                        loads.append(round(os.getloadavg()[0], 1))
                    b, s = rows[name]["bare"][-1], rows[name]["site"][-1]
                    print(
                        f"[bench] {name} run {i + 1}/{args.runs}: bare {b['ready']:.0f}/{b['return']:.0f} ms, "
                        f"site {s['ready']:.0f}/{s['return']:.0f} ms (first/return), "
                        f"{s['bytes_to_ready'] / 1e6:.2f} vs {b['bytes_to_ready'] / 1e6:.2f} MB",
                        file=sys.stderr,
                        flush=True,
                    )
                server.shutdown()
                server.server_close()

    def med(name, kind, key):
        xs = [r[key] for r in rows[name][kind] if r.get(key) is not None]
        return statistics.median(xs) if xs else None

    result = {
        "runs": args.runs,
        "pyodide": build.PYODIDE_VERSION,
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "load_average_1min": {"min": min(loads), "max": max(loads)},
        "phone": {**PHONE, "cpu_slowdown": CPU_SLOWDOWN},
        "profiles": {},
    }
    lines = []
    ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
    goals_s = {"fast4g": 10, "slow4g": 40}
    for name in profiles:
        r = rows[name]
        result["profiles"][name] = {
            "link": {"mbit": PROFILES[name][0], "delay_s": PROFILES[name][1]},
            "bare": r["bare"],
            "site": r["site"],
        }
        sr, br = med(name, "site", "ready"), med(name, "bare", "ready")
        srt, brt = med(name, "site", "return"), med(name, "bare", "return")
        sb, bb = med(name, "site", "bytes_to_ready"), med(name, "bare", "bytes_to_ready")
        sfb = med(name, "site", "bytes_first_visit")
        dealt = med(name, "site", "dealt")
        pauses = [x["progress"]["longest_pause_ms"] for x in r["site"]]
        downs = [x["progress"]["download_texts"] for x in r["site"]]
        lines += [
            f"{name}: bytes on the wire to playable: site {sb / 1e6:.2f} MB, bare {bb / 1e6:.2f} MB "
            f"(goal <= 6 MB) {ok(sb <= 6e6)}; whole first visit (service worker's install included) {sfb / 1e6:.2f} MB",
            f"{name}: first visit playable: site {sr / 1e3:.1f} s, bare ready {br / 1e3:.1f} s = {sr / br:.2f}x "
            f"(goal <= 1.0x) {ok(sr <= br)}; <= {goals_s.get(name, 0)} s {ok(sr <= goals_s.get(name, 0) * 1e3)}; "
            f"dealt {dealt / 1e3:.1f} s",
            f"{name}: return visit playable: site {srt / 1e3:.2f} s, bare {brt / 1e3:.2f} s = {srt / brt:.2f}x "
            f"(goal <= 0.3x) {ok(srt <= 0.3 * brt)}",
            f"{name}: progress while downloading: {downs} texts, longest pause between texts {pauses} ms; "
            f"boots {[x['boot'] for x in r['site']]} / {[x['return_boot'] for x in r['site']]}, "
            f"snapshot {[x['snapshot'] for x in r['site']]}",
        ]
    print(json.dumps(result, indent=1))
    print(f"load average (1 min) during the run: {min(loads)}–{max(loads)}, {os.cpu_count()} cpus")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
