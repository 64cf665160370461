"""The first frame of a returning visit (web/js/first-paint.js): the saved table and the
player's language are there when the page first paints, before app.js and the engine; the
table is inert until the page has drawn it again, then plays; a damaged save or a damaged or
tampered copy of the table draws nothing and the page starts as usual.

The page's own script (js/app.js) is held back by the test, so "before the page's modules
have run" is a state the test controls; a test-only init script records the DOM in the first
animation frame (the frame that first paints: the page is render-blocked until first-paint.js
has run) and at the first-contentful-paint entry. Service workers are blocked so that every
request reaches the test's routes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import READY_SELECTOR
from play_driver import settle, start_game, wait_my_turn
from playwright.sync_api import expect

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"

RECORD_FIRST_FRAME = """(() => {
  const r = (window.__firstPaint = {});
  const state = () => {
    const table = document.getElementById("table");
    return {
      hand: [...document.querySelectorAll("#hand .card")].map((c) => Number(c.dataset.id)).sort((a, b) => a - b),
      inert: !!(table && table.inert),
      boot: (document.getElementById("boot-status") || {}).textContent || "",
      newGame: (document.getElementById("btn-new") || {}).textContent || "",
      language: (document.getElementById("lang-select") || {}).value || "",
      stock: (document.getElementById("stock-count") || {}).textContent || "",
      foreign: document.querySelectorAll("#table script, #table img, #table iframe, #table [onclick], #table [onerror]").length,
      state: document.documentElement.dataset.firstPaint || "",
    };
  };
  requestAnimationFrame(() => { r.frame = state(); });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === "first-contentful-paint" && !r.fcp) { r.fcp = e.startTime; r.atFcp = state(); }
    }
  }).observe({ type: "paint", buffered: true });
})();"""

COPY_MATCHES_SAVE = """() => {
  const c = JSON.parse(localStorage.getItem("samba.paint.v1") || "null");
  return !!(c && c.table && String(c.table.version) === document.body.dataset.saved);
}"""


@pytest.fixture
def ctx(browser):
    c = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 900})
    c.set_default_timeout(20_000)
    c.add_init_script(RECORD_FIRST_FRAME)
    yield c
    c.close()


class Held:
    """Holds back the page's own module (js/app.js) until `release()`."""

    def __init__(self, context, pattern: str = "**/js/app.js"):
        self.routes = []
        self.context, self.pattern = context, pattern
        context.route(pattern, lambda route: self.routes.append(route))

    def release(self):
        assert self.routes, "the page never asked for its module"
        for route in self.routes:
            route.continue_()
        self.context.unroute(self.pattern)


def _errors(page) -> list:
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    return errors


def _first_frame(page) -> dict:
    page.wait_for_function(
        "() => window.__firstPaint && window.__firstPaint.frame && window.__firstPaint.atFcp"
    )
    return page.evaluate("window.__firstPaint")


def _saved_hand(page) -> list[int]:
    saved = json.loads(page.evaluate("localStorage.getItem('samba.save.v1')"))
    return sorted(c["id"] for c in saved["view"]["hand"])


def _game_with_copy(page, base_url, lang: str | None = None) -> list[int]:
    """Deals a two-player game, plays to the player's turn, waits for the save and its copy."""
    page.goto(base_url + "?pace=0")
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    if lang:
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
    start_game(page, rules="samba", players=2, level="random")
    wait_my_turn(page)
    expect(page.locator("body[data-saved]")).to_have_count(1)
    page.wait_for_function(COPY_MATCHES_SAVE)
    hand = _saved_hand(page)
    assert (
        hand
        and sorted(
            int(x)
            for x in page.locator("#hand .card").evaluate_all("cs => cs.map((c) => c.dataset.id)")
        )
        == hand
    )
    return hand


