"""Embedding: a host page on another origin (another local port) includes the table with the
<samba-table> element, gets the API's events, and drives it; bad embed parameters show a
message in the frame, never a blank frame."""

from __future__ import annotations

import base64
import http.server
import json
import threading
from pathlib import Path

import pytest
from messages import messages
from playwright.sync_api import expect

from py_engine.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent
MESSAGES = messages("en")

HOST_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A rules page</title>
<script type="module" src="{script}"></script>
<script type="module" src="host.js"></script></head>
<body>
<h1>Taking the pile</h1>
<button id="new-game" type="button">New game</button>
<samba-table id="t" src="{site}" scenario="lessons/05-take-the-pile.json" levels="random"
             pace="50"></samba-table>
<ol id="events"></ol>
</body></html>
"""

HOST_JS = """
const table = document.getElementById("t");
table.style.height = "640px";
const list = document.getElementById("events");
for (const name of ["samba-ready", "samba-move", "samba-deal-end", "samba-error"]) {
  table.addEventListener(name, (ev) => {
    const li = document.createElement("li");
    li.dataset.type = name;
    li.dataset.source = ev.detail.source || "";
    li.dataset.move = ev.detail.move || "";
    li.dataset.by = ev.detail.by || "";
    li.textContent = name + " " + JSON.stringify(ev.detail);
    list.append(li);
  });
}
// A message that does not come from the frame must not be taken for one.
window.postMessage({ type: "samba:v1:ready", data: { source: "forged" } }, "*");
document.getElementById("new-game").addEventListener("click", () => {
  table.newGame({ rules: "samba", players: 2, seed: 4, levels: "random" });
});
"""


def serve_host(root: Path, site_origin: str) -> tuple[str, http.server.ThreadingHTTPServer]:
    """A plain static server for the host page, with the host's own CSP (frames and scripts
    from the table's site allowed), on a new port: another origin."""
    csp = (
        f"default-src 'self'; script-src 'self' {site_origin}; frame-src {site_origin}; "
        "style-src 'self'; object-src 'none'; base-uri 'none'"
    )

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".js": "text/javascript",
            ".html": "text/html; charset=utf-8",
        }

        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(root), **kw)

        def end_headers(self):
            self.send_header("Content-Security-Policy", csp)
            self.send_header("Cache-Control", "no-cache")
            super().end_headers()

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


@pytest.fixture
def host_url(tmp_path, base_url):
    site_origin = base_url.rstrip("/")
    (tmp_path / "index.html").write_text(
        HOST_HTML.format(site=base_url, script=f"{base_url}js/samba-table.js"), encoding="utf-8"
    )
    (tmp_path / "host.js").write_text(HOST_JS, encoding="utf-8")
    (tmp_path / "favicon.ico").write_bytes(b"")
    # The element's script is loaded from the table's site (a cross-origin module script: the
    # site's server must send Access-Control-Allow-Origin, as GitHub Pages does). Copying it
    # onto the host's own site is tested in test_offline.py.
    url, server = serve_host(tmp_path, site_origin)
    yield url
    server.shutdown()
    server.server_close()


def _frame_state(page, site: str):
    """What the table's frame shows: its body's data attributes and its status line (for a
    failure's message)."""
    for fr in page.frames:
        if fr.url.startswith(site):
            try:
                return fr.evaluate("""() => ({ body: Object.assign({}, document.body.dataset),
                    status: (document.getElementById("status") || {}).textContent || null })""")
            except Exception as err:  # noqa: BLE001 - a diagnosis, never a second failure
                return f"(unreadable: {err})"
    return "(no frame of the site)"


def test_host_on_another_origin_gets_events_and_drives_the_table(
    page, page_log, host_url, base_url
):
    assert host_url.split("/")[2] != base_url.split("/")[2]
    page.goto(host_url)
    events = page.locator("#events li")
    ready = page.locator('#events li[data-type="samba-ready"]')
    expect(ready).to_have_count(1, timeout=60_000)
    assert ready.first.get_attribute("data-source") == "params"
    detail = json.loads(ready.first.inner_text().split(" ", 1)[1])
    assert detail["rules"] == "samba" and detail["players"] == 2 and detail["phase"] == "draw"
    assert page.locator('#events li[data-source="forged"]').count() == 0

    # A click in the frame: the host hears the move.
    frame = page.frame_locator("samba-table iframe")
    expect(frame.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1)
    frame.locator("#stock").click()
    expect(page.locator('#events li[data-type="samba-move"][data-move="draw"]')).to_have_count(1)

    # The host starts a new game: ready again; once it is our turn to draw in the new game
    # (the computer may move first), our draw reaches the host as a human move. Every wait is
    # for a state (the old game ended in the meld phase, so "draw" is the new game's).
    page.click("#new-game")
    expect(
        page.locator('#events li[data-type="samba-ready"][data-source="new_game"]')
    ).to_have_count(1)
    expect(frame.locator('body[data-my-turn="1"][data-busy="0"][data-phase="draw"]')).to_have_count(
        1, timeout=30_000
    )
    frame.locator("#stock").click()
    try:
        # (the same bound as the wait above: on a busy machine the frame's engine answers late)
        expect(frame.locator('body[data-my-turn="1"][data-phase="meld"]')).to_have_count(
            1, timeout=30_000
        )
    except AssertionError as exc:
        raise AssertionError(
            f"{exc}\nframe: {_frame_state(page, base_url)}\n"
            f"host events: {events.all_inner_texts()[-6:]}"
        ) from None
    human_draws = page.locator(
        '#events li[data-type="samba-move"][data-move="draw"][data-by="human"]'
    )
    expect(human_draws).to_have_count(2)
    assert events.count() >= 4
    assert page.locator('#events li[data-type="samba-error"]').count() == 0
    page_log.assert_clean()


