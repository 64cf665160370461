"""The site boots Python in its worker, stays on its origin, works under a sub-path, and says
so when the boot fails instead of hanging. Each test pays one Pyodide boot (~3-4 s)."""

from __future__ import annotations

import re

from conftest import READY_SELECTOR
from playwright.sync_api import expect

ERROR_STATE = '#boot-status[data-state="error"]'


def _runtime_requested(page_log, base: str) -> None:
    # The worker's own fetches are seen too: the runtime, the stdlib, the lock file, the wheel.
    for name in (
        "worker.js",
        "pyodide/pyodide.mjs",
        "pyodide/pyodide.asm.wasm",
        "pyodide/python_stdlib.zip",
        "app-lock.json",
        "py_engine-",
    ):
        assert any(r.startswith(base + name) for r in page_log.requests), (
            f"no request for {name}: {page_log.requests}"
        )


def test_boots_python_on_its_own_origin(page, page_log, base_url, open_app):
    open_app(page, base_url)
    expect(page.locator("#boot-status")).not_to_have_attribute("data-state", "error")
    _runtime_requested(page_log, base_url)
    assert page_log.foreign_requests(base_url) == []
    assert page_log.failed_requests == []
    page_log.assert_clean()


def test_works_under_a_sub_path(page, page_log, sub_url, open_app):
    open_app(page, sub_url)
    _runtime_requested(page_log, sub_url)
    assert page_log.outside(sub_url) == [], "a request left the sub-path"
    assert page_log.failed_requests == []
    page_log.assert_clean()


def test_missing_wasm_shows_an_error_not_a_hang(page, context, base_url):
    context.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(base_url)
    # The worker turns Pyodide's silent wasm failure into an error at once (well before the
    # page's 60 s watchdog).
    status = page.locator(ERROR_STATE)
    expect(status).to_have_count(1, timeout=20_000)
    expect(status).to_have_text(re.compile(r"\S"))
    expect(page.locator(READY_SELECTOR)).to_have_count(0)


def test_tampered_engine_wheel_is_refused(page, context, base_url):
    # The app lock file pins the wheel's sha256; the browser must refuse other bytes.
    context.route(
        "**/py_engine-*.whl",
        lambda route: route.fulfill(
            status=200, body=b"PK\x05\x06" + b"\0" * 18, content_type="application/zip"
        ),
    )
    page.goto(base_url)
    status = page.locator(ERROR_STATE)
    expect(status).to_have_count(1, timeout=30_000)
    expect(status).to_have_text(re.compile(r"\S"))
    expect(page.locator(READY_SELECTOR)).to_have_count(0)


ROOT_ABSOLUTE = re.compile(
    r"""(?:\b(?:src|href|action)\s*=\s*["']/(?!/)"""  # src="/x" (not protocol-relative)
    r"""|\burl\(\s*["']?/(?!/)"""  # url(/x)
    r"""|\b(?:from|import)\s*\(?\s*["']/(?!/)"""  # import "/x"
    r"""|\b(?:fetch|new\s+URL|new\s+Worker|importScripts)\s*\(\s*["'`]/(?!/))"""
)


def test_front_end_uses_relative_urls_only(dist_dir):
    # Static check (no browser): a root-absolute URL breaks the site under a sub-path.
    bad = []
    for path in sorted(dist_dir.rglob("*")):
        if (
            path.suffix not in (".html", ".js", ".mjs", ".css", ".webmanifest")
            or "pyodide" in path.relative_to(dist_dir).parts
        ):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ROOT_ABSOLUTE.search(line):
                bad.append(f"{path.relative_to(dist_dir)}:{n}: {line.strip()[:120]}")
    assert not bad, "root-absolute URLs:\n" + "\n".join(bad)
