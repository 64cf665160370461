"""Play with friends between browser contexts over WebRTC (docs/netplay.md).

These tests need a network interface for ICE: run them with `python e2e/netns_run.py`, which
makes a private network namespace (a veth pair, 192.0.2.1/24) so that no packet leaves the
machine. Each context is one person's device and pays a full Pyodide boot."""
from __future__ import annotations

import json
import os

import pytest
from playwright.sync_api import expect

import netplay_helpers as N

if os.environ.get("SAMBA_NETNS") != "1":
    pytest.skip("WebRTC needs the network namespace of e2e/netns_run.py "
                "(python e2e/netns_run.py)", allow_module_level=True)


@pytest.fixture(scope="module")
def rtc_browser(_playwright):
    b = N.launch(_playwright)
    yield b
    b.close()


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
    N.host_setup(host, base_url, {1: "medium", 2: "friend", 3: "medium"})
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
    N.shot(friend, "2p-friend-verified")
    rec = _record_of(friend)
    assert N.check_no_foreign_cards(friend.messages(), 2, rec) > 5
    # Both tables show the same deal result.
    expect(host.page.locator("#dlg-deal")).to_be_visible()
    expect(friend.page.locator("#dlg-deal")).to_be_visible()
    assert (host.page.locator("#deal-table tr.total").inner_text()
            == friend.page.locator("#deal-table tr.total").inner_text())
    for p in (host, friend):
        assert not p.errors, p.errors
        foreign = [u for u in p.requests if not u.startswith((base_url, "data:", "blob:"))]
        assert not foreign, foreign
