"""Play between browsers (py_engine/netplay, docs/netplay.md) over an in-memory network:
a host and three guests; drops and rejoins; forged and malformed messages; fair dealing."""

from __future__ import annotations

import json
import random

import pytest
from netplay_scenarios import GAME_OVER_2P, GOING_OUT

from py_engine.ai import make_bot
from py_engine.ai.act import bot_move
from py_engine.bridge import Bridge
from py_engine.legal import legal_moves
from py_engine.netplay import MemoryNet, NetGuest, NetHost, commitment, derive_seed
from py_engine.netplay.messages import encode
from py_engine.observation import Observation
from py_engine.views import card_ids


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


class Table:
    """A host (seat 0) and friends on an in-memory network; guests' events are kept."""

    def __init__(self, seats=("host", "friend", "friend", "friend"), rules="samba", seed=1):
        self.net = MemoryNet()
        self.clock = Clock()
        self.rng = random.Random(seed)
        self.bridge = Bridge()
        self.host = NetHost(
            self.bridge,
            self.net.host_side,
            clock=self.clock,
            value=lambda: f"{self.rng.getrandbits(128):032x}",
        )
        self.net.host = self.host
        self.invites = self.host.configure(rules, len(seats), None, list(seats), "Hana")
        self.guests: dict[int, NetGuest] = {}
        self.events: dict[int, list] = {}
        self.conn_of: dict[int, str] = {}
        self.n = 0

    def join(self, seat: int, secret: str | None = None, name: str | None = None) -> NetGuest:
        self.n += 1
        conn = f"c{self.n}"
        g = NetGuest(
            self.net.guest_side(conn), seat, secret or self.invites[str(seat)], name or f"P{seat}"
        )
        evs = self.events.setdefault(seat, [])
        orig = g.receive

        def receive(text, g=g, evs=evs, orig=orig):
            out = orig(text)
            evs.extend(out)
            return out

        g.receive = receive
        self.net.connect(conn, g)
        self.guests[seat], self.conn_of[seat] = g, conn
        g.hello()
        self.net.pump()
        return g

    def join_all(self):
        for s in self.invites:
            self.join(int(s))

    def start(self):
        self.host.start()
        self.net.pump()

    @property
    def game(self):
        return self.bridge.game

    def kinds(self, seat, kind):
        return [e for e in self.events.get(seat, []) if e["type"] == kind]

    def last_reply(self, seat):
        return self.kinds(seat, "reply")[-1]["response"]

    def step(self) -> None:
        """One move by whoever is to act: the host's page, a bot, or a guest from its view."""
        self.clock.t += 0.25
        g = self.game
        seat = g.current
        if g.phase == "deal_over":
            raise AssertionError("the deal is over")
        kind = self.bridge.seats[seat]
        if kind == "human":
            move = bot_move(make_bot("easy", seed=g.version), g, seat).text()
            resp = self.host.local({"op": "move", "move": move, "version": g.version})
            assert resp["ok"], resp
        elif kind == "remote":
            guest = self.guests[seat]
            view = guest.view
            assert view["version"] == g.version and view["current"] == seat
            move = bot_move(make_bot("easy", seed=g.version), g, seat).text()
            rid = guest.request("move", move=move, version=view["version"])
            self.net.pump()
            reply = [e for e in self.events[seat] if e["type"] == "reply" and e["id"] == rid]
            assert reply and reply[0]["response"]["ok"], reply
        else:
            resp = self.host.local({"op": "bot", "version": g.version})
            assert resp["ok"], resp
        self.net.pump()

    def play_deal(self, limit=3000):
        for _ in range(limit):
            if self.game.phase in ("deal_over", "game_over"):
                return
            self.step()
        raise AssertionError("the deal did not end")

    def table_state(self):
        g = self.game
        return (g.version, [list(h) for h in g.hands], list(g.pile), list(g.moves))


