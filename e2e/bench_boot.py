#!/usr/bin/env python3
"""Boot benchmark in Debian's Chromium (headless): the site vs. a bare Pyodide page.

    python build.py bench [--runs 5]        (or: python e2e/bench_boot.py [--runs 5])

For each run, in a fresh browser context (empty HTTP cache), alternating the order:

- site:     navigation -> <body data-ready="1"> (the worker has Pyodide, the engine, the Bridge)
- bare:     navigation -> ready of a page that only boots the same Pyodide in a module worker
- engine via the app lock file vs. via micropip (bare worker + engine, two ways), for the
  lock-file decision in docs/build.md
- first contentful paint of the site (the static table shell) and of the bare page
- a warm reload of the site in the same context (revalidated HTTP cache)

Times come from the page's own clock (performance.now(), origin = navigation start): an init
script records when data-ready turns "1". Prints JSON with the samples, medians and the ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import build  # noqa: E402

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide boot</title></head>
<body><p id="status">booting Pyodide…</p>
<script type="module" src="bench-bare.js"></script></body></html>
"""
BARE_JS = """const mode = new URL(location.href).searchParams.get("mode") || "bare";
const w = new Worker(new URL(`./bench-bare-worker.js?mode=${mode}`, import.meta.url), {type: "module"});
w.onmessage = (ev) => {
  document.getElementById("status").textContent = JSON.stringify(ev.data);
  if (ev.data.type === "ready") document.body.dataset.ready = "1";
};
"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const mode = new URL(import.meta.url).searchParams.get("mode");
const lockFileURL = new URL("./app-lock.json", import.meta.url).href;
try {
  let py;
  if (mode === "lock") {
    py = await loadPyodide({ lockFileURL, packages: ["py_engine"] });
    py.pyimport("py_engine.bridge");
  } else if (mode === "micropip") {
    py = await loadPyodide({ lockFileURL });
    await py.loadPackage(new URL("./bench/MICROPIP", import.meta.url).href);
    const micropip = py.pyimport("micropip");
    await micropip.install.callKwargs(new URL("./WHEEL", import.meta.url).href, { deps: false });
    py.pyimport("py_engine.bridge");
  } else {
    py = await loadPyodide({ lockFileURL });
  }
  postMessage({ type: "ready" });
} catch (err) {
  postMessage({ type: "error", message: String(err) });
}
"""
INIT_SCRIPT = """(() => {
  const mark = () => {
    if (!window.__benchReady && document.body && document.body.dataset.ready === "1")
      window.__benchReady = performance.now();
  };
  new MutationObserver(mark).observe(document, {subtree: true, attributes: true,
                                                attributeFilter: ["data-ready"]});
})();"""
PAINT = "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: null}).startTime"


def prepare_tree(dist: Path, tmp: Path) -> Path:
    """dist/ (hard links) + the bare page + micropip's wheel, in a temp dir."""
    tree = tmp / "site"
    try:
        shutil.copytree(dist, tree, copy_function=os.link)
    except OSError:
        shutil.copytree(dist, tree)
    wheel = next(tree.glob("py_engine-*.whl")).name
    (tree / "bench").mkdir()
    micropip = next(n for n in build.PYODIDE_TEST_WHEELS if n.startswith("micropip-"))
    shutil.copyfile(build.pyodide_test_wheels() / micropip, tree / "bench" / micropip)
    (tree / "bench-bare.html").write_text(BARE_HTML)
    (tree / "bench-bare.js").write_text(BARE_JS)
    (tree / "bench-bare-worker.js").write_text(
        BARE_WORKER.replace("MICROPIP", micropip).replace("WHEEL", wheel))
    return tree


def stats(samples: list) -> dict:
    xs = [x for x in samples if x is not None]
    if not xs:
        return {"samples": samples}
    return {"median": round(statistics.median(xs), 1), "min": round(min(xs), 1),
            "max": round(max(xs), 1), "samples": [round(x, 1) for x in xs]}


