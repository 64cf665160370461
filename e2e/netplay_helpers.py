"""Helpers of the play-with-friends browser tests (e2e/test_netplay*.py): a Chromium that
gathers real ICE candidates, pages that log every data-channel text they receive, the link
exchange done as people do it, and a driver that plays whichever page is to act."""
from __future__ import annotations

import json
import time

from playwright.sync_api import Page, expect

from conftest import BOOT_TIMEOUT_MS, chromium_args, chromium_path, wait_ready
from play_driver import (body_attr, click_action, click_card, discard_one, draw_phase_step,  # noqa: F401
                         moves, settle, try_melds)
from py_engine.views import card_ids

# Host candidates by address, not by mDNS name (the namespace has no mDNS responder).
RTC_DISABLED_FEATURES = ["WebRtcHideLocalIpsWithMdns"]

# Every text a page receives on a data channel goes to the test (window.__sambaNetLog).
LOG_SCRIPT = """
(() => {
  const add = EventTarget.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, fn, opts) {
    if (type === "message" && !this.__sambaLogged) {
      this.__sambaLogged = true;
      add.call(this, "message", (e) => { try { window.__sambaNetLog(String(e.data)); } catch (x) {} });
    }
    return add.call(this, type, fn, opts);
  };
})();
"""


def shot(person: "Person", name: str, page: Page | None = None) -> None:
    """A screenshot to look at, when SAMBA_NETPLAY_SHOTS names a folder."""
    import os
    folder = os.environ.get("SAMBA_NETPLAY_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        (page or person.page).screenshot(path=os.path.join(folder, f"{name}.png"))


def launch(playwright):
    """Chromium as the other browser tests launch it (Playwright's own disabled features kept:
    Chromium reads only the last --disable-features switch), with mDNS host candidates off."""
    return playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                      args=chromium_args(playwright, RTC_DISABLED_FEATURES))


class Person:
    """One browser context (a person's device) with one page; `received` holds the texts its
    page got over data channels; `log` its console errors and page errors."""

    def __init__(self, browser, name: str, viewport=(1280, 900)):
        self.name = name
        self.ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self.ctx.set_default_timeout(20_000)
        self.received: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.ctx.expose_function("__sambaNetLog", lambda text: self.received.append(text))
        self.ctx.add_init_script(LOG_SCRIPT)
        self.ctx.on("request", lambda r: self.requests.append(r.url))
        self.page = self.new_page()

    def new_page(self) -> Page:
        pg = self.ctx.new_page()
        pg.on("console", lambda m: m.type == "error" and self.errors.append(f"{self.name}: {m.text}"))
        pg.on("pageerror", lambda e: self.errors.append(f"{self.name}: {e}"))
        return pg

    def open(self, url: str, page: Page | None = None) -> Page:
        pg = page or self.page
        pg.goto(url)
        wait_ready(pg, BOOT_TIMEOUT_MS, self.errors)
        return pg

    def messages(self) -> list[dict]:
        return [json.loads(t) for t in self.received]

    def close(self):
        self.ctx.close()


def host_setup(host: Person, base_url: str, seats: dict[int, str], players: int = 4,
               rules: str = "samba", name: str = "Hana", extra: str = "") -> None:
    """The host opens "Play with friends", picks the seats, creates the invites."""
    pg = host.open(base_url + "?net=host&pace=20" + extra)
    dlg = pg.locator("#net-setup")
    expect(dlg).to_be_visible()
    dlg.locator(f'input[name="rules"][value="{rules}"]').check()
    dlg.locator('select[name="players"]').select_option(str(players))
    for seat, kind in seats.items():
        dlg.locator(f'select[name="seat{seat}"]').select_option(kind)
    dlg.locator('input[name="name"]').fill(name)
    pg.click("#net-create")
    for seat, kind in seats.items():
        if kind == "friend":
            expect(invite_input(pg, seat)).to_have_value(lambda_nonempty(), timeout=15_000)


def lambda_nonempty():
    import re
    return re.compile(r"\?net=join#j=")


def invite_input(pg: Page, seat: int):
    return pg.locator(f'#net-panel .net-seat[data-seat="{seat}"] .net-invite input')


def invite_link(host: Person, seat: int) -> str:
    return invite_input(host.page, seat).input_value()


def friend_joins(friend: Person, link: str, name: str, page: Page | None = None) -> str:
    """The friend opens the invite, gives a name, and reads the reply code (returned)."""
    pg = friend.open(link, page)
    dlg = pg.locator("#net-join")
    # (a new invite in the same tab only changes the #fragment: the page reloads itself)
    expect(dlg).to_be_visible(timeout=BOOT_TIMEOUT_MS)
    dlg.locator('input[name="name"]').fill(name)
    pg.click("#net-join-go")
    code = dlg.locator(".net-reply-code input")
    expect(code).to_have_value(lambda_reply(), timeout=15_000)
    return code.input_value()


