#!/usr/bin/env python3
"""Boot benchmark in Debian's Chromium (headless): the site against a bare page that boots the
same Pyodide alone, side by side in one run.

    python build.py bench [--runs 3]        (or: python e2e/bench_boot.py [--runs 3])

Each run, in alternating order, opens each page in a browser profile of its own (a fresh
persistent context: empty disk cache, no service worker, as a new visitor), then again in a
new tab of the same profile (a returning visitor):

- bare:  navigation -> ready of a page whose module worker only runs loadPyodide
- site, first visit: navigation -> <body data-ready="1"> (the engine answers; the new-game
  dialog works); then a game is dealt, so that it is saved;
- site, return visit: navigation -> the saved game resumed by the engine
  (<body data-ready="1" data-save="resumed">), with the time the saved table was drawn
  (the first hand card), first contentful paint and whether the saved hand was in the DOM
  at first contentful paint (the first visit waits until the copy of its table that
  first-paint.js draws is written);
- bytes: what the server sent (response bodies, as a static host that compresses nothing
  sends them) from navigation until the service worker controls the page (its precache
  included) or, for the bare page, until ready.

Times come from the page's clock (origin = navigation start). Prints a JSON summary, then
the ratios against the goals of issue 13, one per line.

The browser is launched as the e2e tests launch it, with the features of BROWSER_START off
(both pages alike): a freshly started Chromium builds its omnibox popup (a WebUI page of its
own) while the first page loads, which a visitor's running browser did long before; Puppeteer
turns these off by default. `--with-browser-start` measures with them on.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import http.server
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import build  # noqa: E402

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide boot</title>
<script type="module" src="bench-bare.js"></script></head>
<body><p id="status">booting Pyodide…</p></body></html>
"""
BARE_JS = """const w = new Worker(new URL("./bench-bare-worker.js", import.meta.url), {type: "module"});
w.onmessage = (ev) => {
  document.getElementById("status").textContent = JSON.stringify(ev.data);
  if (ev.data.type === "ready") document.body.dataset.ready = "1";
};
"""
BARE_WORKER = """import { loadPyodide } from "./bare-pyodide/pyodide.mjs";
try {
  await loadPyodide({ lockFileURL: new URL("./app-lock.json", import.meta.url).href });
  postMessage({ type: "ready" });
} catch (err) {
  postMessage({ type: "error", message: String(err) });
}
"""
INIT_SCRIPT = """(() => {
  const t = (window.__bench = {});
  const check = () => {
    const b = document.body;
    if (!b) return;
    if (t.ready === undefined && b.dataset.ready === "1") t.ready = performance.now();
    if (t.resumed === undefined && b.dataset.ready === "1" && b.dataset.save === "resumed")
      t.resumed = performance.now();
    if (t.table === undefined && document.querySelector("#hand .card")) t.table = performance.now();
    if (t.codeCache === undefined && document.documentElement.dataset.codeCache)
      t.codeCache = performance.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true});
  // What the first contentful paint showed: the saved hand's cards in the DOM at that moment
  // (first-paint.js runs before the first frame; the observer's callback comes after it).
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === "first-contentful-paint" && t.fcpHand === undefined)
        t.fcpHand = document.querySelectorAll("#hand .card").length;
    }
  }).observe({type: "paint", buffered: true});
})();"""
COPY_WRITTEN = """(() => {
  const c = JSON.parse(localStorage.getItem("samba.paint.v1") || "null");
  return !!(c && c.table && String(c.table.version) === document.body.dataset.saved);
})()"""
PAINT = "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: null}).startTime"
CONTROLLED = "Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"
# What a freshly started Chromium does that a visitor's running browser has done already.
BROWSER_START = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest", ".wasm", ".txt")


