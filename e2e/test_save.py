"""Saved games: a reload resumes mid-deal; a corrupted or foreign save is set aside and a new
game offered; a worker that dies is replaced and the game restored from the save.
Two browser contexts (each pays a Pyodide boot; reloads are cheaper)."""

from __future__ import annotations

import json

from play_driver import (
    body_attr,
    click_action,
    click_card,
    discard_one,
    settle,
    start_game,
    wait_my_turn,
)
from playwright.sync_api import expect

from py_engine.bridge import record_check

SAVE_KEY = "samba.save.v1"
BROKEN_KEY = "samba.save.broken"
PENDING_KEY = "samba.save.pending"


def hand(page) -> list[str]:
    return sorted(c.get_attribute("data-card") or "" for c in page.locator("#hand .card").all())


def saved_version(page) -> str:
    expect(page.locator("body[data-saved]")).to_have_count(1)
    return body_attr(page, "saved")


def wait_saved(page, version: str) -> None:
    expect(page.locator(f'body[data-saved="{version}"]')).to_have_count(1)


def _drawn_and_saved(page, base_url, open_app) -> tuple[str, list[str]]:
    """A samba 4 game (seed 11, random players) where the player has drawn and the save holds
    it: the version and the hand."""
    open_app(page, base_url + "?seed=11&pace=20&testhooks=1")
    start_game(page, rules="samba", players=4, level="random")
    assert wait_my_turn(page) == "draw"
    page.click("#stock")
    settle(page)
    expect(page.locator('body[data-phase="meld"]')).to_have_count(1)
    version = body_attr(page, "version")
    cards = hand(page)
    wait_saved(page, version)
    return version, cards


def _reloaded_and_resumed(page) -> None:
    page.reload()
    expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
    expect(page.locator('body[data-save="resumed"]')).to_have_count(1)


def _resumed_at(page, version: str) -> None:
    _reloaded_and_resumed(page)
    expect(page.locator(f'body[data-version="{version}"]')).to_have_count(1)


def test_reload_resumes_mid_deal_and_a_dead_worker_is_replaced(page, page_log, base_url, open_app):
    version, cards = _drawn_and_saved(page, base_url, open_app)
    stored = json.loads(page.evaluate(f"localStorage.getItem('{SAVE_KEY}')"))
    assert stored["record"]["moves"], "the moves so far are saved"

    # Reload: the same deal, the same hand, the same version; no settings dialog.
    _resumed_at(page, version)
    expect(page.locator('body[data-phase="meld"]')).to_have_count(1)
    assert hand(page) == cards
    expect(page.locator("#dlg-new")).not_to_be_visible()
    expect(page.locator('#message[data-kind="info"]')).to_be_visible()

    # Comfort panels on the resumed game: the pile's public contents and the score chart.
    page.click("#btn-pile-view")
    pile_size = int(page.locator("#pile-count").inner_text())
    expect(page.locator("#dlg-pile .pile-list li")).to_have_count(pile_size)
    page.locator("#dlg-pile .btn-primary").click()
    page.click("#btn-scores")
    expect(page.locator("#dlg-history svg.chart polyline")).to_have_count(4 // 2)
    page.locator("#dlg-history .btn-primary").click()

    # The worker dies: a new one starts and the game comes back from the save.
    page.dispatch_event("body", "samba-kill-worker")
    expect(page.locator('body[data-engine="restored"]')).to_have_count(1, timeout=60_000)
    expect(page.locator(f'body[data-version="{version}"]')).to_have_count(1)
    assert hand(page) == cards
    # ... and the game goes on.
    discard_one(page)
    expect(page.locator(f'body[data-version="{version}"]')).to_have_count(0)
    wait_my_turn(page)
    page_log.assert_clean()


def _foreign_record() -> dict:
    """A well-formed record with a correct check whose moves are not legal (a foreign game)."""
    rec = {
        "format": "samba-record/1",
        "rules": "samba",
        "players": 4,
        "target": 10000,
        "seed": 3,
        "moves": ["draw", "discard JK", "meld new 2S 2S 2S"],
        "seats": ["human", "random", "random", "random"],
    }
    rec["check"] = record_check(rec)
    return rec


def test_corrupted_or_foreign_saves_are_set_aside(page, page_log, base_url, open_app):
    open_app(page, base_url + "?seed=5&pace=20")
    good = None
    cases = {
        "garbage": "{this is not a saved game",
        "format": json.dumps({"hello": "world"}),
        "tampered": None,  # a real save, one move changed: its check no longer matches
        "foreign": json.dumps({"format": "samba-save/1", "record": _foreign_record()}),
    }
    # A real save first, to tamper with.
    start_game(page, rules="samba", players=4, level="random")
    wait_my_turn(page)
    # the save is written once the engine's record comes back (body[data-saved] says so)
    expect(page.locator("body[data-saved]")).to_have_count(1)
    good = page.evaluate(f"localStorage.getItem('{SAVE_KEY}')")
    assert good
    data = json.loads(good)
    data["record"]["seed"] = data["record"]["seed"] + 1
    cases["tampered"] = json.dumps(data)

    for name, raw in cases.items():
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SAVE_KEY, raw])
        page.reload()
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        expect(page.locator('body[data-save="broken"]')).to_have_count(1), name
        expect(page.locator("#dlg-new")).to_be_visible()
        expect(page.locator("#save-notice")).to_be_visible()
        expect(page.locator("#save-notice")).to_contain_text("set aside")
        assert page.evaluate(f"localStorage.getItem('{SAVE_KEY}')") is None, name
        broken = json.loads(page.evaluate(f"localStorage.getItem('{BROKEN_KEY}')"))
        assert broken["raw"] == raw, name

    # A new game can start, and is saved.
    start_game(page, rules="samba", players=2, level="random")
    wait_my_turn(page)
    saved_version(page)
    expect(page.locator("#save-notice")).to_have_count(0)
    page_log.assert_clean()


