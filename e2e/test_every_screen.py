"""Every screen: with the largest positions the rules produce (6-player crawford, samba 4 and 2,
dutch 6; 21-24 cards in hand, 10-12 melds per side; e2e/positions.py), reopened as saved games
at 390×844, 844×390, 768×1024 and 1440×900, and in the embedded table 640 px high: every hand
card and every enabled button passes a hit test (the element at its centre is itself or inside
it) without any scrolling by hand, in the draw and meld phases, with a card selected and with a
meld staged. On each of those screens the stock's card and the pile's top card are in sight
with the board at its top and at its end, and the cards under the pile's top card keep clear
of the pile's label. Also: two neighbouring hand cards clicked 100 ms apart
are both selected, a lesson fits the first screen of a phone, and the end-of-game dialog (on
a phone) and the new-game dialog (on a phone on its side, and on a small upright phone) show every
button without scrolling, in every language."""

from __future__ import annotations

import base64
import json

import pytest
from fit import SCREENS, decks_hidden, hit_report, load_saved
from play_driver import SETTLED_JS, choose_language, switch_language_by_script, top_bar
from playwright.sync_api import expect
from positions import POSITIONS, position

IDLE = 'body[data-my-turn="1"][data-busy="0"]'


def assert_all_hit(page, where: str, min_cards: int = 20) -> dict:
    rep = hit_report(page)
    assert rep["cards"] >= min_cards, f"{where}: only {rep['cards']} hand cards drawn"
    assert not rep["bad_cards"], f"{where}: hand cards covered or off screen: {rep['bad_cards']}"
    assert rep["buttons"] >= 2, f"{where}: {rep['buttons']} enabled buttons"
    assert not rep["bad_buttons"], f"{where}: buttons covered or off screen: {rep['bad_buttons']}"
    return rep


def check_every_screen(page, name: str, min_cards: int = 20) -> None:
    for screen, (w, h) in SCREENS.items():
        page.set_viewport_size({"width": w, "height": h})
        assert_all_hit(page, f"{name} at {screen}", min_cards)


# How far the cards under the pile's top card reach below the top of the pile's label (px; at
# most 0 when the label is clear of them).
PILE_LABEL_OVERLAP_JS = """() => {
  const label = document.querySelector('#pile .deck-label').getBoundingClientRect();
  const under = [...document.querySelectorAll('#pile-top .pile-under')];
  return under.length ? Math.max(...under.map((e) => e.getBoundingClientRect().bottom)) - label.top : null;
}"""


def check_pile_label_clear(page, name: str) -> None:
    for screen, (w, h) in SCREENS.items():
        page.set_viewport_size({"width": w, "height": h})
        overlap = page.evaluate(PILE_LABEL_OVERLAP_JS)
        assert overlap is not None, f"{name}: no card under the pile's top card"
        assert overlap <= 0, f"{name} at {screen}: the pile's cards cover its label by {overlap} px"


def check_decks_in_sight(page, name: str) -> None:
    """On every screen the stock and the pile's top card are in sight with the board at its top
    and scrolled to its end (above the melds on an upright phone, beside them on a short wide
    screen, held at the board's edge elsewhere)."""
    board = page.locator("#board")
    for screen, (w, h) in SCREENS.items():
        page.set_viewport_size({"width": w, "height": h})
        for end in ("top", "end"):
            board.evaluate("(b, end) => b.scrollTo(0, end === 'top' ? 0 : b.scrollHeight)", end)
            hidden = decks_hidden(page)
            assert not hidden, f"{name} at {screen}, board at its {end}: {hidden}"
        board.evaluate("(b) => b.scrollTo(0, 0)")


def mobile_context(browser, width=390, height=844):
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        service_workers="block",
    )
    ctx.set_default_timeout(20_000)
    return ctx


