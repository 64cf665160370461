"""A person plays at the table: a whole deal by clicking, and an illegal action that is refused
with its reason. Each test pays one Pyodide boot."""

from __future__ import annotations

import re

from messages import messages
from play_driver import body_attr, click_card, play_deal, settle, start_game, wait_my_turn
from playwright.sync_api import expect

MESSAGES = messages("en")


def test_human_plays_a_whole_deal_against_three_computers(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=11&pace=20")
    start_game(page, rules="samba", players=4, level="random")
    stats = play_deal(page)
    assert stats["turns"] > 0
    # The deal summary: one column per side, the totals row, and a way on.
    dialog = page.locator("#dlg-deal")
    expect(dialog).to_be_visible()
    expect(dialog.locator("tr.total td")).to_have_count(2)
    expect(dialog.locator("#btn-next")).to_be_visible()
    dialog.locator("#btn-next").click()
    expect(page.locator('body[data-phase="deal_over"]')).to_have_count(0)
    expect(page.locator("#log-list li").first).to_be_visible()
    page_log.assert_clean()


def test_illegal_action_shows_its_reason_and_changes_nothing(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=5&pace=20")
    start_game(page, rules="samba", players=4, level="random")
    assert wait_my_turn(page) == "draw"
    version = body_attr(page, "version")
    hand = page.locator("#hand .card")
    n_hand = hand.count()
    pile_size = page.locator("#pile-count").inner_text()

    # Taking the pile with two cards that are not a natural pair of the top card's rank.
    top = page.locator("#pile-top .card[data-card]").last.get_attribute("data-card") or ""
    picked = []
    for i in range(n_hand):
        c = hand.nth(i).get_attribute("data-card") or ""
        if c[0] != top[0] and (not picked or picked[0][0] != c[0]):
            click_card(hand.nth(i))
            picked.append(c)
        if len(picked) == 2:
            break
    assert len(picked) == 2
    page.click("#pile")
    settle(page)
    msg = page.locator('#message[data-kind="error"]')
    expect(msg).to_be_visible()
    code = msg.get_attribute("data-code")
    assert code, "the refusal carries the engine's reason code"
    expect(msg).to_have_text(MESSAGES.get(f"reason.{code}", re.compile(r"\S")))
    assert body_attr(page, "version") == version
    expect(page.locator("#hand .card")).to_have_count(n_hand)
    expect(page.locator("#pile-count")).to_have_text(pile_size)

    # Melding two cards after drawing: refused too, nothing laid.
    page.click('#actions button[data-action="clear"]')
    page.click("#stock")
    settle(page)
    expect(page.locator('body[data-phase="meld"]')).to_have_count(1)
    version = body_attr(page, "version")
    n_hand = page.locator("#hand .card").count()
    click_card(page.locator("#hand .card").nth(0))
    click_card(page.locator("#hand .card").nth(1))
    page.click('#actions button[data-action="new"]')
    page.click('#actions button[data-action="confirm"]')
    settle(page)
    expect(page.locator('#message[data-kind="error"]')).to_be_visible()
    assert body_attr(page, "version") == version
    page.click('#actions button[data-action="takeback"]')
    expect(page.locator("#hand .card")).to_have_count(n_hand)
    expect(page.locator("#my-melds .meld[data-meld]")).to_have_count(0)
    page_log.assert_clean()
