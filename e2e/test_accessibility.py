"""An accessibility audit with axe-core 4 (npm `axe-core`, pinned in package.json; injected by
this test from node_modules, never part of the site) on every page and on the table mid-game, at
a phone's size (390x844) and a desktop's (1440x900): no violation of serious or critical impact.

One rule is excepted: label-content-name-mismatch on the hand's cards. A card shows "4♥" and is
read "four of hearts": the spelled name is what a screen reader should say (a symbol is read as
"black heart suit" or not at all), so the visible text is not part of the name on purpose.

The pages run under the site's strict CSP, which refuses an injected script: the audit's
contexts bypass it (Playwright's bypass_csp), for the audit's own script only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from py_engine.bridge import Bridge

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
EXCEPTED = {"label-content-name-mismatch"}
SIZES = [(390, 844), (1440, 900)]

# A mid-game table: both sides opened, red threes down (the red-three cards' names), a
# canasta, a blocked pile, and the viewer to meld.
MID_GAME = {
    "rules": "samba",
    "players": 4,
    "seed": 5,
    "dealer": 3,
    "current": 0,
    "phase": "meld",
    "deal": 2,
    "scores": [1200, 900],
    "hands": [
        ["4C", "5D", "9S", "JH", "KD", "QS", "8H", "7C", "AS"],
        ["5C", "7D", "8C"],
        ["TC", "JD", "4S"],
        ["6D", "9H", "QC"],
    ],
    "melds": [
        [["KC", "KS", "KH", "KD", "KC", "KS", "KH"], ["6S", "7S", "8S"]],
        [["QH", "QD", "QH"], ["4H", "5H", "6H", "7H"]],
    ],
    "red_threes": [["3H"], ["3D"]],
    "pile": ["5S", "TD", "3C"],
}


def _save(scenario: dict) -> str:
    b = Bridge()
    seats = ["human"] + ["random"] * (scenario["players"] - 1)
    r = json.loads(b.handle(json.dumps({"op": "scenario", "scenario": scenario, "seats": seats})))
    assert r["ok"], r
    rec = json.loads(b.handle(json.dumps({"op": "record"})))["record"]
    return json.dumps({"format": "samba-save/1", "saved_at": "2026-01-01T00:00:00Z", "record": rec})


def audit(page) -> list[str]:
    """The serious and critical violations on the page now, one line each."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("""() => axe.run(document, {resultTypes: ['violations']})""")
    out = []
    for v in result["violations"]:
        if v["impact"] not in ("serious", "critical") or v["id"] in EXCEPTED:
            continue
        for node in v["nodes"][:4]:
            out.append(
                f"{v['id']} ({v['impact']}): {node['target']} {node.get('failureSummary', '')[:160]}"
            )
    return out


@pytest.fixture
def audit_context(browser, request):
    width, height = request.param
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, bypass_csp=True, service_workers="block"
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def _ready(page):
    expect(page.locator('body[data-ready="1"]')).to_have_count(1, timeout=60_000)


PAGES = {
    # the table's first screen: the new-game dialog over an empty table
    "table": ("", lambda page: expect(page.locator("#dlg-new")).to_be_visible()),
    "rules": ("rules.html", None),
    "lessons": (
        "lessons.html",
        lambda page: expect(page.locator("#lesson-list li").first).to_be_visible(),
    ),
    "authors": ("authors.html", None),
    "lesson": (
        "index.html?lesson=01-a-turn",
        lambda page: expect(page.locator("#hand .card").first).to_be_visible(),
    ),
    "embed": (
        "embed.html?rules=samba&players=2&seed=7&levels=easy",
        lambda page: expect(page.locator("#hand .card").first).to_be_visible(timeout=60_000),
    ),
    "friends": (
        "index.html?net=host",
        lambda page: expect(page.locator("#net-setup")).to_be_visible(),
    ),
}


@pytest.mark.parametrize("audit_context", SIZES, indirect=True, ids=["phone", "desktop"])
@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_passes_axe(audit_context, base_url, name):
    path, ready = PAGES[name]
    page = audit_context.new_page()
    page.goto(base_url + path)
    if ready:
        ready(page)
    else:
        page.wait_for_load_state("load")
    assert audit(page) == []
    # One main region and one top heading on every page (lessons.html and authors.html had no
    # <main>; the table and the embedded table no <h1>: it stays for screen readers where the
    # brand is out of sight).
    assert page.locator("main").count() == 1
    assert page.locator("h1").count() == 1


@pytest.mark.parametrize("audit_context", SIZES, indirect=True, ids=["phone", "desktop"])
def test_the_table_mid_game_passes_axe(audit_context, base_url):
    page = audit_context.new_page()
    page.add_init_script(f"localStorage.setItem('samba.save.v1', {json.dumps(_save(MID_GAME))});")
    page.goto(base_url + "?pace=20")
    _ready(page)
    expect(page.locator('body[data-save="resumed"]')).to_have_count(1)
    expect(page.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)
    expect(page.locator("#my-melds .red-threes .card")).to_have_count(1)
    # a card picked, the log open where it has room: more of the table to check
    page.locator("#hand .card").first.click(position={"x": 6, "y": 10})
    assert audit(page) == []


def test_the_new_game_dialog_raises_no_form_issue(page, base_url, open_app):
    """Chromium's own checks of forms (the DevTools Issues panel) find nothing in the new-game
    dialog: every label names a control (the player's own seat, which has none, is a row)."""
    open_app(page, base_url + "index.html")
    expect(page.locator("#dlg-new")).to_be_visible()
    expect(page.locator("#opt-seats .seat-row")).not_to_have_count(0)
    issues: list[dict] = []
    cdp = page.context.new_cdp_session(page)
    cdp.on("Audits.issueAdded", lambda ev: issues.append(ev["issue"]))
    cdp.send("Audits.enable")  # the issues found so far come before its answer
    cdp.send("Runtime.evaluate", {"expression": "1"})
    forms = [
        i["details"].get("genericIssueDetails", {}).get("errorType")
        for i in issues
        if i["code"] == "GenericIssue"
        and "Form" in (i["details"].get("genericIssueDetails", {}).get("errorType") or "")
    ]
    assert not forms, forms
