"""Message texts of the protocol ``samba-net/1``: limits, parsing, error codes."""

from __future__ import annotations

import json
from typing import TypeGuard

PROTOCOL = "samba-net/1"
VERSION = 1
# A guest's messages are short (a move text, a hash): anything longer is refused unread.
MAX_GUEST_TEXT = 16 * 1024
# The host's messages carry views and, at a deal's end, the game record.
MAX_HOST_TEXT = 1024 * 1024

GUEST_TYPES = ("hello", "move", "check", "hint", "review", "sync", "commit", "reveal", "bye")
HOST_TYPES = ("welcome", "view", "reply", "seats", "error", "commit_req", "commits", "record")

# Error codes a peer may receive (docs/netplay.md); the engine's move reasons come on top.
ERROR_CODES = {
    "too_big": "the message is too long",
    "bad_json": "the message is not JSON",
    "bad_message": "the message is not a protocol message",
    "bad_version": "this protocol version is not spoken here",
    "unknown_type": "unknown message type",
    "flood": "too many messages; some were dropped",
    "not_joined": "say hello with your invite first",
    "bad_secret": "this invite is not (or no longer) valid",
    "seat_taken": "this seat is already connected",
    "not_a_friend_seat": "this seat is not a friend's seat",
    "already_joined": "this connection has joined already",
    "foreign_seat": "a move for another seat",
    "no_game": "the game has not started",
    "game_over": "this game is over",
    "stale_version": "the table has changed since",
    "not_your_turn": "it is not your turn",
    "seat_substituted": "a computer plays this seat for now",
    "host_deals": "the host starts the next deal",
    "bad_move_text": "not a move text",
    "no_round": "no random values are being collected",
    "bad_commit": "a commitment is 64 hex digits",
    "bad_reveal": "the value does not match its commitment",
    "duplicate": "this was sent already",
}


class NetError(Exception):
    """A refusal sent to the peer that caused it; nothing at the table changes."""

    def __init__(self, code: str, message: str | None = None, **detail):
        super().__init__(message or ERROR_CODES.get(code, code))
        self.code, self.message, self.detail = code, message or ERROR_CODES.get(code, code), detail


def encode(kind: str, **fields) -> str:
    return json.dumps({"v": VERSION, "t": kind, **fields}, separators=(",", ":"))


def decode(text, limit: int, types: tuple[str, ...]) -> dict:
    """Parse one message text; raises NetError (too_big, bad_json, bad_message, bad_version,
    unknown_type). The length is checked before anything is parsed."""
    if not isinstance(text, str):
        raise NetError("bad_message", "a message is a text")
    if len(text) > limit:
        raise NetError("too_big", f"the message has {len(text)} characters; at most {limit}")
    try:
        msg = json.loads(text)
    except ValueError as e:
        raise NetError("bad_json", f"the message is not JSON: {e}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        raise NetError("bad_message", "a message is an object with a type 't'")
    if msg.get("v") != VERSION:
        raise NetError("bad_version", f"this is {PROTOCOL}; the message says v={msg.get('v')!r}")
    if msg["t"] not in types:
        raise NetError("unknown_type", f"unknown message type {msg['t'][:40]!r}")
    return msg


def request_id(msg: dict):
    """A request's id (an integer or a short text) or None; raises NetError if malformed."""
    rid = msg.get("id")
    if rid is None:
        return None
    if (
        isinstance(rid, bool)
        or not isinstance(rid, (int, str))
        or (isinstance(rid, int) and not 0 <= rid < 2**53)
        or (isinstance(rid, str) and len(rid) > 40)
    ):
        raise NetError("bad_message", "'id' is an integer or a short text")
    return rid


def is_hex(text, n: int) -> TypeGuard[str]:
    return isinstance(text, str) and len(text) == n and all(ch in "0123456789abcdef" for ch in text)
