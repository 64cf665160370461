"""Helpers for the every-screen tests: the screen sizes, loading a saved position, and the hit
test (the element at the centre of each hand card / enabled button is itself or inside it)."""

from __future__ import annotations

import json

from play_driver import SETTLED_JS
from playwright.sync_api import expect
from positions import position

SCREENS = {
    "phone": (390, 844),
    "phone-landscape": (844, 390),
    "tablet": (768, 1024),
    "desktop": (1440, 900),
}

# Every hand card and every enabled, shown button of the hand area and the action bar; for each,
# whether the point at its centre of its visible part is the element itself (or inside it).
# A hand card's visible part: cards overlap in fans, so the point is the middle of the strip
# left of the next card of its group (the whole card for a group's last).
HIT_JS = """() => {
  const out = {cards: 0, buttons: 0, bad_cards: [], bad_buttons: []};
  const vw = innerWidth, vh = innerHeight;
  const test = (e, x, y) => {
    if (x < 0 || y < 0 || x >= vw || y >= vh) return false;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === e || e.contains(hit));
  };
  for (const e of document.querySelectorAll('#hand .card[data-id]')) {
    out.cards += 1;
    const r = e.getBoundingClientRect();
    const next = e.nextElementSibling;
    const right = next ? Math.min(r.right, next.getBoundingClientRect().left) : r.right;
    const x = (r.left + right) / 2, y = r.top + r.height / 2;
    if (!test(e, x, y)) out.bad_cards.push({card: e.dataset.card, x, y});
  }
  const sel = '#actions button, #suggest button, #hand-area button, #privacy button';
  for (const e of document.querySelectorAll(sel)) {
    if (e.disabled || e.offsetParent === null || e.closest('[hidden]')) continue;
    out.buttons += 1;
    const r = e.getBoundingClientRect();
    if (!test(e, r.left + r.width / 2, r.top + r.height / 2)) {
      out.bad_buttons.push({b: e.dataset.action || e.dataset.part || e.dataset.move || e.textContent,
                            top: Math.round(r.top), bottom: Math.round(r.bottom)});
    }
  }
  return out;
}"""


# The stock's card and the pile's top card: whether the points at the centre and at the rank's
# corner (top left) are the card itself (a player sees the pile's top card and can tap it).
DECKS_JS = """() => {
  const bad = [];
  for (const sel of ['#stock .deck-card', '#pile-top > .card:last-child']) {
    const e = document.querySelector(sel);
    const r = e.getBoundingClientRect();
    for (const [x, y] of [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 6, r.top + 6]]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === e || e.contains(hit))) bad.push({deck: sel, x: Math.round(x), y: Math.round(y)});
    }
  }
  return bad;
}"""


def decks_hidden(page) -> list:
    """The points of the stock's card and the pile's top card that are covered or off screen."""
    assert page.evaluate(SETTLED_JS), "animations still running after 10 s"
    return page.evaluate(DECKS_JS)


def hit_report(page) -> dict:
    assert page.evaluate(SETTLED_JS), "animations still running after 10 s"
    return page.evaluate(HIT_JS)


def load_saved(page, base_url: str, name: str, query: str = "?pace=20") -> dict:
    """Opens the table with `name`'s position as the saved game (resumed at boot)."""
    pos = position(name)
    page.add_init_script(
        "if (!sessionStorage.getItem('fit.seeded')) {"
        f" localStorage.setItem('samba.save.v1', {json.dumps(pos['save'])});"
        " sessionStorage.setItem('fit.seeded', '1'); }"
    )
    page.goto(base_url + query)
    expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
    expect(page.locator('body[data-save="resumed"]')).to_have_count(1)
    expect(page.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)
    return pos