# A whole deal ---------------------------------------------------------------------------------
def test_host_and_three_friends_play_a_deal_and_every_friend_verifies_it():
    t = Table()
    t.join_all()
    assert t.host.status()["friends"]["2"] == {"seat": 2, "name": "P2", "state": "connected"}
    leaks = []

    def tap(src, dst, text):
        if dst == "host" or t.game is None:
            return
        seat = t.host.conns.get(dst)
        msg = json.loads(text)
        if msg["t"] == "record":
            return  # after the deal: nothing is secret any more
        g = t.game
        allowed = (
            set(g.hands[seat])
            | set(g.pile)
            | {c for side in g.melds for m in side for c in m.cards}
            | {c for side in g.red3 for c in side}
        )
        foreign = card_ids(msg) - allowed
        if foreign:
            leaks.append((seat, msg["t"], sorted(foreign)))

    t.net.taps.append(tap)
    t.start()
    g = t.game
    assert g is not None and g.deal_seeds[1] == t.host.fair[1]["seed"]
    assert set(t.host.fair[1]["values"]) == {"host", "1", "2", "3"}
    for s, guest in t.guests.items():
        assert guest.view["seat"] == s
        assert sorted(c["id"] for c in guest.view["hand"]) == sorted(g.hands[s])
    t.play_deal()
    assert t.game.phase in ("deal_over", "game_over")
    assert not leaks, leaks[:3]
    for s in (1, 2, 3):
        v = t.kinds(s, "verified")
        assert v and v[-1]["ok"] and not v[-1]["partial"], v
        assert t.guests[s].view["deal_result"] == t.game.deal_result


def test_two_players_and_the_next_deal_waits_for_the_values():
    t = Table(seats=("host", "friend"))
    t.join_all()
    t.start()
    t.play_deal()
    if t.game.phase == "game_over":
        pytest.skip("the game ended in one deal")  # pragma: no cover - not with this seed
    assert t.kinds(1, "verified")[-1]["ok"]
    # The round for deal 2 ran by itself; 'next' uses its seed.
    assert 2 in t.host.fair
    resp = t.host.local({"op": "move", "move": "next", "version": t.game.version})
    assert resp["ok"], resp
    t.net.pump()
    assert t.game.deal_no == 2 and t.game.deal_seeds[2] == t.host.fair[2]["seed"]
    assert t.guests[1].view["deal"] == 2


def test_next_deal_is_refused_while_values_are_missing():
    t = Table(seats=("host", "friend", "medium", "friend"))
    t.join_all()
    t.start()
    t.play_deal()
    t.net.queue.clear()  # the guests' commitments for deal 2 are lost
    t.host.fair.pop(2, None)
    t.host._begin_round(2)
    v = t.game.version
    with pytest.raises(Exception) as e:
        t.host.local({"op": "move", "move": "next", "version": v})
    assert e.value.code == "round_pending" and t.game.version == v
    t.net.pump()
    assert t.host.local({"op": "move", "move": "next", "version": v})["ok"]


