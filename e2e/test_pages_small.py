"""The secondary pages on small screens (a phone upright and on its side, an upright tablet), in
every language: rules.html, authors.html, lessons.html and the embedded table (embed.html).

For each page: the document does not scroll sideways; every key control (links, the language
picker, copy buttons, ...) and every cell of the pages' tables is inside the screen, and the point
at its centre is the control itself (nothing covers or clips it: a table cut off inside a
sideways-scrolling box fails); the authors page's live example is never taller than the screen;
on a phone each value of the rules page's comparison table is shown under its rule set's name.
One browser context per screen; only the embedded table boots Python (phone, upright and on
its side)."""

from __future__ import annotations

import pytest
from play_driver import choose_language, top_bar, wait_my_turn
from playwright.sync_api import expect

SCREENS = {"phone": (390, 844), "phone-landscape": (844, 390), "tablet": (768, 1024)}
LANGS = ("en", "fr", "ru", "nb")

# Each page's key controls and table cells (CSS selectors).
PAGES = {
    "rules.html": [
        ".rp-back",
        "#lang-select",
        "#toc a",
        "#rules-table thead th:not(.rp-rule)",
        "#rules-table tbody th",
        "#rules-table tbody td",
        "#keys kbd",
    ],
    "authors.html": [
        ".page-head nav a",
        "#lang-select",
        ".au-toc a",
        ".snippet .copy",
        "#demo-button",
        ".au-table th",
        ".au-table td",
    ],
    "lessons.html": [".page-head nav a", "#lang-select", ".lesson-card-link"],
}
# Tables laid out as grids on a phone keep explicit ARIA roles (some screen readers drop a table's
# meaning once its rows are not displayed as table rows).
TABLES = {"rules.html": "#rules-table", "authors.html": "table.au-table"}
ROLELESS_JS = """(sel) => [...document.querySelectorAll(sel)].flatMap(t => [t,
  ...t.querySelectorAll('thead, tbody, tr, th, td')]).filter(e => !e.getAttribute('role')).length"""
EMBED = "embed.html?rules=samba&players=2&seed=7&pace=20"

# Sideways scrolling of the document (the layout viewport, without zooming out).
OVERFLOW_JS = "() => [document.documentElement.scrollWidth, window.innerWidth]"

# Every visible element matching `sel`: scrolled (the window only, vertically) to the middle of
# the screen, its box (an inline element's first line box) must lie inside the screen, and the
# point at its centre must be the element or inside it.
CHECK_JS = """(sel) => {
  const width = document.documentElement.clientWidth, out = [];
  for (const e of document.querySelectorAll(sel)) {
    if (e.offsetParent === null || e.closest('[hidden]')) continue;
    let r = e.getClientRects()[0] || e.getBoundingClientRect();
    window.scrollBy(0, r.top + r.height / 2 - window.innerHeight / 2);
    r = e.getClientRects()[0] || e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const inside = r.left >= -0.5 && r.right <= width + 0.5;
    const shown = !!hit && (hit === e || e.contains(hit));
    if (!inside || !shown) out.push({el: (e.id || e.tagName + '.' + e.className),
      text: e.textContent.trim().slice(0, 40), left: Math.round(r.left),
      right: Math.round(r.right), width, hit: hit ? hit.tagName + '.' + hit.className : null});
  }
  window.scrollTo(0, 0);
  return {count: document.querySelectorAll(sel).length, bad: out};
}"""


def assert_no_sideways_scroll(page, where: str) -> None:
    scroll_width, width = page.evaluate(OVERFLOW_JS)
    assert scroll_width <= width + 1, (
        f"{where}: the page scrolls sideways ({scroll_width} > {width})"
    )


def assert_controls_shown(page, selectors, where: str) -> None:
    for sel in selectors:
        res = page.evaluate(CHECK_JS, sel)
        assert res["count"], f"{where}: nothing matches {sel}"
        assert not res["bad"], f"{where}: {sel} off screen, covered or clipped: {res['bad'][:4]}"


