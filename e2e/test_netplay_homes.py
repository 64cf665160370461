"""Play with friends from one link per seat, across the homes of e2e/netns_run.py's network
(docs/netplay.md): each home behind its own NAT, a real Nostr relay and a real coturn on the
public segment, a stock Chromium in each home. Run with `python e2e/netns_run.py`."""

from __future__ import annotations

import os
import re

import netplay_helpers as N
import pytest
from netplay_scenarios import GAME_OVER_2P
from playwright.sync_api import expect

if os.environ.get("SAMBA_NETNS") != "1":
    pytest.skip(
        "needs the networks of e2e/netns_run.py (python e2e/netns_run.py)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def browsers(_playwright):
    made = {h: N.launch(_playwright, h) for h in ("home1", "home2")}
    yield made
    for b in made.values():
        b.close()


@pytest.fixture
def people(browsers):
    made = []

    def make(name, home="home1", **kw):
        p = N.Person(browsers[home], name, **kw)
        p.home = home
        made.append(p)
        return p

    yield make
    N.uncut()
    N.site_config()
    for p in made:
        p.close()


def seat_row(host, seat):
    return host.page.locator(f'#net-panel .net-seat[data-seat="{seat}"]')


def link_for(host, seat, home):
    """The seat's link as the friend opens it: the same path on the site as served in the
    friend's home (each home has its own copy of the static site on 127.0.0.1)."""
    return N.home_url(home) + N.invite_link(host, seat).split("/", 3)[3]


def hand_of(person) -> list[str]:
    """The cards of the person's hand on its page, sorted."""
    cards = person.page.locator("#hand .card")
    return sorted(cards.evaluate_all("els => els.map(e => e.dataset.card)"))


def expect_seated_again(host, seat, friend, version, hand) -> None:
    """The friend is back at ``seat``: the host's page says so, the friend's page is connected
    at the game's ``version`` and shows the same ``hand``."""
    N.expect_connected(host, seat, timeout=60_000)
    expect(seat_row(host, seat)).to_contain_text("reconnected")
    expect(
        friend.page.locator(f'body[data-net-conn="connected"][data-version="{version}"]')
    ).to_have_count(1, timeout=30_000)
    assert hand_of(friend) == hand


# Trystero reports a peer's data channel closed by the other side (a tab closed) on the console
# as an error; nothing went wrong for the player.
PEER_CLOSED = "Trystero peer error: OperationError: User-Initiated Abort, reason=Close called"


# While a test has the relay refuse connections, the browser logs each refused attempt.
RELAY_REFUSED = "failed: Error in connection establishment: net::ERR_CONNECTION_REFUSED"


def errors(person, relay_cut: bool = False) -> list[str]:
    return [
        e
        for e in person.errors
        if PEER_CLOSED not in e
        and not (relay_cut and RELAY_REFUSED in e and N.network()["relay"] in e)
    ]


def _record_of(person) -> dict:
    recs = [m for m in person.messages() if m.get("t") == "record"]
    assert recs, f"{person.name} got no record at the deal's end"
    return recs[-1]["record"]


def test_one_home_same_network_only_and_a_link_without_its_secret(people):
    """Two players in one home with no STUN server ("same network only"): the browsers reach
    each other by their mDNS host names. A link whose secret was changed gets no seat."""
    N.site_config()
    host, sam, eve = people("host"), people("sam", viewport=(390, 844)), people("eve")
    N.host_setup(host, N.home_url("home1"), {1: "friend"}, players=2, same_network=True)
    expect(host.page.locator("#net-panel")).to_be_visible()
    link = link_for(host, 1, "home1")
    assert re.search(r"#s=1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.n$", link), link
    # A guess at the secret: the relay passes its messages, but nobody can read them.
    seat, secret, rest = link.split("#s=")[1].split(".", 2)
    forged = link.split("#s=")[0] + f"#s={seat}.{'A' * len(secret)}.{rest}"
    pe = eve.open(forged)
    expect(pe.locator("#net-join")).to_be_visible()
    pe.locator('#net-join input[name="name"]').fill("Eve")
    pe.click("#net-join-go")
    N.friend_sits(sam, link, "Sam")
    N.expect_connected(host, 1)
    expect(seat_row(host, 1)).to_contain_text("Sam")
    # Eve is never seated and never receives a text of the game; her page says the link is not
    # valid (when her page is the one that cannot read the host's connection data) or, after a
    # while, that the host's page is closed or the link out of date; the host's panel is not
    # troubled by her.
    said = pe.locator('body[data-net-conn="bad_secret"] #net-join .net-error, #net-slow').first
    expect(said).to_be_visible(timeout=60_000)
    expect(said).to_contain_text(re.compile("no longer valid|out of date"))
    expect(seat_row(host, 1)).not_to_have_attribute("data-fail", re.compile("."))
    assert not eve.received
    N.deal(host, [sam])
    N.shot(sam, "homes-phone-friend-mdns")
    assert not eve.received  # (the forged link; the real link, opened below, is refused)
    expect(pe.locator('body[data-net-conn="connected"]')).to_have_count(0)
    # The friend's page has no host-only controls or notes.
    expect(sam.page.locator("#btn-share")).to_be_hidden()
    assert "runs the game, so it could show" not in sam.page.locator("#net-panel").inner_text()
    # The host reloads: the game resumes at the same step, and the friend's page, still on the
    # same link, finds the host again by itself and gets its hand back.
    if N.my_turn(host.page):
        N.play_turn(host.page)
    N.settle(host.page)
    version = N.body_attr(host.page, "version")
    hand = hand_of(sam)
    expect(host.page.locator(f'body[data-net-saved="{version}"]')).to_have_count(1)
    host.page.reload()
    N.wait_ready(host.page, N.BOOT_TIMEOUT_MS, host.errors)
    expect(host.page.locator(f'body[data-version="{version}"]')).to_have_count(1)
    # (Sam's page keeps the link it opened: it can only be seated again if the reloaded host
    # waits in the same room with the same secret. The link field may be gone by now.)
    expect_seated_again(host, 1, sam, version, hand)
    # The same link opened on another device while the friend is seated: the table is full.
    other = eve.open(link, eve.new_page())
    other.locator('#net-join input[name="name"]').fill("Eve")
    other.click("#net-join-go")
    expect(other.locator('body[data-net-conn="seat_taken"]')).to_have_count(1, timeout=60_000)
    expect(other.locator("#net-join .net-error")).to_contain_text("already connected")
    expect(seat_row(host, 1)).to_contain_text("Sam")
    expect(sam.page.locator('body[data-net-conn="connected"]')).to_have_count(1)
    # A damaged link: a clear error, and nothing changes at the table.
    bad = eve.open(link.split("#")[0] + "#s=1.xyz", eve.new_page())
    expect(bad.locator("#net-join .net-error")).to_contain_text("damaged")
    expect(seat_row(host, 1)).to_have_attribute("data-state", "connected")
    for p in (host, sam):
        assert not errors(p), errors(p)


def test_four_players_in_two_homes_play_a_deal_with_a_drop_and_a_rejoin(people):
    """Host and a friend in home1, two friends in home2: seats across the NATs through the
    STUN server, one deal played to its end, a friend drops and comes back through the same
    link, every friend's page checked never to receive a card of another hand."""
    N.site_config()
    host = people("host", viewport=(390, 844))  # the host on a phone
    ann = people("ann", viewport=(390, 844))  # a friend on a phone
    bob, cy = people("bob", "home2"), people("cy", "home2")
    N.host_setup(host, N.home_url("home1"), {1: "friend", 2: "friend", 3: "friend"})
    N.friend_sits(ann, link_for(host, 1, "home1"), "Ann")
    N.friend_sits(bob, link_for(host, 2, "home2"), "Bob")
    cy_link = link_for(host, 3, "home2")
    N.friend_sits(cy, cy_link, "Cy")
    for s in (1, 2, 3):
        N.expect_connected(host, s)
    # Across the homes: a direct path (the STUN server's addresses), no relay.
    expect(seat_row(host, 2)).to_have_attribute("data-path", "direct", timeout=30_000)
    N.shot(host, "homes-phone-host-lobby")
    # Cy's tab closes; Cy opens the same link again and gets the seat back.
    rejoin(host, 3, cy, cy_link, "Cy")
    N.deal(host, [ann, bob, cy])
    N.shot(host, "homes-phone-host-table")
    N.shot(ann, "homes-phone-friend-table")

    def midway():
        N.shot(host, "homes-phone-host-middeal")
        N.shot(ann, "homes-phone-friend-middeal")

    turns = N.play_until_over([host.page, ann.page, bob.page, cy.page], budget_s=900, midway=midway)
    assert turns > 0
    for p, seat in ((ann, 1), (bob, 2), (cy, 3)):
        expect(p.page.locator('body[data-net-verified="ok"]')).to_have_count(1, timeout=60_000)
        assert N.check_no_foreign_cards(p.messages(), seat, _record_of(p)) >= 1
    for p in (host, ann, bob, cy):
        assert not errors(p), errors(p)


def test_only_a_turn_relay_crosses_and_without_one_the_page_says_why(people):
    """UDP between the homes' public addresses is dropped: with the site's TURN server the seat
    connects and the host's panel says it goes through a relay; without one, the host and the
    friend read why and what helps, and the host may let a computer play the seat."""
    net = N.network()
    N.cut(udp_between_homes=True)
    N.site_config(ice=[{"urls": net["stun"]}, net["turn"]])
    host, bob = people("host"), people("bob", "home2")
    N.host_setup(host, N.home_url("home1"), {1: "friend"}, players=2)
    N.friend_sits(bob, link_for(host, 1, "home2"), "Bob")
    N.expect_connected(host, 1)
    expect(seat_row(host, 1)).to_have_attribute("data-path", "relay", timeout=30_000)
    expect(seat_row(host, 1)).to_contain_text("through a relay")
    N.deal(host, [bob])
    expect(bob.page.locator("#hand .card")).not_to_have_count(0)
    N.shot(host, "homes-host-through-turn")

    # The same networks with no TURN server configured.
    N.site_config()
    host2, cy = people("host2"), people("cy", "home2")
    N.host_setup(host2, N.home_url("home1"), {1: "friend"}, players=2)
    pc = cy.open(link_for(host2, 1, "home2"))
    pc.locator('#net-join input[name="name"]').fill("Cy")
    pc.click("#net-join-go")
    row = seat_row(host2, 1)
    expect(row).to_have_attribute("data-fail", "connect", timeout=90_000)
    expect(row.locator(".net-seat-fail")).to_contain_text("no direct path")
    expect(pc.locator('body[data-net-conn="failed"]')).to_have_count(1, timeout=90_000)
    expect(pc.locator("#net-join .net-error")).to_contain_text("TURN")
    N.shot(host2, "homes-host-no-path")
    # The host gives the seat to a computer and deals.
    row.locator("select.net-stand-in").select_option("easy")
    expect(host2.page.locator("#net-deal")).to_be_enabled()
    for p in (host, bob, host2):
        assert not errors(p), errors(p)


def rejoin(host, seat, friend, link, name) -> None:
    """The friend's tab closes (the host's row says the seat dropped); the friend opens the same
    ``link`` again and is seated again."""
    friend.page.close()
    expect(seat_row(host, seat)).to_have_attribute("data-state", "dropped", timeout=60_000)
    friend.page = friend.new_page()
    N.friend_sits(friend, link, name)
    N.expect_connected(host, seat)
    expect(seat_row(host, seat)).to_contain_text("reconnected")


def relay_refused(people):
    """The relay refuses connections while a host in home1 sets up a two-player game with a
    friend's seat: the seat's row says the relay is down. (host, Bob in home2, the row)"""
    N.site_config()
    N.cut(relay=True)
    host, bob = people("host"), people("bob", "home2")
    N.host_setup(host, N.home_url("home1"), {1: "friend"}, players=2)
    row = seat_row(host, 1)
    expect(row).to_have_attribute("data-fail", "relay", timeout=30_000)
    return host, bob, row


def bob_sits(host, bob, row) -> None:
    """Bob opens seat 1's link in home2 and sits down: the host's row names him."""
    N.friend_sits(bob, link_for(host, 1, "home2"), "Bob")
    N.expect_connected(host, 1)
    expect(row).to_contain_text("Bob")


def test_a_relay_that_refuses_then_try_again_once_it_is_back(people):
    """The relay refuses the host's connection: the seat's row says so and offers "Try again"
    and the private invite. Once the relay is back, "Try again" connects the same link."""
    host, bob, row = relay_refused(people)
    expect(row.locator(".net-seat-fail")).to_contain_text("no signaling relay")
    expect(row.locator(".net-use-private")).to_be_visible()
    link = N.invite_link(host, 1)
    N.uncut()
    row.locator(".net-retry").click()
    # The row no longer says the relay is down; the seat keeps its link (nothing to send again).
    expect(row).to_have_attribute("data-fail", "", timeout=15_000)
    expect(row.locator(".net-seat-fail")).to_have_count(0)
    assert N.invite_link(host, 1) == link
    bob_sits(host, bob, row)
    for p in (host, bob):
        assert not errors(p, relay_cut=True), errors(p, relay_cut=True)


def test_a_new_invite_made_while_the_relay_refuses_seats_the_friend_once_it_is_back(people):
    """The relay refuses the host's connection; the host makes a new invite for the seat (a new
    secret: the seat's room is left and joined again) while the relay still refuses. Once it is
    back, Try again, and the friend sits down through the new link. (A room left before any
    relay was reached unsubscribes only when a relay's socket opens, and that took the new
    room's subscription, on the same topics, with it.) Then the friend drops and the host makes
    another new invite with the relay up: the newest link seats the friend."""
    host, bob, row = relay_refused(people)
    old = N.invite_link(host, 1)
    row.locator(".net-new-invite").click()
    expect(N.invite_input(host.page, 1)).not_to_have_value(old, timeout=15_000)
    assert N.invite_link(host, 1).split("#s=")[1].split(".")[1] != old.split("#s=")[1].split(".")[1]
    # The relay still refuses: the row says so again.
    expect(row).to_have_attribute("data-fail", "relay", timeout=30_000)
    N.uncut()
    row.locator(".net-retry").click()
    expect(row).to_have_attribute("data-fail", "", timeout=15_000)
    bob_sits(host, bob, row)
    # A new invite with the relay up (the seat's room is left and joined again at once).
    bob.page.close()
    expect(row).to_have_attribute("data-state", "dropped", timeout=60_000)
    second = N.invite_link(host, 1)
    row.locator(".net-new-invite").click()
    expect(N.invite_input(host.page, 1)).not_to_have_value(second, timeout=15_000)
    bob.page = bob.new_page()
    N.friend_sits(bob, link_for(host, 1, "home2"), "Bob")
    N.expect_connected(host, 1)
    for p in (host, bob):
        assert not errors(p, relay_cut=True), errors(p, relay_cut=True)


def test_a_relay_outage_mid_game_is_told_to_the_host_and_the_link_works_once_it_is_back(people):
    """Mid-deal, the relay starts refusing: the friends play on (their connections do not go
    through it), and the host's Friends button and panel say the relay cannot be reached. When
    it is back, the panel says so no more (the host's page keeps trying it), and a friend who
    drops comes back through the same link. (The host gives no name: the host's own row reads
    "Seat 1: You", never "you (you)", and the friend's panel names the seat "Host".)"""
    N.site_config()
    host, ann = people("host"), people("ann", viewport=(390, 844))
    N.host_setup(host, N.home_url("home1"), {1: "friend"}, players=2, name="")
    expect(seat_row(host, 0).locator(".net-seat-name")).to_have_text("Seat 1: You")
    link = link_for(host, 1, "home1")
    N.friend_sits(ann, link, "Ann")
    mine = ann.page.locator('#net-panel .net-seat[data-seat="1"] .net-seat-name')
    expect(mine).to_have_text("Seat 2: Ann (you)")
    expect(ann.page.locator('#net-panel .net-seat[data-seat="0"] .net-seat-name')).to_have_text(
        "Seat 1: Host"
    )
    N.deal(host, [ann])
    hp = host.page
    note = hp.locator("#net-panel .net-relay-down")
    expect(note).to_be_hidden()
    N.cut(relay=True)
    # The host's socket to the relay is found closed when a packet next crosses it (the relay's
    # ping, every 20 s, or the host's announcement).
    expect(hp.locator('#btn-net-panel[data-badge="warn"]')).to_have_count(1, timeout=90_000)
    if hp.locator("#net-panel.net-folded").count():
        hp.click("#btn-net-panel")
    expect(note).to_be_visible()
    expect(note).to_contain_text("relay cannot be reached")
    expect(seat_row(host, 1)).to_have_attribute("data-state", "connected")
    N.shot(host, "homes-host-relay-outage")
    # The game goes on meanwhile.
    N.settle(hp)
    for pg in (hp, ann.page):
        if N.my_turn(pg):
            N.play_turn(pg)
            break
    N.uncut()
    expect(note).to_be_hidden(timeout=90_000)
    expect(hp.locator("#btn-net-panel[data-badge]")).to_have_count(0)
    # The link works again: Ann's tab closes, she opens the same link and is seated again.
    rejoin(host, 1, ann, link, "Ann")
    for p in (host, ann):
        assert not errors(p, relay_cut=True), errors(p, relay_cut=True)


def test_a_friend_whose_relay_is_down_is_told_and_joins_by_private_invite(people):
    """The host's page reached the relay; then the relay refuses connections, so the friend's
    page cannot find the host: it says so and to ask for a private invite; the host makes one
    for the waiting seat and the friend joins through it, with no relay at all."""
    N.site_config()
    host, cy = people("host"), people("cy", "home2")
    N.host_setup(host, N.home_url("home1"), {1: "friend"}, players=2)
    link = link_for(host, 1, "home2")
    N.cut(relay=True)
    pc = cy.open(link)
    pc.locator('#net-join input[name="name"]').fill("Cy")
    pc.click("#net-join-go")
    expect(pc.locator('body[data-net-conn="relay_down"]')).to_have_count(1, timeout=30_000)
    said = pc.locator("#net-join .net-error")
    expect(said).to_contain_text("No signaling relay")
    expect(said).to_contain_text("private invite")
    # The dialog no longer says it is looking, nor offers a Join that cannot work.
    expect(pc.locator("#net-join")).not_to_contain_text("Looking for the host")
    expect(pc.locator("#net-join-go")).to_be_hidden()
    N.shot(cy, "homes-friend-relay-down", pc)
    # Nothing changed at the host's table; the host offers the private invite for the seat.
    row = seat_row(host, 1)
    expect(row).to_have_attribute("data-state", "invited")
    row.locator(".net-use-private").click()
    expect(N.invite_input(host.page, 1)).to_have_value(re.compile(r"#j=1\."), timeout=15_000)
    private = N.home_url("home2") + N.invite_link(host, 1).split("/", 3)[3]
    cy.page = cy.new_page()
    code = N.friend_joins(cy, private, "Cy")
    N.host_takes_code(host, 1, code)
    expect(row).to_contain_text("Cy")
    N.deal(host, [cy])
    expect(cy.page.locator("#hand .card")).not_to_have_count(0)
    for p in (host, cy):
        assert not errors(p, relay_cut=True), errors(p, relay_cut=True)


def test_a_friend_whose_host_does_not_come_back_is_told_and_the_link_still_works(people):
    """The host's page closes mid-deal. The friend's page says "reconnecting", then, after the
    wait (shortened here through ?testhooks&host_wait=), plainly that the host is gone and what
    to do; it keeps waiting: when the host opens the game again, the same link seats the friend
    where the game stopped."""
    N.site_config()
    host, ann = people("host"), people("ann", viewport=(390, 844))
    N.host_setup(host, N.home_url("home1"), {1: "friend"}, players=2)
    link = link_for(host, 1, "home1").replace("?net=join#", "?net=join&testhooks=1&host_wait=2#")
    N.friend_sits(ann, link, "Ann")
    N.deal(host, [ann])
    N.settle(host.page)
    version = N.body_attr(host.page, "version")
    expect(host.page.locator(f'body[data-net-saved="{version}"]')).to_have_count(1)
    hand = hand_of(ann)
    host.page.close()
    gone = ann.page.locator('body[data-net-conn="host_gone"]')
    expect(gone).to_have_count(1, timeout=90_000)
    conn = ann.page.locator("#net-conn")
    expect(conn).to_be_visible()
    expect(conn).to_contain_text("Ask the host to open the game again")
    expect(conn).to_contain_text("your link still works")
    N.shot(ann, "homes-phone-friend-host-gone")
    # The host opens the game again (the saved game, on the same device).
    host.page = host.new_page()
    host.open(N.home_url("home1") + "?net=host&pace=20")
    expect(host.page.locator(f'body[data-version="{version}"]')).to_have_count(1)
    expect_seated_again(host, 1, ann, version, hand)
    for p in (host, ann):
        assert not errors(p), errors(p)


def test_a_link_of_a_finished_game_gets_a_clear_error_and_changes_nothing(people):
    """The game is over at the host's table: the seat's link, opened again, seats nobody and
    says the game is over; the host's table and panel stay as they were."""
    import json
    from urllib.parse import quote

    N.site_config()
    host, sam = people("host"), people("sam", viewport=(390, 844))
    N.host_setup(
        host,
        N.home_url("home1"),
        {1: "friend"},
        players=2,
        extra="&testhooks=1&scenario=" + quote(json.dumps(GAME_OVER_2P)),
    )
    link = link_for(host, 1, "home1")
    N.friend_sits(sam, link, "Sam")
    N.deal(host, [sam])
    hp = host.page
    expect(hp.locator('body[data-my-turn="1"][data-busy="0"]')).to_have_count(1, timeout=30_000)
    expect(hp.locator("#hand .card")).to_have_count(4)
    for c in ("7S", "7H", "7D"):
        N.click_card(hp.locator(f'#hand .card[data-card="{c}"]'))
    N.click_action(hp, "new")
    N.settle(hp)
    N.click_card(hp.locator('#hand .card[data-card="KC"]'))
    N.click_action(hp, "discard")
    for p in (host, sam):
        expect(p.page.locator('body[data-phase="game_over"]')).to_have_count(1, timeout=30_000)
    # Sam's tab closes; Sam opens the same link again.
    sam.page.close()
    row = seat_row(host, 1)
    expect(row).to_have_attribute("data-state", "dropped", timeout=60_000)
    version = N.body_attr(hp, "version")
    welcomes = sum(1 for m in sam.messages() if m.get("t") == "welcome")
    pg = sam.open(link, sam.new_page())
    pg.locator('#net-join input[name="name"]').fill("Someone else")
    pg.click("#net-join-go")
    expect(pg.locator('body[data-net-conn="game_over"]')).to_have_count(1, timeout=60_000)
    expect(pg.locator("#net-join .net-error")).to_contain_text("This game is over")
    expect(pg.locator("#net-join")).to_be_visible()
    expect(pg.locator("#net-join")).not_to_contain_text("Looking for the host")
    expect(pg.locator("#net-join-go")).to_be_hidden()
    N.shot(sam, "homes-phone-friend-game-over", pg)
    # Nothing changed: no seat, no view for the link; the host's table and panel as they were.
    assert sum(1 for m in sam.messages() if m.get("t") == "welcome") == welcomes
    assert N.body_attr(hp, "version") == version
    expect(hp.locator('body[data-phase="game_over"]')).to_have_count(1)
    expect(row).to_have_attribute("data-state", "dropped")
    expect(row).to_contain_text("Sam")
    expect(row).not_to_contain_text("Someone else")
    for p in (host, sam):
        assert not errors(p), errors(p)