# Drops and rejoins ------------------------------------------------------------------------------
def test_drop_wait_substitute_and_rejoin_with_a_new_invite():
    t = Table()
    t.join_all()
    t.start()
    while t.game.current != 2:
        t.step()
    t.net.close(t.conn_of[2])
    t.net.pump()
    assert t.host.status()["friends"]["2"]["state"] == "dropped"
    assert any(
        e["type"] == "seats" and e["friends"]["2"]["state"] == "dropped" for e in t.events[1]
    )
    v = t.game.version
    # Waiting: nothing moves.
    assert t.host.local({"op": "bot", "version": v})["ok"] is False
    assert t.game.version == v
    # A computer stands in for a few moves.
    t.host.substitute(2, "easy")
    assert t.bridge.seats[2] == "easy"
    t.step()
    assert t.game.version == v + 1
    while t.game.current == 2 and t.game.phase not in ("deal_over", "game_over"):
        t.step()
    # The old invite no longer works; a new one does, and the friend takes the seat back.
    old = t.invites["2"]
    new = t.host.invite(2)
    assert new != old
    t.join(2, secret=old)
    assert t.events[2][-1]["code"] == "bad_secret" and t.host.friends[2].state == "dropped"
    guest = t.join(2, secret=new, name="Back")
    welcome = [e for e in t.events[2] if e["type"] == "welcome"][-1]
    assert welcome["view"]["version"] == t.game.version and welcome["names"][2] == "Back"
    assert t.bridge.seats[2] == "remote" and t.host.kinds[2] == "friend"
    assert guest.view["hand"] and sorted(c["id"] for c in guest.view["hand"]) == sorted(
        t.game.hands[2]
    )
    t.play_deal()
    res = t.kinds(2, "verified")[-1]
    assert res["ok"] and res["partial"], res  # joined during the deal: partly checked
    assert t.kinds(1, "verified")[-1]["ok"]


def test_one_connection_per_seat():
    t = Table()
    t.join(1)
    t.join(1)  # a second connection with the same invite
    assert t.events[1][-1]["code"] == "seat_taken"
    assert list(t.host.conns.values()).count(1) == 1


def test_a_drop_during_the_values_round_restarts_it_without_that_seat():
    t = Table()
    t.join_all()
    t.host.start()
    t.net.close(t.conn_of[3])  # before its commitment arrived
    t.net.pump()
    assert t.game is not None and set(t.host.fair[1]["values"]) == {"host", "1", "2"}


def test_the_host_resumes_from_its_snapshot_and_reinvites():
    t = Table()
    t.join_all()
    t.start()
    for _ in range(12):
        t.step()
    snap = json.loads(json.dumps(t.host.snapshot()))
    b2 = Bridge()
    net2 = MemoryNet()
    h2 = NetHost(b2, net2.host_side)
    net2.host = h2
    invites = h2.restore(snap)
    assert b2.game.version == t.game.version and b2.game.hands == t.game.hands
    assert {f.state for f in h2.friends.values()} == {"dropped"}
    # The seats keep their secrets (their links stay valid after the host's reload)...
    assert invites == t.invites
    # ... and the same link's friend sits down again with its hand.
    hand = b2.game.hands[1]
    guest = NetGuest(net2.guest_side("back"), 1, t.invites["1"], "Ann")
    events = []
    orig = guest.receive
    guest.receive = lambda text: events.extend(orig(text)) or []
    net2.connect("back", guest)
    guest.hello()
    net2.pump()
    welcome = [e for e in events if e["type"] == "welcome"]
    assert h2.friends[1].state == "connected" and welcome
    assert sorted(c["id"] for c in welcome[0]["view"]["hand"]) == sorted(hand)
    # A save without secrets (an older one): every seat gets a new one.
    invites = NetHost(Bridge(), MemoryNet().host_side).restore(
        {k: v for k, v in snap.items() if k != "secrets"}
    )
    assert set(invites) == {"1", "2", "3"} and invites["1"] != t.invites["1"]
    bad = dict(snap, record={**snap["record"], "moves": ["draw", "draw", "draw"]})
    with pytest.raises(Exception) as e:
        NetHost(Bridge(), MemoryNet().host_side).restore(bad)
    assert e.value.code == "bad_snapshot"


# Bad input from a guest --------------------------------------------------------------------------
@pytest.fixture
def started():
    t = Table()
    t.join_all()
    t.start()
    while t.game.current != 1:
        t.step()
    return t


def _send_raw(t, seat, text):
    t.net.queue.append((t.conn_of[seat], "host", text))
    t.net.pump()


