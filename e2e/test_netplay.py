"""Play with friends' private invite (two links per seat, no relay) between browser contexts
of one stock Chromium in one home of e2e/netns_run.py's network (docs/netplay.md): host
candidates are mDNS names (`<uuid>.local`), as browsers make them. Run them with
`python e2e/netns_run.py`. Each context is one person's device and pays a full Pyodide boot."""

from __future__ import annotations

import json
import os
import re

import netplay_helpers as N
import pytest
from netplay_scenarios import GOING_OUT
from playwright.sync_api import expect

if os.environ.get("SAMBA_NETNS") != "1":
    pytest.skip(
        "WebRTC needs the network namespace of e2e/netns_run.py (python e2e/netns_run.py)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def rtc_browser(_playwright):
    b = N.launch(_playwright, "home1")
    yield b
    b.close()


@pytest.fixture
def base_url():
    """The site as served inside home1 (the run's STUN server and relay configured)."""
    N.site_config()
    return N.home_url("home1")


@pytest.fixture
def people(rtc_browser):
    made = []

    def make(name, **kw):
        p = N.Person(rtc_browser, name, **kw)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


def _record_of(person) -> dict:
    recs = [m for m in person.messages() if m.get("t") == "record"]
    assert recs, f"{person.name} got no record at the deal's end"
    return recs[-1]["record"]


def test_two_devices_play_a_deal_with_two_computers_and_the_friend_verifies_it(people, base_url):
    host, friend = people("host"), people("friend")
    N.host_setup(host, base_url, {1: "medium", 2: "friend", 3: "medium"}, mode="private")
    code = N.friend_joins(friend, N.invite_link(host, 2), "Sam")
    # The host pastes the code it was sent.
    N.shot(host, "2p-host-lobby")
    N.shot(friend, "2p-friend-reply")
    N.host_takes_code(host, 2, code)
    expect(host.page.locator("#net-deal")).to_be_enabled()
    N.deal(host, [friend])
    # Each page shows its own seat: the friend sits at seat 2, the partner of the host.
    assert N.body_attr(friend.page, "version") != ""
    expect(friend.page.locator('#seats .seat[data-seat="0"] .seat-name')).to_contain_text("Hana")
    expect(host.page.locator('#seats .seat[data-seat="2"] .seat-name')).to_contain_text("Sam")
    N.shot(host, "2p-host-table")
    N.shot(friend, "2p-friend-table")
    turns = N.play_until_over([host.page, friend.page])
    assert turns > 0
    expect(friend.page.locator('body[data-net-verified="ok"]')).to_have_count(1, timeout=30_000)
    expect(friend.page.locator("#net-verified")).to_contain_text("verified")
    expect(friend.page.locator("#dlg-deal #net-verified-deal")).to_contain_text("Deal 1 verified")
    N.shot(friend, "2p-friend-verified")
    rec = _record_of(friend)
    assert N.check_no_foreign_cards(friend.messages(), 2, rec) > 5
    # Both tables show the same deal result.
    expect(host.page.locator("#dlg-deal")).to_be_visible()
    expect(friend.page.locator("#dlg-deal")).to_be_visible()
    assert (
        host.page.locator("#deal-table tr.total").inner_text()
        == friend.page.locator("#deal-table tr.total").inner_text()
    )
    for p in (host, friend):
        assert not p.errors, p.errors
        foreign = [u for u in p.requests if not u.startswith((base_url, "data:", "blob:"))]
        assert not foreign, foreign


def test_four_devices_drop_rejoin_and_may_i_go_out(people, base_url):
    from urllib.parse import quote

    host = people("host")
    ann = people("ann", viewport=(390, 844))  # a phone
    bob, cy = people("bob"), people("cy")
    N.host_setup(
        host,
        base_url,
        {1: "friend", 2: "friend", 3: "friend"},
        extra="&testhooks=1&scenario=" + quote(json.dumps(GOING_OUT)),
        mode="private",
    )
    # Ann and Cy send their reply codes; Bob's reply link is opened on the host's device and
    # reaches the waiting game tab by itself.
    code_ann = N.friend_joins(ann, N.invite_link(host, 1), "Ann")
    N.shot(ann, "4p-phone-friend-reply")
    code_bob = N.friend_joins(bob, N.invite_link(host, 2), "Bob")
    code_cy = N.friend_joins(cy, N.invite_link(host, 3), "Cy")
    assert len(code_bob) < 200, code_bob
    N.host_takes_code(host, 1, code_ann)
    tab = host.new_page()
    tab.goto(N.reply_link(bob))
    expect(tab.locator('body[data-net-reply="done"]')).to_have_count(1, timeout=30_000)
    expect(tab.locator("#net-reply-msg")).to_contain_text("Delivered")
    tab.close()
    N.expect_connected(host, 2)
    N.host_takes_code(host, 3, code_cy)
    N.shot(host, "4p-host-lobby")
    N.deal(host, [ann, bob, cy])
    for p in (ann, bob, cy):
        expect(p.page.locator("#hand .card")).to_have_count(5, timeout=30_000)
    expect(host.page.locator("#hand .card")).to_have_count(4)
    for p in (host, ann, bob, cy):
        N.shot(p, f"4p-table-{p.name}")

    # Cy's tab closes: the host and the others see it; a computer may stand in meanwhile.
    cy.page.close()
    seat3 = host.page.locator('#net-panel .net-seat[data-seat="3"]')
    expect(seat3).to_have_attribute("data-state", "dropped", timeout=60_000)
    expect(bob.page.locator('#net-panel .net-seat[data-seat="3"] .net-dropped')).to_have_count(1)
    seat3.locator("select.net-stand-in").select_option("easy")
    expect(seat3.locator("select.net-stand-in")).to_have_value("easy")
    # A new invite for seat 3: the old one is dead; Cy opens the new one in a new tab.
    old_link = N.invite_link(host, 3)
    seat3.locator(".net-new-invite").click()
    expect(N.invite_input(host.page, 3)).not_to_have_value(old_link, timeout=15_000)
    cy.page = cy.new_page()
    code_cy = N.friend_joins(cy, N.invite_link(host, 3), "Cy")
    N.host_takes_code(host, 3, code_cy)
    expect(cy.page.locator("#hand .card")).to_have_count(5, timeout=30_000)
    expect(seat3.locator("select.net-stand-in")).to_have_count(0)  # the friend is back

    # "May I go out?": the host lays three sevens, keeps the king to discard, and asks.
    hp = host.page
    for c in ("7S", "7H", "7D"):
        N.click_card(hp.locator(f'#hand .card[data-card="{c}"]'))
    N.click_action(hp, "new")
    N.click_card(hp.locator('#hand .card[data-card="KC"]'))
    N.click_action(hp, "ask")
    N.settle(hp)
    bp = bob.page
    expect(bp.locator('body[data-phase="answer"][data-my-turn="1"]')).to_have_count(
        1, timeout=30_000
    )
    expect(bp.locator("#status")).to_contain_text("Hana")
    N.shot(bob, "4p-partner-answers")
    N.shot(host, "4p-host-waits")
    # The other side is not asked.
    assert ann.page.locator('#actions button[data-arg="answer yes"]').count() == 0
    N.click_action(bp, "move", "answer yes")
    for p in (host, ann, bob, cy):
        expect(
            p.page.locator('body[data-phase="deal_over"], body[data-phase="game_over"]')
        ).to_have_count(1, timeout=30_000)
    # A deal the host set up (a test scenario, not everyone's values) is flagged everywhere.
    for p in (ann, bob, cy):
        expect(p.page.locator('body[data-net-verified="warn"]')).to_have_count(1, timeout=30_000)
        expect(p.page.locator("#net-verified")).to_contain_text("could not be verified")
    N.shot(ann, "4p-phone-friend-warned")
    N.shot(cy, "4p-friend-deal-over")
    for p, seat in ((ann, 1), (bob, 2), (cy, 3)):
        assert N.check_no_foreign_cards(p.messages(), seat, _record_of(p)) >= 1
    for p in (host, ann, bob, cy):
        assert not p.errors, p.errors
        foreign = [u for u in p.requests if not u.startswith((base_url, "data:", "blob:"))]
        assert not foreign, foreign


def test_the_host_reloads_resumes_and_reinvites_and_the_friend_sees_the_drop(people, base_url):
    host, friend = people("host", viewport=(390, 844)), people("friend")  # the host on a phone
    N.host_setup(host, base_url, {1: "friend"}, players=2, mode="private")
    link = N.invite_link(host, 1)
    # A damaged invite and nonsense pasted as a reply are refused in plain words.
    bad = friend.open(link.split("#")[0] + "#j=1.xyz")
    expect(bad.locator("#net-join .net-error")).to_contain_text("damaged")
    seat1 = host.page.locator('#net-panel .net-seat[data-seat="1"]')
    for junk, words in (
        ("hello", "not a reply code"),
        ("r=1.othergame.a~b~c~d", "not a reply code"),
        ("r=1.AAAAAAAA." + link.split("#j=")[1].split(".", 3)[3], "another game"),
    ):
        seat1.locator(".net-reply input").fill(junk)
        seat1.locator(".net-connect").click()
        expect(host.page.locator("#net-panel .net-error")).to_contain_text(words)
    expect(seat1).to_have_attribute("data-state", "invited")
    N.host_takes_code(host, 1, N.friend_joins(friend, link, "Sam"))
    N.shot(host, "reload-phone-host-lobby")
    N.deal(host, [friend])
    N.shot(host, "reload-phone-host-table")
    # A few turns, whoever is to act.
    for _ in range(4):
        for p in (host.page, friend.page):
            if N.my_turn(p) and N.phase(p) not in ("deal_over", "game_over"):
                N.play_turn(p)
    N.settle(host.page)
    version = N.body_attr(host.page, "version")
    hand = sorted(
        friend.page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    )
    # The host's save of this step is written (it follows the engine's snapshot) before the reload.
    expect(host.page.locator(f'body[data-net-saved="{version}"]')).to_have_count(1)
    host.page.reload()
    N.wait_ready(host.page, N.BOOT_TIMEOUT_MS, host.errors)
    # The saved game is back at the same step; the friend's seat waits for a new invite.
    expect(host.page.locator(f'body[data-version="{version}"]')).to_have_count(1)
    seat1 = host.page.locator('#net-panel .net-seat[data-seat="1"]')
    expect(seat1).to_have_attribute("data-state", "dropped")
    N.shot(host, "reload-phone-host-reinvite")
    expect(friend.page.locator('body[data-net-conn="lost"]')).to_have_count(1, timeout=60_000)
    expect(friend.page.locator("#net-conn")).to_contain_text("Connection lost")
    N.shot(friend, "reload-friend-lost")
    # The friend opens the new invite in the same tab.
    code = N.friend_joins(friend, N.invite_link(host, 1), "Sam")
    N.host_takes_code(host, 1, code)
    expect(friend.page.locator(f'body[data-version="{version}"]')).to_have_count(1, timeout=30_000)
    assert (
        sorted(
            friend.page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        )
        == hand
    )
    for p in (host, friend):
        assert not p.errors, p.errors


def test_a_lost_network_shows_reconnecting_then_lost_and_a_new_invite_resumes(people, base_url):
    import subprocess

    host, friend = people("host"), people("friend")
    N.host_setup(host, base_url, {1: "friend"}, players=2, mode="private")
    N.host_takes_code(host, 1, N.friend_joins(friend, N.invite_link(host, 1), "Sam"))
    N.deal(host, [friend])
    version = N.body_attr(host.page, "version")
    # The home's only network address goes away (nothing else on the machine notices).
    net = N.network()
    ns, home = net["ns"]["home1"], net["homes"]["home1"]
    subprocess.run(
        ["ip", "-n", ns, "addr", "del", home["address"] + "/24", "dev", home["link"]], check=True
    )
    try:
        expect(
            friend.page.locator('body[data-net-conn="reconnecting"], body[data-net-conn="lost"]')
        ).to_have_count(1, timeout=60_000)
        expect(friend.page.locator("#net-conn")).to_contain_text(re.compile("Reconnecting|lost"))
        expect(friend.page.locator('body[data-net-conn="lost"]')).to_have_count(1, timeout=90_000)
    finally:
        subprocess.run(
            ["ip", "-n", ns, "addr", "add", home["address"] + "/24", "dev", home["link"]],
            check=True,
        )
        subprocess.run(
            [
                "ip",
                "-n",
                ns,
                "route",
                "replace",
                "default",
                "via",
                home["address"].rsplit(".", 1)[0] + ".1",
            ],
            check=True,
        )
    seat1 = host.page.locator('#net-panel .net-seat[data-seat="1"]')
    expect(seat1).to_have_attribute("data-state", "dropped", timeout=90_000)
    old = N.invite_link(host, 1)
    seat1.locator(".net-new-invite").click()
    expect(N.invite_input(host.page, 1)).not_to_have_value(old, timeout=15_000)
    code = N.friend_joins(friend, N.invite_link(host, 1), "Sam")
    N.host_takes_code(host, 1, code)
    expect(friend.page.locator(f'body[data-version="{version}"]')).to_have_count(1, timeout=30_000)
