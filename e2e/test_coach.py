"""The coach in the deal review (docs/frontend.md, "The coach"): a deal played with a planted
mistake, "Review my play" weighs the player's decisions in the worker, marks the mistake, words
the better move and why in each of the four languages, and the replay jumps to it; the replay
answers while the coach works.

The position is the blunder suite's `out-loses-game-s2` (tests/blunders/out_loses_game.json):
going out there hands the game to the opponents. The player goes out anyway, through clicks.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

from messages import raw, text
from play_driver import click_card, switch_language_by_script
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
CASE = next(
    c
    for c in json.loads((ROOT / "tests" / "blunders" / "out_loses_game.json").read_text())
    if c["id"] == "out-loses-game-s2"
)
MY_TURN = 'body[data-my-turn="1"][data-busy="0"]'
# Keeps the action of every coach request the page sends its worker (window.__coach).
RECORD_COACH_JS = """(() => {
  const W = window.Worker;
  window.__coach = [];
  window.Worker = class extends W {
    postMessage(msg, ...rest) {
      if (msg && msg.type === "request" && msg.request && msg.request.op === "coach") {
        window.__coach.push(msg.request.action);
      }
      return super.postMessage(msg, ...rest);
    }
  };
})()"""
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def pretty(card: str) -> str:
    """A card as the page writes it (cards.js pretty): "8♠", "10♥", "Joker" aside."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUITS[card[1]]


def better_words(best: str, lang: str) -> str:
    """The better move in the page's words (words.js moveInWords) for the moves this position
    offers instead of going out: a discard."""
    verb, card = best.split(" ")
    assert verb == "discard", best
    return text("coach.better", lang, move=text("hint.discard", lang, card=pretty(card)))


def url(base_url: str) -> str:
    sc = base64.urlsafe_b64encode(json.dumps(CASE["scenario"]).encode()).decode().rstrip("=")
    return f"{base_url}index.html?embed=1&pace=0&levels=easy&scenario={sc}"


def test_the_coach_marks_a_planted_mistake_in_four_languages(page, base_url, open_app):
    page.set_viewport_size({"width": 1280, "height": 900})
    open_app(page, url(base_url))
    expect(page.locator(MY_TURN)).to_have_count(1)
    # The planted mistake: lay the two kings, then discard the last card, going out.
    click_card(page.locator('#hand .card[data-card="KH"]'))
    click_card(page.locator('#hand .card[data-card="KS"]'))
    page.locator('#my-melds .meld[data-meld="1"]').click()
    expect(page.locator("body")).to_have_attribute("data-staged", "1")
    page.locator('#actions button[data-action="confirm"]').click()
    expect(page.locator(MY_TURN)).to_have_count(1)
    click_card(page.locator('#hand .card[data-card="8S"]'))
    page.locator('#actions button[data-action="discard"]').click()
    expect(page.locator("#dlg-over")).to_be_visible()
    # "Warn me before a blunder" is off by default: the mistake was played without a question.
    expect(page.locator("#dlg-coach-warn")).to_have_count(0)

    page.locator('#dlg-over [data-comfort="review"]').click()
    review = page.locator("#dlg-review")
    expect(review).to_be_visible()
    coach = review.locator("#dlg-review-coach")
    expect(coach).to_have_attribute("data-state", "idle")
    expect(coach.locator(".coach-about")).to_have_text(text("coach.about"))
    body = review.locator("#dlg-review-body")
    last = int(body.get_attribute("data-step"))
    shots = os.environ.get("SAMBA_SHOTS")
    if shots:
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{shots}/coach-idle-390x844.png")
        page.set_viewport_size({"width": 1280, "height": 900})
    coach.locator('button[data-coach="start"]').click()
    # The replay answers while the coach works (it is the page's; the coach's requests wait
    # for an idle page, one decision each).
    review.locator('[data-review="first"]').click()
    expect(body).to_have_attribute("data-step", "0")
    expect(coach).to_have_attribute("data-state", "done", timeout=180_000)
    expect(page.locator('body[data-busy="0"]')).to_have_count(1)

    item = coach.locator('.coach-item[data-mark="blunder"], .coach-item[data-mark="mistake"]')
    expect(item).to_have_count(1)
    mark = item.get_attribute("data-mark")
    best = item.get_attribute("data-best")
    step = int(item.get_attribute("data-step"))
    assert 1 <= step <= last, (step, last)
    summary = coach.locator(".coach-summary")
    blunders, mistakes = (1, 0) if mark == "blunder" else (0, 1)
    # Jump: the replay shows the marked move (laying the kings).
    item.click()
    expect(body).to_have_attribute("data-step", str(step))
    expect(item).to_have_attribute("aria-current", "step")
    for lang in ("en", "fr", "ru", "nb"):
        if lang != "en":
            switch_language_by_script(page, lang)
        cat = raw(lang)
        expect(item.locator(".coach-mark")).to_have_text(cat[f"coach.mark.{mark}"])
        expect(item.locator(".coach-better")).to_have_text(better_words(best, lang))
        expect(item.locator(".coach-played")).to_have_text(
            text("review.you.meld", lang, cards=f"{pretty('KH')} {pretty('KS')}")
        )
        why = item.locator(".coach-why").inner_text()
        assert why.startswith(cat["coach.why"].split("{")[0]) and "⟦" not in why, why
        expect(summary).to_have_text(
            text("coach.summary", lang, blunders=blunders, mistakes=mistakes, n=2)
        )
        if shots:
            page.screenshot(path=f"{shots}/coach-{lang}-1280x900.png")
    if shots:
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{shots}/coach-nb-390x844.png")


