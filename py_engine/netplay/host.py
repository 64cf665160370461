"""The host's side: seats and invites, checks on every guest message, views, fair dealing.

The host holds a ``Bridge`` (py_engine/bridge.py) whose game it runs: its own seat plays through
``local`` (the same requests as the page's), computer seats through the bridge's bots, friend
seats through ``receive``. Friend seats are of kind ``"remote"`` in ``bridge.seats``.
"""

from __future__ import annotations

import json
import re
import secrets
import time

from ..ai import LEVELS, make_bot
from ..errors import IllegalMove, InvalidMove
from ..moves import parse_move
from ..record import game_record, replay
from ..session import Session, SessionError
from ..state import Game
from ..views import view_for
from .fair import HASH_HEX, VALUE_HEX, commitment, derive_seed, new_value
from .messages import (
    GUEST_TYPES,
    MAX_GUEST_TEXT,
    PROTOCOL,
    NetError,
    decode,
    encode,
    is_hex,
    request_id,
)

BOT_KINDS = tuple(LEVELS)
SNAPSHOT_FORMAT = "samba-net-host/1"
# What the host's own page may ask the bridge during a friends' game (never a new game).
LOCAL_OPS = (
    "move",
    "bot",
    "view",
    "check",
    "hint",
    "record",
    "deal_review",
    "reasons",
    "rules_data",
)
NAME_MAX = 24


