"""Personal statistics: games played to their end at the table are counted (once: a reload of
the finished game counts nothing again), per rule set, player count and computer level; the
export file imports back to the same figures; a damaged file is refused with a clear message and
changes nothing; reset asks first."""

from __future__ import annotations

import json

from fit import load_saved
from messages import messages, text
from play_driver import body_attr, click_card, settle
from playwright.sync_api import expect
from positions import position

BUCKET = "samba/2/random"
EN = messages("en")


def finish_game(page) -> None:
    """The viewer goes out with the last card: the deal and the game end, and the finished game
    is saved (the save is written once the engine's record comes back: a reload before that
    would resume the game before its last move)."""
    click_card(page.locator('#hand .card[data-card="5C"]'))
    page.click('#actions button[data-action="discard"]')
    settle(page)
    expect(page.locator("body")).to_have_attribute("data-phase", "game_over")
    expect(page.locator("#dlg-over")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-saved", body_attr(page, "version"))


def open_stats(page) -> None:
    page.click("#btn-over-stats")
    expect(page.locator("#dlg-stats")).to_be_visible()


STATS = ["games", "deals", "average", "best", "streak", "canastas", "sambas"]


def row(page, bucket: str = BUCKET) -> list[str]:
    """A column of the table: games, deals (won of played), average, best, streak (best),
    canastas, sambas."""
    return [
        page.locator(f'#stats-table td[data-bucket="{bucket}"][data-stat="{k}"]')
        .inner_text()
        .strip()
        for k in STATS
    ]


def stored(page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('samba.stats.v1')") or "null")


def load_next(page, name: str) -> None:
    """Replaces the saved game with `name`'s position and reloads: the table resumes it."""
    page.evaluate("(s) => localStorage.setItem('samba.save.v1', s)", position(name)["save"])
    page.reload()
    expect(page.locator('body[data-save="resumed"]')).to_have_count(1, timeout=60_000)
    expect(page.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)


def of(a, b):
    return text("stats.of", a=a, b=b)


def test_statistics_count_export_import_reset(browser, base_url, tmp_path):
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 900}, accept_downloads=True, service_workers="block"
    )
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        load_saved(page, base_url, "samba2-win")
        finish_game(page)
        open_stats(page)
        won_one = [of(1, 1), of(1, 1), "2,420", "2,420", "1 (1)", "2", "1"]
        assert row(page) == won_one
        assert row(page, "all") == won_one
        expect(page.locator(".stats-chart rect.bar.won")).to_have_count(1)

        # The finished game reopened: nothing counted twice.
        page.reload()
        expect(page.locator('body[data-save="resumed"]')).to_have_count(1, timeout=60_000)
        expect(page.locator("#dlg-over")).to_be_visible()
        open_stats(page)
        assert row(page) == won_one

        # A second game, lost (the deal won): the streak ends, the best stays.
        load_next(page, "samba2-loss")
        finish_game(page)
        open_stats(page)
        after_two = [of(1, 2), of(2, 2), "2,420", "2,420", "0 (1)", "4", "2"]
        assert row(page) == after_two
        before = stored(page)
        assert before["buckets"][BUCKET]["games"] == 2

        # Export, reset (asked first), import back: the same figures.
        with page.expect_download() as dl:
            page.click("#btn-stats-export")
        path = tmp_path / "stats.json"
        dl.value.save_as(path)
        exported = json.loads(path.read_text(encoding="utf-8"))
        assert exported["buckets"] == before["buckets"] and exported["recent"] == before["recent"]
        page.click("#btn-stats-reset")
        expect(page.locator("#btn-stats-reset-yes")).to_be_visible()
        page.click("#btn-stats-reset-no")
        expect(page.locator("#btn-stats-reset-yes")).to_have_count(0)
        assert stored(page) == before, "keeping them changed nothing"
        page.click("#btn-stats-reset")
        page.click("#btn-stats-reset-yes")
        expect(page.locator(f'#stats-table td[data-bucket="{BUCKET}"]')).to_have_count(0)
        assert row(page, "all")[:2] == [of(0, 0), of(0, 0)]
        page.set_input_files("#stats-file", str(path))
        expect(page.locator('#stats-note[data-kind="ok"]')).to_have_text(
            text("stats.imported", n=2)
        )
        assert row(page) == after_two
        assert stored(page)["buckets"] == before["buckets"]

        # Damaged files: refused with the reason; the statistics stay as they are.
        good = stored(page)
        bad = {
            "json": "{not json",
            "format": json.dumps({**exported, "format": "other/1"}),
            "totals": json.dumps(
                {**exported, "buckets": {BUCKET: {**exported["buckets"][BUCKET], "games_won": 5}}}
            ),
            "numbers": json.dumps(
                {**exported, "buckets": {BUCKET: {**exported["buckets"][BUCKET], "deals": -1}}}
            ),
        }
        for reason, content in bad.items():
            f = tmp_path / f"bad-{reason}.json"
            f.write_text(content, encoding="utf-8")
            page.set_input_files("#stats-file", str(f))
            note = page.locator('#stats-note[data-kind="error"]')
            expect(note).to_be_visible()
            expect(note).to_contain_text(EN[f"stats.import_error.{reason}"].split("(")[0].strip())
            expect(note).to_contain_text(EN["stats.import_error.json"].split(". ")[-1])
            assert stored(page) == good, f"a {reason} file changed the statistics"
            assert row(page) == after_two
        assert not errors, errors
    finally:
        ctx.close()
