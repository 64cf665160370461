"""Small things at the table (issue 36.9): "See the pile" only once there is a game; the chosen
pill's radio dot shows on its green; C takes the keyboard to the hand."""

from __future__ import annotations

from play_driver import start_game
from playwright.sync_api import expect


def test_see_the_pile_waits_for_a_game_and_the_chosen_pill_shows_its_dot(
    page, page_log, base_url, open_app
):
    open_app(page, base_url + "?pace=5000")
    dlg = page.locator("#dlg-new")
    expect(dlg).to_be_visible()
    expect(page.locator("#btn-pile-view")).to_be_hidden()
    # The chosen pill is green: its radio's colour (accent-color) is another than the pill's.
    pill = dlg.locator("#opt-rules label:has(input:checked)")
    colours = pill.evaluate(
        "(l) => [getComputedStyle(l).backgroundColor,"
        " getComputedStyle(l.querySelector('input')).accentColor]"
    )
    assert colours[0] != colours[1], colours
    start_game(page, rules="samba", players=4, level="easy", target=5000)
    expect(page.locator("#btn-pile-view")).to_be_visible()
    page_log.assert_clean()


def test_c_takes_the_keyboard_to_the_hand(page, page_log, base_url, open_app):
    """After D (draw), Tab would walk through the stock, the pile, the melds and the buttons
    (about 15 stops) before the hand: C goes there at once."""
    open_app(page, base_url + "?pace=5000")
    start_game(page, rules="samba", players=4, level="easy", target=5000)
    expect(page.locator('body[data-my-turn="1"][data-phase="draw"]')).to_have_count(1)
    page.locator("#stock").focus()
    page.keyboard.press("d")
    expect(page.locator('body[data-phase="meld"][data-busy="0"]')).to_have_count(1)
    page.keyboard.press("c")
    focused = page.evaluate(
        "() => document.activeElement.closest('#hand .card') ? document.activeElement.dataset.id : null"
    )
    assert focused == page.locator("#hand .card[data-id]").first.get_attribute("data-id")
    # With a card picked, C goes to it.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    picked = page.locator('#hand .card[aria-pressed="true"]')
    expect(picked).to_have_count(1)
    page.locator("#stock").focus()
    page.keyboard.press("c")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-pressed')") == "true"
    page_log.assert_clean()
