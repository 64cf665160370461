"""The table before Python is ready: a returning player sees the saved table at once, drawn
from the saved view; a click made before the engine is ready is kept and done when it is; a
new game asked for while loading is dealt. The worker's script is held back by the test (so
"before the engine is ready" is a state the test controls, not a race); service workers are
blocked so that every request reaches the test's routes."""

from __future__ import annotations

import json

import pytest
from conftest import READY_SELECTOR
from play_driver import click_card, settle, start_game, wait_my_turn
from playwright.sync_api import expect

SCREENSHOTS = __import__("pathlib").Path(__file__).resolve().parent / "screenshots"


@pytest.fixture
def blocked_context(browser):
    ctx = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


class HeldWorker:
    """Holds back the engine worker's script until `release()`."""

    def __init__(self, ctx):
        self.routes = []
        ctx.route("**/worker.js", lambda route: self.routes.append(route))

    def release(self):
        assert self.routes, "the page never asked for its worker"
        for route in self.routes:
            route.continue_()


def _errors(page) -> list:
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    return errors


def _saved_game_at_my_draw(ctx, base_url) -> int:
    page = ctx.new_page()
    page.goto(base_url + "?seed=21&pace=0")
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    start_game(page, rules="samba", players=2, level="random")
    assert wait_my_turn(page) == "draw"
    expect(page.locator("body[data-saved]")).to_have_count(1)
    saved = json.loads(page.evaluate("localStorage.getItem('samba.save.v1')"))
    assert saved["view"]["phase"] == "draw" and saved["view"]["current"] == saved["view"]["seat"]
    n = page.locator("#hand .card").count()
    assert n > 0
    page.close()
    return n


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_saved_table_is_drawn_before_the_engine_and_a_click_is_kept(
    blocked_context, base_url, size
):
    n = _saved_game_at_my_draw(blocked_context, base_url)
    held = HeldWorker(blocked_context)
    page = blocked_context.new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    errors = _errors(page)
    page.goto(base_url + "?pace=0")
    # The saved table, with no engine at all: the hand, the stock, the player's turn.
    expect(page.locator('body[data-save="drawn"]')).to_have_count(1)
    expect(page.locator("#hand .card")).to_have_count(n)
    expect(page.locator(READY_SELECTOR)).to_have_count(0)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"saved-table-before-engine-{size[0]}x{size[1]}.png"))
    # A click while the engine cannot answer yet: draw from the stock. It waits...
    page.click("#stock")
    expect(page.locator("#hand .card")).to_have_count(n)
    # ...and is done once the engine is there.
    held.release()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator('body[data-save="resumed"]')).to_have_count(1)
    settle(page)
    expect(page.locator("body")).not_to_have_attribute("data-phase", "draw")
    assert page.locator("#hand .card").count() > n
    expect(page.locator('#message[data-kind="error"]')).to_have_count(0)
    assert not errors, errors


def test_a_card_tapped_while_a_move_waits_for_the_engine_is_chosen(blocked_context, base_url):
    """A tap on a card while the page waits for the engine's answer to a move (busy: here a draw
    asked for before the engine is ready; on a first visit, a request behind the worker's other
    work) is not lost: the card is chosen at once and stays chosen once the draw is done."""
    n = _saved_game_at_my_draw(blocked_context, base_url)
    held = HeldWorker(blocked_context)
    page = blocked_context.new_page()
    errors = _errors(page)
    page.goto(base_url + "?pace=0")
    expect(page.locator('body[data-save="drawn"]')).to_have_count(1)
    page.click("#stock")
    expect(page.locator('body[data-busy="1"]')).to_have_count(1)
    card = page.locator(
        f'#hand .card[data-id="{page.locator("#hand .card").last.get_attribute("data-id")}"]'
    )
    click_card(card)
    expect(card).to_have_attribute("aria-pressed", "true")
    assert page.locator('body[data-busy="1"]').count() == 1, "the draw was answered before the tap"
    held.release()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    settle(page)
    expect(page.locator("body")).not_to_have_attribute("data-phase", "draw")
    assert page.locator("#hand .card").count() > n
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#message[data-kind="error"]')).to_have_count(0)
    assert not errors, errors


def test_new_game_asked_for_while_loading_is_dealt(blocked_context, base_url):
    held = HeldWorker(blocked_context)
    page = blocked_context.new_page()
    errors = _errors(page)
    page.goto(base_url + "?seed=4&pace=0")
    expect(page.locator(READY_SELECTOR)).to_have_count(0)
    # The page's modules are in (their settings applied: a click before they listen does
    # nothing), the engine still held back.
    expect(page.locator("body[data-speed]")).to_have_count(1)
    page.click("#btn-new")
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    dialog.locator('input[name="players"][value="2"]').check()
    page.click("#btn-start")
    held.release()
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator("body[data-phase]")).to_have_count(1)
    expect(page.locator("#hand .card").first).to_be_visible()
    expect(dialog).to_be_hidden()  # not opened again over the dealt game
    assert not errors, errors


def test_a_damaged_saved_view_is_not_drawn(blocked_context, base_url):
    """The saved view is untrusted: a bad one is not drawn; the engine resumes the record."""
    _saved_game_at_my_draw(blocked_context, base_url)
    page = blocked_context.new_page()
    page.goto(base_url + "rules.html")
    page.evaluate("""() => {
      const s = JSON.parse(localStorage.getItem('samba.save.v1'));
      s.view.hand = [{id: 'x', c: 5}];
      localStorage.setItem('samba.save.v1', JSON.stringify(s));
    }""")
    held = HeldWorker(blocked_context)
    errors = _errors(page)
    page.goto(base_url + "?pace=0")
    expect(page.locator("#boot-status")).to_have_count(1)
    expect(page.locator("#hand .card")).to_have_count(0)
    assert page.locator("body").get_attribute("data-save") != "drawn"
    held.release()
    expect(page.locator('body[data-save="resumed"]')).to_have_count(1, timeout=90_000)
    expect(page.locator("#hand .card").first).to_be_visible()
    assert not errors, errors