class Meter:
    """Bytes the server sent per path (response bodies), for the current measurement."""

    def __init__(self, root: Path):
        self.root = root
        self.lock = threading.Lock()
        self.sent: collections.Counter = collections.Counter()
        self.codes: list = []
        self._gz: dict = {}

    def reset(self) -> None:
        with self.lock:
            self.sent.clear()
            self.codes.clear()

    def total(self) -> int:
        with self.lock:
            return sum(self.sent.values())

    def total_if_host_gzips(self) -> int:
        """The same responses if the host gzipped text and wasm (as many static hosts do)."""
        out = 0
        with self.lock:
            items = list(self.sent.items())
        for path, n in items:
            rel = path.split("?", 1)[0].lstrip("/") or "index.html"
            f = self.root / rel
            if n and f.suffix in COMPRESSIBLE and f.is_file():
                if rel not in self._gz:
                    self._gz[rel] = len(gzip.compress(f.read_bytes(), 6))
                out += self._gz[rel] * n // f.stat().st_size
            else:
                out += n
        return out

    def handler(self):
        meter = self

        class Handler(build.make_handler(self.root, quiet=True)):
            def send_head(self):
                # As a static host that compresses nothing (total_if_host_gzips computes the
                # rest; e2e/bench_first_visit.py measures a host that gzips).
                del self.headers["Accept-Encoding"]
                return super().send_head()

            def send_response(self, code, message=None):
                with meter.lock:
                    meter.codes.append((self.path, int(code)))
                super().send_response(code, message)

            def copyfile(self, source, outputfile):
                n = 0
                while True:
                    chunk = source.read(1 << 16)
                    if not chunk:
                        break
                    outputfile.write(chunk)
                    n += len(chunk)
                with meter.lock:
                    meter.sent[self.path] += n

        return Handler


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, Meter, str]:
    meter = Meter(root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), meter.handler())
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, meter, f"http://127.0.0.1:{server.server_address[1]}/"


def prepare_tree(dist: Path, tmp: Path) -> Path:
    """dist/ (hard links) + the bare page, in a temp dir."""
    tree = tmp / "site"
    try:
        shutil.copytree(dist, tree, copy_function=os.link)
    except OSError:
        shutil.copytree(dist, tree)
    (tree / "bench-bare.html").write_text(BARE_HTML)
    (tree / "bench-bare.js").write_text(BARE_JS)
    (tree / "bench-bare-worker.js").write_text(BARE_WORKER)
    # The bare page boots the runtime as npm ships it (the site's copy of pyodide.asm.mjs has the
    # build's compile hint, which is the site's doing, not the bare page's).
    (tree / "bare-pyodide").mkdir()
    for name in build.PYODIDE_RUNTIME_FILES:
        shutil.copyfile(build.pyodide_runtime() / name, tree / "bare-pyodide" / name)
    return tree


def stats(samples: list) -> dict:
    xs = [x for x in samples if x is not None]
    if not xs:
        return {"samples": samples}
    return {
        "median": round(statistics.median(xs), 1),
        "min": round(min(xs), 1),
        "max": round(max(xs), 1),
        "samples": [round(x, 1) for x in xs],
    }