@pytest.mark.parametrize(
    "text,code",
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"v": 1, "t": "shuffle_again"}', "unknown_type"),
        ('{"v": 2, "t": "move", "move": "draw"}', "bad_version"),
        ("x" * (1024 * 1024), "too_big"),
        ('{"v": 1, "t": "commit", "round": 99, "hash": "00"}', "no_round"),
    ],
)
def test_malformed_messages_are_refused_and_change_nothing(started, text, code):
    t = started
    before = t.table_state()
    _send_raw(t, 1, text)
    err = t.events[1][-1]
    assert err["type"] == "error" and err["code"] == code, err
    assert t.table_state() == before
    # The game goes on: the same guest's next real move works.
    t.step()
    assert t.game.version == before[0] + 1


def test_a_move_for_another_seat_a_stale_version_and_out_of_turn(started):
    t = started
    g1, g3 = t.guests[1], t.guests[3]
    before = t.table_state()
    v = t.game.version
    _send_raw(t, 1, encode("move", id=7, seat=3, move="draw", version=v))
    assert t.last_reply(1)["error"]["code"] == "foreign_seat"
    g1.request("move", move="draw", version=v - 1)
    t.net.pump()
    assert t.last_reply(1)["error"]["code"] == "stale_version"
    g3.request("move", move="draw", version=v)
    t.net.pump()
    assert t.last_reply(3)["error"]["code"] == "not_your_turn"
    g1.request("move", move="discard 5S 5S", version=v)
    t.net.pump()
    assert t.last_reply(1)["error"]["code"] in ("bad_move_text", "wrong_phase")
    _send_raw(t, 1, encode("move", id=8, seat=1, move="next", version=v))
    assert t.last_reply(1)["error"]["code"] == "host_deals"
    assert t.table_state() == before
    # Other guests heard nothing of it.
    assert not any(e["type"] == "error" for e in t.events[2])
    t.step()
    assert t.game.version == v + 1


def test_a_stranger_without_the_invite_is_refused():
    t = Table()
    t.net.connect("evil", NetGuest(t.net.guest_side("evil"), 1, "guess", "x"))
    t.net.queue.append(("evil", "host", encode("move", seat=1, move="draw", version=0)))
    t.net.queue.append(("evil", "host", encode("hello", seat=1, secret="guess")))
    t.net.queue.append(("evil", "host", encode("hello", seat=0, secret=t.invites["1"])))
    t.net.pump()
    assert not t.host.conns and t.host.friends[1].state == "invited"


def test_a_flood_is_cut_and_answered_once_and_the_game_goes_on(started):
    t = started
    before = t.table_state()
    for _ in range(2000):
        t.net.queue.append((t.conn_of[1], "host", encode("check", id=1, move="draw")))
    t.net.queue.append(
        (t.conn_of[1], "host", encode("move", id=2, seat=1, move="draw", version=t.game.version))
    )
    t.net.pump()
    floods = [e for e in t.events[1] if e.get("code") == "flood"]
    replies = t.kinds(1, "reply")
    assert len(floods) == 1 and len(replies) <= 41
    assert t.table_state() == before
    t.clock.t += 5
    t.step()
    assert t.game.version == before[0] + 1


def test_the_host_rejects_a_reveal_that_does_not_match():
    t = Table(seats=("host", "friend"))
    t.join_all()

    class Liar(NetGuest):
        def _reveal(self, msg):
            self.round["value"] = "f" * 32
            return super()._reveal(msg)

    t.net.open.discard(t.conn_of[1])
    t.host.closed(t.conn_of[1])
    liar = Liar(t.net.guest_side("liar"), 1, t.host.invite(1), "L")
    t.net.connect("liar", liar)
    errs = []
    liar_receive = liar.receive
    liar.receive = lambda text: errs.extend(liar_receive(text))
    liar.hello()
    t.net.pump()
    t.host.start()
    t.net.pump()
    assert t.game is None and any(e.get("code") == "bad_reveal" for e in errs)


