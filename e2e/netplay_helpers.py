"""Helpers of the play-with-friends browser tests (e2e/test_netplay*.py): a stock Chromium
inside one of the homes that e2e/netns_run.py builds, the site's configuration per case, pages
that log every text the host sends them, the links used as people use them, and a driver that
plays whichever page is to act."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
from pathlib import Path

from conftest import BOOT_TIMEOUT_MS, CHROMIUM_ARGS, chromium_path, wait_ready
from play_driver import (  # noqa: F401
    body_attr,
    click_action,
    click_card,
    discard_one,
    draw_phase_step,
    moves,
    settle,
    try_melds,
)
from playwright.sync_api import Page, expect

from py_engine.views import card_ids


def network() -> dict:
    """What e2e/netns_run.py built: namespaces, the homes' site URLs, relay, STUN and TURN."""
    return json.loads(Path(os.environ["SAMBA_NETNS_INFO"]).read_text())


def site_config(ice: list | None = None, relays: list | None = None) -> dict:
    """Writes the served site's netplay.json (as a site host edits dist/netplay.json); by
    default the run's STUN server and relay."""
    net = network()
    cfg = {
        "iceServers": [{"urls": net["stun"]}] if ice is None else ice,
        "relays": [net["relay"]] if relays is None else relays,
    }
    (Path(net["site"]) / "netplay.json").write_text(json.dumps(cfg))
    return cfg


def nft_public(rules: str) -> None:
    """nftables rules in the public segment's namespace."""
    ns = network()["ns"]["public"]
    subprocess.run(
        ["ip", "netns", "exec", ns, "nft", "-f", "-"], input=rules, text=True, check=True
    )


def cut(udp_between_homes: bool = False, relay: bool = False) -> None:
    """Cuts paths on the public segment (a table of its own; `uncut` removes it): UDP between
    the homes' public addresses (then only a TURN relay gets through), or the relay's port
    (refused, as a relay that is down)."""
    net = network()
    a, b = net["homes"]["home1"]["public"], net["homes"]["home2"]["public"]
    rules = []
    if udp_between_homes:
        rules.append(
            f"chain cut_forward {{ type filter hook forward priority 0; "
            f"ip saddr {{ {a}, {b} }} ip daddr {{ {a}, {b} }} meta l4proto udp drop; }}"
        )
    if relay:
        port = net["relay"].rsplit(":", 1)[1]
        rules.append(
            f"chain cut_input {{ type filter hook input priority 0; "
            f"tcp dport {port} reject with tcp reset; }}"
        )
    nft_public("table inet samba_cut {\n" + "\n".join(rules) + "\n}\n")


def uncut() -> None:
    ns = network()["ns"]["public"]
    subprocess.run(
        ["ip", "netns", "exec", ns, "nft", "delete table inet samba_cut"], capture_output=True
    )


def shot(person: Person, name: str, page: Page | None = None) -> None:
    """A screenshot to look at, when SAMBA_NETPLAY_SHOTS names a folder."""
    import os

    folder = os.environ.get("SAMBA_NETPLAY_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        pg = page or person.page
        # Cards still travelling to their places (js/animate.js) would be caught mid-flight.
        pg.evaluate(
            "() => Promise.allSettled(document.getAnimations()"
            ".filter((a) => a.id === 'samba-travel').map((a) => a.finished))"
        )
        pg.screenshot(path=os.path.join(folder, f"{name}.png"))


def launch(playwright, home: str = "home1"):
    """Chromium as installed (no feature switched off), inside a home's namespace: a launcher
    around `ip netns exec` given to Playwright as the browser."""
    net = network()
    wrapper = Path(net["work"]) / f"chromium-{home}.sh"
    wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {net["ns"][home]} {chromium_path()} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return playwright.chromium.launch(
        executable_path=str(wrapper), headless=True, args=list(CHROMIUM_ARGS)
    )


def home_url(home: str = "home1") -> str:
    return network()["urls"][home]


class Person:
    """One browser context (a person's device) with one page; `received` holds the texts its
    page got from the host (a friend's page hands each to window.__sambaNetLog when a test
    listens); `errors` its console errors and page errors."""

    def __init__(self, browser, name: str, viewport=(1280, 900)):
        self.name = name
        self.ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self.ctx.set_default_timeout(20_000)
        self.received: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.ctx.expose_function("__sambaNetLog", lambda text: self.received.append(text))
        self.ctx.on("request", lambda r: self.requests.append(r.url))
        self.page = self.new_page()

    def new_page(self) -> Page:
        pg = self.ctx.new_page()
        pg.on(
            "console", lambda m: m.type == "error" and self.errors.append(f"{self.name}: {m.text}")
        )
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


def host_setup(
    host: Person,
    base_url: str,
    seats: dict[int, str],
    players: int = 4,
    rules: str = "samba",
    name: str = "Hana",
    extra: str = "",
    mode: str = "relay",
    same_network: bool = False,
) -> None:
    """The host opens "Play with friends", picks the seats and how friends join ("relay": one
    link per seat, "private": the two-link invite), creates the links."""
    pg = host.open(base_url + "?net=host&pace=20" + extra)
    dlg = pg.locator("#net-setup")
    expect(dlg).to_be_visible()
    dlg.locator(f'input[name="rules"][value="{rules}"]').check()
    dlg.locator('select[name="players"]').select_option(str(players))
    for seat, kind in seats.items():
        dlg.locator(f'select[name="seat{seat}"]').select_option(kind)
    dlg.locator('input[name="name"]').fill(name)
    dlg.locator(f'input[name="mode"][value="{mode}"]').check()
    if same_network:
        dlg.locator('input[name="same_network"]').check()
    shot(host, f"setup-{host.name}-{mode}")
    pg.click("#net-create")
    for seat, kind in seats.items():
        if kind == "friend":
            expect(invite_input(pg, seat)).to_have_value(lambda_nonempty(), timeout=15_000)


def lambda_nonempty():
    import re

    return re.compile(r"\?net=join#[js]=")


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


def friend_sits(friend: Person, link: str, name: str, page: Page | None = None) -> Page:
    """One link: the friend opens it, gives a name, and is seated (nothing to send back)."""
    pg = friend.open(link, page)
    dlg = pg.locator("#net-join")
    expect(dlg).to_be_visible(timeout=BOOT_TIMEOUT_MS)
    dlg.locator('input[name="name"]').fill(name)
    shot(friend, f"join-{friend.name}", pg)
    pg.click("#net-join-go")
    expect(pg.locator('body[data-net-conn="connected"]')).to_have_count(1, timeout=60_000)
    return pg


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
    expect(
        host.page.locator(f'#net-panel .net-seat[data-seat="{seat}"][data-state="connected"]')
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


def play_until_over(
    pages: list[Page], budget_s: float = 420, midway=None, midway_turns: int = 24
) -> int:
    """Plays whichever page is to act until the deal is over everywhere; returns turns.
    `midway()` is called once after `midway_turns` turns (screenshots of a deal under way)."""
    t0 = time.monotonic()
    turns = 0
    while time.monotonic() - t0 < budget_s:
        if midway and turns >= midway_turns:
            for p in pages:
                settle(p)
            midway()
            midway = None
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