def test_saved_hand_is_in_the_first_frame_and_plays_once_the_page_is_ready(ctx, base_url):
    page = ctx.new_page()
    errors = _errors(page)
    hand = _game_with_copy(page, base_url)
    stock = page.locator("#stock-count").text_content()

    held = Held(ctx)
    page.reload(wait_until="commit")
    first = _first_frame(page)
    # At the first frame and at first contentful paint: the saved hand, the stock, inert.
    for when in ("frame", "atFcp"):
        got = first[when]
        assert got["hand"] == hand, (when, got)
        assert got["stock"] == stock, (when, got)
        assert got["inert"] and got["state"] == "table", (when, got)
        assert got["foreign"] == 0
    expect(page.locator("html")).to_have_attribute("data-first-paint", "table")
    expect(page.locator(READY_SELECTOR)).to_have_count(0)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "first-paint-saved-table-1280x900.png"))

    # The page's modules arrive: it draws the table itself (live), the engine resumes the game.
    held.release()
    expect(page.locator("html")).to_have_attribute("data-first-paint", "adopted")
    assert page.evaluate("document.getElementById('table').inert") is False
    expect(page.locator(READY_SELECTOR + '[data-save="resumed"]')).to_have_count(1, timeout=90_000)
    assert (
        sorted(
            int(x)
            for x in page.locator("#hand .card").evaluate_all("cs => cs.map((c) => c.dataset.id)")
        )
        == hand
    )
    # ...and plays: draw from the stock.
    page.click("#stock")
    settle(page)
    expect(page.locator("body")).not_to_have_attribute("data-phase", "draw")
    assert page.locator("#hand .card").count() > len(hand)

    # The move was saved and copied: on a phone, the next visit's first frame shows it.
    page.wait_for_function(COPY_MATCHES_SAVE)
    hand = _saved_hand(page)
    page.set_viewport_size({"width": 390, "height": 844})
    held = Held(ctx)
    page.reload(wait_until="commit")
    got = _first_frame(page)["atFcp"]
    assert got["hand"] == hand and got["inert"] and got["state"] == "table", got
    page.screenshot(path=str(SCREENSHOTS / "first-paint-saved-table-390x844.png"))
    held.release()
    expect(page.locator(READY_SELECTOR + '[data-save="resumed"]')).to_have_count(1, timeout=90_000)
    expect(page.locator("html")).to_have_attribute("data-first-paint", "adopted")
    assert not errors, errors


def test_first_frame_speaks_the_players_language(ctx, base_url):
    fr = json.loads((I18N / "fr.json").read_text(encoding="utf-8"))
    page = ctx.new_page()
    errors = _errors(page)
    hand = _game_with_copy(page, base_url, lang="fr")
    held = Held(ctx)
    page.reload(wait_until="commit")
    got = _first_frame(page)["atFcp"]
    assert got["hand"] == hand
    assert got["boot"] == fr["boot.shuffling"].replace("{pct}", "0"), got
    assert got["newGame"] == fr["ui.new_game"], got
    assert got["language"] == "fr", got
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    held.release()
    expect(page.locator(READY_SELECTOR + '[data-save="resumed"]')).to_have_count(1, timeout=90_000)
    expect(page.locator("#boot-status")).to_have_text(fr["boot.ready"])
    assert not errors, errors


def _mutate_copy(page, fn) -> None:
    copy = json.loads(page.evaluate("localStorage.getItem('samba.paint.v1')"))
    fn(copy)
    page.evaluate("(t) => localStorage.setItem('samba.paint.v1', t)", json.dumps(copy))


def _first_text_node(kids: list) -> list | None:
    """The first element node of a stored tree whose first child is a text."""
    for k in kids:
        if isinstance(k, list):
            if k[3] and isinstance(k[3][0], str):
                return k
            found = _first_text_node(k[3])
            if found:
                return found
    return None