# Fair dealing --------------------------------------------------------------------------------------
def test_derive_seed_uses_every_value():
    vals = {"host": "a" * 32, "1": "b" * 32}
    assert derive_seed(1, vals) != derive_seed(1, {**vals, "1": "c" * 32})
    assert derive_seed(1, vals) != derive_seed(2, vals)
    assert commitment("a" * 32) != commitment("b" * 32)


class CheatingHost(NetHost):
    """Deals with a seed of its own choosing instead of the one from everyone's values."""

    def _deal_first(self, seed):
        super()._deal_first("c0ffee" + seed[6:])
        self.fair[1]["seed"] = seed


def test_a_host_that_changes_the_seed_is_caught():
    t = Table()
    t.host.__class__ = CheatingHost
    t.join_all()
    t.start()
    t.play_deal()
    for s in (1, 2, 3):
        res = t.kinds(s, "verified")[-1]
        assert not res["ok"] and "seed" in res["problems"][0], res
        assert res["codes"][0] == "seed_mismatch"


def test_a_host_that_reports_the_seed_honestly_but_deals_other_cards_is_caught():
    t = Table()
    t.join_all()
    t.start()
    # The host swaps a card of seat 1's hand with the bottom of the stock after seat 1 saw it:
    # the record replays honestly, so the later views differ from the replay.
    g = t.game
    g.hands[1][0], g.stock[0] = g.stock[0], g.hands[1][0]
    t.play_deal()
    res = t.kinds(1, "verified")[-1]
    assert not res["ok"] and "not what I was shown" in res["problems"][0], res
    assert res["codes"] == ["table_differs"]


def test_a_host_that_fakes_a_guest_value_is_caught():
    t = Table()
    t.join_all()
    t.start()
    t.play_deal()
    rec_msgs = []
    t.net.taps.append(lambda s, d, text: rec_msgs.append((d, text)))
    # Replay the end-of-deal message to seat 2 with seat 3's value changed.
    fair = t.host.fair[1]
    forged = dict(fair["values"], **{"3": "0" * 32})
    from py_engine.record import game_record

    rec = game_record(t.game)
    res = t.guests[2].verify(
        {"deal": 1, "record": rec, "commits": fair["commits"], "values": forged}
    )
    assert not res["ok"] and "commitment" in " ".join(res["problems"])
    mine = dict(fair["values"])
    res = t.guests[2].verify({"deal": 1, "record": rec, "commits": fair["commits"], "values": mine})
    assert res["ok"], res


def test_a_guest_never_reveals_when_its_commitment_was_dropped():
    t = Table(seats=("host", "friend"))
    guest = t.join(1)
    t.host.start()
    # Deliver the commit_req and the guest's commitment, then forge the host's list.
    t.net.pump()
    assert t.game is not None  # the honest run completed
    evs = guest.receive(encode("commits", deal=2, round=99, commits={"host": "0" * 64}))
    assert evs[0]["code"] == "no_round"
    guest._commit({"deal": 2, "round": 100})
    out = guest._reveal({"deal": 2, "round": 100, "commits": {"host": "0" * 64, "1": "1" * 64}})
    assert out[0]["code"] == "commit_changed" and 2 not in guest.mine


def test_a_guest_survives_nonsense_from_the_host():
    t = Table(seats=("host", "friend"))
    guest = t.join(1)
    for text in [
        "{",
        "[]",
        encode("view", view={"seat": 0}),
        encode("view"),
        encode("record", deal=1, record="x", commits={}, values={}),
        "y" * (2 * 1024 * 1024),
        encode("gossip"),
    ]:
        evs = guest.receive(text)
        assert evs and evs[0]["type"] in ("error", "verified"), (text[:30], evs)
        if evs[0]["type"] == "verified":
            assert not evs[0]["ok"]


