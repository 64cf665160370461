"""On a phone (upright and on its side) and an upright tablet, in every language: every top-bar
control (in the open Menu) and every action button sits inside the screen (none pushed off an
edge or hidden in a sideways-scrolling row), the table's sections do not overlap, and the hand's
last card can be scrolled into view clear of the sticky action bar. On a phone, a tablet and any
screen narrower than 1240 px the top bar takes one row, and its Menu opens and closes as a
player expects; from 1240 px its buttons stand in that row."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from play_driver import (
    choose_language,
    start_game,
    switch_language_by_script,
    top_bar,
    wait_my_turn,
)
from playwright.sync_api import expect

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
    return (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
        and min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
    )


def assert_inside(page, selector: str, where: str) -> int:
    controls = page.evaluate(CONTROLS_JS, selector)
    assert controls, f"{where}: no control found for {selector}"
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    for c in controls:
        assert c["left"] >= 0 and c["right"] <= width + 0.5, (
            f"{where}: {c['id']} is off screen: {c}"
        )
        assert c["top"] >= 0 and c["bottom"] <= height + 0.5, (
            f"{where}: {c['id']} is off screen: {c}"
        )
        assert c["shown"], f"{where}: {c['id']} is covered or clipped: {c}"
    return len(controls)


@contextmanager
def screen_page(browser, page_log, open_app, url: str, width: int, height: int, phone: bool = True):
    """A page of its own context at ``width`` × ``height`` (a phone's: mobile, touch), the app
    open at ``url``, its errors kept in ``page_log``."""
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        service_workers="block",
    )
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: page_log.page_errors.append(str(exc)))
        open_app(page, url)
        yield page
    finally:
        ctx.close()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_small_screen_layout_in_every_language(screen, browser, page_log, base_url, open_app):
    width, height = SCREENS[screen]
    with screen_page(
        browser, page_log, open_app, base_url + "?seed=11&pace=20", width, height
    ) as page:
        start_game(page, level="random")
        assert wait_my_turn(page) == "draw"
        for lang in ("en", "fr", "ru", "nb"):
            choose_language(page, lang)
            page.evaluate("window.scrollTo(0, 0); document.getElementById('table').scrollTo(0, 0)")
            top_bar(page, "#btn-new")  # a phone: the Menu open
            n = assert_inside(page, ".topbar-actions > *", f"{lang} top bar")
            assert n >= 7, f"{lang}: the top bar shows {n} controls"
            page.keyboard.press("Escape")
            assert_inside(page, "#actions button", f"{lang} action bar")
            sections = page.evaluate(SECTIONS_JS)
            assert len(sections) == 4, f"{lang}: sections shown: {sections}"
            for i, a in enumerate(sections):
                for b in sections[i + 1 :]:
                    assert not overlap(a, b), f"{lang}: {a['id']} overlaps {b['id']}: {a} {b}"
        # The hand's last card, scrolled into view, is not under the sticky action bar.
        last = page.locator("#hand .card").last
        last.scroll_into_view_if_needed()
        box = last.bounding_box()
        bar = page.locator("#actions").bounding_box()
        assert box is not None and bar is not None
        assert box["y"] + 12 <= bar["y"], f"the last card {box} stays under the action bar {bar}"
        assert not page_log.page_errors


@pytest.mark.parametrize("screen", ["phone", "phone-landscape"])
def test_new_game_dialog_buttons_fit_on_a_phone(screen, browser, page_log, base_url, open_app):
    """The new-game dialog's buttons (Statistics, Play with friends, Cancel, Deal) wrap inside
    the dialog in every language rather than running off its edge."""
    width, height = SCREENS[screen]
    with screen_page(browser, page_log, open_app, base_url + "?seed=11", width, height) as page:
        form = page.locator("#form-new")
        expect(form).to_be_visible()
        expect(page.locator("#form-new .dlg-buttons #btn-stats")).to_have_count(1)
        for lang in ("en", "fr", "ru", "nb"):
            switch_language_by_script(page, lang)
            page.locator("#btn-start").scroll_into_view_if_needed()
            box = form.bounding_box()
            assert box is not None
            buttons = page.evaluate(CONTROLS_JS, "#form-new .dlg-buttons > *")
            assert len(buttons) >= 4, f"{lang}: {buttons}"
            for b in buttons:
                assert (
                    box["x"] - 0.5 <= b["left"] and b["right"] <= box["x"] + box["width"] + 0.5
                ), f"{lang}: {b['id']} runs off the dialog {box}: {b}"
        assert not page_log.page_errors


# The top bar's height against its tallest shown child's with its padding and border: equal when
# every child stands in one row.
TOP_BAR_ROWS_JS = """() => {
  const bar = document.querySelector('.topbar');
  const cs = getComputedStyle(bar);
  const tallest = Math.max(...[...bar.children].filter((e) => e.offsetParent !== null
    && getComputedStyle(e).position !== 'absolute').map((e) => e.getBoundingClientRect().height));
  return {bar: bar.getBoundingClientRect().height,
          one_row: tallest + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom)
                   + parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth)};
}"""


# Screens too narrow for the top bar's buttons beside the scores in some language (the Menu), and
# the narrowest with room for them in every language (Russian needs 1220 px).
MENU_SCREENS = {**SCREENS, "short-laptop": (1024, 600), "tablet-landscape": (1024, 768)}
BUTTON_SCREENS = {"laptop-narrow": (1240, 800), "laptop": (1366, 768)}


@pytest.mark.parametrize("screen", list(MENU_SCREENS))
def test_the_top_bar_takes_one_row_and_its_menu_opens_and_closes(
    screen, browser, page_log, base_url, open_app
):
    """On a phone, a tablet, and any screen too narrow for the buttons beside the scores, the top
    bar's actions fold into a Menu, so the bar takes one row in every language (the actions
    took two or three rows: 109 px of an 844 px high phone, 73 of 390 on its side, 89 of 600 at
    1024×600, 89 of 768 on a tablet on its side, 135 of 1024 on an upright tablet in French).
    The Menu opens its panel over the table; a choice in it, Escape (the focus back on the Menu)
    and a tap outside it close it. The log slides in from it: at 1024×600 and 1024×768 too,
    where it stood beside the table and left the hand two rows in a 754 px column."""
    width, height = MENU_SCREENS[screen]
    with screen_page(
        browser,
        page_log,
        open_app,
        base_url + "?seed=11&pace=20",
        width,
        height,
        phone=screen in SCREENS,
    ) as page:
        start_game(page, level="random")
        wait_my_turn(page)
        menu, panel = page.locator("#btn-menu"), page.locator("#topbar-actions")
        for lang in ("en", "fr", "ru", "nb"):
            choose_language(page, lang)
            rows = page.evaluate(TOP_BAR_ROWS_JS)
            assert rows["bar"] <= rows["one_row"] + 0.5, (
                f"{lang}: the top bar takes more than a row: {rows}"
            )
            expect(panel).to_be_hidden()  # the choice closed the Menu
        expect(menu).to_have_attribute("aria-expanded", "false")
        menu.click()
        expect(panel).to_be_visible()
        expect(menu).to_have_attribute("aria-expanded", "true")
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        expect(menu).to_be_focused()
        expect(page.locator('body[data-phase="draw"]')).to_have_count(1)  # Escape did nothing else
        menu.click()
        page.locator("#seats .seat").first.click()  # a tap outside: on a seat, which does nothing
        expect(panel).to_be_hidden()
        # The log is not beside the table (the table has the screen's whole width): it slides
        # in from the Menu, over the table.
        table = page.locator("#table").bounding_box()
        assert table is not None and table["width"] >= width - 1, table
        top_bar(page, "#btn-log").click()
        expect(page.locator("body.show-log")).to_have_count(1)
        expect(panel).to_be_hidden()
        page.click("#btn-log-close")
        expect(page.locator("body.show-log")).to_have_count(0)
        top_bar(page, "#btn-scores").click()  # a choice: its dialog opens, the Menu closes
        expect(page.locator("dialog[open]")).to_have_count(1)
        expect(panel).to_be_hidden()
        expect(menu).to_have_attribute("aria-expanded", "false")
        assert not page_log.page_errors


@pytest.mark.parametrize("screen", list(BUTTON_SCREENS))
def test_a_laptop_shows_the_top_bar_buttons_in_one_row(
    screen, browser, page_log, base_url, open_app
):
    """From 1240 px wide the top bar's buttons stand beside the scores, one row in every
    language, with no Menu (the Menu's screens end where the longest language's buttons fit)."""
    width, height = BUTTON_SCREENS[screen]
    with screen_page(
        browser, page_log, open_app, base_url + "?seed=11&pace=20", width, height, phone=False
    ) as page:
        start_game(page, level="random")
        wait_my_turn(page)
        for lang in ("en", "fr", "ru", "nb"):
            choose_language(page, lang)
            rows = page.evaluate(TOP_BAR_ROWS_JS)
            assert rows["bar"] <= rows["one_row"] + 0.5, (
                f"{lang}: the top bar takes more than a row: {rows}"
            )
            expect(page.locator("#btn-menu")).to_be_hidden()
            expect(page.locator("#btn-new")).to_be_visible()
        assert not page_log.page_errors