def hand(page) -> list[str]:
    return sorted(c.get_attribute("data-card") for c in page.locator("#hand .card").all())


def test_warn_me_before_a_blunder_asks_first_and_changes_nothing_until_told(
    page, base_url, open_app
):
    """Off by default; switched on, the planted mistake stops at a question that words the
    better move: "Think again" sends nothing (hand, melds, staged cards as they were), "Play it
    anyway" plays it; a move that is no blunder goes through without a question."""
    page.set_viewport_size({"width": 1280, "height": 900})
    open_app(page, url(base_url))
    expect(page.locator(MY_TURN)).to_have_count(1)
    page.locator("#btn-prefs").click()
    prefs = page.locator("#dlg-prefs")
    expect(prefs).to_be_visible()
    warn = prefs.locator('input[name="pref-warn"]')
    expect(warn).not_to_be_checked()
    warn.check()
    prefs.locator(".dlg-buttons button").click()
    expect(prefs).to_be_hidden()

    click_card(page.locator('#hand .card[data-card="KH"]'))
    click_card(page.locator('#hand .card[data-card="KS"]'))
    page.locator('#my-melds .meld[data-meld="1"]').click()
    expect(page.locator("body")).to_have_attribute("data-staged", "1")
    kings = page.locator('#my-melds .meld[data-meld="1"] .card:not(.pending)').count()
    confirm = page.locator('#actions button[data-action="confirm"]')
    confirm.click()
    ask = page.locator("#dlg-coach-warn")
    expect(ask).to_be_visible()
    best = ask.get_attribute("data-best")
    expect(ask.locator(".coach-better")).to_have_text(better_words(best, "en"))
    expect(ask.locator("h2")).to_have_text(text("coach.warn.title"))
    if os.environ.get("SAMBA_SHOTS"):
        page.screenshot(path=f"{os.environ['SAMBA_SHOTS']}/coach-warn-1280x900.png")
    ask.locator('button[data-coach="back"]').click()
    expect(ask).to_be_hidden()
    expect(page.locator('body[data-busy="0"]')).to_have_count(1)
    # Nothing was played: the kings are still staged (drawn on the meld, out of the hand).
    expect(page.locator("body")).to_have_attribute("data-staged", "1")
    meld = page.locator('#my-melds .meld[data-meld="1"]')
    expect(meld.locator(".card.pending")).to_have_count(2)
    expect(meld.locator(".card:not(.pending)")).to_have_count(kings)
    assert hand(page) == ["8S"]

    confirm.click()
    expect(ask).to_be_visible()
    ask.locator('button[data-coach="play"]').click()
    expect(page.locator(MY_TURN)).to_have_count(1)
    expect(meld.locator(".card:not(.pending)")).to_have_count(kings + 2)
    expect(page.locator("body")).to_have_attribute("data-staged", "0")
    assert hand(page) == ["8S"]
    click_card(page.locator('#hand .card[data-card="8S"]'))
    page.locator('#actions button[data-action="discard"]').click()
    expect(page.locator("#dlg-over")).to_be_visible()
    expect(ask).to_be_hidden()


def test_play_goes_on_while_the_coach_works(page, base_url, open_app):
    """The coach gets a budget that keeps it busy for minutes (a test hook); while it works,
    a new game deals at once (the worker answers between the coach's small requests), and
    the coach, its deal left behind, stops."""
    page.add_init_script(RECORD_COACH_JS)
    page.set_viewport_size({"width": 1280, "height": 900})
    open_app(page, url(base_url) + "&testhooks=1&coach_budget=60")
    expect(page.locator(MY_TURN)).to_have_count(1)
    click_card(page.locator('#hand .card[data-card="KH"]'))
    click_card(page.locator('#hand .card[data-card="KS"]'))
    page.locator('#my-melds .meld[data-meld="1"]').click()
    page.locator('#actions button[data-action="confirm"]').click()
    expect(page.locator(MY_TURN)).to_have_count(1)
    click_card(page.locator('#hand .card[data-card="8S"]'))
    page.locator('#actions button[data-action="discard"]').click()
    expect(page.locator("#dlg-over")).to_be_visible()
    page.locator('#dlg-over [data-comfort="review"]').click()
    review = page.locator("#dlg-review")
    coach = review.locator("#dlg-review-coach")
    coach.locator('button[data-coach="start"]').click()
    expect(coach.locator(".coach-progress")).to_have_text(
        text("coach.running", done=0, total=2), timeout=30_000
    )
    review.locator(".dlg-buttons button").click()
    page.locator("#btn-over-new").click()
    expect(page.locator("#dlg-new")).to_be_visible()
    page.click("#btn-start")
    # The new game's hand (15 cards, or 17 after the first draw) while the coach still had
    # 12,000 samples of its first decision to go.
    expect(page.locator("#hand .card")).to_have_count(15, timeout=15_000)
    page.wait_for_function("window.__coach.includes('stop')")
    steps = page.evaluate("window.__coach").count("step")
    assert steps >= 1
    # Nothing more is asked of the coach: the first move of the new game goes and comes back.
    expect(page.locator(MY_TURN)).to_have_count(1, timeout=60_000)
    page.locator('#actions button[data-action="move"][data-arg="draw"]').click()
    expect(page.locator("#hand .card")).to_have_count(17)
    actions = page.evaluate("window.__coach")
    assert actions[-1] == "stop" and actions.count("step") == steps, actions
