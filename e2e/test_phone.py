"""On a phone (upright and on its side) and an upright tablet, in every language: every top-bar
control and every action button sits inside the screen (none pushed off an edge or hidden in a
sideways-scrolling row), the table's sections do not overlap, and the hand's last card can be
scrolled into view clear of the sticky action bar."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from play_driver import start_game, wait_my_turn

SCREENS = {"phone": (390, 844), "phone-landscape": (844, 390), "tablet": (768, 1024)}

# Every visible control of a bar: its box, and whether the point at its centre is itself (or
# inside it), i.e. it is on screen and nothing covers or clips it.
CONTROLS_JS = """(sel) => [...document.querySelectorAll(sel)]
  .filter(e => e.offsetParent !== null && !e.closest('[hidden]'))
  .map(e => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {id: e.id || e.dataset.action || e.className, left: r.left, right: r.right,
            top: r.top, bottom: r.bottom, shown: !!hit && (hit === e || e.contains(hit))};
  })"""

SECTIONS_JS = """() => ['#seats', '#their-melds', '.center', '#my-melds']
  .map(s => document.querySelector(s)).filter(e => e && e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
              return {id: e.id || e.className, top: r.top, bottom: r.bottom, left: r.left,
                      right: r.right}; })"""


def overlap(a: dict, b: dict) -> bool:
    """Whether two boxes share more than a pixel's edge (the stock and the pile stand above the
    melds on an upright phone, beside them on a phone on its side)."""
    return (min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
            and min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1)


def assert_inside(page, selector: str, where: str) -> int:
    controls = page.evaluate(CONTROLS_JS, selector)
    assert controls, f"{where}: no control found for {selector}"
    width = page.viewport_size["width"]
    for c in controls:
        assert c["left"] >= 0 and c["right"] <= width + 0.5, f"{where}: {c['id']} is off screen: {c}"
        assert c["shown"], f"{where}: {c['id']} is covered or clipped: {c}"
    return len(controls)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_small_screen_layout_in_every_language(screen, browser, page_log, base_url, open_app):
    width, height = SCREENS[screen]
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                              has_touch=True,
                              service_workers="block")
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: page_log.page_errors.append(str(exc)))
        open_app(page, base_url + "?seed=11&pace=20")
        start_game(page, level="random")
        assert wait_my_turn(page) == "draw"
        for lang in ("en", "fr", "ru", "nb"):
            page.select_option("#lang-select", lang)
            expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)
            page.evaluate("window.scrollTo(0, 0); document.getElementById('table').scrollTo(0, 0)")
            n = assert_inside(page, ".topbar-actions > *", f"{lang} top bar")
            assert n >= 5, f"{lang}: the top bar shows {n} controls"
            assert_inside(page, "#actions button", f"{lang} action bar")
            sections = page.evaluate(SECTIONS_JS)
            assert len(sections) == 4, f"{lang}: sections shown: {sections}"
            for i, a in enumerate(sections):
                for b in sections[i + 1:]:
                    assert not overlap(a, b), f"{lang}: {a['id']} overlaps {b['id']}: {a} {b}"
        # The hand's last card, scrolled into view, is not under the sticky action bar.
        last = page.locator("#hand .card").last
        last.scroll_into_view_if_needed()
        box = last.bounding_box()
        bar = page.locator("#actions").bounding_box()
        assert box is not None and bar is not None
        assert box["y"] + 12 <= bar["y"], f"the last card {box} stays under the action bar {bar}"
        assert not page_log.page_errors
    finally:
        ctx.close()


@pytest.mark.parametrize("screen", ["phone", "phone-landscape"])
def test_new_game_dialog_buttons_fit_on_a_phone(screen, browser, page_log, base_url, open_app):
    """The new-game dialog's buttons (Statistics, Play with friends, Cancel, Deal) wrap inside
    the dialog in every language rather than running off its edge."""
    width, height = SCREENS[screen]
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                              has_touch=True, service_workers="block")
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: page_log.page_errors.append(str(exc)))
        open_app(page, base_url + "?seed=11")
        form = page.locator("#form-new")
        expect(form).to_be_visible()
        expect(page.locator("#form-new .dlg-buttons #btn-stats")).to_have_count(1)
        for lang in ("en", "fr", "ru", "nb"):
            page.select_option("#lang-select", lang)
            expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)
            page.locator("#btn-start").scroll_into_view_if_needed()
            box = form.bounding_box()
            assert box is not None
            buttons = page.evaluate(CONTROLS_JS, "#form-new .dlg-buttons > *")
            assert len(buttons) >= 4, f"{lang}: {buttons}"
            for b in buttons:
                assert box["x"] - 0.5 <= b["left"] and b["right"] <= box["x"] + box["width"] + 0.5, \
                    f"{lang}: {b['id']} runs off the dialog {box}: {b}"
        assert not page_log.page_errors
    finally:
        ctx.close()
