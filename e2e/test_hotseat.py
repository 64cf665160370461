"""Two people on one device (hotseat): the hand of the player to act is hidden behind a
"pass the device" screen until that player shows it; the other player's hand never shows."""

from __future__ import annotations

from play_driver import discard_one, settle
from playwright.sync_api import expect


def test_two_humans_pass_the_device(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=11&pace=20")
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    dialog.locator('input[name="rules"][value="samba"]').check()
    dialog.locator('input[name="players"][value="4"]').check()
    for sel in dialog.locator("select[data-seat]").all():
        sel.select_option("random")
    dialog.locator('select[data-seat="2"]').select_option("human")
    page.click("#btn-start")

    privacy = page.locator("#privacy")
    # The first person is asked for too; the hand stays empty until they say so.
    expect(privacy).to_be_visible()
    expect(page.locator("#hand .card")).to_have_count(0)
    expect(page.locator("#privacy-title")).to_contain_text("Zoe")
    page.click("#btn-reveal")
    expect(privacy).to_be_hidden()
    expect(page.locator('body[data-my-turn="1"][data-phase="draw"]')).to_have_count(1)
    zoe_hand = {c.get_attribute("data-id") for c in page.locator("#hand .card").all()}
    assert zoe_hand
    page.click("#stock")
    settle(page)
    expect(page.locator('body[data-my-turn="1"][data-phase="meld"]')).to_have_count(1)
    discard_one(page)

    # Ava (a computer) plays, then it is Ben's turn: a person again, so the screen comes back.
    expect(page.locator("#privacy-title")).to_contain_text("Ben", timeout=30_000)
    expect(privacy).to_be_visible()
    expect(page.locator("#hand .card")).to_have_count(0)
    expect(page.locator("#actions button")).to_have_count(0)
    page.click("#btn-reveal")
    expect(privacy).to_be_hidden()
    ben_hand = {c.get_attribute("data-id") for c in page.locator("#hand .card").all()}
    assert ben_hand and not (ben_hand & zoe_hand), "Ben sees his own hand, not Zoe's"
    expect(page.locator('body[data-my-turn="1"]')).to_have_count(1)
    page_log.assert_clean()