def measure(browser, url: str, reload: bool = False) -> dict:
    from playwright.sync_api import expect
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(INIT_SCRIPT)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url)
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=90_000)
        out = {"ready": page.evaluate("window.__benchReady"), "fcp": page.evaluate(PAINT)}
        if reload:
            page.reload()
            expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=90_000)
            out["warm_ready"] = page.evaluate("window.__benchReady")
        if errors:
            out["errors"] = errors
        return out
    finally:
        ctx.close()


def main() -> int:
    ap = argparse.ArgumentParser(description="Pyodide boot benchmark (site vs bare page)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    ap.add_argument("--no-lock-vs-micropip", action="store_true",
                    help="skip the engine-loading comparison")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright
    from conftest import launch_chromium

    dist = build.DIST if args.no_build and (build.DIST / "index.html").exists() else build.build(quiet=True)
    with tempfile.TemporaryDirectory(prefix="samba-bench-") as tmp:
        tree = prepare_tree(dist, Path(tmp))
        server = build.make_server(tree, 0, quiet=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        urls = {"site": base, "bare": base + "bench-bare.html?mode=bare"}
        if not args.no_lock_vs_micropip:
            urls["engine_lock"] = base + "bench-bare.html?mode=lock"
            urls["engine_micropip"] = base + "bench-bare.html?mode=micropip"
        samples = {k: [] for k in urls}
        fcp = {"site": [], "bare": []}
        warm = []
        errors = []
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            measure(browser, urls["bare"])  # warm up the browser process itself
            for i in range(args.runs):
                order = list(urls) if i % 2 == 0 else list(reversed(urls))
                for kind in order:
                    r = measure(browser, urls[kind], reload=(kind == "site"))
                    samples[kind].append(r["ready"])
                    if kind in fcp:
                        fcp[kind].append(r["fcp"])
                    if "warm_ready" in r:
                        warm.append(r["warm_ready"])
                    errors += r.get("errors", [])
                print(f"[bench] run {i + 1}/{args.runs}: " + ", ".join(
                    f"{k} {samples[k][-1]:.0f} ms" for k in urls), file=sys.stderr, flush=True)
            version = browser.version
            browser.close()
        server.shutdown()
        server.server_close()

    result = {
        "runs": args.runs,
        "chromium": version,
        "pyodide": build.PYODIDE_VERSION,
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "site_ready_ms": stats(samples["site"]),
        "bare_ready_ms": stats(samples["bare"]),
        "site_warm_reload_ready_ms": stats(warm),
        "site_first_contentful_paint_ms": stats(fcp["site"]),
        "bare_first_contentful_paint_ms": stats(fcp["bare"]),
    }
    if "engine_lock" in samples:
        result["engine_via_lock_file_ms"] = stats(samples["engine_lock"])
        result["engine_via_micropip_ms"] = stats(samples["engine_micropip"])
    s, b = result["site_ready_ms"].get("median"), result["bare_ready_ms"].get("median")
    result["ratio_site_over_bare"] = round(s / b, 3) if s and b else None
    # Less sensitive to a busy machine: best-of ratio, and the median of per-run ratios
    # (site and bare of one run are measured back to back).
    smin, bmin = result["site_ready_ms"].get("min"), result["bare_ready_ms"].get("min")
    result["ratio_min_site_over_min_bare"] = round(smin / bmin, 3) if smin and bmin else None
    pairs = [x / y for x, y in zip(samples["site"], samples["bare"]) if x and y]
    result["ratio_paired_median"] = round(statistics.median(pairs), 3) if pairs else None
    try:
        result["load_average_1min"] = round(os.getloadavg()[0], 2)
    except OSError:
        pass
    if errors:
        result["page_errors"] = errors
    print("{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in result.items())
          + "\n}")
    print(f"site ready {s} ms vs bare Pyodide {b} ms (medians): ratio {result['ratio_site_over_bare']} "
          f"(best-of {result['ratio_min_site_over_min_bare']}, paired {result['ratio_paired_median']}); "
          f"table shell first paint {result['site_first_contentful_paint_ms'].get('median')} ms",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
