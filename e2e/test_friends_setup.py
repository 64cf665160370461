"""The "Play with friends" setup form offers each rule set's own targets (the engine's rule sets,
as the new-game dialog does): its default for the player count to start with, and a target
chosen before kept while the next rule set offers it. No connection is made: nothing here needs
a network namespace (so it is not one of e2e/test_netplay*.py, which e2e/netns_run.py runs)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from py_engine.rules import PRESETS


def _targets(dlg) -> tuple[list[int], int]:
    sel = dlg.locator('select[name="target"]')
    values = [int(v) for v in sel.locator("option").evaluate_all("(os) => os.map((o) => o.value)")]
    return values, int(sel.input_value())


def test_the_setup_offers_each_rule_sets_targets(page, page_log, base_url, open_app):
    open_app(page, base_url + "?net=host")
    dlg = page.locator("#net-setup")
    expect(dlg).to_be_visible()
    for name in ("samba", "bolivia", "canasta"):
        rs = PRESETS[name]
        dlg.locator(f'input[name="rules"][value="{name}"]').check()
        players = int(dlg.locator('select[name="players"]').input_value())
        offered, chosen = _targets(dlg)
        assert offered == list(rs.targets), name
        if name == "samba":
            assert chosen == rs.target_for(players)  # the first rule set: its default
    # bolivia's 15,000 is its own: back on samba its default comes back; a target samba and
    # canasta both offer stays.
    dlg.locator('input[name="rules"][value="bolivia"]').check()
    dlg.locator('select[name="target"]').select_option("15000")
    dlg.locator('input[name="rules"][value="samba"]').check()
    assert _targets(dlg)[1] == PRESETS["samba"].target_for(
        int(dlg.locator('select[name="players"]').input_value())
    )
    dlg.locator('select[name="target"]').select_option("7500")
    dlg.locator('input[name="rules"][value="canasta"]').check()
    assert _targets(dlg)[1] == 7500
    page_log.assert_clean()


@pytest.mark.parametrize(
    "lang, word", [("en", "Seat"), ("fr", "Place"), ("ru", "Место"), ("nb", "Plass")]
)
def test_the_setup_numbers_the_seats_from_one(lang, word, page, page_log, base_url, open_app):
    """The seats are numbered as players count them: the host's is seat 1, then 2, 3 and 4, in
    every language (the setup began at "Seat 0")."""
    open_app(page, base_url + f"?net=host&lang={lang}")
    expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)
    dlg = page.locator("#net-setup")
    expect(dlg).to_be_visible()
    dlg.locator('select[name="players"]').select_option("4")
    expect(dlg.locator(".net-seat-no")).to_have_text([f"{word} {n}" for n in (1, 2, 3, 4)])
    page_log.assert_clean()


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "nb"])
def test_the_setup_says_who_the_hosts_partner_is(lang, page, page_log, base_url, open_app):
    """The seats of the host's side are marked "partner", as in the new-game dialog, from the
    rules data's sides: seat 3 of 4 in Samba, seat 4 of 6 in Crawford, none of 2."""
    open_app(page, base_url + f"?net=host&lang={lang}")
    expect(page.locator(f'html[lang="{lang}"]')).to_have_count(1)
    dlg = page.locator("#net-setup")
    expect(dlg).to_be_visible()
    word = page.evaluate("(k) => import('./js/i18n.js').then((m) => m.t(k))", "ui.partner")
    assert word and word != "ui.partner"

    def marked() -> list[str]:
        rows = dlg.locator('.net-seat-row[data-partner="1"]')
        expect(rows.locator(".seat-row-partner")).to_have_text([word] * rows.count())
        return rows.locator(".net-seat-no").all_text_contents()

    seat = page.evaluate(
        "(k) => import('./js/netplay-ui.js').then((m) => m.nt(k, {seat: 2}))", "panel.seat"
    ).replace("3", "{n}")
    dlg.locator('input[name="rules"][value="samba"]').check()
    dlg.locator('select[name="players"]').select_option("4")
    assert marked() == [seat.format(n=3)]
    dlg.locator('select[name="players"]').select_option("2")
    assert marked() == []
    dlg.locator('input[name="rules"][value="crawford"]').check()
    dlg.locator('select[name="players"]').select_option("6")
    assert marked() == [seat.format(n=4)]
    page_log.assert_clean()
