"""Lessons at the table: the list page, a wrong move explained, an illegal one refused with the
engine's reason, and lessons completed by clicking (one Pyodide boot per lesson page)."""

from __future__ import annotations

import json
from pathlib import Path

from messages import messages
from play_driver import click_card, settle
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
MESSAGES = messages("en")
LESSONS = ROOT / "web" / "lessons"


def lesson(name: str) -> dict:
    return json.loads((LESSONS / f"{name}.json").read_text(encoding="utf-8"))


def card(page, text: str, nth: int = 0):
    return page.locator(f'#hand .card[data-card="{text}"]').nth(nth)


def test_lessons_page_lists_every_lesson(page, page_log, base_url):
    index = json.loads((LESSONS / "index.json").read_text(encoding="utf-8"))["lessons"]
    page.goto(base_url + "lessons.html")
    items = page.locator("#lesson-list .lesson-card")
    expect(items).to_have_count(len(index))
    first = lesson(index[0][:-5])
    expect(items.first.locator(".lesson-card-title")).to_have_text(first["title"])
    assert items.first.locator("a").get_attribute("href") == f"index.html?lesson={index[0][:-5]}"
    page_log.assert_clean()


def test_take_the_pile_lesson_wrong_illegal_then_done(page, page_log, base_url, open_app):
    data = lesson("05-take-the-pile")
    step = data["steps"][0]
    open_app(page, base_url + "index.html?lesson=05-take-the-pile&pace=20")
    panel = page.locator("#lesson-panel")
    expect(panel.locator(".lesson-title")).to_have_text(data["title"])
    expect(panel.locator('.lesson-step[data-state="current"]')).to_have_text(step["goal"])
    expect(page.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)
    version = page.locator("body").get_attribute("data-version")
    n_hand = page.locator("#hand .card").count()

    # A legal move that is not the goal: the lesson's explanation, nothing changes.
    page.click("#stock")
    settle(page)
    msg = page.locator('#message[data-kind="wrong"]')
    expect(msg).to_have_text(step["wrong"])
    assert page.locator("body").get_attribute("data-version") == version
    expect(page.locator("#hand .card")).to_have_count(n_hand)

    # An illegal move: the engine's reason, in the table's words.
    click_card(card(page, "4C"))
    click_card(card(page, "6S"))
    page.click("#pile")
    settle(page)
    err = page.locator('#message[data-kind="error"]')
    expect(err).to_be_visible()
    code = err.get_attribute("data-code")
    assert code and f"reason.{code}" in MESSAGES, code
    expect(err).to_have_text(MESSAGES[f"reason.{code}"])
    assert page.locator("body").get_attribute("data-version") == version

    # The goal: select the two nines and click the pile.
    page.click('#actions button[data-action="clear"]')
    click_card(card(page, "9C"))
    click_card(card(page, "9D"))
    page.click("#pile")
    settle(page)
    expect(page.locator("#lesson-done")).to_be_visible()
    expect(page.locator("#lesson-feedback")).to_have_text(step["success"])
    expect(panel).to_have_attribute("data-state", "done")
    expect(page.locator("#my-melds .meld[data-meld]")).to_have_count(2)
    next_link = page.locator("#lesson-done a.lesson-next")
    assert next_link.get_attribute("href") == "index.html?lesson=06-take-the-top-card"
    page_log.assert_clean()


def test_two_step_lesson_completed_by_clicking(page, page_log, base_url, open_app):
    data = lesson("01-a-turn")
    open_app(page, base_url + "index.html?lesson=01-a-turn&pace=20")
    panel = page.locator("#lesson-panel")
    expect(panel.locator(".lesson-step")).to_have_count(2)
    expect(page.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)
    page.click("#stock")
    settle(page)
    expect(panel).to_have_attribute("data-step", "1")
    expect(panel.locator(".lesson-step").first).to_have_attribute("data-state", "done")
    expect(page.locator('#message[data-kind="success"]')).to_have_text(data["steps"][0]["success"])
    click_card(page.locator('#hand .card[data-legal="discard"]').last)
    page.click('#actions button[data-action="discard"]')
    settle(page)
    expect(page.locator("#lesson-done")).to_be_visible()
    expect(page.locator("#lesson-feedback")).to_have_text(data["steps"][1]["success"])
    # Once the table moved on to the player's next turn, "Your turn is over" has left the
    # message area (it stood beside "Your turn: draw from the stock"); the panel keeps it.
    expect(page.locator('body[data-my-turn="1"][data-phase="draw"][data-busy="0"]')).to_have_count(
        1
    )
    expect(page.locator("#message")).not_to_have_text(data["steps"][1]["success"])
    expect(page.locator("#lesson-feedback")).to_have_text(data["steps"][1]["success"])
    page_log.assert_clean()


def test_lesson_progress_is_kept_and_the_last_lesson_counts_it(page, page_log, base_url, open_app):
    """Issue 36.7: finished lessons are kept (the list marks them and counts them), and the last
    lesson's way back says how many are done instead of "You finished every lesson"; Crawford's
    lesson says the highlighted meld takes the whole pile (not "only the top card")."""
    total = len(json.loads((LESSONS / "index.json").read_text(encoding="utf-8"))["lessons"])
    open_app(page, base_url + "index.html?lesson=12-crawford-frozen-pile&pace=5000")
    expect(page.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)
    expect(page.locator("#status")).to_contain_text(MESSAGES["status.take_onto_hint"])
    expect(page.locator("#status")).not_to_contain_text(MESSAGES["status.top_hint"])
    page.locator('#my-melds .meld[data-meld="1"]').click()
    settle(page)
    done = page.locator("#lesson-done a")
    expect(done).to_have_text(f"Back to the lessons (1 of {total} done)")
    done.click()
    expect(page.locator("#lesson-list .lesson-card")).to_have_count(total)
    expect(page.locator("#lesson-progress")).to_have_text(f"1 of {total} lessons done")
    marked = page.locator('#lesson-list .lesson-card[data-done="1"]')
    expect(marked).to_have_count(1)
    assert marked.get_attribute("data-id") == "12-crawford-frozen-pile"
    page_log.assert_clean()