def b64url(obj) -> str:
    raw = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


BAD = [
    ("rules=canasta99", "share.error.rules"),
    ("players=9", "share.error.players"),
    ("levels=easy,genius", "share.error.levels"),
    ("scenario=%%%not-base64", "embed.error.base64"),
    ("scenario=" + b64url(b"{not json"), "embed.error.json"),
    ("scenario=" + b64url([1, 2]), "embed.error.not_object"),
    ("scenario_url=https://evil.example/s.json", "embed.error.scenario_origin"),
    ("scenario_url=lessons/no-such-lesson.json", "embed.error.scenario_fetch"),
    ("origins=not-an-origin", "embed.error.origins"),
]


def test_bad_embed_parameters_show_a_message(page, page_log, base_url):
    box = page.locator("#embed-error")
    for query, key in BAD:
        page.goto(f"{base_url}embed.html?{query}")
        expect(box).to_be_visible()
        expect(box.locator("h2")).to_have_text(MESSAGES["embed.error.title"])
        prefix = MESSAGES[key].split("{")[0].split("“")[0]
        expect(box.locator(".embed-error-text")).to_contain_text(prefix)
    # A well-formed scenario the engine refuses (bad_scenario): the engine's own words.
    bad = {"rules": "samba", "players": 2, "hands": [["7S", "ZZ"], ["4C"]]}
    page.goto(f"{base_url}embed.html?scenario={b64url(bad)}")
    expect(box).to_be_visible(timeout=60_000)
    expect(box.locator(".embed-error-text")).to_contain_text("ZZ")
    expect(page.locator("body")).to_have_attribute("data-embed-error", "bad_scenario")
    # The fetch of a missing scenario is the one expected console error (a 404).
    errors = [e for e in page_log.console_errors if "404" not in e]
    assert not errors and not page_log.page_errors, (errors, page_log.page_errors)


def test_authors_page_snippets_name_this_site(page, page_log, base_url):
    page.goto(base_url + "authors.html")
    first = page.locator(".snippet code").first
    expect(first).to_contain_text(f'src="{base_url}js/samba-table.js"')
    page.click("#demo-button")
    frame = page.locator("#demo samba-table iframe")
    expect(frame).to_have_count(1)
    src = frame.get_attribute("src") or ""
    assert src.startswith(base_url + "embed.html?") and "scenario_url=lessons" in src
    page_log.assert_clean()


def test_authors_page_lists_the_engines_rule_sets_and_defaults(page, page_log, base_url):
    """The parameters table names every rule set the engine offers, each with its player counts,
    from the build's rules data (it listed three of the five, and a 600 ms pace and a 10000
    target as the defaults, where the embedded table takes the reader's speed setting and the
    rule set's target)."""
    page.goto(base_url + "authors.html")
    expect(page.locator("body[data-ready='1']")).to_have_count(1)
    names = list(PRESETS)
    expect(page.locator("#au-rules code")).to_have_text(names)
    players = page.locator('#params td[data-i18n="authors.params.players"]')
    expect(players).to_contain_text("samba")
    shown = players.inner_text().replace("\u2060", "")  # (word joiners keep "2–6" together)
    for name, rs in PRESETS.items():
        ns = list(rs.players_allowed)
        counts = (
            f"{ns[0]}–{ns[-1]}"
            if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1))
            else ", ".join(map(str, ns))
        )
        assert f"{name} {counts}" in shown, (name, shown)
    expect(page.locator('#params td[data-i18n="authors.params.pace_default"]')).to_contain_text(
        "750"
    )
    expect(
        page.locator('#params td[data-i18n="authors.params.target_default"] a')
    ).to_have_attribute("href", "rules.html#differences")
    page_log.assert_clean()
