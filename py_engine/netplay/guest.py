"""A guest's side: join with the invite, send moves, take part in fair dealing, check each deal.

``receive`` turns one text from the host into events for the page:

- ``{"type": "welcome", "seat", "names", "stage", "view"}``
- ``{"type": "view", "view"}``                    the table changed
- ``{"type": "reply", "id", "response"}``        the answer to a request (``ok`` or ``error``)
- ``{"type": "seats", "names", "kinds", "friends"}``
- ``{"type": "error", "code", "message"}``        the host refused something, or sent nonsense
- ``{"type": "fair", "deal", "step"}``            this guest committed / revealed its value
- ``{"type": "verified", "deal", "ok", "partial", "problems", "codes"}``  the deal was replayed
"""

from __future__ import annotations

import itertools
from typing import Any

from ..errors import ScenarioError
from ..record import RECORD_FORMAT
from ..state import Game
from .fair import HASH_HEX, VALUE_HEX, commitment, derive_seed, new_value
from .messages import HOST_TYPES, MAX_HOST_TEXT, NetError, decode, encode, is_hex

HOST = "host"
# What a deal's check may find: (code, text) pairs made where each problem is found; the page
# words each code in the player's language ("net.problem.<code>" in web/i18n/*.json).
Problem = tuple[str, str]
PROBLEM_CODES = (
    "no_values",
    "commits_changed",
    "own_value_unused",
    "value_mismatch",
    "seed_mismatch",
    "bad_record",
    "table_differs",
    "replay_failed",
    "illegal_move",
    "incomplete",
    "nothing_seen",
    "score_differs",
)


def problem(code: str, text: str) -> Problem:
    if code not in PROBLEM_CODES:
        raise ValueError(f"unknown problem code {code!r}")
    return code, text


def digest(view: dict) -> dict:
    """What a guest saw of a position and can check against the replayed game."""
    return {
        "hand": sorted(c["id"] for c in view["hand"]),
        "hand_sizes": list(view["hand_sizes"]),
        "pile": [c["id"] for c in view["pile"]["cards"]],
        "stock": view["stock"],
        "melds": sorted(
            sorted(c["id"] for c in m["cards"]) for side in view["melds"] for m in side
        ),
        "phase": view["phase"],
    }


def game_digest(game: Game, seat: int) -> dict:
    from ..views import view_for

    return digest(view_for(game, seat, with_legal=False))