def test_damaged_or_tampered_copies_and_saves_draw_nothing_and_the_page_starts(ctx, base_url):
    page = ctx.new_page()
    errors = _errors(page)
    hand = _game_with_copy(page, base_url)
    good_copy = page.evaluate("localStorage.getItem('samba.paint.v1')")
    good_save = page.evaluate("localStorage.getItem('samba.save.v1')")

    # The storage is changed from another page of the site (the table copies itself when it is
    # left, which would overwrite the change), then the table is opened again.
    def park() -> None:
        page.goto(base_url + "authors.html")

    def open_held() -> dict:
        """Opens the table with app.js held back: what the first frame showed (at the first
        animation frame and at first contentful paint, which must agree), then app.js."""
        held = Held(ctx)
        page.goto(base_url + "?pace=0", wait_until="commit")
        first = _first_frame(page)
        assert first["frame"] == first["atFcp"], first
        held.release()
        return first["atFcp"]

    def reload_and_resume() -> dict:
        got = open_held()
        expect(page.locator(READY_SELECTOR + '[data-save="resumed"]')).to_have_count(
            1, timeout=90_000
        )
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate("document.getElementById('table').inert") is False
        return got

    def restore() -> None:
        park()
        page.evaluate(
            "([c, s]) => { localStorage.setItem('samba.paint.v1', c); localStorage.setItem('samba.save.v1', s); }",
            [good_copy, good_save],
        )

    tampered = {
        "script tag": lambda c: c["table"]["parts"]["hand"]["kids"].append(
            ["script", {}, {}, ["window.__pwned = 1"]]
        ),
        "img tag": lambda c: c["table"]["parts"]["status"]["kids"].append(
            ["img", {"src": "x"}, {}, []]
        ),
        "event handler": lambda c: c["table"]["parts"]["hand"]["kids"][0][1].update(
            onclick="window.__pwned = 1"
        ),
        "style url": lambda c: c["table"]["parts"]["hand"]["kids"][0][2].update({"--i": "url(x)"}),
        "unknown part": lambda c: c["table"]["parts"].update(
            {"log-list": {"attrs": {}, "kids": []}}
        ),
        "not a tree": lambda c: c["table"]["parts"]["hand"].update(kids="<div>"),
    }
    for name, fn in tampered.items():
        restore()
        _mutate_copy(page, fn)
        got = reload_and_resume()
        assert got["state"] != "table" and got["hand"] == [] and got["foreign"] == 0, (name, got)

    # Markup in a text is shown as text, never parsed.
    restore()
    markup = '<img src=x onerror="window.__pwned = 1">'
    _mutate_copy(
        page,
        lambda c: _first_text_node(c["table"]["parts"]["seats"]["kids"]).__setitem__(3, [markup]),
    )
    got = reload_and_resume()
    assert got["state"] == "table" and got["hand"] == hand and got["foreign"] == 0, got

    # A copy that is not JSON, and a copy of another save: nothing drawn, the game resumes.
    restore()
    page.evaluate(
        'localStorage.setItem(\'samba.paint.v1\', \'{"format": "samba-paint/1", "table": [\')'
    )
    assert reload_and_resume()["state"] == "none"
    restore()
    page.evaluate("""() => { const s = JSON.parse(localStorage.getItem('samba.save.v1'));
      s.saved_at = '2001-01-01T00:00:00Z'; localStorage.setItem('samba.save.v1', JSON.stringify(s)); }""")
    got = reload_and_resume()
    assert got["state"] != "table" and got["hand"] == [], got
    assert not errors, errors

    # A damaged save (not JSON) beside a good copy: no table drawn; the page starts as usual
    # (the new-game dialog) and the damaged save is kept aside, not lost.
    restore()
    page.evaluate(
        'localStorage.setItem(\'samba.save.v1\', \'{"format": "samba-save/1", "record": {\')'
    )
    got = open_held()
    assert got["state"] != "table" and got["hand"] == [], got
    expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    expect(page.locator("#dlg-new")).to_be_visible()
    expect(page.locator('body[data-save="broken"]')).to_have_count(1)
    assert page.locator("#hand .card").count() == 0
    assert page.evaluate("document.getElementById('table').inert") is False
    broken = json.loads(page.evaluate("localStorage.getItem('samba.save.broken')"))
    assert broken["raw"].startswith('{"format": "samba-save/1"')
    assert page.evaluate("window.__pwned") is None
    assert not errors, errors


