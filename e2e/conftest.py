"""Browser-test fixtures: dist/ built once, served twice (root and a sub-path), Chromium.

Fixtures for any e2e test:

- ``dist_dir``   a private snapshot of the built site (``build.build()`` once per session,
                 skipped when ``SAMBA_DIST_BUILT=1`` says ``build.py test`` already built it)
- ``base_url``   ``http://127.0.0.1:<port>/`` serving dist/ with the production CSP/MIME types
- ``sub_url``    ``http://127.0.0.1:<port2>/some/sub/path/`` (same tree under a sub-path)
- ``serve_dir``  a factory: ``serve_dir(path, prefix="") -> url`` to serve another tree
- ``browser``    Debian's Chromium through Playwright (headless), one per session
- ``context``    a fresh browser context per test (note: each pays a full Pyodide boot)
- ``page_log``   what the ``page`` saw: ``console_errors``, ``page_errors``, ``requests``
- ``page``       a page in ``context`` with ``page_log`` attached (also ``page.log``)
- ``open_app``   ``open_app(page, url=base_url, timeout=60_000)``: navigate and wait until
                 ``<body data-ready="1">`` (the worker reported ready)

Under the site's strict CSP, ``page.wait_for_function`` does not work; use locators/expect.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import build  # noqa: E402

try:
    from playwright.sync_api import expect as _expect

    # A bound, not a wait: on a busy machine (CI, or other test runs beside this one) re-rendering
    # the table after a language switch or a move can take longer than Playwright's 5 s default.
    _expect.set_options(timeout=15_000)
except ImportError:  # the CPython stage imports no browser
    pass

SUB_PATH = "/some/sub/path/"
READY_SELECTOR = 'body[data-ready="1"]'
BOOT_TIMEOUT_MS = 60_000
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-quic",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--metrics-recording-only",
    "--no-default-browser-check",
]


# Chromium keeps only the last --disable-features switch of its command line, and Playwright
# passes a list of its own (PaintHolding, MediaRouter, ...) before the caller's arguments: a
# launch that needs more features off passes one list with both (chromium_args below).
_PLAYWRIGHT_DISABLED: list[str] = []


def playwright_disabled_features(playwright) -> list[str]:
    """The features Playwright's own launch turns off, as the browser received them (read once
    per process from a launched browser's command line)."""
    if not _PLAYWRIGHT_DISABLED:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(),
            headless=True,
            args=[*CHROMIUM_ARGS, "--enable-automation"],
        )
        try:
            argv = browser.new_browser_cdp_session().send("Browser.getBrowserCommandLine")[
                "arguments"
            ]
        finally:
            browser.close()
        lists = [a.split("=", 1)[1] for a in argv if a.startswith("--disable-features=")]
        _PLAYWRIGHT_DISABLED.extend(f for f in (lists[-1].split(",") if lists else []) if f)
        _PLAYWRIGHT_DISABLED.append("")  # read (an empty list is an answer too)
    return [f for f in _PLAYWRIGHT_DISABLED if f]


def chromium_args(playwright, disable_features=()) -> list[str]:
    """CHROMIUM_ARGS, plus one --disable-features switch holding Playwright's own list and
    `disable_features` (merged, never replacing Playwright's)."""
    if not disable_features:
        return list(CHROMIUM_ARGS)
    merged = dict.fromkeys([*playwright_disabled_features(playwright), *disable_features])
    return [*CHROMIUM_ARGS, "--disable-features=" + ",".join(merged)]


def chromium_path() -> str:
    path = shutil.which("chromium")
    if not path:
        pytest.fail(
            "Debian's Chromium is not on the PATH: "
            "`apt-get update && apt-get install -y chromium` (as root), "
            "or run `python build.py test`, which installs it",
            pytrace=False,
        )
    return path


def launch_chromium(playwright, **kwargs):
    return playwright.chromium.launch(
        executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS, **kwargs
    )


class _Servers:
    def __init__(self):
        self.servers = []

    def start(self, root, prefix: str = "") -> str:
        server = build.make_server(root, 0, prefix, quiet=True)
        thread = threading.Thread(
            target=server.serve_forever, daemon=True, name=f"e2e-http-{server.server_address[1]}"
        )
        thread.start()
        self.servers.append(server)
        prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
        return f"http://127.0.0.1:{server.server_address[1]}{prefix}"

    def close(self):
        for server in self.servers:
            server.shutdown()
            server.server_close()


