"""Lighthouse on every page of the built site (mobile, its default), side by side: cumulative
layout shift, the meta-description audit, the performance and SEO scores.

    python tools/lighthouse_audit.py [--pages index.html,rules.html] [--keep DIR]

Builds dist/ (build.py), serves it on 127.0.0.1 with the production headers, and runs the npm
`lighthouse` CLI (pinned below; installed into .cache/lighthouse/ with `npm i -E` where missing:
12.2.3 is the last release that runs on Node 20) against Debian's Chromium (CHROME_PATH). About
20-40 s a page on a 2-core machine: an audit to run by hand, not a test stage (the e2e tests
measure the same layout shifts and check the descriptions, in the browser, in seconds).
Lighthouse watches the page's main thread only: the engine boots in a worker it does not see.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

LIGHTHOUSE = "lighthouse@12.2.3"
PAGES = ("index.html", "rules.html", "lessons.html", "authors.html", "embed.html")


def lighthouse_cli() -> Path:
    prefix = build.CACHE / "lighthouse"
    cli = prefix / "node_modules" / ".bin" / "lighthouse"
    stamp = prefix / ".samba-version"
    if not cli.exists() or not stamp.exists() or stamp.read_text().strip() != LIGHTHOUSE:
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "package.json").write_text('{"private": true}\n')
        build.log(f"npm i -E {LIGHTHOUSE} (into {prefix.relative_to(ROOT)})")
        subprocess.run(
            ["npm", "i", "-E", "--no-audit", "--no-fund", LIGHTHOUSE], cwd=prefix, check=True
        )
        stamp.write_text(LIGHTHOUSE + "\n")
    return cli


def audit(cli: Path, url: str, out: Path) -> dict:
    chrome = build.ensure_chromium()
    if not chrome:
        sys.exit("lighthouse_audit: no Chromium")
    env = {**os.environ, "CHROME_PATH": chrome}
    subprocess.run(
        [
            str(cli),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            "--only-categories=performance,seo",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
        ],
        env=env,
        check=True,
    )
    report = json.loads(out.read_text(encoding="utf-8"))
    audits, cats = report["audits"], report["categories"]
    return {
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "description": audits["meta-description"]["score"],
        "performance": cats["performance"]["score"],
        "seo": cats["seo"]["score"],
        "final_url": report.get("finalDisplayedUrl") or report.get("finalUrl"),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--keep", help="keep the JSON reports in this folder")
    args = ap.parse_args()
    cli = lighthouse_cli()
    site = build.build(quiet=True)
    server = build.make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    tmp = Path(args.keep or tempfile.mkdtemp(prefix="lighthouse-"))
    tmp.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for page in args.pages.split(","):
            rows.append((page, audit(cli, base + page, tmp / f"{page}.json")))
    finally:
        server.shutdown()
        server.server_close()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nLighthouse ({LIGHTHOUSE}, mobile), {base}")
    print(f"{'page':<14} {'CLS':>7} {'meta description':>17} {'performance':>12} {'SEO':>5}")
    for page, r in rows:
        desc = "pass" if r["description"] == 1 else "FAIL"
        print(
            f"{page:<14} {r['cls']:>7.3f} {desc:>17} {r['performance'] * 100:>12.0f} {r['seo'] * 100:>5.0f}"
        )
    return 0 if all(r["cls"] < 0.1 and r["description"] == 1 for _, r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
