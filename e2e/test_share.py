"""Share a deal: the Share button's link starts the same game (same first hand)."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from play_driver import start_game

HAND = "#hand .card[data-card]"


def hand_texts(page) -> list[str]:
    expect(page.locator(HAND).first).to_be_visible()
    return [c.get_attribute("data-card") for c in page.locator(HAND).all()]


def test_share_link_reproduces_the_first_hand(page, page_log, base_url, open_app):
    # A game dealt from the settings dialog (the engine picks a random seed).
    open_app(page, base_url + "?pace=5000")
    start_game(page, rules="samba", players=4, level="easy", target=5000)
    first = hand_texts(page)
    page.click("#btn-share")
    msg = page.locator('#message[data-kind="info"]')
    expect(msg).to_contain_text("seed=")
    link = re.search(r"https?://\S+", msg.inner_text()).group(0)
    q = parse_qs(urlsplit(link).query)
    assert q["rules"] == ["samba"] and q["players"] == ["4"] and q["target"] == ["5000"]
    assert q["levels"] == ["easy,easy,easy"] and q["seed"][0].isdigit()
    assert link.startswith(base_url)

    # Opening the link starts that game at once (no dialog), with the same cards.
    open_app(page, link + "&pace=5000")
    expect(page.locator("#dlg-new")).not_to_be_visible()
    assert hand_texts(page) == first
    expect(page.locator(".score-meta")).to_contain_text("5,000")
    page_log.assert_clean()


def test_bad_share_link_says_why_and_offers_the_dialog(page, page_log, base_url, open_app):
    open_app(page, base_url + "?rules=samba&players=9&seed=3")
    expect(page.locator("#dlg-new")).to_be_visible()
    expect(page.locator("#dlg-new [role=alert]")).to_contain_text("“9” players")
    page_log.assert_clean()
