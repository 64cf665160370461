"""The one JSON bridge between the page and the engine (docs/bridge.md).

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

import json

from .ai import make_bot
from .errors import REASONS, IllegalMove, InvalidMove, ScenarioError
from .moves import parse_move
from .record import game_record, load_scenario, replay
from .state import Game
from .views import view_for

SEAT_KINDS = ("human", "random", "easy", "medium", "hard")
BRIDGE_CODES = ("bad_request", "unknown_op", "stale_version", "not_your_turn", "no_game",
                "bad_move_text", "bad_record", "bad_scenario", "bad_option", "internal")


class BridgeError(Exception):
    def __init__(self, code: str, message: str, **detail):
        super().__init__(message)
        self.code, self.message, self.detail = code, message, detail


class Bridge:
    """Holds one game and the seats' kinds; ``handle`` takes and returns JSON text."""

    def __init__(self):
        self.game: Game | None = None
        self.seats: list[str] = []
        self.bots: dict[int, object] = {}
        self.lesson: dict | None = None
        self.lesson_step = 0

    # The entry point -------------------------------------------------------------------------
    def handle(self, request_json: str) -> str:
        try:
            try:
                req = json.loads(request_json)
            except (TypeError, ValueError) as e:
                raise BridgeError("bad_request", f"request is not JSON: {e}") from None
            if not isinstance(req, dict) or not isinstance(req.get("op"), str):
                raise BridgeError("bad_request", "a request is an object with an 'op'")
            op = getattr(self, "op_" + req["op"], None)
            if op is None:
                raise BridgeError("unknown_op", f"unknown op {req['op']!r}")
            resp = op(req)
        except BridgeError as e:
            resp = _err(e.code, e.message, e.detail)
        except IllegalMove as e:
            resp = _err(e.code, str(e), e.info)
        except InvalidMove as e:
            resp = _err("bad_move_text", str(e))
        except ScenarioError as e:
            resp = _err(e.code, str(e))
        return json.dumps(resp, separators=(",", ":"))

    # Helpers -----------------------------------------------------------------------------------
    def _need_game(self) -> Game:
        if self.game is None:
            raise BridgeError("no_game", "no game has been started")
        return self.game

    def _check_version(self, req: dict) -> None:
        g = self._need_game()
        v = req.get("version")
        if v is not None and v != g.version:
            raise BridgeError("stale_version", f"the game is at version {g.version}, not {v}",
                              version=g.version)

    def viewer(self) -> int:
        """The seat whose view the page shows: the human to act, else the human who acted last
        (hotseat), else the first human."""
        g = self._need_game()
        humans = [i for i, s in enumerate(self.seats) if s == "human"]
        if g.current in humans and g.phase not in ("deal_over", "game_over"):
            self.last_viewer = g.current
            return g.current
        if getattr(self, "last_viewer", None) in humans:
            return self.last_viewer
        return humans[0] if humans else 0

    def _ok(self, **extra) -> dict:
        g = self._need_game()
        return {"ok": True, "version": g.version, "view": self._view(), **extra}

    def _view(self) -> dict:
        g = self._need_game()
        v = view_for(g, self.viewer())
        v["seats"] = list(self.seats)
        return v

    def _set_seats(self, seats, players: int) -> None:
        if seats is None:
            seats = ["human"] + ["easy"] * (players - 1)
        if (not isinstance(seats, list) or len(seats) != players
                or not all(s in SEAT_KINDS for s in seats)):
            raise BridgeError("bad_option", f"'seats' must list {players} of {', '.join(SEAT_KINDS)}")
        self.seats = list(seats)
        self.last_viewer = None
        self.bots = {}
        for i, s in enumerate(seats):
            if s != "human":
                self.bots[i] = make_bot(s, seed=(self.game.seed * 7919 + i) if self.game else i)

    # Ops -------------------------------------------------------------------------------------------
    def op_new_game(self, req: dict) -> dict:
        seed = req.get("seed")
        if seed is None:
            import random
            seed = random.SystemRandom().randrange(1, 2**31)
        try:
            game = Game.new(req.get("rules", "samba"), req.get("players"), req.get("target"), seed)
        except ValueError as e:
            raise BridgeError("bad_option", str(e)) from None
        old = self.game
        self.game = game
        try:
            self._set_seats(req.get("seats"), game.players)
        except BridgeError:
            self.game = old
            raise
        return self._ok()

    def op_view(self, req: dict) -> dict:
        return self._ok()

    def op_move(self, req: dict) -> dict:
        g = self._need_game()
        self._check_version(req)
        text = req.get("move")
        if not isinstance(text, str):
            raise BridgeError("bad_request", "'move' must be a move text")
        move = parse_move(text)
        if g.phase not in ("deal_over", "game_over") and self.seats[g.current] != "human":
            raise BridgeError("not_your_turn", f"seat {g.current} is a computer")
        g.play(move)
        return self._ok(move=move.text())

    def op_check(self, req: dict) -> dict:
        g = self._need_game()
        text = req.get("move")
        if not isinstance(text, str):
            raise BridgeError("bad_request", "'move' must be a move text")
        move = parse_move(text)
        side = g.side_of(g.current)
        out = {"ok": True, "legal": True, "code": None, "message": None,
               "minimum": 0 if g.opened(side) else g.minimum(side), "opening_points": 0}
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
        g = self._need_game()
        self._check_version(req)
        if g.phase in ("deal_over", "game_over"):
            raise BridgeError("not_your_turn", "no computer is to act")
        seat = g.current
        bot = self.bots.get(seat)
        if bot is None:
            raise BridgeError("not_your_turn", f"seat {seat} is not a computer")
        text = bot.choose(view_for(g, seat))
        g.play(text)
        return self._ok(move=text, seat=seat)

    def op_hint(self, req: dict) -> dict:
        g = self._need_game()
        level = req.get("level", "medium")
        try:
            bot = make_bot(level, seed=g.version)
        except ValueError as e:
            raise BridgeError("bad_option", str(e)) from None
        seat = self.viewer()
        if g.current != seat or g.phase in ("deal_over", "game_over"):
            raise BridgeError("not_your_turn", "it is not your turn")
        return {"ok": True, "move": bot.choose(view_for(g, seat)), "version": g.version}

    def op_record(self, req: dict) -> dict:
        g = self._need_game()
        rec = {**game_record(g), "seats": list(self.seats)}
        rec["check"] = record_check(rec)
        return {"ok": True, "version": g.version, "record": rec}

    def op_load(self, req: dict) -> dict:
        rec = req.get("record")
        if isinstance(rec, dict) and "check" in rec and rec["check"] != record_check(rec):
            raise BridgeError("bad_record", "the saved game is damaged (its check does not match)")
        try:
            game = replay(rec)
        except ScenarioError as e:
            raise BridgeError("bad_record", str(e)) from None
        old, old_seats, old_bots = self.game, self.seats, self.bots
        self.game = game
        try:
            self._set_seats(rec.get("seats"), game.players)
        except BridgeError as e:
            self.game, self.seats, self.bots = old, old_seats, old_bots
            raise BridgeError("bad_record", e.message) from None
        return self._ok()

    def op_scenario(self, req: dict) -> dict:
        game = load_scenario(req.get("scenario"))
        old, old_seats, old_bots = self.game, self.seats, self.bots
        self.game = game
        try:
            self._set_seats(req.get("seats"), game.players)
        except BridgeError:
            self.game, self.seats, self.bots = old, old_seats, old_bots
            raise
        return self._ok()

    def op_deal_review(self, req: dict) -> dict:
        """After a deal: every hand, and the deal step by step (nothing is hidden any more)."""
        g = self._need_game()
        if g.phase not in ("deal_over", "game_over"):
            raise BridgeError("not_your_turn", "the deal is not over yet")
        from .review import deal_review
        return {"ok": True, "version": g.version, "review": deal_review(g)}

    def op_lesson(self, req: dict) -> dict:
        """Start a lesson: validate it, set up its scenario and seats."""
        from .lessons import validate_lesson
        lesson = validate_lesson(req.get("lesson"))
        players = load_scenario(lesson["scenario"]).players
        seats = lesson.get("seats") or ["human"] + ["easy"] * (players - 1)
        resp = self.op_scenario({"scenario": lesson["scenario"], "seats": seats})
        self.lesson, self.lesson_step = lesson, 0
        return {**resp, "step": 0}

    def op_lesson_check(self, req: dict) -> dict:
        """Check the reader's move against the lesson step; plays it when it is the goal."""
        from .lessons import check_step
        g = self._need_game()
        lesson = getattr(self, "lesson", None)
        if lesson is None:
            raise BridgeError("no_game", "no lesson is running")
        self._check_version(req)
        step = lesson["steps"][min(self.lesson_step, len(lesson["steps"]) - 1)]
        text = req.get("move")
        if not isinstance(text, str):
            raise BridgeError("bad_request", "'move' must be a move text")
        result = check_step(g, step, text)
        if result["legal"] and result["matches"]:
            g.play(text)
            self.lesson_step += 1
            result["success"] = step.get("success")
        result["done"] = self.lesson_step >= len(lesson["steps"])
        return {**self._ok(), "lesson": {**result, "step": self.lesson_step}}

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
    import hashlib
    body = {k: v for k, v in rec.items() if k != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def _err(code: str, message: str, detail: dict | None = None) -> dict:
    return {"ok": False, "error": {"code": code, "message": message, "detail": detail or {}}}