def reply_link(friend: Person, page: Page | None = None) -> str:
    return (page or friend.page).locator("#net-join .net-reply-link input").input_value()


def lambda_reply():
    import re
    return re.compile(r"^r=\d\.")


def host_takes_code(host: Person, seat: int, code: str) -> None:
    """The host pastes the friend's reply code into its page and connects."""
    pg = host.page
    pg.locator(f'#net-panel .net-seat[data-seat="{seat}"] .net-reply input').fill(code)
    pg.locator(f'#net-panel .net-seat[data-seat="{seat}"] .net-connect').click()
    expect_connected(host, seat)


def expect_connected(host: Person, seat: int, timeout: int = 30_000) -> None:
    expect(host.page.locator(f'#net-panel .net-seat[data-seat="{seat}"][data-state="connected"]')
           ).to_have_count(1, timeout=timeout)


def deal(host: Person, friends: list[Person]) -> None:
    host.page.click("#net-deal")
    for p in [host, *friends]:
        expect(p.page.locator("body[data-phase]")).to_have_count(1, timeout=30_000)


# Playing ------------------------------------------------------------------------------------------
def my_turn(pg: Page) -> bool:
    return pg.locator('body[data-my-turn="1"][data-busy="0"]').count() == 1


def phase(pg: Page) -> str:
    return body_attr(pg, "phase")


def play_turn(pg: Page) -> None:
    """One turn (or one answer) at the page whose turn it is, as a person clicks."""
    ph = phase(pg)
    legal = moves(pg)
    if ph == "answer":
        click_action(pg, "move", "answer yes")
        settle(pg)
    elif ph == "draw":
        draw_phase_step(pg, legal)
    elif ph == "meld":
        try:
            try_melds(pg)
        except AssertionError:
            import os
            folder = os.environ.get("SAMBA_NETPLAY_SHOTS")
            if folder:
                pg.screenshot(path=os.path.join(folder, "failed-meld.png"))
                with open(os.path.join(folder, "failed-meld.txt"), "w") as f:
                    f.write(pg.locator("body").evaluate("b => JSON.stringify(b.dataset)") + "\n")
                    f.write(pg.locator("#actions").inner_html() + "\n")
                    f.write(pg.locator("#message").inner_text() + "\n")
            raise
        if phase(pg) != "meld" or body_attr(pg, "my-turn") != "1":
            return
        if "pass" in moves(pg):
            click_action(pg, "move", "pass")
            settle(pg)
        else:
            discard_one(pg)


def play_until_over(pages: list[Page], budget_s: float = 420) -> int:
    """Plays whichever page is to act until the deal is over everywhere; returns turns."""
    t0 = time.monotonic()
    turns = 0
    while time.monotonic() - t0 < budget_s:
        if all(phase(p) in ("deal_over", "game_over") for p in pages):
            return turns
        acted = False
        for p in pages:
            if phase(p) not in ("deal_over", "game_over") and my_turn(p):
                play_turn(p)
                turns += 1
                acted = True
        if not acted:
            # Someone else (a computer, or a page still drawing) is to act: wait for any change.
            _wait_any_change(pages, [body_attr(p, "version") for p in pages])
    raise AssertionError(f"the deal did not finish in {budget_s} s ({turns} turns)")


def _wait_any_change(pages: list[Page], versions: list[str], timeout_s: float = 60) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout_s:
        for p, v in zip(pages, versions):
            if body_attr(p, "version") != v or my_turn(p) or phase(p) in ("deal_over", "game_over"):
                return
        pages[0].wait_for_timeout(50)
    raise AssertionError("no page changed for a minute")


# Hidden information -------------------------------------------------------------------------------


def check_no_foreign_cards(messages: list[dict], seat: int, record: dict) -> int:
    """Replays the deal from the record the host sent at its end and checks that no view the
    guest received before it named a card in another seat's hand at that step. Returns the
    number of views checked."""
    from py_engine.record import replay
    game = replay(dict(record, moves=[]))
    hands_at = {game.version: [set(h) for h in game.hands]}
    for text in record["moves"]:
        game.play(text)
        hands_at[game.version] = [set(h) for h in game.hands]
    checked = 0
    deal = game.deal_no
    started = False
    for msg in messages:
        if msg.get("t") == "record" and started:
            break
        v = msg.get("view")
        if not isinstance(v, dict) or v.get("deal") != deal or v.get("version") not in hands_at:
            continue
        # Views of the game before this one (a test's scenario replaces the first deal) are
        # skipped until the first view of the recorded position.
        if not started:
            if {c["id"] for c in v["hand"]} != hands_at[v["version"]][seat]:
                continue
            started = True
        hands = hands_at[v["version"]]
        others = set().union(*(h for s, h in enumerate(hands) if s != seat))
        leaked = card_ids(msg) & others
        assert not leaked, f"seat {seat} was sent cards {sorted(leaked)} of other hands"
        assert {c["id"] for c in v["hand"]} == hands[seat]
        checked += 1
    return checked