class NetGuest:
    def __init__(self, transport, seat: int, secret: str, name: str = "", value=None):
        self.transport, self.seat, self.secret, self.name = transport, seat, secret, name
        self.value = value or new_value
        self.ids = itertools.count(1)
        self.view: dict | None = None
        self.joined = False
        self.round: dict | None = None  # {"deal", "id", "value", "hash", "commits"}
        self.commits_seen: dict[int, dict] = {}  # deal -> every commitment the host showed
        self.mine: dict[int, str] = {}  # deal -> my value
        self.seen: dict[int, dict[int, dict]] = {}  # deal -> version -> digest
        self.results: dict[int, dict] = {}  # deal -> its verification

    # To the host -------------------------------------------------------------------------------
    def hello(self) -> None:
        self._send("hello", seat=self.seat, secret=self.secret, name=self.name)

    def request(self, kind: str, **fields) -> int:
        """Send a move/check/hint/review/sync request; returns its id (the reply carries it)."""
        if kind not in ("move", "check", "hint", "review", "sync"):
            raise NetError("unknown_type", f"unknown request {kind!r}")
        rid = next(self.ids)
        if kind == "move":
            fields["seat"] = self.seat
        self._send(kind, id=rid, **fields)
        return rid

    def bye(self) -> None:
        self._send("bye")

    # From the host -----------------------------------------------------------------------------
    def receive(self, text) -> list[dict]:
        try:
            msg = decode(text, MAX_HOST_TEXT, HOST_TYPES)
            return self._dispatch(msg)
        except NetError as e:
            return [{"type": "error", "code": e.code, "message": e.message, "from": "host"}]
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            return [
                {
                    "type": "error",
                    "code": "bad_message",
                    "from": "host",
                    "message": f"the host sent a malformed message: {e!r}"[:200],
                }
            ]

    def _dispatch(self, msg: dict) -> list[dict]:
        t = msg["t"]
        if t == "welcome":
            self.joined = True
            out = {
                "type": "welcome",
                "seat": msg["seat"],
                "names": msg.get("names"),
                "stage": msg.get("stage"),
                "view": msg.get("view"),
            }
            if msg.get("view"):
                self._saw(msg["view"])
            return [out]
        if t == "view":
            self._saw(msg["view"])
            return [{"type": "view", "view": msg["view"]}]
        if t == "reply":
            resp = {k: v for k, v in msg.items() if k not in ("v", "t", "id")}
            if resp.get("view"):
                self._saw(resp["view"])
            return [{"type": "reply", "id": msg.get("id"), "response": resp}]
        if t == "seats":
            return [
                {
                    "type": "seats",
                    "names": msg.get("names"),
                    "kinds": msg.get("kinds"),
                    "friends": msg.get("friends"),
                }
            ]
        if t == "error":
            return [
                {
                    "type": "error",
                    "code": str(msg.get("code"))[:40],
                    "message": str(msg.get("message"))[:300],
                    "from": "host",
                }
            ]
        if t == "commit_req":
            return self._commit(msg)
        if t == "commits":
            return self._reveal(msg)
        if t == "record":
            return [self.verify(msg)]
        return []

    def _saw(self, view: dict) -> None:
        if view.get("seat") != self.seat:
            raise NetError("bad_message", "the host sent another seat's view")
        self.view = view
        self.seen.setdefault(view["deal"], {})[view["version"]] = digest(view)

    # Fair dealing --------------------------------------------------------------------------------
    def _commit(self, msg: dict) -> list[dict]:
        deal, rid = msg["deal"], msg["round"]
        if not isinstance(deal, int) or not isinstance(rid, int):
            raise NetError("bad_message", "commit_req needs a deal and a round number")
        value = self.value()
        self.round = {"deal": deal, "id": rid, "value": value, "hash": commitment(value)}
        self._send("commit", deal=deal, round=rid, hash=self.round["hash"])
        return [{"type": "fair", "deal": deal, "step": "commit"}]

    def _reveal(self, msg: dict) -> list[dict]:
        r = self.round
        if r is None or msg["round"] != r["id"] or msg["deal"] != r["deal"]:
            raise NetError("no_round", "the host showed commitments of a round I am not in")
        commits = msg["commits"]
        if (
            not isinstance(commits, dict)
            or commits.get(str(self.seat)) != r["hash"]
            or not all(is_hex(h, HASH_HEX) for h in commits.values())
            or "host" not in commits
        ):
            # Never reveal against a list that dropped or changed my commitment.
            return [
                {
                    "type": "error",
                    "code": "commit_changed",
                    "from": "host",
                    "message": "the host's list of commitments does not hold mine: "
                    "my value stays secret",
                }
            ]
        self.commits_seen[r["deal"]] = dict(commits)
        self.mine[r["deal"]] = r["value"]
        self._send("reveal", deal=r["deal"], round=r["id"], value=r["value"])
        self.round = None
        return [{"type": "fair", "deal": msg["deal"], "step": "reveal"}]

    # Checking a finished deal --------------------------------------------------------------------
    def verify(self, msg: dict) -> dict:
        """Replay the deal from the host's record and check it against what this guest saw and
        against the random values: the seed, every value's commitment, every view's cards."""
        # Whatever the host sent (an honest host: the deal's number), taken as it is: the checks
        # below find a wrong one.
        deal: Any = msg.get("deal")
        rec = msg.get("record")
        problems: list[Problem] = []
        partial = False
        commits, values = msg.get("commits"), msg.get("values")
        seen_commits = self.commits_seen.get(deal)
        if not isinstance(values, dict) or not isinstance(commits, dict):
            problems.append(problem("no_values", "the host sent no random values for this deal"))
        else:
            if seen_commits is None:
                partial = True  # joined during the deal: its commitments were not shown here
            elif commits != seen_commits:
                problems.append(
                    problem(
                        "commits_changed", "the commitments differ from those shown before the deal"
                    )
                )
            if deal in self.mine and values.get(str(self.seat)) != self.mine[deal]:
                problems.append(problem("own_value_unused", "my random value was not used"))
            if set(values) != set(commits) or not all(
                is_hex(v, VALUE_HEX) and commitment(v) == commits.get(k) for k, v in values.items()
            ):
                problems.append(
                    problem("value_mismatch", "a revealed value does not match its commitment")
                )
            seeds = rec.get("deal_seeds") if isinstance(rec, dict) else None
            if not isinstance(seeds, dict) or seeds.get(str(deal)) != derive_seed(deal, values):
                problems.append(
                    problem(
                        "seed_mismatch",
                        "the deal was not shuffled with the seed of everyone's values",
                    )
                )
        if not problems:
            problems += self._replay_check(deal, rec)
        result = {
            "type": "verified",
            "deal": deal,
            "ok": not problems,
            "partial": partial,
            "problems": [text for _, text in problems],
            "codes": [code for code, _ in problems],
        }
        self.results[deal] = result
        return result

    def _replay_check(self, deal, rec) -> list[Problem]:
        if not isinstance(rec, dict) or rec.get("format") != RECORD_FORMAT:
            return [problem("bad_record", "the host's record is not a game record")]
        moves: Any = rec.get("moves")  # the host's JSON: not a list of moves fails the replay
        try:
            seeds = {int(k): v for k, v in rec["deal_seeds"].items()}
            g = Game.new(rec["rules"], rec["players"], rec["target"], rec["seed"], deal_seeds=seeds)
            seen = self.seen.get(deal, {})
            problems: list[Problem] = []

            def look():
                if (
                    g.deal_no == deal
                    and g.version in seen
                    and seen[g.version] != game_digest(g, self.seat)
                ):
                    problems.append(
                        problem(
                            "table_differs",
                            f"the table at step {g.version} is not what I was shown",
                        )
                    )

            look()
            for text in moves:
                if g.deal_no > deal:
                    break
                g.play(text)
                look()
                if problems:
                    return problems[:1]
        except (ScenarioError, ValueError, TypeError, KeyError, AttributeError) as e:
            return [problem("replay_failed", f"the record does not replay: {e}"[:200])]
        except Exception as e:  # IllegalMove, InvalidMove
            return [
                problem("illegal_move", f"the record holds a move that is not legal: {e}"[:200])
            ]
        if g.deal_no != deal or g.phase not in ("deal_over", "game_over"):
            return [problem("incomplete", "the record does not reach the end of this deal")]
        if not seen:
            return [problem("nothing_seen", "nothing of this deal was seen here to compare")]
        last = self.view
        if (
            last
            and last.get("deal") == deal
            and last.get("deal_result") is not None
            and last["deal_result"] != g.deal_result
        ):
            return [problem("score_differs", "the deal's score differs from the replay")]
        return []

    def _send(self, kind: str, **fields) -> None:
        self.transport.send(HOST, encode(kind, **fields))
