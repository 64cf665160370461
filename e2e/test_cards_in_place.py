"""Cards end where they belong (issue 36.4): with the cards' travel on (the default) and the
computers moving faster than a card travels (so travels overlap), at a phone's size, a phone on
its side and a desktop's, after every move each meld's cards lie inside their meld's box once
they came to rest, and no card ever runs two travels at once (a travel left running under a
newer one pushes the card by an offset measured from where it lay before: a card over the next
meld's labels)."""

from __future__ import annotations

import time

import pytest
from play_driver import discard_one, draw_phase_step, moves, start_game, try_melds  # noqa: F401
from playwright.sync_api import expect

# Resolves once no card travels (other animations, such as the thinking dots, are not cards).
CARDS_SETTLED = """() => new Promise((resolve) => {
  const t0 = performance.now();
  const busy = () => document.getAnimations().some((a) => a.playState === 'running'
    && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('.card'));
  const step = () => {
    if (!busy() || performance.now() - t0 > 30000) requestAnimationFrame(() => resolve(!busy()));
    else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})"""
CARDS_SETTLED_2S = CARDS_SETTLED.replace("30000", "2000")
RUNNING = """() => document.getAnimations().filter((a) => a.playState === 'running').map((a) => {
  const t = a.effect && a.effect.target;
  return `${a.constructor.name} ${a.id} ${t && t.className} ${t && t.dataset && t.dataset.card} ${Math.round(a.currentTime)}`
    + ` ${JSON.stringify(a.effect.getComputedTiming().endTime)} in ${t && t.parentElement && t.parentElement.className}`;
}).slice(0, 8)"""
# Every meld's cards whose box is not inside the meld's box.
OUT_OF_PLACE = """() => {
  const bad = [];
  for (const m of document.querySelectorAll('#table .meld')) {
    const r = m.getBoundingClientRect();
    for (const c of m.querySelectorAll('.card[data-id]')) {
      const b = c.getBoundingClientRect();
      if (b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1)
        bad.push(`${c.dataset.card} of meld ${m.dataset.meld}: ${[b.left, b.top, b.right, b.bottom].map(Math.round)}`
                 + ` outside ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
    }
  }
  return bad;
}"""
# Counts, frame by frame, the cards running more than one travel (Web Animations of script).
WATCH_STACKED = """() => {
  window.__stacked = [];
  const tick = () => {
    const per = new Map();
    for (const a of document.getAnimations()) {
      const t = a.effect && a.effect.target;
      if (a instanceof CSSTransition || a.playState !== 'running' || !t || !t.classList || !t.classList.contains('card')) continue;
      per.set(t, (per.get(t) || 0) + 1);
    }
    for (const [t, n] of per) if (n > 1 && window.__stacked.length < 20) window.__stacked.push(`${t.dataset.card}: ${n}`);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


@pytest.mark.parametrize("width, height", [(390, 844), (844, 390), (1440, 900)])
def test_every_card_lies_in_its_meld_after_each_move(browser, base_url, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base_url + "?pace=100")
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        start_game(page, rules="samba", players=4, level="easy", target=5000)
        page.evaluate(WATCH_STACKED)
        checked = 0
        t0 = time.monotonic()
        while checked < 12 and time.monotonic() - t0 < 150:
            expect(
                page.locator('body[data-my-turn="1"][data-busy="0"], body[data-phase="game_over"]')
            ).to_have_count(1, timeout=60_000)
            phase = page.locator("body").get_attribute("data-phase")
            # The computers have moved (their cards' travels overlapping): once the cards came to
            # rest, each lies in its meld.
            if not page.evaluate(CARDS_SETTLED_2S):
                running = page.evaluate(RUNNING)
                assert page.evaluate(CARDS_SETTLED), ("cards still travelling after 30 s", running)
            assert page.evaluate(OUT_OF_PLACE) == [], (
                f"at version {page.locator('body').get_attribute('data-version')}"
            )
            checked += 1
            if phase == "game_over":
                break
            if phase == "deal_over":
                page.click(
                    "#btn-next"
                    if page.locator("#dlg-deal").is_visible()
                    else '#actions button[data-arg="next"]'
                )
            elif phase == "draw":
                draw_phase_step(page, moves(page))
            elif phase == "meld":
                try_melds(page)
                if page.locator('body[data-phase="meld"][data-my-turn="1"]').count():
                    discard_one(page)
            elif phase == "answer":
                page.click('#actions button[data-arg="answer yes"]')
        assert checked >= 6, f"only {checked} positions checked"
        assert page.evaluate("window.__stacked") == []
        assert not errors, errors
    finally:
        ctx.close()