def test_a_move_sent_as_the_tab_closes_is_played_at_the_next_visit(
    page, page_log, base_url, open_app
):
    """The player's move is kept as it is sent: when the engine never answers (the tab closed
    first), the next visit plays it on the saved game; a kept move that does not fit the saved
    game (damaged, another version, refused by the engine) is dropped and changes nothing."""
    version, cards = _drawn_and_saved(page, base_url, open_app)
    assert page.evaluate(f"localStorage.getItem('{PENDING_KEY}')") is None, (
        "the save holds the draw"
    )

    # Kept moves that do not fit: each is dropped, the saved game resumes as it was.
    for raw in (
        "{not json",
        json.dumps({"format": "samba-pending/1", "version": -1, "move": "x"}),
        json.dumps({"format": "samba-pending/1", "version": int(version) - 1, "move": "draw"}),
        json.dumps({"format": "samba-pending/1", "version": int(version), "move": "discard ZZ"}),
    ):
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [PENDING_KEY, raw])
        _resumed_at(page, version)
        assert hand(page) == cards, raw
        assert page.evaluate(f"localStorage.getItem('{PENDING_KEY}')") is None, raw

    # The engine stops answering; the player discards; the move is kept, not saved.
    page.dispatch_event("body", "samba-hold-engine")
    card = page.locator('#hand .card[data-legal="discard"]').last
    name = card.get_attribute("data-card") or ""
    click_card(card)
    click_action(page, "discard")
    expect(page.locator('body[data-busy="1"]')).to_have_count(1)
    kept = json.loads(page.evaluate(f"localStorage.getItem('{PENDING_KEY}')"))
    assert kept["version"] == int(version) and kept["move"].startswith("discard "), kept
    assert json.loads(page.evaluate(f"localStorage.getItem('{SAVE_KEY}')"))["record"]["moves"]

    # The next visit plays it: the computers go on, and at the player's next turn the hand is
    # the one before less the discarded card.
    _reloaded_and_resumed(page)
    expect(page.locator(f'body[data-version="{version}"]')).to_have_count(0)
    assert wait_my_turn(page) == "draw"
    after = hand(page)
    left = list(cards)
    left.remove(name)
    assert after == left
    wait_saved(page, body_attr(page, "version"))
    assert page.evaluate(f"localStorage.getItem('{PENDING_KEY}')") is None
    page_log.assert_clean()
