"""The new-game dialog: each rule set's own default target (issue 36.5), who the player's
partner is and seat menus that show their choices whole (issue 36.8)."""

from __future__ import annotations

import pytest
from messages import messages
from playwright.sync_api import expect

from py_engine.rules import PRESETS

MESSAGES = {lang: messages(lang) for lang in ("en", "fr", "ru", "nb")}


def _checked(dlg, name: str) -> int:
    return int(dlg.locator(f'input[name="{name}"]:checked').get_attribute("value"))


def test_the_target_follows_the_rule_set_and_player_count(page, page_log, base_url, open_app):
    """Canasta plays to 5,000 (7,500 at three), Bolivia to 15,000: choosing the rule set sets its
    default target, in a fresh profile and after; a target the player chose stays while the next
    rule set offers it (as the friends' setup does)."""
    open_app(page, base_url)
    dlg = page.locator("#dlg-new")
    expect(dlg).to_be_visible()
    for name in ("canasta", "bolivia", "samba", "canasta", "dutch", "bolivia"):
        dlg.locator(f'input[name="rules"][value="{name}"]').check()
        expect(dlg.locator(f'input[name="rules"][value="{name}"]')).to_be_checked()
        players = _checked(dlg, "players")
        assert _checked(dlg, "target") == PRESETS[name].target_for(players), name
    dlg.locator('input[name="rules"][value="canasta"]').check()
    dlg.locator('input[name="players"][value="3"]').check()
    expect(dlg.locator('input[name="target"][value="7500"]')).to_be_checked()
    dlg.locator('input[name="players"][value="2"]').check()
    expect(dlg.locator('input[name="target"][value="5000"]')).to_be_checked()
    # A target chosen by hand stays where the next rule set offers it.
    dlg.locator('input[name="target"][value="2500"]').check()
    dlg.locator('input[name="rules"][value="samba"]').check()
    expect(dlg.locator('input[name="rules"][value="samba"]')).to_be_checked()
    expect(dlg.locator('input[name="target"][value="2500"]')).to_be_checked()
    page_log.assert_clean()


# The widest text a seat's menu may show, and the menu's own width: the text must fit (the
# menu's arrow and padding included: its width less its text's).
SEAT_MENUS_JS = """() => [...document.querySelectorAll('#opt-seats select')].map((s) => {
  const probe = document.createElement('span');
  const cs = getComputedStyle(s);
  probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${cs.font};letter-spacing:${cs.letterSpacing}`;
  document.body.append(probe);
  let widest = 0;
  for (const o of s.options) { probe.textContent = o.textContent; widest = Math.max(widest, probe.getBoundingClientRect().width); }
  probe.remove();
  const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth);
  return {widest: Math.ceil(widest), room: Math.floor(s.getBoundingClientRect().width - pad - 18)};
})"""


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "nb"])
@pytest.mark.parametrize("width, height", [(390, 844), (1440, 900)])
def test_the_seats_say_who_the_partner_is_and_their_menus_fit(
    browser, base_url, lang, width, height
):
    """Issue 36.8: the dialog says which seat is the player's partner (from the rules data's
    sides: seat 2 at four, seat 3 at six (three partnerships), nobody at two or three); every seat's menu shows its
    longest choice whole ("Компьютер (средне" was cut in Russian, "Datamaskin (middels" in
    Norwegian)."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base_url + f"?lang={lang}")
        expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)
        dlg = page.locator("#dlg-new")
        expect(dlg).to_be_visible()
        partner = MESSAGES[lang]["ui.partner"]
        for rules, players, partners in (
            ("samba", 4, ["2"]),
            ("samba", 2, []),
            ("dutch", 6, ["3"]),
            ("crawford", 4, ["2"]),
            ("dutch", 3, []),
        ):
            dlg.locator(f'input[name="rules"][value="{rules}"]').check()
            dlg.locator(f'input[name="players"][value="{players}"]').check()
            expect(dlg.locator("#opt-seats .seat-row")).to_have_count(players)
            marked = dlg.locator('#opt-seats .seat-row[data-partner="1"]')
            expect(marked).to_have_count(len(partners))
            for row, seat in zip(marked.all(), partners):
                assert row.locator("select").get_attribute("data-seat") == seat
                expect(row).to_contain_text(partner)
            for m in page.evaluate(SEAT_MENUS_JS):
                assert m["widest"] <= m["room"], (rules, players, m)
        assert not errors, errors
    finally:
        ctx.close()
