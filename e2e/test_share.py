"""Share a deal: the Share button's link starts the same game (same first hand)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from conftest import wait_ready
from play_driver import body_attr, settle, start_game, top_bar
from playwright.sync_api import expect

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

    # Opening the link starts that game, with the same cards; the game in progress is kept (the
    # question before it: test_share_link_asks_before_replacing_the_game_in_progress).
    page.goto(link + "&pace=5000")
    page.click("#btn-share-link")
    wait_ready(page)
    expect(page.locator("#dlg-new")).not_to_be_visible()
    assert hand_texts(page) == first
    expect(page.locator(".score-meta")).to_contain_text("5,000")
    page_log.assert_clean()


def test_bad_share_link_says_why_and_offers_the_dialog(page, page_log, base_url, open_app):
    open_app(page, base_url + "?rules=samba&players=9&seed=3")
    expect(page.locator("#dlg-new")).to_be_visible()
    expect(page.locator("#dlg-new [role=alert]")).to_contain_text("“9” players")
    page_log.assert_clean()


def test_fresh_visitor_gets_the_shared_game_at_once(page, page_log, base_url, open_app):
    open_app(page, base_url + "?rules=samba&players=4&target=5000&seed=456&pace=5000")
    expect(page.locator("#dlg-new")).not_to_be_visible()
    expect(page.locator("#dlg-share-ask")).to_have_count(0)
    expect(page.locator(HAND).first).to_be_visible()
    page_log.assert_clean()


def test_share_link_asks_before_replacing_the_game_in_progress(page, page_log, base_url, open_app):
    """Issue 36.1: a share link opened during a game asks first; "Back to my game" resumes it
    untouched, "Play the shared game" keeps it, and the new-game dialog goes back to it (the two
    games change places)."""
    open_app(page, base_url + "?pace=5000")
    start_game(page, rules="samba", players=4, level="easy", target=5000)
    page.click("#stock")
    expect(page.locator('body[data-phase="meld"][data-my-turn="1"]')).to_have_count(1)
    settle(page)
    mine = hand_texts(page)
    version = body_attr(page, "version")
    expect(page.locator(f'body[data-saved="{version}"]')).to_have_count(1)

    link = base_url + "?rules=samba&players=4&target=10000&seed=456&pace=5000"
    page.goto(link)
    ask = page.locator("#dlg-share-ask")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("Samba, 4 players, to 10,000")
    expect(ask).to_contain_text("Samba, 4 players, to 5,000, deal 1")
    page.click("#btn-share-mine")
    wait_ready(page)
    expect(page.locator(f'body[data-version="{version}"]')).to_have_count(1)
    assert hand_texts(page) == mine
    assert "rules=" not in page.url and "pace=5000" in page.url

    # Again, and this time the shared game: the game in progress is kept to go back to.
    page.goto(link)
    expect(ask).to_be_visible()
    page.click("#btn-share-link")
    wait_ready(page)
    expect(page.locator(".score-meta")).to_contain_text("10,000")
    shared = hand_texts(page)
    assert shared != mine
    top_bar(page, "#btn-new").click()
    expect(page.locator("#btn-left")).to_be_visible()
    page.click("#btn-left")
    expect(page.locator("#dlg-new")).not_to_be_visible()
    expect(page.locator(f'body[data-version="{version}"]')).to_have_count(1)
    expect(page.locator(".score-meta")).to_contain_text("5,000")
    assert hand_texts(page) == mine
    # The shared game is now the one kept: the same button goes back to it.
    top_bar(page, "#btn-new").click()
    page.click("#btn-left")
    expect(page.locator(".score-meta")).to_contain_text("10,000")
    assert hand_texts(page) == shared
    page_log.assert_clean()
