"""Wording and state: the "You need" reminder lists only what is missing; canastas past the
requirement read as made; no "Opening 0 / 50" before the pair that takes the pile is chosen;
the status does not suggest taking a pile that cannot be taken; a deal's score names sambas only
where the rule set has them; a bad link names every problem and the dialog shows the rule set
it asked for; a rule set chosen in the dialog brings its own player counts and default from the
build's rules data; "?" keeps one help tab."""

from __future__ import annotations

import json

from fit import load_saved
from messages import messages, text
from play_driver import click_card
from playwright.sync_api import expect
from positions import SMALL

from py_engine.bridge import Bridge

EN = messages("en")


def rules_data(dist_dir) -> dict:
    return json.loads((dist_dir / "rules-data.json").read_text(encoding="utf-8"))


def engine_points(name: str, move: str) -> int:
    """The engine's opening count for `move` in position `name` (what the page must show)."""
    b = Bridge()
    b.handle(json.dumps({"op": "scenario", "scenario": SMALL[name], "seats": ["human", "random"]}))
    return json.loads(b.handle(json.dumps({"op": "check", "move": move})))["opening_points"]


def fresh(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    ctx.set_default_timeout(20_000)
    return ctx


def test_reminder_badges_and_blocked_pile_status(browser, base_url):
    ctx = fresh(browser)
    try:
        page = ctx.new_page()
        load_saved(page, base_url, "samba2-blocked")
        expect(page.locator("#status")).to_have_text(EN["status.your_draw_stock"])
        expect(page.locator("#reminder")).to_have_text(
            f"{EN['remind.label']}{text('remind.canastas', n=2)}"
        )
        expect(page.locator("#reminder")).not_to_contain_text("opened")
        expect(page.locator("#my-melds .badge").first).to_have_text(text("ui.canastas", n=0, req=2))
        # A side with its two canastas: made, not "2/2"; nothing more is needed.
        page.evaluate("localStorage.clear(); sessionStorage.clear()")
        page2 = ctx.new_page()
        load_saved(page2, base_url, "samba2-win")
        expect(page2.locator("#my-melds .badge").first).to_have_text(text("ui.canastas_done", n=2))
        expect(page2.locator("#reminder")).to_have_text(EN["remind.ready"])
    finally:
        ctx.close()


def test_the_deal_score_names_sambas_only_where_the_rule_set_has_them(browser, base_url):
    """A deal's score table says "Canasta bonuses" in classic Canasta, which has no sequences
    (it said "Canasta & samba bonuses" there too), and "Canasta & samba bonuses" in Samba."""
    ctx = fresh(browser)
    try:
        for name, dialog, key in (
            ("canasta2-out", "#dlg-deal", "deal.bonuses_canasta"),
            ("samba2-win", "#dlg-over", "deal.bonuses"),
        ):
            page = ctx.new_page()
            load_saved(page, base_url, name)
            click_card(page.locator('#hand .card[data-card="5C"]'))
            page.click('#actions button[data-action="discard"]')
            expect(page.locator(dialog)).to_be_visible()
            expect(page.locator(f"{dialog} .summary tbody th").nth(1)).to_have_text(EN[key])
            page.evaluate("localStorage.clear(); sessionStorage.clear()")
            page.close()
    finally:
        ctx.close()


def test_the_opening_count_waits_for_the_pair_that_takes_the_pile(browser, base_url):
    ctx = fresh(browser)
    try:
        page = ctx.new_page()
        load_saved(page, base_url, "samba2-open")
        expect(page.locator("#status")).to_contain_text(EN["status.your_draw"])
        for c in ("8S", "8H", "8D"):
            click_card(page.locator(f'#hand .card[data-card="{c}"]'))
        page.click('#actions button[data-action="new"]')
        count = page.locator("#opening .count")
        expect(count).to_have_text(text("status.opening_pick_pair", minimum=50))
        for c in ("7H", "7D"):
            click_card(page.locator(f'#hand .card[data-card="{c}"]'))
        # the engine's count for taking with 7H 7D and the staged eights, not 0
        low = engine_points("samba2-open", "take 7H 7D; new 8S 8H 8D")
        assert 0 < low < 50
        expect(count).to_have_text(text("status.opening", points=low, minimum=50))
        page.click('#actions button[data-action="clear"]')
        for c in ("KS", "KH", "KD"):
            click_card(page.locator(f'#hand .card[data-card="{c}"]'))
        page.click('#actions button[data-action="new"]')
        for c in ("7H", "7D"):
            click_card(page.locator(f'#hand .card[data-card="{c}"]'))
        high = engine_points("samba2-open", "take 7H 7D; new 8S 8H 8D; new KS KH KD")
        assert high >= 50
        expect(count).to_have_text(text("status.opening", points=high, minimum=50))
        expect(count).to_have_class("count ok")
    finally:
        ctx.close()


def test_a_bad_link_names_every_problem_and_the_menu_follows_the_rules_data(
    browser, base_url, dist_dir
):
    data = rules_data(dist_dir)
    rows = {r["field"]: r["values"] for r in data["rows"]}
    ctx = fresh(browser)
    try:
        page = ctx.new_page()
        page.goto(base_url + "?rules=dutch&players=99&target=abc&pace=20")
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        dialog = page.locator("#dlg-new")
        expect(dialog).to_be_visible()
        expect(dialog.locator('input[name="rules"]:checked')).to_have_value("dutch")
        notice = dialog.locator(".save-notice")
        allowed = ", ".join(map(str, rows["players_allowed"]["dutch"]))
        expect(notice).to_contain_text(text("share.error.players", value="99", allowed=allowed))
        expect(notice).to_contain_text(text("share.error.target", value="abc"))
        # Every rule set of the data, in its order, each with its own player counts.
        names = [p["name"] for p in data["presets"]]
        assert (
            dialog.locator('input[name="rules"]').evaluate_all("(l) => l.map((e) => e.value)")
            == names
        )
        for name in names:
            dialog.locator(f'input[name="rules"][value="{name}"]').check()
            counts = dialog.locator('input[name="players"]').evaluate_all(
                "(l) => l.map((e) => Number(e.value))"
            )
            assert counts == rows["players_allowed"][name], name
            want = rows.get("default_players", {}).get(name)
            if want is None:  # rules data without the row: 4 when offered, else the most
                want = 4 if 4 in counts else counts[-1]
            expect(dialog.locator('input[name="players"]:checked')).to_have_value(str(want))
            targets = dialog.locator('input[name="target"]').evaluate_all(
                "(l) => l.map((e) => Number(e.value))"
            )
            assert targets == rows["targets"][name], name
    finally:
        ctx.close()


def test_question_mark_keeps_one_help_tab(browser, base_url):
    ctx = fresh(browser)
    try:
        page = ctx.new_page()
        page.goto(base_url + "?pace=20")
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        page.locator("#btn-new-cancel").click()
        with ctx.expect_page() as opened:
            page.keyboard.press("?")
        help_page = opened.value
        expect(help_page.locator("#rules-table")).to_have_count(1)
        for _ in range(2):
            page.bring_to_front()
            page.keyboard.press("?")
            expect(help_page.locator("#rules-table")).to_have_count(1)
            assert len(ctx.pages) == 2, [p.url for p in ctx.pages]
            expect(ctx.pages[1].locator("#rules-table")).to_have_count(1)
            page.bring_to_front()
        page.click("#btn-help")
        expect(ctx.pages[1].locator("#rules-table")).to_have_count(1)
        assert len(ctx.pages) == 2, "the Help button reuses the same tab"
    finally:
        ctx.close()
