"""What a static host needs besides the files: dist/_headers (each page's CSP, the workers'
policy, MIME types, nosniff) for hosts that read it, and dist/HOSTING.md with the MIME table.
A host that sends no headers of ours (GitHub Pages) still gets the policy: each page carries it
in a <meta> (sitebuild.pages); `serve` sends the same headers (sitebuild.serve)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sitebuild.config import MIME_TYPES, log
from sitebuild.csp import CSP, csp_with_relays
from sitebuild.netplay import netplay_relays

HEADERS_FILE = "_headers"  # read by Netlify and Cloudflare Pages; never precached
HOSTING_FILE = "HOSTING.md"  # web/HOSTING.md, its MIME table filled in by the build
HOSTING_MIME_MARK = "<!-- mime-types -->"
# Sent with every file (serve, _headers).
SITE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # Public static files, like GitHub Pages: a host page on another site may load
    # js/samba-table.js as a module script (a CORS request).
    "Access-Control-Allow-Origin": "*",
}
# Types a static host may not know (or not send right): written into _headers per file.
HOST_TYPES = (".wasm", ".mjs", ".webmanifest", ".whl", ".gz")
# Where a script starts a worker or registers the service worker (their CSP is their response's
# own header: a page's <meta> does not reach them). `base` = import.meta.url or document.baseURI.
WORKER_START = re.compile(
    r'(?:new (?:Shared)?Worker|\.register)\(\s*new URL\("([^"]+)",\s*'
    r"(import\.meta\.url|document\.baseURI)\)"
)
# Cloudflare Pages' limits for a _headers file.
HEADERS_MAX_RULES, HEADERS_MAX_LINE = 100, 2000


def worker_scripts(site: Path) -> list[str]:
    """The site's worker and service-worker scripts (site-relative), from the scripts that start
    them (WORKER_START); a `new Worker(` of another form is reported (it gets no CSP header)."""
    found = set()
    for path in sorted(site.rglob("*.js")):
        if "pyodide" in path.relative_to(site).parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        starts = WORKER_START.findall(text)
        if len(starts) < len(re.findall(r"new (?:Shared)?Worker\(", text)):
            log(
                f"note: {path.relative_to(site)} starts a worker this build cannot place; "
                "it gets no CSP in _headers"
            )
        for rel, base in starts:
            start = path.parent if base.startswith("import") else site
            target = (start / rel).resolve()
            if target.is_relative_to(site.resolve()) and target.is_file():
                found.add(target.relative_to(site.resolve()).as_posix())
    return sorted(found)


def headers_rules(site: Path, policies: dict[str, str]) -> dict[str, dict[str, str]]:
    """{URL path: {header: value}} for _headers. No header is given by two rules that can match
    one path (hosts join or override such duplicates: two CSPs would both apply)."""
    rules: dict[str, dict[str, str]] = {"/*": dict(SITE_HEADERS)}
    for name, policy in sorted(policies.items()):
        stem = name[: -len(".html")]
        for url in ["/", "/index.html"] if name == "index.html" else [f"/{name}", f"/{stem}"]:
            rules.setdefault(url, {})["Content-Security-Policy"] = policy
    for rel in worker_scripts(site):
        rules.setdefault(f"/{rel}", {})["Content-Security-Policy"] = csp_with_relays(
            CSP, netplay_relays(site)
        )
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and path.suffix in HOST_TYPES and not rel.startswith("."):
            rules.setdefault(f"/{rel}", {})["Content-Type"] = MIME_TYPES[path.suffix]
    return rules


def write_headers_file(site: Path, policies: dict[str, str]) -> int:
    """site/_headers (Netlify / Cloudflare Pages format); returns the number of rules."""
    rules = headers_rules(site, policies)
    lines = [
        "# Response headers for hosts that read this file (Netlify, Cloudflare Pages), written",
        "# by build.py: each page's Content-Security-Policy (the same as the page's <meta>,",
        "# with the sha256 of its inline blocks: a hand-written policy without them leaves the",
        "# table unstyled until its script has loaded the stylesheets), the workers' policy,",
        "# MIME types a host may not know, and nosniff. See HOSTING.md.",
        "",
    ]
    for url, headers in rules.items():
        lines.append(url)
        lines.extend(f"  {k}: {v}" for k, v in headers.items())
    long = [line for line in lines if len(line) > HEADERS_MAX_LINE]
    if len(rules) > HEADERS_MAX_RULES or long:
        log(
            f"note: {HEADERS_FILE} has {len(rules)} rules and {len(long)} lines over "
            f"{HEADERS_MAX_LINE} characters (Cloudflare Pages takes {HEADERS_MAX_RULES} and {HEADERS_MAX_LINE})"
        )
    (site / HEADERS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(rules)


def fill_hosting_readme(site: Path) -> None:
    """site/HOSTING.md (copied from web/) with the MIME types of the files the site has."""
    path = site / HOSTING_FILE
    text = path.read_text(encoding="utf-8")
    if text.count(HOSTING_MIME_MARK) != 1:
        sys.exit(f"build: web/{HOSTING_FILE} must hold {HOSTING_MIME_MARK!r} once")
    have = {p.suffix for p in site.rglob("*") if p.is_file()}
    table = ["| files | Content-Type |", "|---|---|"]
    table += [f"| `*{ext}` | `{MIME_TYPES[ext]}` |" for ext in sorted(have & set(MIME_TYPES))]
    path.write_text(text.replace(HOSTING_MIME_MARK, "\n".join(table)), encoding="utf-8")