def _poll(page, script: str, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.evaluate(script):
            return True
        time.sleep(0.05)
    return False


def _wait(page, selector: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator(selector)).to_have_count(1, timeout=120_000)


def visit_bare(pw, url: str, meter: Meter, launch) -> dict:
    out = {}
    with tempfile.TemporaryDirectory(prefix="samba-bench-profile-") as profile:
        ctx = launch(pw, profile)
        try:
            page = ctx.new_page()
            meter.reset()
            page.goto(url)
            _wait(page, 'body[data-ready="1"]')
            out["first"] = page.evaluate("window.__bench.ready")
            out["first_bytes"] = meter.total()
            out["first_bytes_gz"] = meter.total_if_host_gzips()
            out["first_fcp"] = page.evaluate(PAINT)
            page.close()
            page = ctx.new_page()
            page.goto(url)
            _wait(page, 'body[data-ready="1"]')
            out["return"] = page.evaluate("window.__bench.ready")
            out["return_fcp"] = page.evaluate(PAINT)
        finally:
            ctx.close()
    return out


def visit_site(pw, url: str, meter: Meter, launch) -> dict:
    from play_driver import start_game

    out = {}
    with tempfile.TemporaryDirectory(prefix="samba-bench-profile-") as profile:
        ctx = launch(pw, profile)
        try:
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            meter.reset()
            page.goto(url)
            _wait(page, 'body[data-ready="1"]')
            out["first"] = page.evaluate("window.__bench.ready")
            out["first_fcp"] = page.evaluate(PAINT)
            out["boot"] = page.locator("html").get_attribute("data-engine-boot")
            out["marks"] = json.loads(
                page.locator("html").get_attribute("data-engine-marks") or "{}"
            )
            out["controlled"] = _poll(page, CONTROLLED, 30)
            out["first_bytes"] = meter.total()
            out["first_bytes_gz"] = meter.total_if_host_gzips()
            out["runtime_downloads"] = sum(
                1 for p, c in meter.codes if p.endswith("pyodide.asm.wasm") and c == 200
            )
            start_game(page, level="random")
            _wait(page, "body[data-saved]")
            # The copy of the drawn table that the next visit's first frame shows is written a
            # moment after the save (and when the page is hidden, which a closed tab in this
            # benchmark is not): wait for it, as a player's next visit would find it.
            out["copy_written"] = _poll(page, COPY_WRITTEN, 30)
            # Likewise the code cache of the runtime's JavaScript, which sw-register.js primes
            # once the service worker has taken control (a player's first visit lasts a game;
            # this one would otherwise end a moment after the deal, often before the priming).
            out["code_cache_at_copy"] = page.locator("html").get_attribute("data-code-cache")
            out["copy_ms"] = page.evaluate("performance.now()")
            _wait(page, "html[data-code-cache]")
            out["code_cache"] = page.locator("html").get_attribute("data-code-cache")
            out["code_cache_ms"] = page.evaluate("window.__bench.codeCache")
            # And the memory snapshot the worker makes on the device once the page is idle
            # (docs/build.md), which the return visit restores.
            _wait(page, "html[data-engine-snapshot]")
            out["snapshot_kept"] = page.locator("html").get_attribute("data-engine-snapshot")
            page.close()
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            meter.reset()
            page.goto(url)
            _wait(page, 'body[data-ready="1"][data-save="resumed"]')
            bench = page.evaluate("window.__bench")
            out["return"] = bench.get("resumed")
            out["return_ready"] = bench.get("ready")
            out["return_table"] = bench.get("table")
            out["return_fcp"] = page.evaluate(PAINT)
            out["return_fcp_hand"] = bench.get("fcpHand")
            out["return_first_paint"] = page.locator("html").get_attribute("data-first-paint")
            out["return_bytes"] = meter.total()
            out["return_boot"] = page.locator("html").get_attribute("data-engine-boot")
            out["return_marks"] = json.loads(
                page.locator("html").get_attribute("data-engine-marks") or "{}"
            )
            if errors:
                out["errors"] = errors
        finally:
            ctx.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description="Pyodide boot benchmark (site vs bare page)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    ap.add_argument(
        "--with-browser-start",
        action="store_true",
        help="leave on what a freshly started Chromium builds for itself (BROWSER_START)",
    )
    args = ap.parse_args()

    from conftest import chromium_args, chromium_path
    from playwright.sync_api import sync_playwright

    launch_args: list = []

    def launch(pw, profile):
        if not launch_args:
            launch_args.extend(chromium_args(pw, () if args.with_browser_start else BROWSER_START))
        ctx = pw.chromium.launch_persistent_context(
            profile,
            executable_path=chromium_path(),
            headless=True,
            args=launch_args,
            viewport={"width": 1280, "height": 900},
        )
        ctx.add_init_script(INIT_SCRIPT)
        ctx.set_default_timeout(60_000)
        return ctx

    dist = (
        build.DIST
        if args.no_build and (build.DIST / "index.html").exists()
        else build.build(quiet=True)
    )
    rows = {"bare": [], "site": []}
    with tempfile.TemporaryDirectory(prefix="samba-bench-") as tmp:
        tree = prepare_tree(dist, Path(tmp))
        server, meter, base = serve(tree)
        urls = {"bare": base + "bench-bare.html", "site": base}
        with sync_playwright() as pw:
            visit_bare(pw, urls["bare"], meter, launch)  # warm up Chromium and the OS caches
            for i in range(args.runs):
                for kind in ["bare", "site"] if i % 2 == 0 else ["site", "bare"]:
                    visit = visit_bare if kind == "bare" else visit_site
                    rows[kind].append(visit(pw, urls[kind], meter, launch))
                b, s = rows["bare"][-1], rows["site"][-1]
                print(
                    f"[bench] run {i + 1}/{args.runs}: bare {b['first']:.0f}/{b['return']:.0f} ms, "
                    f"site {s['first']:.0f}/{s['return']:.0f} ms (first/return), "
                    f"boot {s['boot']}",
                    file=sys.stderr,
                    flush=True,
                )
            version = pw.chromium.name
        server.shutdown()
        server.server_close()

    def col(kind, key):
        return [r.get(key) for r in rows[kind]]

    def med(kind, key):
        return stats(col(kind, key)).get("median")

    def paired(key_s, key_b):
        pairs = [s / b for s, b in zip(col("site", key_s), col("bare", key_b)) if s and b]
        return round(statistics.median(pairs), 3) if pairs else None

    result = {
        "runs": args.runs,
        "pyodide": build.PYODIDE_VERSION,
        "browser": version,
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "browser_args": launch_args,
        "bare_first_ready_ms": stats(col("bare", "first")),
        "bare_return_ready_ms": stats(col("bare", "return")),
        "site_first_ready_ms": stats(col("site", "first")),
        "site_return_playable_ms": stats(col("site", "return")),
        "site_return_ready_ms": stats(col("site", "return_ready")),
        "site_return_saved_table_drawn_ms": stats(col("site", "return_table")),
        "site_first_fcp_ms": stats(col("site", "first_fcp")),
        "site_return_fcp_ms": stats(col("site", "return_fcp")),
        "bare_first_fcp_ms": stats(col("bare", "first_fcp")),
        "bare_return_fcp_ms": stats(col("bare", "return_fcp")),
        "site_return_hand_cards_at_fcp": col("site", "return_fcp_hand"),
        "site_return_first_paint": col("site", "return_first_paint"),
        "site_table_copy_written": col("site", "copy_written"),
        "site_code_cache_first_visit": col("site", "code_cache"),
        "site_code_cache_when_copy_written": col("site", "code_cache_at_copy"),
        "site_code_cache_primed_ms": stats(col("site", "code_cache_ms")),
        "site_first_visit_copy_written_ms": stats(col("site", "copy_ms")),
        "bare_first_bytes": stats(col("bare", "first_bytes")),
        "site_first_bytes": stats(col("site", "first_bytes")),
        "bare_first_bytes_if_host_gzips": stats(col("bare", "first_bytes_gz")),
        "site_first_bytes_if_host_gzips": stats(col("site", "first_bytes_gz")),
        "site_return_bytes": stats(col("site", "return_bytes")),
        "site_boot": col("site", "boot") + col("site", "return_boot"),
        "site_snapshot_kept_first_visit": col("site", "snapshot_kept"),
        "site_runtime_downloads_first_visit": col("site", "runtime_downloads"),
        "site_first_controlled_by_sw": col("site", "controlled"),
        "site_worker_marks_first_visit": col("site", "marks"),
        "site_worker_marks_return_visit": col("site", "return_marks"),
    }
    errors = [e for r in rows["site"] for e in r.get("errors", [])]
    if errors:
        result["page_errors"] = errors
    try:
        result["load_average_1min"] = round(os.getloadavg()[0], 2)
    except OSError:
        pass
    ratios = {
        "return": (med("site", "return") / med("bare", "return"), paired("return", "return"), 0.3),
        "first": (med("site", "first") / med("bare", "first"), paired("first", "first"), 0.6),
    }
    extra_mb = (med("site", "first_bytes") - med("bare", "first_bytes")) / 1e6
    extra_gz_mb = (med("site", "first_bytes_gz") - med("bare", "first_bytes_gz")) / 1e6
    with_hand = sum(1 for r in rows["site"] if r.get("return_fcp_hand"))
    result["ratios"] = {
        k: {"medians": round(v[0], 3), "paired_median": v[1], "goal": v[2]}
        for k, v in ratios.items()
    }
    result["first_visit_extra_mb"] = round(extra_mb, 2)
    result["first_visit_extra_mb_if_host_gzips"] = round(extra_gz_mb, 2)
    print(json.dumps(result, indent=1))

    def verdict(ok):
        return "ok" if ok else "MISSED"

    lines = [
        f"return visit playable: site {med('site', 'return'):.0f} ms / bare {med('bare', 'return'):.0f} ms "
        f"= {ratios['return'][0]:.2f}x (paired {ratios['return'][1]:.2f}x; goal <= 0.3x) "
        f"{verdict(ratios['return'][0] <= 0.3)}",
        f"first visit playable:  site {med('site', 'first'):.0f} ms / bare {med('bare', 'first'):.0f} ms "
        f"= {ratios['first'][0]:.2f}x (paired {ratios['first'][1]:.2f}x; goal <= 0.6x) "
        f"{verdict(ratios['first'][0] <= 0.6)}",
        f"first visit bytes:     site {med('site', 'first_bytes') / 1e6:.2f} MB, bare "
        f"{med('bare', 'first_bytes') / 1e6:.2f} MB: +{extra_mb:.2f} MB (goal <= 8 MB) "
        f"{verdict(extra_mb <= 8)}; if the host gzips text and wasm: +{extra_gz_mb:.2f} MB",
        f"first paint, first:    site {med('site', 'first_fcp'):.0f} ms, bare {med('bare', 'first_fcp'):.0f} ms "
        f"(paired {paired('first_fcp', 'first_fcp'):.2f}x; goal <= 300 ms) "
        f"{verdict((med('site', 'first_fcp') or 1e9) <= 300)}",
        f"first paint, return:   site {med('site', 'return_fcp'):.0f} ms, bare {med('bare', 'return_fcp'):.0f} ms "
        f"(paired {paired('return_fcp', 'return_fcp'):.2f}x; goal <= 300 ms) "
        f"{verdict((med('site', 'return_fcp') or 1e9) <= 300)}; saved hand in the first paint in "
        f"{with_hand}/{len(rows['site'])} runs (goal: all) {verdict(with_hand == len(rows['site']))}",
    ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