@pytest.mark.parametrize(
    "locale, saved, query, lang",
    [
        ("fr-FR", None, "", "fr"),  # the browser's language
        ("fr-FR", "nb", "", "nb"),  # the saved choice wins over the browser's
        ("en-US", None, "?lang=ru", "ru"),  # ?lang= wins over both
    ],
)
def test_first_visit_speaks_the_players_language_from_the_first_frame(
    browser, base_url, locale, saved, query, lang
):
    """A first visit (no copy of a table, no game): the progress line and the shell's texts
    are in the player's language in the first frame, before app.js and its language file
    (index.html carries the shell's texts of every language, copied from the catalogues)."""
    texts = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    c = browser.new_context(
        service_workers="block", locale=locale, viewport={"width": 390, "height": 844}
    )
    c.set_default_timeout(20_000)
    try:
        c.add_init_script(RECORD_FIRST_FRAME)
        page = c.new_page()
        errors = _errors(page)
        if saved:
            page.goto(base_url + "authors.html")
            page.evaluate("(l) => localStorage.setItem('samba.lang', l)", saved)
        held = Held(c)
        page.goto(base_url + query, wait_until="commit")
        first = _first_frame(page)
        for when in ("frame", "atFcp"):
            got = first[when]
            assert got["boot"] == texts["boot.shuffling"].replace("{pct}", "0"), (when, got)
            assert got["newGame"] == texts["ui.new_game"], (when, got)
            assert got["hand"] == [] and got["state"] == "none", (when, got)
            assert got["language"] == lang, (when, got)  # the picker, filled and set
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#btn-log")).to_have_text(texts["ui.log"])
        if lang == "fr":
            SCREENSHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "first-visit-first-frame-fr-390x844.png"))
        held.release()
        expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
        expect(page.locator("#btn-new")).to_have_text(texts["ui.new_game"])
        assert not errors, errors
    finally:
        c.close()


# Per visible top-bar control: does a tap anywhere on it (a 3 x 3 grid of points, 3 px inside
# its edges) reach it?
HIT_TOP_BAR = """() => [...document.querySelectorAll('.topbar button, .topbar select, .topbar a')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => {
    const r = el.getBoundingClientRect();
    let ok = true;
    for (const fx of [0, 0.5, 1]) for (const fy of [0, 0.5, 1]) {
      const hit = document.elementFromPoint(r.left + 3 + fx * (r.width - 6),
                                            r.top + 3 + fy * (r.height - 6));
      ok = ok && !!hit && (hit === el || el.contains(hit));
    }
    return [el.id || el.textContent.trim(), ok];
  })"""


STATUS_OVER_A_CONTROL = """() => {
  const s = document.getElementById('boot-status').getBoundingClientRect();
  return [...document.querySelectorAll('.topbar button, .topbar select, .topbar a')]
    .filter((el) => el.offsetParent !== null)
    .some((el) => { const r = el.getBoundingClientRect();
      return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom; });
}"""


def test_the_loading_status_never_covers_a_control_on_a_phone(browser, base_url):
    """While the engine loads, the progress line lies under the phone's top bar (its actions in
    the Menu; the longer French labels), over none of its controls, and a tap reaches the Menu
    and, once the page's module has loaded, every control of the Menu's open panel."""
    c = browser.new_context(
        service_workers="block", locale="fr-FR", viewport={"width": 390, "height": 844}
    )
    c.set_default_timeout(20_000)
    try:
        page = c.new_page()
        held, worker = Held(c), Held(c, "**/worker.js")
        page.goto(base_url, wait_until="commit")
        expect(page.locator("#boot-status")).to_be_visible()
        assert not page.evaluate(STATUS_OVER_A_CONTROL)
        hits = page.evaluate(HIT_TOP_BAR)
        assert hits == [["btn-menu", True]], hits
        held.release()
        # The page's module has bound the Menu (it says it opens); the engine is still held.
        menu = page.locator('#btn-menu[aria-expanded="false"]')
        expect(menu).to_have_count(1)
        menu.click()
        expect(page.locator("#topbar-actions")).to_be_visible()
        expect(page.locator("#boot-status")).to_be_visible()
        hits = page.evaluate(HIT_TOP_BAR)
        assert len(hits) >= 7, hits
        assert all(ok for _, ok in hits), hits
        assert page.locator(READY_SELECTOR).count() == 0
        worker.release()
        expect(page.locator(READY_SELECTOR)).to_have_count(1, timeout=90_000)
    finally:
        c.close()


