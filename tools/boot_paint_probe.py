#!/usr/bin/env python3
"""Where the site's first paint goes: variants of index.html side by side, in one run.

    python tools/boot_paint_probe.py [--runs 3] [--variants site,nocss,nomodules]

Each variant is a copy of dist/index.html with one thing taken out (written next to it, so
every relative URL still resolves). Each run, in alternating order, opens each variant in a
fresh browser profile (first visit), deals a game (so that one is saved), then opens it again
in a new tab (return visit; the service worker controls it by then). Prints, per variant, the
median first paint / first contentful paint and when the stylesheets and modules arrived.
A diagnostic tool, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))
import build  # noqa: E402

OBSERVE = """(() => {
  const t = (window.__probe = {paints: {}, table: null});
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      t.paints[e.name] = e.startTime;
      t["hand_at_" + e.name] = document.querySelectorAll("#hand .card").length;
    }
  }).observe({type: "paint", buffered: true});
  const check = () => {
    if (t.table === null && document.querySelector("#hand .card")) t.table = performance.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true});
})();"""

COLLECT = """() => {
  const p = window.__probe;
  const res = {};
  for (const e of performance.getEntriesByType("resource")) {
    const name = e.name.split("/").slice(-2).join("/");
    if (/\\.(css|js|mjs|json)$/.test(name) && !(name in res))
      res[name] = [Math.round(e.startTime), Math.round(e.responseEnd), e.renderBlockingStatus || ""];
  }
  const nav = performance.getEntriesByType("navigation")[0];
  return {paints: p.paints, table: p.table, hand_at_fcp: p["hand_at_first-contentful-paint"],
          res, dcl: nav.domContentLoadedEventEnd, resp: nav.responseEnd};
}"""


def variants(html: str) -> dict[str, str]:
    out = {"site": html}
    # index.html as in web/ (before the build inlines its stylesheets, first-paint.js and the
    # boot texts): the first frame waits for those requests.
    out["external"] = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    out["nocss"] = re.sub(r'<link rel="stylesheet"[^>]*>\n', "", html)
    out["onecss"] = re.sub(
        r'<link rel="stylesheet" href="css/(cards|access|comfort)\.css">\n', "", html
    )
    out["nomodules"] = re.sub(
        r'<(script type="module"|link rel="modulepreload")[^>]*>(</script>)?\n', "", html
    )
    out["nofp"] = re.sub(
        r'<script type="module" src="js/first-paint.js"[^>]*></script>\n', "", html
    )
    out["oldsw"] = html
    # Both: index.html as in web/ and the service worker of --old-sw (the state before a change).
    out["before"] = out["external"]
    out["noswreg"] = html.replace('<script type="module" src="js/sw-register.js"></script>\n', "")
    # Probe-only overrides (written by main): how much the felt's fixed gradient costs to raster.
    out["flatbg"] = html.replace(
        '<link rel="modulepreload"',
        '<link rel="stylesheet" href="probe-flat.css">\n<link rel="modulepreload"',
    )
    out["nofixed"] = html.replace(
        '<link rel="modulepreload"',
        '<link rel="stylesheet" href="probe-nofixed.css">\n<link rel="modulepreload"',
    )
    for name in ("noshadow", "plainback"):
        out[name] = html.replace(
            '<link rel="modulepreload"',
            f'<link rel="stylesheet" href="probe-{name}.css">\n<link rel="modulepreload"',
        )
    # Without the engine's worker started by first-paint.js (bridge.js starts it, as before).
    out["noearly"] = html.replace("  watch();\n  startEngine();\n}", "  watch();\n}")
    # app.js without its wait for the first frame (probe-only copy, written by main).
    out["noyield"] = html.replace("js/app.js", "js/probe-app-noyield.js")
    # The built page without its inlined styles / without the inline first-frame script.
    out["nostyle"] = re.sub(r"<style>.*?</style>\n?", "", html, count=1, flags=re.S)
    out["noinlinefp"] = re.sub(
        r'<script type="module" blocking="render">.*?</script>\n?', "", html, count=1, flags=re.S
    )
    # The built page with one override appended to its inlined styles (the server hashes the
    # page as served, so the changed block is allowed): what one costly rule costs to draw.
    for name, rule in (
        ("flat2", "body{background:#0f4726!important}"),
        ("nofixed2", "body{background-attachment:scroll!important}"),
        ("noshadow2", "*{box-shadow:none!important;text-shadow:none!important}"),
        ("nofilter2", "*{filter:none!important;backdrop-filter:none!important}"),
        ("plainback2", ".card.back{background:#8e1b24!important}"),
        ("scroll2", "body{background-attachment:scroll!important}"),
        (
            "linear2",
            "body{background:linear-gradient(#22794a,#1d6b3c 45%,#0f4726) fixed!important}",
        ),
        ("noedge2", ".board::before,.board::after{display:none!important}"),
        (
            "cheap2",
            "body{background:#1a6338!important}*{box-shadow:none!important}"
            ".card.back{background:#8e1b24!important}"
            ".board::before,.board::after{display:none!important}",
        ),
    ):
        out[name] = html.replace("</style>", rule + "</style>", 1)
    out["onefile"] = re.sub(
        r'<link rel="stylesheet" href="css/(cards|access|comfort)\.css">\n',
        "",
        html.replace("css/table.css", "css/probe-all.css"),
    )
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variants", default="site,nocss,onecss,nomodules")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--old-sw", default="f7884f2", help="commit whose sw.template.js 'oldsw' uses")
    ap.add_argument(
        "--with-browser-start",
        action="store_true",
        help="as bench_boot.py: leave on what a fresh Chromium builds for itself",
    )
    args = ap.parse_args()
    from bench_boot import BROWSER_START
    from conftest import chromium_args, chromium_path
    from play_driver import start_game
    from playwright.sync_api import expect, sync_playwright

    dist = build.DIST if args.no_build else build.build(quiet=True)
    names = args.variants.split(",")
    rows: dict[str, list] = {n: [] for n in names}
    with tempfile.TemporaryDirectory(prefix="samba-probe-") as tmp:
        html = (dist / "index.html").read_text()
        extra = {
            "probe-flat.css": "body { background: #0f4726; }\n",
            "probe-nofixed.css": "body { background-attachment: scroll; }\n",
            "probe-noshadow.css": ".card, .mini-back, .card.selected { box-shadow: none !important; }\n",
            "probe-plainback.css": ".card.back { background: #8e1b24 !important; }\n",
            "js/probe-app-noyield.js": (dist / "js" / "app.js")
            .read_text()
            .replace("  await afterFirstFrame();\n", ""),
            "css/probe-all.css": "".join(
                (dist / "css" / f"{n}.css").read_text()
                for n in ("table", "cards", "access", "comfort")
            ),
        }
        bases, servers = {}, []
        all_variants = variants(html)
        for name in names:
            # One tree (hard links to dist/) and one origin per variant, index.html replaced
            # and sw.js regenerated, so a return visit is served by its own service worker.
            tree = Path(tmp) / name
            shutil.copytree(dist, tree, copy_function=os.link)
            for rel, text in extra.items():
                (tree / rel).write_text(text)
            (tree / "index.html").unlink()
            (tree / "index.html").write_text(all_variants[name])
            (tree / build.SW_NAME).unlink()
            if name in (
                "oldsw",
                "before",
            ):  # the service worker template of another commit (--old-sw)
                tpl = Path(tmp) / "old-sw.template.js"
                tpl.write_text(
                    subprocess.run(
                        ["git", "show", f"{args.old_sw}:web/sw.template.js"],
                        cwd=ROOT,
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout
                )
                build.write_service_worker(tree, tpl)
            else:
                build.write_service_worker(tree)
            server = build.make_server(tree, 0, "", quiet=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            bases[name] = f"http://127.0.0.1:{server.server_address[1]}/"
        with sync_playwright() as pw:
            launch_args = chromium_args(pw, () if args.with_browser_start else BROWSER_START)
            for i in range(args.runs):
                for name in names if i % 2 == 0 else names[::-1]:
                    with tempfile.TemporaryDirectory(prefix="samba-probe-profile-") as prof:
                        ctx = pw.chromium.launch_persistent_context(
                            prof,
                            executable_path=chromium_path(),
                            headless=True,
                            args=launch_args,
                            viewport={"width": 1280, "height": 900},
                        )
                        ctx.add_init_script(OBSERVE)
                        page = ctx.new_page()
                        page.goto(bases[name])
                        row = {}
                        if name == "nomodules":
                            page.wait_for_load_state("load")
                            page.wait_for_function(
                                "() => 'first-contentful-paint' in window.__probe.paints"
                            )
                            row["first"] = page.evaluate(COLLECT)
                            row["return"] = row["first"]
                        else:
                            expect(page.locator('body[data-ready="1"]')).to_have_count(
                                1, timeout=120_000
                            )
                            row["first"] = page.evaluate(COLLECT)
                            start_game(page, level="random")
                            expect(page.locator("body[data-saved]")).to_have_count(
                                1, timeout=60_000
                            )
                            if name != "noswreg":
                                page.wait_for_function(
                                    "() => navigator.serviceWorker.controller !== null",
                                    timeout=60_000,
                                )
                            page.close()
                            page = ctx.new_page()
                            page.goto(bases[name])
                            expect(
                                page.locator('body[data-ready="1"][data-save="resumed"]')
                            ).to_have_count(1, timeout=120_000)
                            row["return"] = page.evaluate(COLLECT)
                        ctx.close()
                        rows[name].append(row)
                        f, r = row["first"]["paints"], row["return"]["paints"]
                        print(
                            f"[probe] {name}: fcp first {f.get('first-contentful-paint')} "
                            f"return {r.get('first-contentful-paint')} table {row['return']['table']}",
                            file=sys.stderr,
                            flush=True,
                        )
        for server in servers:
            server.shutdown()

    def med(xs):
        xs = [x for x in xs if x is not None]
        return round(statistics.median(xs)) if xs else None

    summary = {}
    for name, rs in rows.items():
        s = {}
        for visit in ("first", "return"):
            s[f"{visit}_fcp"] = med([r[visit]["paints"].get("first-contentful-paint") for r in rs])
            s[f"{visit}_fp"] = med([r[visit]["paints"].get("first-paint") for r in rs])
            s[f"{visit}_dcl"] = med([r[visit]["dcl"] for r in rs])
            s[f"{visit}_table"] = med([r[visit]["table"] for r in rs])
            s[f"{visit}_hand_at_fcp"] = [r[visit]["hand_at_fcp"] for r in rs]
            s[f"{visit}_resources_last_run"] = rs[-1][visit]["res"]
        summary[name] = s
    print(json.dumps(summary, indent=1))
    for name, s in summary.items():
        print(
            f"{name:10s} fcp first {s['first_fcp']} return {s['return_fcp']} | dcl {s['first_dcl']}/"
            f"{s['return_dcl']} | table drawn (return) {s['return_table']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
