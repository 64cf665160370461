"""Keyboard alone: deal from the settings dialog, draw, walk the hand with the arrow keys,
select a card, clear and select again, discard, and the turn passes. No mouse anywhere."""

from __future__ import annotations

from messages import text
from play_driver import body_attr, settle, wait_my_turn
from playwright.sync_api import expect


def tab_to(page, selector: str, limit: int = 80, back: bool = False) -> None:
    """Presses Tab (or Shift+Tab) until an element matching `selector` has the focus."""
    for _ in range(limit):
        if page.evaluate(
            "(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector
        ):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focused(page, attr: str) -> str:
    return (
        page.evaluate(
            "(a) => document.activeElement && document.activeElement.getAttribute(a)", attr
        )
        or ""
    )


def test_a_turn_played_with_the_keyboard_alone(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=11&pace=20")
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    tab_to(page, "#btn-start")
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    assert wait_my_turn(page) == "draw"
    version = body_attr(page, "version")
    n_before = page.locator("#hand .card").count()

    # Every card of the hand is a labelled, focusable button.
    first = page.locator("#hand .card").first
    assert first.get_attribute("tabindex") == "0"
    assert first.get_attribute("role") == "button"
    assert (first.get_attribute("aria-label") or "").strip()
    # The stock and the pile say what they are.
    assert "Stock" in (page.locator("#stock").get_attribute("aria-label") or "")

    # D draws (the focus is on the page, not in a field).
    page.keyboard.press("d")
    settle(page)
    expect(page.locator('body[data-phase="meld"]')).to_have_count(1)
    assert body_attr(page, "version") != version
    assert page.locator("#hand .card").count() >= n_before + 1
    wait_my_turn(page)

    # Tab into the hand, then walk it with the arrow keys.
    tab_to(page, "#hand .card[data-id]")
    start_id = focused(page, "data-id")
    page.keyboard.press("ArrowRight")
    assert focused(page, "data-id") != start_id, "the right arrow moves along the hand"
    page.keyboard.press("Home")
    assert focused(page, "data-id") == page.locator("#hand .card").first.get_attribute("data-id")
    # Walk to the last card that may be discarded.
    legal = page.locator('#hand .card[data-legal="discard"]')
    assert legal.count(), "some card may be discarded"
    target = legal.last.get_attribute("data-id")
    for _ in range(40):
        if focused(page, "data-id") == target:
            break
        page.keyboard.press("ArrowRight")
    assert focused(page, "data-id") == target

    # Space selects (the focus stays on the card), Escape clears, Enter selects again.
    page.keyboard.press("Space")
    card = page.locator(f'#hand .card[data-id="{target}"]')
    expect(card).to_have_class(__import__("re").compile(r"\bselected\b"))
    assert card.get_attribute("aria-pressed") == "true"
    assert focused(page, "data-id") == target, "the focus survives the redraw"
    page.keyboard.press("Escape")
    expect(page.locator("#hand .card.selected")).to_have_count(0)
    page.keyboard.press("Enter")
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    discard_button = page.locator('#actions button[data-action="discard"]')
    assert discard_button.get_attribute("aria-keyshortcuts") == "X"

    # X discards the selected card: the turn passes to the next seat.
    version = body_attr(page, "version")
    card_text = card.get_attribute("data-card")
    page.keyboard.press("x")
    expect(page.locator(f'#hand .card[data-id="{target}"]')).to_have_count(0)
    # The discard is in the log for good (the pile's top is the next players' soon: with
    # computers moving at once, the card may lie on top for a moment only).
    pretty = (
        text("card.joker")
        if card_text == "JK"
        else (
            ("10" if card_text[0] == "T" else card_text[0])
            + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card_text[1]]
        )
    )
    mine = page.locator("#log-list li.me").filter(has_text=text("log.you.discard", card=pretty))
    expect(mine).not_to_have_count(0)
    assert body_attr(page, "version") != version
    expect(page.locator('body[data-my-turn="0"]')).to_have_count(1)
    # The other players' moves are read out in the live region.
    expect(page.locator("#live")).not_to_have_text("", timeout=20_000)
    page_log.assert_clean()


def test_melds_and_buttons_are_reachable_and_named(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=11&pace=20")
    tab_to(page, "#btn-start")
    page.keyboard.press("Enter")
    wait_my_turn(page)
    page.keyboard.press("d")
    settle(page)
    wait_my_turn(page)
    # Stage a suggested meld with the keyboard: Tab to the chip, Enter.
    chips = page.locator("#suggest button[data-part]")
    if chips.count():
        tab_to(page, "#suggest button[data-part]")
        page.keyboard.press("Enter")
        staged = page.locator("#my-melds .meld.staged")
        expect(staged).to_have_count(1)
        assert staged.get_attribute("role") == "button"
        assert staged.get_attribute("tabindex") == "0"
        assert (staged.get_attribute("aria-label") or "").strip()
        page.keyboard.press("b")  # take back
        expect(staged).to_have_count(0)
    # Every button of the table has a name.
    for b in page.locator("#actions button, .topbar button").all():
        if b.is_visible():
            assert (b.inner_text() or b.get_attribute("aria-label") or "").strip()
    # The "you need" reminder comes from the view.
    expect(page.locator("#reminder")).to_contain_text("to open")
    page_log.assert_clean()