RECORD_WORKERS = """(() => {
  const Base = window.Worker;
  const made = (window.__workers = []);
  window.Worker = class extends Base {
    constructor(url, options) {
      super(url, options);
      const paint = performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]);
      made.push({ url: String(url), at: performance.now(), paint });
    }
  };
})();"""


def test_the_engine_starts_once_the_first_paint_is_shown(ctx, base_url):
    """The engine's worker (started by the first frame's script, before the page's own module
    has loaded) is created only after the first paint was shown: before it, its start competed
    with the drawing of the first frame (docs/build.md, "The first frame")."""
    page = ctx.new_page()
    _game_with_copy(page, base_url)
    ctx.add_init_script(RECORD_WORKERS)
    held = Held(ctx)
    page.reload(wait_until="commit")
    _first_frame(page)
    page.wait_for_function("() => window.__workers.length > 0")
    made = page.evaluate("window.__workers")
    assert len(made) == 1 and made[0]["url"].endswith("worker.js"), made
    painted = dict(made[0]["paint"])
    assert "first-paint" in painted and made[0]["at"] >= painted["first-paint"], made
    expect(page.locator("html")).to_have_attribute("data-first-paint", "table")
    held.release()
    expect(page.locator(READY_SELECTOR + '[data-save="resumed"]')).to_have_count(1, timeout=90_000)
    # the page took the early worker over (one worker, no second boot)
    assert page.evaluate("window.__workers.length") == 1


def _omnibox_targets(browser) -> list:
    cdp = browser.new_browser_cdp_session()
    try:
        return [
            t["url"] for t in cdp.send("Target.getTargets")["targetInfos"] if "omnibox" in t["url"]
        ]
    finally:
        cdp.detach()


def test_the_boot_benchmark_launches_chromium_without_its_own_start_up_page(_playwright, base_url):
    """e2e/bench_boot.py launches Chromium with its omnibox popup WebUI off (a freshly started
    browser builds it while the first page loads), in one --disable-features list with
    Playwright's own (Chromium keeps only the last such switch)."""
    from bench_boot import BROWSER_START
    from conftest import CHROMIUM_ARGS, chromium_args, chromium_path, playwright_disabled_features

    own = playwright_disabled_features(_playwright)
    assert "PaintHolding" in own, own
    args = chromium_args(_playwright, BROWSER_START)
    assert args[: len(CHROMIUM_ARGS)] == CHROMIUM_ARGS
    switches = [a for a in args if a.startswith("--disable-features=")]
    assert len(switches) == 1 and set(switches[0].split("=", 1)[1].split(",")) == {
        *own,
        *BROWSER_START,
    }

    def launch(extra):
        return _playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=[*extra, "--enable-automation"]
        )

    # As the tests launch it: the popup's page comes (the check can see it).
    plain = launch(CHROMIUM_ARGS)
    try:
        plain.new_page().goto(base_url)
        deadline = time.monotonic() + 30
        while not _omnibox_targets(plain) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _omnibox_targets(plain)
    finally:
        plain.close()
    # As the benchmark launches it: the page loads and paints with no popup page beside it, and
    # the browser was given Playwright's features and the benchmark's, in its last switch.
    bench = launch(args)
    try:
        page = bench.new_page()
        page.goto(base_url)
        page.wait_for_function("() => performance.getEntriesByType('paint').length > 0")
        assert _omnibox_targets(bench) == []
        argv = bench.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
        last = [a for a in argv if a.startswith("--disable-features=")][-1]
        assert set(last.split("=", 1)[1].split(",")) >= {*own, *BROWSER_START}, last
    finally:
        bench.close()