# The page's entry point: the bridge's `net` op --------------------------------------------------------
def test_the_bridge_net_op_drives_host_and_guest_as_the_pages_do():
    host_b, guest_b = Bridge(), Bridge()

    def call(b, **req):
        return json.loads(b.handle(json.dumps({"op": "net", **req})))

    r = call(
        host_b, action="host_setup", rules="samba", players=2, seats=["host", "friend"], name="H"
    )
    assert r["ok"] and r["status"]["stage"] == "lobby"
    secret = r["invites"]["1"]
    assert call(guest_b, action="guest_setup", seat=1, secret=secret, name="G")["ok"]
    texts = call(guest_b, action="guest_hello")["out"]
    pending_host, pending_guest = list(texts), []
    started = False
    for _ in range(50):
        for text in pending_host:
            r = call(host_b, action="host_receive", conn="pc1", text=text)
            assert r["ok"], r
            pending_guest += [o["text"] for o in r["out"]]
        pending_host = []
        for text in pending_guest:
            r = call(guest_b, action="guest_receive", text=text)
            pending_host += r["out"]
        pending_guest = []
        if not started:
            r = call(host_b, action="host_start")
            assert r["ok"], r
            pending_guest += [o["text"] for o in r["out"]]
            started = True
        if not pending_host and not pending_guest:
            break
    assert host_b.game is not None and host_b.seats == ["human", "remote"]
    view = json.loads(host_b.handle('{"op": "view"}'))["view"]
    assert view["seat"] == 0 and view["seats"] == ["human", "remote"]
    assert guest_b.net.view["seat"] == 1
    assert guest_b.game is None  # the guest's engine holds no game
    assert call(host_b, action="nonsense")["error"]["code"] == "unknown_action"
    assert call(guest_b, action="host_start")["error"]["code"] == "no_game"
    snap = call(host_b, action="host_snapshot")["snapshot"]
    r = call(Bridge(), action="host_restore", snapshot=snap)
    assert r["ok"] and r["view"]["version"] == host_b.game.version


def test_may_i_go_out_asks_the_friend_partner_and_waits_for_the_answer():
    t = Table()
    t.join_all()
    t.start()
    t.host.use_scenario(GOING_OUT)
    t.net.pump()
    assert t.host.local({"op": "move", "move": "ask new 7S 7H 7D; discard KC", "version": 0})["ok"]
    t.net.pump()
    partner, other = t.guests[2].view, t.guests[1].view
    assert partner["phase"] == "answer" and partner["current"] == 2
    assert "answer yes" in partner["legal"]["moves"] and partner["turn"]["pending"]
    assert other["legal"] is None and other["turn"]["pending"] is None  # between partners
    # Nobody else may answer, and the host's page cannot answer for its partner.
    t.guests[1].request("move", move="answer yes", version=1)
    t.net.pump()
    assert t.last_reply(1)["error"]["code"] == "not_your_turn"
    assert not t.host.local({"op": "move", "move": "answer yes", "version": 1})["ok"]
    t.guests[2].request("move", move="answer yes", version=1)
    t.net.pump()
    assert t.last_reply(2)["ok"] and t.game.phase in ("deal_over", "game_over")
    assert t.game.went_out == 0
    # A deal set up by the host, not dealt from the values: every friend is warned.
    for s in (1, 2, 3):
        res = t.kinds(s, "verified")[-1]
        assert not res["ok"] and "seed" in res["problems"][0], res


def test_the_host_page_cannot_replace_the_friends_game_through_local():
    t = Table()
    t.join_all()
    t.start()
    g = t.game
    for req in (
        {"op": "new_game", "players": 4},
        {"op": "load", "record": {}},
        "move",
        None,
        {"op": "scenario"},
    ):
        with pytest.raises(Exception) as e:
            t.host.local(req)
        assert e.value.code == "bad_message"
    assert t.game is g