@pytest.mark.parametrize("name", list(POSITIONS))
def test_largest_positions_fit_every_screen(name, browser, base_url):
    ctx = mobile_context(browser)
    try:
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        pos = load_saved(page, base_url, name)
        assert page.locator("#hand .card").count() == len(pos["view"]["hand"])
        # On a phone the board is taller than its room: a shade says it scrolls, and where.
        board = page.locator("#board")
        expect(board).to_have_attribute("data-more-below", "1")
        expect(board).to_have_attribute("data-more-above", "0")
        board.evaluate("(b) => b.scrollTo(0, b.scrollHeight)")
        expect(board).to_have_attribute("data-more-below", "0")
        expect(board).to_have_attribute("data-more-above", "1")
        board.evaluate("(b) => b.scrollTo(0, 0)")
        check_every_screen(page, f"{name} ({pos['view']['phase']})")
        check_decks_in_sight(page, name)
        check_pile_label_clear(page, name)
        # A card selected (Discard / Take / New meld change state), then a meld staged.
        page.set_viewport_size({"width": 390, "height": 844})
        first = page.locator("#hand .card").first
        first.click(position={"x": 6, "y": 10})
        expect(page.locator("#hand .card.selected")).to_have_count(1)
        check_every_screen(page, f"{name}, one card selected")
        page.click('#actions button[data-action="clear"]')
        expect(page.locator("#hand .card.selected")).to_have_count(0)
        chips = page.locator("#suggest button[data-part]")
        if pos["view"]["phase"] == "meld":
            assert chips.count() > 0, f"{name}: no meld suggestion to stage"
            chips.first.click()
            expect(page.locator("#my-melds .meld[data-staged]")).to_have_count(1)
            expect(page.locator('#actions button[data-action="takeback"]')).to_be_visible()
            check_every_screen(page, f"{name}, a meld staged", min_cards=16)
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("name", ["crawford6-meld", "samba2-draw"])
@pytest.mark.parametrize("width", [400, 1000])
def test_embedded_table_640_high_fits(name, width, browser, base_url):
    pos = position(name)
    b64 = base64.urlsafe_b64encode(json.dumps(pos["scenario"]).encode()).decode().rstrip("=")
    ctx = mobile_context(browser, width, 640)
    try:
        page = ctx.new_page()
        page.goto(base_url + f"embed.html?scenario={b64}&levels=random&pace=20")
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        expect(page.locator(IDLE)).to_have_count(1)
        assert_all_hit(page, f"embedded {name} at {width}×640")
    finally:
        ctx.close()


# The player's side's first row of melds (their boxes) and the board's visible part, in px.
OWN_FIRST_ROW_JS = """() => {
  const b = document.getElementById('board').getBoundingClientRect();
  const boxes = [...document.querySelectorAll('#my-melds .meld')].map((m) => m.getBoundingClientRect());
  const top = Math.min(...boxes.map((r) => r.top));
  const row = boxes.filter((r) => r.top < top + 2).map((r) => [r.top, r.bottom]);
  return {board: [b.top, b.bottom], row};
}"""


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768)])
def test_a_laptop_shows_the_players_own_melds_late_in_a_deal(size, browser, base_url):
    """A laptop's screen late in a deal (9 melds a side, 7 cards in hand): with the board at
    its top, the player's own first row of melds is in sight, and so are the stock and the
    pile's top card (in a column at the board's left; in a row between the sides they pushed
    the player's melds under the hand)."""
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h}, service_workers="block")
    try:
        page = ctx.new_page()
        load_saved(page, base_url, "samba4-late")
        assert not decks_hidden(page)
        got = page.evaluate(OWN_FIRST_ROW_JS)
        top, bottom = got["board"]
        assert got["row"], "no meld of the player's side drawn"
        assert all(top <= a and b <= bottom for a, b in got["row"]), got
    finally:
        ctx.close()


