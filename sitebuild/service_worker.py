"""dist/sw.js from web/sw.template.js: the precache list, a content-hash version (an unchanged
sw.js never updates) and the integrity of the files the engine worker hands over."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from sitebuild.compress import PRECOMPRESSED
from sitebuild.config import WEB, _sri

SW_TEMPLATE = "sw.template.js"  # in web/; filled in and written as dist/sw.js, not shipped
SW_NAME = "sw.js"
# Files of dist/ that are not precached (the worker itself; source maps nobody needs offline;
# the files for hosts: a host that reads _headers does not serve it).
SW_EXCLUDE_SUFFIXES = (".map",)
# ... nor the site's play-with-friends configuration, which a site host may edit in dist/.
SW_EXCLUDE_NAMES = ("_headers", "HOSTING.md", "netplay.json")
# What the engine worker hands to the service worker's install (web/worker.js HANDOFF), with
# the site's wheel: sw.js carries their sha256.
HANDED_OFF = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


def precache_list(site: Path) -> list[str]:
    """Every file under `site` a visitor needs offline, as URLs relative to the site root (plus
    "./", the directory URL that serves index.html), sorted; sw.js itself is left out."""
    urls = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if (
            path.is_dir()
            or rel in (SW_NAME, *SW_EXCLUDE_NAMES)
            or path.suffix in SW_EXCLUDE_SUFFIXES
            or (path.suffix in PRECOMPRESSED and path.with_suffix("").is_file())
            or any(part.startswith(".") for part in path.relative_to(site).parts)
        ):
            continue
        urls.append(rel)
    if "index.html" in urls:
        urls.insert(0, "./")
    return urls


def site_version(site: Path, urls: list[str], template: str = "") -> str:
    """A content hash of the precached files (names and bytes) and the template: any change
    to the site gives another version, hence another sw.js."""
    h = hashlib.sha256()
    h.update(hashlib.sha256(template.encode()).digest())
    for rel in urls:
        if rel == "./":
            continue
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256((site / rel).read_bytes()).digest())
    return h.hexdigest()[:20]


def service_worker_source(site: Path, template: str) -> tuple[str, str, list[str]]:
    """(sw.js source, version, precache URLs) for the site tree `site`."""
    urls = precache_list(site)
    version = site_version(site, urls, template)
    handed = {
        rel: _sri((site / rel).read_bytes())
        for rel in urls
        if rel in HANDED_OFF or rel.endswith(".whl")
    }
    fills = {
        '"__SW_VERSION__"': json.dumps(version),
        '["__SW_PRECACHE__"]': json.dumps(urls, indent=2),
        '{"__SW_HANDOFF__": ""}': json.dumps(handed, indent=2),
    }
    source = template
    for key, value in fills.items():
        if source.count(key) != 1:
            sys.exit(f"build: {SW_TEMPLATE} must contain {key} exactly once")
        source = source.replace(key, value)
    return source, version, urls


def write_service_worker(site: Path, template_path: Path = WEB / SW_TEMPLATE) -> tuple[str, int]:
    """Write site/sw.js from the template; returns (version, number of precached URLs)."""
    source, version, urls = service_worker_source(site, template_path.read_text(encoding="utf-8"))
    (site / SW_NAME).write_text(source, encoding="utf-8")
    return version, len(urls)
