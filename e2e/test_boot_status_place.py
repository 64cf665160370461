"""Where the loading status stands on a return visit: the saved table is on screen while Python
starts, and the status ("Starting Python… 84 %") must not cover a seat, its badges, a card or a
button (at the top of the table it covered the partner's seat on a phone, issue 36.9). The
status is shown again on the live table, as it stands while a returning player's engine starts
(the real start is too quick to catch on every machine)."""

from __future__ import annotations

import pytest
from conftest import READY_SELECTOR
from play_driver import settle, start_game, wait_my_turn
from playwright.sync_api import expect

SIZES = [(390, 844), (844, 390), (1280, 800), (1440, 900)]

OVERLAPS = """() => {
  const s = document.getElementById("boot-status");
  delete s.dataset.state;
  s.textContent = "Starting Python… 84%";
  const b = s.getBoundingClientRect();
  if (!b.width || getComputedStyle(s).display === "none") return ["(not shown)"];
  const hit = [];
  for (const e of document.querySelectorAll(
      ".seat, .score, #hand .card, #actions button, .topbar .btn, .topbar select, #stock, "
      + "#pile, .side-head, .meld, .status-line, #status")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === "hidden") continue;
    if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) {
      hit.push((e.id || e.className) + " " + (e.textContent || "").trim().slice(0, 20));
    }
  }
  return hit;
}"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_status_covers_nothing_on_a_return_visit(browser, base_url, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        page.goto(base_url)
        expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
        start_game(page, players=4)
        wait_my_turn(page)
        settle(page)
        page.reload()
        expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
        wait_my_turn(page)
        settle(page)
        assert page.evaluate(OVERLAPS) == [], f"at {width}x{height}"
    finally:
        ctx.close()
