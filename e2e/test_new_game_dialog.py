"""The new-game dialog: each rule set's own default target (issue 36.5)."""
from __future__ import annotations

from playwright.sync_api import expect

from py_engine.rules import PRESETS


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