def strip_centre(page, card):
    """The centre of the part of a hand card that shows (cards overlap in fans)."""
    return page.evaluate(
        """(e) => { const r = e.getBoundingClientRect();
      const n = e.nextElementSibling; const right = n ? n.getBoundingClientRect().left : r.right;
      return {x: (r.left + right) / 2, y: r.top + r.height / 2}; }""",
        card.element_handle(),
    )


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_two_cards_clicked_100ms_apart_are_both_selected(size, browser, base_url):
    ctx = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, service_workers="block"
    )
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        # The normal speed (card animation on): no ?pace, which only sets the computers' pace.
        load_saved(page, base_url, "samba4-meld", query="")
        pairs = page.evaluate("""() => [...document.querySelectorAll('#hand .group')]
          .filter(g => g.children.length >= 2).map(g => g.dataset.rank)""")
        assert len(pairs) >= 3, pairs
        for rank in pairs[:5]:
            cards = page.locator(f'#hand .group[data-rank="{rank}"] .card')
            a, b = strip_centre(page, cards.nth(0)), strip_centre(page, cards.nth(1))
            ids = [cards.nth(0).get_attribute("data-id"), cards.nth(1).get_attribute("data-id")]
            page.mouse.click(a["x"], a["y"])
            page.wait_for_timeout(100)  # the gesture under test: a second click 100 ms later
            page.mouse.click(b["x"], b["y"])
            for i in ids:
                expect(page.locator(f'#hand .card.selected[data-id="{i}"]')).to_have_count(1)
            expect(page.locator("#hand .card.selected")).to_have_count(2)
            page.click('#actions button[data-action="clear"]')
            expect(page.locator("#hand .card.selected")).to_have_count(0)
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_lesson_fits_the_first_screen_of_a_phone(size, browser, base_url):
    ctx = mobile_context(browser, *size)
    try:
        page = ctx.new_page()
        page.goto(base_url + "index.html?lesson=05-take-the-pile&pace=20")
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        expect(page.locator(IDLE)).to_have_count(1)
        assert_all_hit(page, f"lesson at {size}", min_cards=5)
        goal = page.locator('#lesson-panel .lesson-step[data-state="current"]').bounding_box()
        assert goal and goal["y"] >= 0 and goal["y"] + goal["height"] <= size[1], goal
        assert page.evaluate("scrollY") == 0
    finally:
        ctx.close()


SEAT_SPILL_JS = """() => [...document.querySelectorAll('#seats .seat')].flatMap((s) => {
  const box = s.getBoundingClientRect();
  return [...s.querySelectorAll('*')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width && (r.right > box.right + 0.5 || r.left < box.left - 0.5);
  }).map((e) => ({seat: s.dataset.seat, what: e.className, text: e.textContent}));
})"""


def test_six_seats_keep_their_badges_inside_in_every_language(browser, base_url):
    """At 6 players on a phone the partner badge stays inside its seat (it spilt onto the next
    seat in fr/ru/nb), and the language picker shows every language's whole name."""
    ctx = mobile_context(browser)
    try:
        page = ctx.new_page()
        load_saved(page, base_url, "crawford6-draw")
        for lang in ("en", "fr", "ru", "nb"):
            choose_language(page, lang)
            expect(page.locator("#seats .seat .tag")).to_have_count(1)
            spill = page.evaluate(SEAT_SPILL_JS)
            assert not spill, f"{lang}: seat contents spill out: {spill}"
            top_bar(page, "#lang-select")  # on a phone, inside the Menu
            cut = page.evaluate("""() => { const s = document.getElementById('lang-select');
              const c = document.createElement('canvas').getContext('2d');
              c.font = getComputedStyle(s).font;
              const widest = Math.max(...[...s.options].map((o) => c.measureText(o.text).width));
              return s.clientWidth - widest; }""")
            assert cut > 10, (
                f"{lang}: the language picker is {-cut:.0f} px too narrow for its names"
            )
    finally:
        ctx.close()


# The enabled buttons of the open dialog that are not wholly inside the screen and the dialog's
# visible box (a dialog scrolls: a button below its fold is clipped), or are covered.
DIALOG_BUTTONS_JS = """() => [...document.querySelectorAll('dialog[open] .dlg-buttons > :is(button, a)')]
  .filter((e) => !e.disabled && e.offsetParent !== null)
  .filter((e) => {
    const r = e.getBoundingClientRect();
    const d = e.closest('dialog').getBoundingClientRect();
    if (r.top < Math.max(0, d.top) || r.left < Math.max(0, d.left)
        || r.bottom > Math.min(innerHeight, d.bottom) || r.right > Math.min(innerWidth, d.right)) return true;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !hit || !(hit === e || e.contains(hit));
  }).map((e) => e.id || e.textContent)"""