def test_a_friends_hint_is_hards_with_reasons_and_computed_once_per_step(started, monkeypatch):
    from py_engine.ai import hints

    t = started
    calls = []
    real = hints.hint
    monkeypatch.setattr(
        hints,
        "hint",
        lambda obs, legal, **kw: calls.append((obs, legal)) or real(obs, legal, **kw),
    )
    for _ in range(3):
        t.guests[1].request("hint")  # the default: hard, with its reasons
    t.guests[1].request("hint", level="medium")
    t.guests[1].request("hint", level="random")
    t.net.pump()
    replies = [e["response"] for e in t.kinds(1, "reply")][-5:]
    assert all(r["ok"] for r in replies[:4])
    assert len({r["move"] for r in replies[:3]}) == 1 and replies[0]["level"] == "hard"
    assert isinstance(replies[0]["reasons"], list) and isinstance(replies[0]["warnings"], list)
    assert replies[3]["level"] == "medium"
    assert replies[4]["error"]["code"] == "bad_option"
    assert len(calls) == 2  # hard once, medium once, for this step
    # the friend's own observation and legal moves, nothing more
    assert all(c == (Observation.for_seat(t.game, 1), legal_moves(t.game)) for c in calls)


def test_a_hint_for_a_friend_not_on_turn_is_refused(started):
    t = started
    other = next(s for s in t.guests if s != t.game.current)
    t.guests[other].request("hint")
    t.net.pump()
    assert [e["response"] for e in t.kinds(other, "reply")][-1]["error"]["code"] == "not_your_turn"


def test_garbage_net_requests_never_raise_and_change_nothing():
    rng = random.Random(5)
    b = Bridge()
    call = lambda req: json.loads(b.handle(json.dumps(req)))  # noqa: E731
    assert call({"op": "net", "action": "host_setup", "players": 2, "seats": ["host", "friend"]})[
        "ok"
    ]
    junk = [
        None,
        1,
        -1,
        2**60,
        "x",
        "",
        [],
        {},
        [1, "a"],
        {"id": 1, "kind": "move"},
        True,
        1.5,
        "friend",
        "host",
        {"op": "new_game"},
    ]
    actions = [
        "host_setup",
        "host_invite",
        "host_start",
        "host_receive",
        "host_closed",
        "host_local",
        "host_substitute",
        "host_status",
        "host_snapshot",
        "host_restore",
        "host_test_scenario",
        "guest_setup",
        "guest_hello",
        "guest_receive",
        "guest_request",
        "nonsense",
        None,
        3,
    ]
    keys = [
        "rules",
        "players",
        "target",
        "seats",
        "name",
        "seat",
        "secret",
        "conn",
        "text",
        "request",
        "level",
        "snapshot",
        "scenario",
        "kind",
        "fields",
    ]
    for _ in range(600):
        req = {"op": "net", "action": rng.choice(actions)}
        for k in rng.sample(keys, rng.randrange(0, 5)):
            req[k] = rng.choice(junk)
        out = call(req)
        assert isinstance(out, dict) and "ok" in out, (req, out)
        assert out["ok"] or out["error"]["code"] != "internal", (req, out)


def test_a_link_of_a_finished_game_seats_nobody_and_changes_nothing():
    t = Table(seats=("host", "friend"))
    t.join_all()
    t.start()
    t.host.use_scenario(GAME_OVER_2P)
    t.net.pump()
    for move in ("meld new 7D 7H 7S", "discard KC"):
        assert t.host.local({"op": "move", "move": move, "version": t.game.version})["ok"]
        t.net.pump()
    assert t.game.phase == "game_over"
    t.net.close(t.conn_of[1])
    t.net.pump()
    before = (t.table_state(), t.host.status())
    t.join(1, name="Later")  # the same link, opened again
    assert t.events[1][-1]["type"] == "error" and t.events[1][-1]["code"] == "game_over"
    assert not t.guests[1].joined
    assert (t.table_state(), t.host.status()) == before
    assert t.host.friends[1].state == "dropped" and t.host.friends[1].name == "P1"
