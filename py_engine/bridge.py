"""The one JSON bridge between the page and the engine (docs/bridge.md): JSON text in, JSON
text out, stable error codes. It holds one ``Session`` (the table) and replaces it whole when
``new_game``, ``load``, ``scenario`` or ``lesson`` succeeds; a refused request changes nothing.

>>> b = Bridge()
>>> import json
>>> r = json.loads(b.handle('{"op": "new_game", "rules": "samba", "players": 2, "seed": 1, '
...                         '"seats": ["human", "easy"]}'))
>>> r["ok"], r["view"]["seat"], len(r["view"]["hand"])
(True, 0, 15)
>>> json.loads(b.handle('{"op": "move", "move": "pass", "version": 0}'))["error"]["code"]
'wrong_phase'
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from .errors import REASONS, IllegalMove, InvalidMove, ScenarioError
from .moves import parse_move
from .session import SEAT_KINDS, Session, SessionError

if TYPE_CHECKING:
    from .ai.coach import Review

BRIDGE_CODES = (
    "bad_request",
    "unknown_op",
    "stale_version",
    "not_your_turn",
    "no_game",
    "bad_move_text",
    "bad_record",
    "bad_scenario",
    "bad_option",
    "internal",
)
__all__ = ["Bridge", "SEAT_KINDS", "BRIDGE_CODES", "record_check"]


class Bridge:
    """Holds one session; ``handle`` takes and returns JSON text."""

    def __init__(self):
        self.session: Session | None = None
        self.review: Review | None = None  # the coach's review under way (``op_coach``)

    # The table, for tests and the in-page tools ------------------------------------------
    @property
    def game(self):
        return self.session.game if self.session else None

    @property
    def seats(self) -> list[str]:
        return self.session.seats if self.session else []

    @property
    def bots(self) -> dict:
        return self.session.bots if self.session else {}

    @property
    def lesson(self):
        return self.session.lesson if self.session else None

    @property
    def lesson_step(self) -> int:
        return self.session.lesson_step if self.session else 0

    # The entry point -------------------------------------------------------------------------
    def handle(self, request_json: str) -> str:
        try:
            try:
                req = json.loads(request_json)
            except (TypeError, ValueError) as e:
                raise SessionError("bad_request", f"request is not JSON: {e}") from None
            if not isinstance(req, dict) or not isinstance(req.get("op"), str):
                raise SessionError("bad_request", "a request is an object with an 'op'")
            op = getattr(self, "op_" + req["op"], None)
            if op is None:
                raise SessionError("unknown_op", f"unknown op {req['op']!r}")
            resp = op(req)
        except SessionError as e:
            resp = _err(e.code, e.message, e.detail)
        except IllegalMove as e:
            resp = _err(e.code, str(e), e.info)
        except InvalidMove as e:
            resp = _err("bad_move_text", str(e))
        except ScenarioError as e:
            resp = _err(e.code, str(e))
        return json.dumps(resp, separators=(",", ":"))

    # Helpers -----------------------------------------------------------------------------------
    def _table(self) -> Session:
        if self.session is None:
            raise SessionError("no_game", "no game has been started")
        return self.session

    def viewer(self) -> int:
        return self._table().viewer()

    def _ok(self, **extra) -> dict:
        s = self._table()
        return {"ok": True, "version": s.game.version, "view": s.view(), **extra}

    def _start(self, session: Session, **extra) -> dict:
        self.session = session
        return self._ok(**extra)

    # Ops -------------------------------------------------------------------------------------------
    def op_new_game(self, req: dict) -> dict:
        return self._start(
            Session.new_game(
                req.get("rules", "samba"),
                req.get("players"),
                req.get("target"),
                req.get("seed"),
                req.get("seats"),
            )
        )

    def op_view(self, req: dict) -> dict:
        return self._ok()

    def op_move(self, req: dict) -> dict:
        move = self._table().play(req.get("move"), req.get("version"))
        return self._ok(move=move.text())

    def op_check(self, req: dict) -> dict:
        g = self._table().game
        text = req.get("move")
        if not isinstance(text, str):
            raise SessionError("bad_request", "'move' must be a move text")
        move = parse_move(text)
        side = g.side_of(g.current)
        out: dict[str, Any] = {
            "ok": True,
            "legal": True,
            "code": None,
            "message": None,
            "minimum": 0 if g.opened(side) else g.minimum(side),
            "opening_points": 0,
        }
        try:
            plan = g.verify(move)
            if plan is not None:
                from .cards import KIND_OF_ID
                from .melds import value_of

                out["opening_points"] = value_of([KIND_OF_ID[c] for c in plan.laid])
        except IllegalMove as e:
            out.update(legal=False, code=e.code, message=str(e))
            out["opening_points"] = e.info.get("points", 0)
        return out

    def op_bot(self, req: dict) -> dict:
        seat, text = self._table().bot_move(req.get("version"))
        return self._ok(move=text, seat=seat)

    def op_hint(self, req: dict) -> dict:
        """The viewer's hint (docs/bridge.md "Hints"): the move and why; changes nothing."""
        s = self._table()
        level = req.get("level")
        h = s.hint("hard" if level is None else level, req.get("version"))
        return {
            "ok": True,
            "move": h["move"],
            "level": h["level"],
            "reasons": h["reasons"],
            "warnings": h["warnings"],
            "samples": h["samples"],
            "version": s.game.version,
        }

    def op_record(self, req: dict) -> dict:
        s = self._table()
        rec = s.record()
        rec["check"] = record_check(rec)
        return {"ok": True, "version": s.game.version, "record": rec}

    def op_load(self, req: dict) -> dict:
        rec = req.get("record")
        if isinstance(rec, dict) and "check" in rec and rec["check"] != record_check(rec):
            raise SessionError("bad_record", "the saved game is damaged (its check does not match)")
        try:
            session = Session.from_record(rec)
        except ScenarioError as e:
            raise SessionError("bad_record", str(e)) from None
        return self._start(session)

    def op_scenario(self, req: dict) -> dict:
        return self._start(Session.from_scenario(req.get("scenario"), req.get("seats")))

    def op_deal_review(self, req: dict) -> dict:
        """After a deal: every hand, and the deal step by step (nothing is hidden any more)."""
        g = self._table().game
        if g.phase not in ("deal_over", "game_over"):
            raise SessionError("not_your_turn", "the deal is not over yet")
        from .review import deal_review

        return {"ok": True, "version": g.version, "review": deal_review(g)}

    def op_coach(self, req: dict) -> dict:
        """The coach's review of one seat's play in a finished deal (docs/bridge.md "The
        coach"), worked in steps: ``start``, then ``step`` (at most ``samples`` samples each)
        until finished, or ``stop``. The game is read at ``start`` only."""
        from .ai.coach import DEFAULT_BUDGET, STEP_SAMPLES, CoachError, Review

        action = req.get("action")
        if action == "start":
            s = self._table()
            g = s.game
            over = g.phase in ("deal_over", "game_over")
            deal = req.get("deal", g.deal_no if over else g.deal_no - 1)
            if deal == g.deal_no and not over or "deal" not in req and deal == 0:
                raise SessionError("not_your_turn", "the deal is not over yet")
            seat = req.get("seat", s.viewer())
            try:
                review = Review(
                    s.record(), seat, req.get("budget", DEFAULT_BUDGET), req.get("seed", 0), deal
                )
            except CoachError as e:
                raise SessionError("bad_option", str(e)) from None
            self.review = review
            return {"ok": True, "coach": _progress(review)}
        if action == "check":
            return self._coach_check(req)
        if action not in ("step", "stop"):
            raise SessionError("bad_request", "'action' must be 'start', 'step', 'stop' or 'check'")
        going = self.review
        if going is None:
            raise SessionError("bad_request", "no review is under way")
        if action == "stop":
            self.review = None
            return {"ok": True, "coach": {**_progress(going), "stopped": True}}
        k = req.get("samples", STEP_SAMPLES)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise SessionError("bad_option", f"'samples' must be a whole number from 1, not {k!r}")
        entry = going.step(k)
        out: dict[str, Any] = {"ok": True, "coach": _progress(going), "entry": entry}
        if entry is not None:
            # The seat's view at that decision (its own, as the coach weighed it): the page
            # words the moves from its targets.
            out["view"] = going.todo[going.done - 1][1]
        if going.finished:
            out["result"] = going.result()
            self.review = None
        return out

    def _coach_check(self, req: dict) -> dict:
        """The coach's check for "warn me before a blunder": its verdict on the viewer's move ``move`` before
        it is played, from the viewer's view (seeded by the game's version, so the same
        position and move give the same verdict). Plays nothing."""
        from .ai.coach import DEFAULT_BUDGET, CoachError, assess, samples_for
        from .legal import legal_moves
        from .observation import Observation

        s = self._table()
        s.check_version(req.get("version"))
        g = s.game
        seat = s.viewer()
        if g.current != seat or g.phase not in ("draw", "meld", "answer") or not s.is_human(seat):
            raise SessionError("not_your_turn", "it is not your turn")
        text = req.get("move")
        if not isinstance(text, str):
            raise SessionError("bad_request", "'move' must be a move text")
        move = parse_move(text)
        g.verify(move)  # IllegalMove: refused as a move would be
        try:
            samples = samples_for(req.get("budget", DEFAULT_BUDGET))
        except CoachError as e:
            raise SessionError("bad_option", str(e)) from None
        legal = legal_moves(g)
        played = next((m for m in legal if m == move), move)
        entry = assess(Observation.for_seat(g, seat), legal, played, samples, seed=g.version)
        return {"ok": True, "version": g.version, "entry": entry}

    def op_lesson(self, req: dict) -> dict:
        """Start a lesson: validate it, set up its scenario and seats."""
        return self._start(Session.from_lesson(req.get("lesson")), step=0)

    def op_lesson_check(self, req: dict) -> dict:
        """Check the reader's move against the lesson step; plays it when it is the goal."""
        result = self._table().lesson_check(req.get("move"), req.get("version"))
        return {**self._ok(), "lesson": result}

    def op_rules_data(self, req: dict) -> dict:
        from .rulesdoc import rules_data

        return {"ok": True, "rules_data": rules_data()}

    def op_net(self, req: dict) -> dict:
        """Play between browsers (docs/netplay.md): delegated to py_engine/netplay."""
        from .netplay.ops import net_op

        return net_op(self, req)

    def op_reasons(self, req: dict) -> dict:
        return {"ok": True, "reasons": dict(REASONS), "bridge_codes": list(BRIDGE_CODES)}


def record_check(rec: dict) -> str:
    """A checksum over a saved record (everything but the check itself)."""
    body = {k: v for k, v in rec.items() if k != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def _progress(review: Review) -> dict:
    return {
        "seat": review.seat,
        "deal": review.deal,
        "samples": review.samples,
        "done": review.done,
        "total": review.total,
        "finished": review.finished,
    }


def _err(code: str, message: str, detail: dict | None = None) -> dict:
    return {"ok": False, "error": {"code": code, "message": message, "detail": detail or {}}}