def check_dialog_buttons_in_every_language(page, where: str, more=None) -> None:
    """In each language (switched while the dialog stays open), the open dialog has at least four
    buttons and every one is in sight (``DIALOG_BUTTONS_JS``); ``more(lang)``, if given, returns
    a further list of problems, which must be empty."""
    for lang in ("en", "fr", "ru", "nb"):
        switch_language_by_script(page, lang)
        assert page.evaluate(SETTLED_JS)
        assert page.locator("dialog[open] .dlg-buttons > :is(button, a)").count() >= 4
        hidden = page.evaluate(DIALOG_BUTTONS_JS)
        assert not hidden, f"{lang}, {where}: buttons out of sight: {hidden}"
        problems = more(lang) if more else []
        assert not problems, f"{lang}, {where}: {problems}"


@pytest.mark.parametrize("screen", ["phone", "phone-landscape"])
def test_the_game_over_dialog_shows_every_button(screen, browser, base_url):
    """At the end of a game every button of its dialog is on the screen without scrolling, in
    every language (on a phone on its side "New game" wrapped below the fold)."""
    w, h = SCREENS[screen]
    ctx = mobile_context(browser, w, h)
    try:
        page = ctx.new_page()
        load_saved(page, base_url, "samba2-win")
        page.locator('#hand .card[data-card="5C"]').click(position={"x": 6, "y": 10})
        page.click('#actions button[data-action="discard"]')
        expect(page.locator("#dlg-over")).to_be_visible()
        check_dialog_buttons_in_every_language(page, f"the game-over dialog at {screen}")
    finally:
        ctx.close()


# The seat pickers whose chosen option's text is wider than the picker's room for it (its box
# less the padding and the arrow's 20 px): a clipped "Computer (mediu".
SEAT_PICKERS_CUT_JS = """() => [...document.querySelectorAll('#opt-seats select')].map((s) => {
  const c = document.createElement('canvas').getContext('2d');
  const cs = getComputedStyle(s);
  c.font = cs.font;
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
  return [s.name || s.dataset.seat, Math.round(room - c.measureText(s.selectedOptions[0].text).width)];
}).filter(([, spare]) => spare < 0)"""


@pytest.mark.parametrize(
    "size, rules, players",
    [
        ((844, 390), "samba", 4),
        ((844, 390), "dutch", 6),
        ((740, 360), "dutch", 6),
        ((667, 375), "dutch", 6),
        ((360, 640), "samba", 4),
        ((375, 667), "dutch", 6),
    ],
    ids=["844x390-4", "844x390-6", "740x360-6", "667x375-6", "360x640-4", "375x667-6"],
)
def test_the_new_game_dialog_fits_a_small_phone(size, rules, players, browser, base_url):
    """On a phone on its side the new-game dialog of a four- and a six-player game shows every
    button, Deal included, without scrolling, in every language, and each seat's picker shows
    its whole choice (the seats in two or three columns, the players and the target in one row:
    a six-player dialog scrolled by 33 px at 844×390). On a small upright phone the dialog is
    taller than the screen and scrolls, but its buttons stay at its foot, in sight ("Deal" was
    below the fold at 360×640, and at 375×667 with six players)."""
    ctx = mobile_context(browser, *size)
    try:
        page = ctx.new_page()
        page.goto(base_url + "?seed=11")
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        expect(page.locator("#form-new")).to_be_visible()
        page.check(f'#form-new input[name="rules"][value="{rules}"]')
        page.check(f'#form-new input[name="players"][value="{players}"]')
        expect(page.locator("#opt-seats select")).to_have_count(players - 1)
        check_dialog_buttons_in_every_language(
            page, f"the new-game dialog at {size}", lambda lang: page.evaluate(SEAT_PICKERS_CUT_JS)
        )
    finally:
        ctx.close()