@pytest.fixture(scope="session")
def dist_dir(tmp_path_factory) -> Path:
    """The built site, as a private snapshot (hard links) of dist/: a rebuild by another
    process in the same checkout cannot change the files under a running session."""
    if not (os.environ.get("SAMBA_DIST_BUILT") == "1" and (build.DIST / "index.html").exists()):
        build.build(quiet=True)
    snap = tmp_path_factory.mktemp("dist") / "site"
    try:
        shutil.copytree(build.DIST, snap, copy_function=os.link)
    except OSError:
        shutil.rmtree(snap, ignore_errors=True)
        shutil.copytree(build.DIST, snap)
    return snap


@pytest.fixture(scope="session")
def _servers():
    servers = _Servers()
    yield servers
    servers.close()


@pytest.fixture(scope="session")
def serve_dir(_servers):
    """serve_dir(path, prefix="") -> URL of `path` served like dist/ (CSP, MIME types)."""
    return _servers.start


@pytest.fixture(scope="session")
def base_url(dist_dir, serve_dir) -> str:
    return serve_dir(dist_dir)


@pytest.fixture(scope="session")
def sub_url(dist_dir, serve_dir) -> str:
    return serve_dir(dist_dir, SUB_PATH)


@pytest.fixture(scope="session")
def _playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(_playwright):
    browser = launch_chromium(_playwright)
    yield browser
    browser.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


@dataclass
class PageLog:
    console_errors: list = field(default_factory=list)
    console: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    failed_requests: list = field(default_factory=list)

    def foreign_requests(self, url: str) -> list:
        """Requests not on `url`'s origin (data: and blob: URLs count as same-origin)."""
        origin = urlsplit(url)[:2]
        return [
            r
            for r in self.requests
            if not r.startswith(("data:", "blob:")) and urlsplit(r)[:2] != origin
        ]

    def outside(self, url: str) -> list:
        """Requests not under `url` (origin and path prefix), e.g. a sub-path."""
        return [r for r in self.requests if not r.startswith(("data:", "blob:", url))]

    def assert_clean(self) -> None:
        assert not self.page_errors, f"page errors: {self.page_errors}"
        assert not self.console_errors, f"console errors: {self.console_errors}"


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def page(context, page_log):
    pg = context.new_page()

    def on_console(msg):
        text = f"{msg.type}: {msg.text}"
        page_log.console.append(text)
        if msg.type == "error":
            page_log.console_errors.append(text)

    pg.on("console", on_console)
    pg.on("pageerror", lambda exc: page_log.page_errors.append(str(exc)))
    # context-level: also sees the worker's requests (pyodide.mjs, wasm, wheel, ...)
    context.on("request", lambda req: page_log.requests.append(req.url))
    context.on(
        "requestfailed", lambda req: page_log.failed_requests.append(f"{req.url}: {req.failure}")
    )
    try:
        pg.log = page_log
    except AttributeError:
        pass
    yield pg


BOOT_STATE_JS = """() => ({
  body: Object.assign({}, document.body && document.body.dataset),
  html: Object.assign({}, document.documentElement.dataset),
  status: (document.getElementById("boot-status") || {}).textContent || null,
  visibility: document.visibilityState,
  firstPaint: !!window.__sambaFirstPaint && {
    started: window.__sambaFirstPaint.started, claimed: !!window.__sambaFirstPaint.claimed,
    early: !!window.__sambaFirstPaint.engine },
})"""


def wait_ready(page, timeout: int = BOOT_TIMEOUT_MS, errors=()) -> None:
    """Waits for the engine to be ready (data-ready="1"); on a timeout the error says where the
    page's boot stood (its data attributes, the boot line, the early worker) and what it logged."""
    from playwright.sync_api import expect

    try:
        expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=timeout)
    except AssertionError as exc:
        try:
            state = page.evaluate(BOOT_STATE_JS)
        except Exception as inner:  # noqa: BLE001 - a diagnosis, never a second failure
            state = f"(page state unreadable: {inner})"
        raise AssertionError(f"{exc}\nboot state: {state}\nlogged: {list(errors)[-20:]}") from None


@pytest.fixture
def open_app(base_url):
    """open_app(page, url=None, timeout=60000): go to the site, wait for data-ready="1"."""

    def _open(page, url: str | None = None, timeout: int = BOOT_TIMEOUT_MS):
        page.goto(url or base_url)
        log = getattr(page, "log", None)
        wait_ready(
            page,
            timeout,
            [*getattr(log, "console_errors", []), *getattr(log, "page_errors", [])] if log else (),
        )
        return page

    return _open