def set_language(page, lang: str) -> None:
    page.select_option("#lang-select", lang)
    expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_secondary_pages_fit_small_screens(screen, browser, base_url, open_app):
    width, height = SCREENS[screen]
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        service_workers="block",
    )
    ctx.set_default_timeout(15_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        for name, selectors in PAGES.items():
            page.goto(base_url + name)
            if name == "rules.html":
                expect(page.locator("#rules-table tbody tr").first).to_be_attached()
            if name == "lessons.html":
                expect(page.locator(".lesson-card-link").first).to_be_visible()
            for lang in LANGS:
                set_language(page, lang)
                where = f"{screen} {name} {lang}"
                assert_no_sideways_scroll(page, where)
                assert_controls_shown(page, selectors, where)
                if name in TABLES:
                    missing = page.evaluate(ROLELESS_JS, TABLES[name])
                    assert missing == 0, f"{where}: {missing} table parts without an ARIA role"
            if name == "authors.html":
                # The live example: the whole frame fits on the screen (640 px high on a
                # 390 px phone on its side hid the table's action bar below the fold).
                page.click("#demo-button")
                demo = page.locator("#demo")
                expect(demo).to_be_visible()
                box = demo.bounding_box()
                assert box is not None and box["height"] <= height, (
                    f"{screen}: the live example is {box and box['height']} px high on a {height} px screen"
                )
                assert_no_sideways_scroll(page, f"{screen} authors.html live example")
        if screen != "tablet":  # the embedded table boots Python: the phone only
            open_app(page, base_url + EMBED)
            assert wait_my_turn(page) == "draw"
            for lang in ("en", "fr"):
                choose_language(page, lang)
                page.evaluate(
                    "window.scrollTo(0, 0); document.getElementById('table').scrollTo(0, 0)"
                )
                where = f"{screen} {EMBED} {lang}"
                assert_no_sideways_scroll(page, where)
                assert_controls_shown(page, ["#actions button"], where)
                top_bar(page, "#btn-help")  # the top bar's actions, in the open Menu
                assert_controls_shown(page, [".topbar-actions > *"], where)
                page.keyboard.press("Escape")
        assert not errors, f"page errors: {errors}"
    finally:
        ctx.close()


# Each value cell of the rules page's comparison table: the rule set's name it shows over its
# value (its ::before, "" when none is shown) and its column's header.
SET_LABELS_JS = """() => {
  const heads = [...document.querySelectorAll('#rules-table thead th:not(.rp-rule)')]
    .map((th) => th.textContent.trim());
  return [...document.querySelectorAll('#rules-table tbody tr')].flatMap((tr) =>
    [...tr.querySelectorAll('td')].map((td, i) => {
      const c = getComputedStyle(td, '::before').content;
      return {shown: c === 'none' ? '' : JSON.parse(c), head: heads[i]};
    }));
}"""


@pytest.mark.parametrize("screen", ["phone", "tablet"])
def test_the_rules_table_names_each_value_s_rule_set_on_a_phone(screen, browser, base_url):
    """On a phone the comparison table sets a rule's five values three to a line, so each value
    shows its rule set's name over it, in every language (the values' places under a header
    row of the same shape were all that told Bolivia's from Samba's); where the table keeps its
    columns (an upright tablet), the header names them and the values show no name."""
    width, height = SCREENS[screen]
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        service_workers="block",
    )
    try:
        page = ctx.new_page()
        page.goto(base_url + "rules.html")
        expect(page.locator("#rules-table tbody tr").first).to_be_attached()
        # The page's script is in (a language chosen before the rules data has loaded draws
        # the "loading" row over the table the build drew, until the data is in).
        expect(page.locator('body[data-ready="1"]')).to_have_count(1)
        for lang in LANGS:
            set_language(page, lang)
            cells = page.evaluate(SET_LABELS_JS)
            assert len(cells) >= 5 * 20, f"{lang}: {len(cells)} value cells"
            assert all(c["head"] for c in cells), f"{lang}: a value without a column header"
            want = [c["head"] if screen == "phone" else "" for c in cells]
            assert [c["shown"] for c in cells] == want, f"{screen} {lang}: names over the values"
    finally:
        ctx.close()
