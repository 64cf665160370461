"""Never a dead button (issue 35): on a slow phone network the engine's boot takes long, and a
slow boot is not a failed one. The site is served through a link shaped in the server (1.6
Mbit/s shared by every connection, 150 ms per connection and per response: "Slow 4G"; DevTools
throttling misses the nested worker's fetches). The page's stall watchdog is set shorter than
the boot (`window.__sambaBootStallMs`, a test-only knob): the boot outlasts it because bytes keep
arriving, the progress shows them, and Deal works once the engine is ready. A boot that truly
stalls says why and offers "Try again", which boots a new worker without a reload."""

from __future__ import annotations

import re
import threading
import time

import pytest
from conftest import READY_SELECTOR
from netshape import PROFILES, Link
from play_driver import start_game
from playwright.sync_api import expect

import build

STALL_MS = 8000  # shorter than the shaped boot (~25-40 s), longer than any quiet step of it
# Every text the boot status showed, with when (page time), from the first frame on.
RECORD = """(() => {
  const seen = (window.__bootTexts = []);
  window.__sambaBootStallMs = %d;
  const look = () => {
    const box = document.getElementById("boot-status");
    if (!box) return;
    const text = box.textContent;
    if (!seen.length || seen[seen.length - 1][1] !== text) seen.push([performance.now(), text, box.dataset.state || ""]);
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})();"""
DOWNLOADED = re.compile(r"Downloading… ([\d.]+) of ([\d.]+)\s+MB")


@pytest.fixture
def shaped_url(dist_dir):
    mbit, delay = PROFILES["slow4g"]
    link = Link(mbit, delay)
    server = build.make_server(dist_dir, 0, precompressed=False, handler_mixin=link.mixin())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", link
    server.shutdown()
    server.server_close()


@pytest.fixture
def slow_context(browser):
    # Service workers blocked: this visit's every byte crosses the shaped link.
    ctx = browser.new_context(
        service_workers="block",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        locale="en-GB",
    )
    ctx.set_default_timeout(30_000)
    ctx.add_init_script(RECORD % STALL_MS)
    yield ctx
    ctx.close()


def test_a_slow_boot_is_not_a_failed_one(slow_context, shaped_url):
    url, link = shaped_url
    page = slow_context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    t0 = time.monotonic()
    page.goto(url + "?seed=3")
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=240_000)
    took = time.monotonic() - t0
    texts = page.evaluate("window.__bootTexts")
    # The boot outlasted the watchdog's limit: only signs of life kept it from failing.
    assert took * 1000 > 2 * STALL_MS, (
        f"the shaped boot took {took:.1f} s: not slow enough to prove the point"
    )
    assert not [t for t in texts if t[2] == "error"], texts
    # The progress moved: the bytes received rose, step by step, to the total, and while the
    # runtime downloaded no two texts in a row were more than the stall limit apart (then
    # Python starts: CPU work, seconds on a busy machine, with the steps' texts).
    got = [
        (float(m.group(1)), float(m.group(2)))
        for _, text, _ in texts
        if (m := DOWNLOADED.search(text))
    ]
    assert len(got) >= 10, texts
    assert [g for g, _ in got] == sorted(g for g, _ in got), got
    assert got[-1][0] >= 0.9 * got[-1][1] and got[-1][1] > 1, got
    times = [t for t, text, _ in texts if DOWNLOADED.search(text)]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert max(gaps) < STALL_MS, (max(gaps), texts)
    assert any(text.startswith("Starting Python") for _, text, _ in texts), texts
    assert link.total() > 3_000_000, "the runtime crossed the shaped link"
    # Deal works once the engine is ready.
    start_game(page, players=2, level="random")
    expect(page.locator("#hand .card")).not_to_have_count(0)
    assert errors == []


def test_a_stalled_boot_says_why_and_tries_again_without_a_reload(slow_context, shaped_url):
    url, _ = shaped_url
    held, stall = [], {"on": True}

    def wasm(route):
        if stall["on"]:
            held.append(route)  # never answered: no byte of the runtime arrives
        else:
            route.continue_()

    slow_context.route("**/pyodide.asm.wasm", wasm)
    page = slow_context.new_page()
    page.goto(url + "?seed=3")
    status = page.locator('#boot-status[data-state="error"]')
    expect(status).to_have_count(1, timeout=240_000)
    expect(status).to_contain_text(f"nothing arrived for {STALL_MS // 1000} seconds")
    retry = page.locator("#boot-retry")
    expect(retry).to_have_text("Try again")
    assert held, "the wasm was asked for"
    page.evaluate(
        "window.__navigations = performance.getEntriesByType('navigation').length; window.__kept = 1"
    )
    stall["on"] = False
    retry.click()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=240_000)
    assert page.evaluate("window.__kept") == 1, "the page was reloaded"
    start_game(page, players=2, level="random")
    expect(page.locator("#hand .card")).not_to_have_count(0)