class Bucket:
    """A token bucket per connection: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, clock, rate: float = 20.0, burst: int = 40):
        self.clock, self.rate, self.burst = clock, rate, burst
        self.tokens, self.at = float(burst), clock()
        self.warned_at = None

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def may_warn(self) -> bool:
        now = self.clock()
        if self.warned_at is None or now - self.warned_at >= 1.0:
            self.warned_at = now
            return True
        return False


class Friend:
    def __init__(self, seat: int, secret: str):
        self.seat, self.secret = seat, secret
        self.name = ""
        self.conn: str | None = None
        self.state = "invited"  # invited | connected | dropped

    def to_json(self) -> dict:
        return {"seat": self.seat, "name": self.name, "state": self.state}


class NetHost:
    def __init__(self, bridge, transport, clock=time.monotonic, token=None, value=None):
        self._reset(bridge, transport, clock, token, value)

    def _reset(self, bridge, transport, clock=time.monotonic, token=None, value=None) -> None:
        """Every field as a new host has it (``restore`` starts over after a damaged save)."""
        self.bridge, self.transport, self.clock = bridge, transport, clock
        self.token = token or (lambda: secrets.token_urlsafe(12))
        self.value = value or new_value
        self.stage = "none"  # none | lobby | round | playing
        self.options: dict = {}
        self.kinds: list[str] = []  # per seat: "host", "friend" or a computer level
        self.friends: dict[int, Friend] = {}
        self.conns: dict[str, int] = {}  # bound connection -> seat
        self.buckets: dict[str, Bucket] = {}
        self.round: dict | None = None  # the collection under way
        self.rounds = 0
        self.fair: dict[int, dict] = {}  # deal -> {"commits", "values", "seed"}
        self.sent: dict[int, int] = {}  # seat -> version of the last view sent
        self.records_sent: dict[int, int] = {}  # seat -> last deal whose record it got
        self.host_name = ""

    # Setting up ------------------------------------------------------------------------------
    def configure(self, rules="samba", players=4, target=None, seats=None, name="") -> dict:
        """``seats``: per seat "host" (seat 0 only), "friend" or a computer level. Returns the
        invite secret of every friend seat."""
        try:
            Game.new(rules, players, target, 1)  # checks rules/players/target
        except (ValueError, TypeError) as e:
            raise NetError("bad_setup", str(e)) from None
        if (
            not isinstance(seats, list)
            or len(seats) != players
            or seats[0] != "host"
            or not all(s in ("friend", *BOT_KINDS) for s in seats[1:])
        ):
            raise NetError(
                "bad_setup",
                f"'seats' lists {players} seats: 'host' first, then "
                f"'friend' or a computer level ({', '.join(BOT_KINDS)})",
            )
        if "friend" not in seats:
            raise NetError("bad_setup", "at least one seat is a friend's")
        self.options = {"rules": rules, "players": players, "target": target}
        self.kinds = list(seats)
        self.host_name = _clean_name(name)
        self.friends = {i: Friend(i, self.token()) for i, s in enumerate(seats) if s == "friend"}
        self.stage = "lobby"
        return {str(i): f.secret for i, f in self.friends.items()}

    def invite(self, seat) -> str:
        """A new invite for a friend seat that is not connected (the old one stops working)."""
        f = self.friends.get(seat) if isinstance(seat, int) else None
        if f is None:
            raise NetError("not_a_friend_seat", f"seat {seat!r} is not a friend's seat")
        if f.state == "connected":
            raise NetError("seat_taken", f"seat {seat} is connected")
        f.secret = self.token()
        return f.secret

    def start(self) -> None:
        """Deal the first deal once every friend seat is connected (or played by a computer)."""
        if self.stage != "lobby":
            raise NetError("no_round", "the game has started")
        missing = [
            s
            for s, f in self.friends.items()
            if f.state != "connected" and self.kinds[s] == "friend"
        ]
        if missing:
            raise NetError(
                "seats_missing",
                "waiting for seat(s) " + ", ".join(map(str, missing)),
                seats=missing,
            )
        self.stage = "round"
        self._begin_round(1)

    # Status -------------------------------------------------------------------------------------
    def seat_kinds(self) -> list[str]:
        """The bridge's kinds: the host "human", friends "remote" unless a computer stands in."""
        return ["human" if k == "host" else "remote" if k == "friend" else k for k in self.kinds]

    def status(self) -> dict:
        g = self.bridge.game if self.stage == "playing" else None
        return {
            "protocol": PROTOCOL,
            "stage": self.stage,
            "kinds": list(self.kinds),
            "names": self.names(),
            "friends": {str(s): f.to_json() for s, f in self.friends.items()},
            "round": None
            if self.round is None
            else {
                "deal": self.round["deal"],
                "step": self.round["step"],
                "waiting": sorted(
                    k
                    for k in self.round["keys"]
                    if k
                    not in self.round["commits" if self.round["step"] == "commit" else "values"]
                ),
            },
            "ready_next": g is not None and g.phase == "deal_over" and (g.deal_no + 1) in self.fair,
            "version": g.version if g else None,
        }

    def names(self) -> list[str]:
        out = []
        for i, k in enumerate(self.kinds):
            out.append(
                self.host_name if k == "host" else self.friends[i].name if i in self.friends else ""
            )
        return out

    # Messages from guests -----------------------------------------------------------------------
    def receive(self, conn: str, text) -> bool:
        """Handle one text from a connection; True if the table changed. Bad input is refused
        with an error to that connection only."""
        bucket = self.buckets.setdefault(conn, Bucket(self.clock))
        if not bucket.take():
            if bucket.may_warn():
                self._send(
                    conn, "error", code="flood", message="too many messages: some were dropped"
                )
            return False
        rid = None
        try:
            msg = decode(text, MAX_GUEST_TEXT, GUEST_TYPES)
            rid = request_id(msg)
            return self._dispatch(conn, msg, rid)
        except NetError as e:
            self._refuse(conn, e, rid)
            return False

    def closed(self, conn: str) -> None:
        self.buckets.pop(conn, None)
        seat = self.conns.pop(conn, None)
        if seat is None:
            return
        f = self.friends[seat]
        if f.conn == conn:
            f.conn, f.state = None, "dropped"
            if self.round is not None and str(seat) in self.round["keys"]:
                self._begin_round(self.round["deal"])  # again, without that seat
            self._broadcast_seats()

    def _dispatch(self, conn: str, msg: dict, rid) -> bool:
        kind = msg["t"]
        if kind == "hello":
            self._hello(conn, msg)
            return False
        seat = self.conns.get(conn)
        if seat is None:
            raise NetError("not_joined")
        if "seat" in msg and msg["seat"] != seat:
            raise NetError(
                "foreign_seat", f"this connection plays seat {seat}, not {str(msg['seat'])[:8]}"
            )
        if kind == "bye":
            self.closed(conn)
            return False
        if kind == "sync":
            self._send_view(seat, force=True)
            return False
        if kind in ("commit", "reveal"):
            self._fair_message(seat, msg)
            return False
        g = self.bridge.game
        if self.stage != "playing" or g is None:
            raise NetError("no_game")
        if kind == "move":
            return self._move(seat, msg, rid)
        if kind == "check":
            self._check(seat, msg, rid)
        elif kind == "hint":
            self._hint(seat, msg, rid)
        elif kind == "review":
            self._review(seat, rid)
        return False

    def _hello(self, conn: str, msg: dict) -> None:
        if conn in self.conns:
            raise NetError("already_joined")
        seat, secret = msg.get("seat"), msg.get("secret")
        f = self.friends.get(seat) if isinstance(seat, int) and not isinstance(seat, bool) else None
        if f is None or not isinstance(seat, int):  # (a friend seat is an int)
            raise NetError("not_a_friend_seat", f"seat {str(seat)[:8]} is not a friend's seat")
        if not isinstance(secret, str) or not secrets.compare_digest(secret, f.secret):
            raise NetError("bad_secret")
        g = self.bridge.game if self.stage == "playing" else None
        if g is not None and g.phase == "game_over":
            # A link of a finished game seats nobody: the friend's page says the game is over,
            # and the host's table stays as it is.
            raise NetError("game_over")
        if f.state == "connected":
            raise NetError("seat_taken")
        f.conn, f.state, f.name = conn, "connected", _clean_name(msg.get("name")) or f"#{seat}"
        self.conns[conn] = seat
        self.sent.pop(seat, None)
        if self.kinds[seat] != "friend":  # a computer stood in: the friend takes the seat back
            self.substitute(seat, None)
        g = self.bridge.game if self.stage == "playing" else None
        self._send(
            conn,
            "welcome",
            seat=seat,
            protocol=PROTOCOL,
            names=self.names(),
            stage=self.stage,
            view=self._guest_view(seat) if g else None,
        )
        if g:
            self.sent[seat] = g.version
            if g.phase in ("deal_over", "game_over"):
                self._send_record(seat)
        self._broadcast_seats()
        if self.round is not None:
            self._begin_round(self.round["deal"])  # again, with that seat

    # Moves and questions ------------------------------------------------------------------------
    def _move(self, seat: int, msg: dict, rid) -> bool:
        g = self.bridge.game
        text, version = msg.get("move"), msg.get("version")
        if not isinstance(text, str) or len(text) > 400:
            raise NetError("bad_move_text", "'move' is a move text")
        if version != g.version:
            self._send_view(seat, force=True)
            raise NetError(
                "stale_version",
                f"the game is at version {g.version}, not {str(version)[:12]}",
                version=g.version,
            )
        if g.phase in ("deal_over", "game_over") or text.strip().lower() == "next":
            raise NetError("host_deals")
        if g.current != seat:
            raise NetError("not_your_turn", f"it is seat {g.current}'s turn")
        if self.bridge.seats[seat] != "remote":
            raise NetError("seat_substituted")
        try:
            move = parse_move(text)
            g.play(move)
        except InvalidMove as e:
            raise NetError("bad_move_text", str(e)) from None
        except IllegalMove as e:
            raise NetError(e.code, str(e), **e.info) from None
        self._send(
            self._conn(seat),
            "reply",
            id=rid,
            ok=True,
            move=move.text(),
            view=self._guest_view(seat),
        )
        self.sent[seat] = g.version
        self.sync()
        return True

    def _check(self, seat: int, msg: dict, rid) -> None:
        g = self.bridge.game
        if g.current != seat or g.phase in ("deal_over", "game_over"):
            raise NetError("not_your_turn")
        text = msg.get("move")
        if not isinstance(text, str) or len(text) > 400:
            raise NetError("bad_move_text", "'move' is a move text")
        try:
            out = self.bridge.op_check({"move": text})
        except InvalidMove as e:
            raise NetError("bad_move_text", str(e)) from None
        self._send(self._conn(seat), "reply", id=rid, **out)

    def _hint(self, seat: int, msg: dict, rid) -> None:
        """The host's session answers a friend's hint as the page's own (``Session.hint``:
        ``hard`` by default, time-boxed, kept per position), from that friend's view only."""
        try:
            h = self.bridge.session.hint(msg.get("level") or "hard", seat=seat)
        except SessionError as e:
            raise NetError(e.code, e.message) from None
        self._send(
            self._conn(seat), "reply", id=rid, ok=True, version=self.bridge.game.version, **h
        )

    def _review(self, seat: int, rid) -> None:
        g = self.bridge.game
        if g.phase not in ("deal_over", "game_over"):
            raise NetError("not_your_turn", "the deal is not over yet")
        from ..review import deal_review

        self._send(
            self._conn(seat), "reply", id=rid, ok=True, version=g.version, review=deal_review(g)
        )

    # The host's own requests ---------------------------------------------------------------------
    def local(self, request: dict) -> dict:
        """A request of the host's page (move, bot, view, check, hint, ...) through the bridge;
        the next deal waits until every player's random value is in."""
        if self.stage != "playing":
            raise NetError("no_game")
        if not isinstance(request, dict) or request.get("op") not in LOCAL_OPS:
            raise NetError(
                "bad_message",
                "the host's page may send " + ", ".join(LOCAL_OPS) + " during a friends' game",
            )
        g = self.bridge.game
        if (
            isinstance(request, dict)
            and request.get("op") == "move"
            and g.phase == "deal_over"
            and isinstance(request.get("move"), str)
            and request["move"].strip().lower() == "next"
        ):
            fair = self.fair.get(g.deal_no + 1)
            if fair is None:
                raise NetError("round_pending", "waiting for every player's random value")
            g.deal_seeds[g.deal_no + 1] = fair["seed"]
        before = g.version
        resp = json.loads(self.bridge.handle(json.dumps(request)))
        if g.version != before:
            self.sync()
        return resp

    def substitute(self, seat, level) -> None:
        """A computer of ``level`` plays a friend's seat (``None``: wait for the friend)."""
        f = self.friends.get(seat) if isinstance(seat, int) else None
        if f is None:
            raise NetError("not_a_friend_seat", f"seat {seat!r} is not a friend's seat")
        if level is None:
            self.kinds[seat] = "friend"
        elif level in BOT_KINDS:
            if f.state == "connected":
                raise NetError("seat_taken", "the friend is connected")
            self.kinds[seat] = level
        else:
            raise NetError("bad_setup", f"unknown computer level {level!r}")
        if self.stage == "playing":
            b = self.bridge
            b.session.seats[:] = self.seat_kinds()
            b.bots.pop(seat, None)
            if level is not None:
                b.bots[seat] = make_bot(level, seed=b.game.seed * 7919 + seat)
        self._broadcast_seats()

    # Keeping the guests up to date ---------------------------------------------------------------
    def sync(self) -> None:
        """Send every connected friend its view if the table changed; at a deal's end its record;
        then collect the random values for the next deal."""
        g = self.bridge.game
        if self.stage != "playing" or g is None:
            return
        for seat, f in self.friends.items():
            if f.state == "connected":
                self._send_view(seat)
                if g.phase in ("deal_over", "game_over"):
                    self._send_record(seat)
        nxt = g.deal_no + 1
        if (
            g.phase == "deal_over"
            and nxt not in self.fair
            and (self.round is None or self.round["deal"] != nxt)
        ):
            self._begin_round(nxt)

    def _guest_view(self, seat: int) -> dict:
        v = view_for(self.bridge.game, seat)
        v["seats"] = list(self.bridge.seats)
        v["names"] = self.names()
        return v

    def _send_view(self, seat: int, force: bool = False) -> None:
        g = self.bridge.game
        f = self.friends[seat]
        if g is None or self.stage != "playing" or f.conn is None:
            return
        if force or self.sent.get(seat) != g.version:
            self._send(f.conn, "view", view=self._guest_view(seat))
            self.sent[seat] = g.version

    def _send_record(self, seat: int) -> None:
        """The finished deal's record and every value behind its seed (nothing is secret now)."""
        g = self.bridge.game
        if self.records_sent.get(seat) == g.deal_no:
            return
        self.records_sent[seat] = g.deal_no
        fair = self.fair.get(g.deal_no, {})
        rec = game_record(g)
        rec["deal_seeds"] = {
            k: v for k, v in rec.get("deal_seeds", {}).items() if int(k) <= g.deal_no
        }
        self._send(
            self._conn(seat),
            "record",
            deal=g.deal_no,
            record=rec,
            commits=fair.get("commits"),
            values=fair.get("values"),
        )

    def _broadcast_seats(self) -> None:
        st = {
            "names": self.names(),
            "kinds": list(self.kinds),
            "friends": {str(s): f.to_json() for s, f in self.friends.items()},
        }
        for f in self.friends.values():
            if f.conn is not None:
                self._send(f.conn, "seats", **st)

    # Fair dealing --------------------------------------------------------------------------------
    def _begin_round(self, deal: int) -> None:
        self.rounds += 1
        keys = ["host"] + [
            str(s)
            for s, f in sorted(self.friends.items())
            if f.state == "connected" and self.kinds[s] == "friend"
        ]
        value = self.value()
        self.round = {
            "deal": deal,
            "id": self.rounds,
            "keys": keys,
            "step": "commit",
            "own": value,
            "commits": {"host": commitment(value)},
            "values": {"host": value},
        }
        for k in keys[1:]:
            self._send(self._conn(int(k)), "commit_req", deal=deal, round=self.rounds)
        self._round_progress()

    def _fair_message(self, seat: int, msg: dict) -> None:
        r = self.round
        key = str(seat)
        if r is None or msg.get("round") != r["id"] or key not in r["keys"]:
            raise NetError("no_round", "no random values are being collected from you now")
        if msg["t"] == "commit":
            if r["step"] != "commit" or key in r["commits"]:
                raise NetError("duplicate", "your commitment is in")
            if not is_hex(msg.get("hash"), HASH_HEX):
                raise NetError("bad_commit")
            r["commits"][key] = msg["hash"]
        else:
            if r["step"] != "reveal" or key in r["values"]:
                raise NetError("duplicate" if key in r["values"] else "no_round")
            value = msg.get("value")
            if not is_hex(value, VALUE_HEX) or commitment(value) != r["commits"][key]:
                raise NetError("bad_reveal")
            r["values"][key] = value
        self._round_progress()

    def _round_progress(self) -> None:
        r = self.round
        assert r is not None  # both callers hold a round under way
        if r["step"] == "commit" and len(r["commits"]) == len(r["keys"]):
            r["step"] = "reveal"
            for k in r["keys"][1:]:
                self._send(
                    self._conn(int(k)),
                    "commits",
                    deal=r["deal"],
                    round=r["id"],
                    commits=dict(r["commits"]),
                )
        if r["step"] == "reveal" and len(r["values"]) == len(r["keys"]):
            seed = derive_seed(r["deal"], r["values"])
            self.fair[r["deal"]] = {
                "commits": dict(r["commits"]),
                "values": dict(r["values"]),
                "seed": seed,
            }
            self.round = None
            if self.stage == "round" and r["deal"] == 1:
                self._deal_first(seed)

    def _deal_first(self, seed: str) -> None:
        o = self.options
        # The game seed (the computers' seeds) also comes from everyone's values.
        game = Game.new(
            o["rules"], o["players"], o["target"], int(seed[:8], 16), deal_seeds={1: seed}
        )
        b = self.bridge
        b.session = Session(game, self.seat_kinds())
        self.stage = "playing"
        self.sync()

    def use_scenario(self, scenario) -> None:
        """Tests only (the page offers it with ?testhooks): the table set up from a scenario.
        Such a deal is not dealt from everyone's values, and the friends' check says so."""
        from ..errors import ScenarioError
        from ..record import load_scenario

        if self.stage != "playing":
            raise NetError("no_game")
        try:
            game = load_scenario(scenario)
        except ScenarioError as e:
            raise NetError("bad_scenario", str(e)) from None
        if game.players != self.options["players"]:
            raise NetError("bad_scenario", "the scenario has another number of players")
        b = self.bridge
        b.session = Session(game, self.seat_kinds())
        self.sent, self.records_sent = {}, {}
        self.sync()

    # Saving and resuming ---------------------------------------------------------------------
    def snapshot(self) -> dict:
        g = self.bridge.game if self.stage == "playing" else None
        return {
            "format": SNAPSHOT_FORMAT,
            "options": self.options,
            "kinds": self.kinds,
            "host_name": self.host_name,
            "names": {str(s): f.name for s, f in self.friends.items()},
            # The seats' links stay valid after the host's reload (the save stays on the
            # host's device).
            "secrets": {str(s): f.secret for s, f in self.friends.items()},
            "record": game_record(g) if g else None,
            "fair": {str(d): v for d, v in self.fair.items()},
        }

    def restore(self, snap: dict) -> dict:
        """Resume a saved friends' game: each friend seat keeps its saved secret (its link stays
        valid), or gets a new one when the save has none. Returns them."""
        if not isinstance(snap, dict) or snap.get("format") != SNAPSHOT_FORMAT:
            raise NetError("bad_snapshot", f"not a saved friends' game ({SNAPSHOT_FORMAT})")
        try:
            o = snap["options"]
            kinds = snap["kinds"]
            invites = self.configure(
                o["rules"],
                o["players"],
                o.get("target"),
                ["friend" if k not in ("host", *BOT_KINDS) else k for k in kinds]
                if isinstance(kinds, list)
                else None,
                snap.get("host_name", ""),
            )
            self.kinds = list(kinds)
            for s, name in (snap.get("names") or {}).items():
                if int(s) in self.friends:
                    self.friends[int(s)].name = _clean_name(name)
                    self.friends[int(s)].state = "dropped"
            for s, secret in (snap.get("secrets") or {}).items():
                if int(s) in self.friends and isinstance(secret, str) and _TOKEN.fullmatch(secret):
                    self.friends[int(s)].secret = secret
                    invites[str(int(s))] = secret
            fair = {int(d): v for d, v in (snap.get("fair") or {}).items()}
            if not all(
                isinstance(v, dict) and isinstance(v.get("seed"), str) for v in fair.values()
            ):
                raise NetError("bad_snapshot", "bad fair-dealing data")
            self.fair = fair
            if snap.get("record") is not None:
                game = replay(snap["record"])
                b = self.bridge
                b.session = Session(game, self.seat_kinds())
                self.stage = "playing"
        except NetError:
            raise
        except Exception as e:  # a damaged save: refused, nothing kept
            self._reset(self.bridge, self.transport, self.clock, self.token, self.value)
            raise NetError("bad_snapshot", f"the saved friends' game is damaged: {e}") from None
        return invites

    # Sending -------------------------------------------------------------------------------------
    def _conn(self, seat: int) -> str:
        """The connection of a connected friend's seat (a seat that sent a message, or one in
        the random values' round: ``closed`` clears both when the connection drops)."""
        conn = self.friends[seat].conn
        assert conn is not None, f"seat {seat} is not connected"
        return conn

    def _send(self, conn: str, kind: str, **fields) -> None:
        self.transport.send(conn, encode(kind, **fields))

    def _refuse(self, conn: str, e: NetError, rid) -> None:
        err = {"code": e.code, "message": e.message, "detail": e.detail}
        if rid is not None and conn in self.conns:
            self._send(conn, "reply", id=rid, ok=False, error=err)
        else:
            self._send(conn, "error", **err)


_TOKEN = re.compile(r"[A-Za-z0-9_-]{4,64}")


def _clean_name(name) -> str:
    if not isinstance(name, str):
        return ""
    name = "".join(ch for ch in name if ch.isprintable()).strip()
    return name[:NAME_MAX]


__all__ = ["NetHost", "Bucket"]
