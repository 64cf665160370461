"""A table: one game, who sits in each seat (a human or a computer level), the seats' bots, and
an optional lesson. The JSON bridge holds one session and replaces it whole when a new game, a
saved game, a scenario or a lesson starts; play between browsers serves several viewers from it.

>>> s = Session.new_game(rules="samba", players=2, seed=1, seats=["human", "easy"])
>>> s.viewer(), s.view()["seat"], s.is_human(0), s.is_human(1)
(0, 0, True, False)
"""

from __future__ import annotations

import random

from .ai import make_bot
from .ai.act import bot_move
from .legal import legal_moves
from .lessons import check_step, validate_lesson
from .levels import HINT_LEVELS, SEAT_KINDS
from .moves import Move, parse_move
from .observation import Observation
from .record import game_record, load_scenario, replay
from .state import Game
from .views import view_for

# A seat played from another browser (play with friends): a person, but not at this screen.
REMOTE = "remote"


class SessionError(ValueError):
    """A request the table refuses for a reason that is not a rule of the game."""

    def __init__(self, code: str, message: str, **detail):
        super().__init__(message)
        self.code, self.message, self.detail = code, message, detail


def check_seats(seats, players: int) -> list[str]:
    if seats is None:
        return ["human"] + ["easy"] * (players - 1)
    if (
        not isinstance(seats, list)
        or len(seats) != players
        or not all(isinstance(s, str) and (s in SEAT_KINDS or s == REMOTE) for s in seats)
    ):
        raise SessionError("bad_option", f"'seats' must list {players} of {', '.join(SEAT_KINDS)}")
    return list(seats)


class Session:
    """One game at one table (see the module docstring)."""

    def __init__(self, game: Game, seats, lesson: dict | None = None):
        self.game = game
        self.seats = check_seats(seats, game.players)
        self.bots = {
            i: make_bot(s, seed=game.seed * 7919 + i)
            for i, s in enumerate(self.seats)
            if s not in ("human", REMOTE)
        }
        self.lesson = lesson
        self.lesson_step = 0
        self.last_viewer: int | None = None
        self._hints: dict = {}  # the current version's hints: (seat, level) -> hint

    # Starting a table ------------------------------------------------------------------------
    @classmethod
    def new_game(
        cls, rules="samba", players=None, target=None, seed=None, seats=None, deal_seeds=None
    ) -> Session:
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        try:
            game = Game.new(rules, players, target, seed, deal_seeds=deal_seeds)
        except ValueError as e:
            raise SessionError("bad_option", str(e)) from None
        return cls(game, seats)

    @classmethod
    def from_record(cls, record) -> Session:
        """Raises ScenarioError (a damaged record) or SessionError (bad seats)."""
        game = replay(record)
        try:
            return cls(game, record.get("seats"))
        except SessionError as e:
            raise SessionError("bad_record", e.message) from None

    @classmethod
    def from_scenario(cls, scenario, seats=None) -> Session:
        return cls(load_scenario(scenario), seats)

    @classmethod
    def from_lesson(cls, lesson) -> Session:
        lesson = validate_lesson(lesson)
        game = load_scenario(lesson["scenario"])
        seats = lesson.get("seats") or ["human"] + ["easy"] * (game.players - 1)
        return cls(game, seats, lesson=lesson)

    # Seats ------------------------------------------------------------------------------------
    def is_human(self, seat: int) -> bool:
        """A person plays this seat, here or (``remote``) from another browser."""
        return self.seats[seat] in ("human", REMOTE)

    def to_act(self) -> int | None:
        g = self.game
        return None if g.phase in ("deal_over", "game_over") else g.current

    def viewer(self) -> int:
        """The seat whose view one shared screen shows: the human to act, else the human who
        acted last (hotseat), else the first human."""
        humans = [i for i, s in enumerate(self.seats) if s == "human"]
        g = self.game
        if g.current in humans and g.phase not in ("deal_over", "game_over"):
            self.last_viewer = g.current
            return g.current
        if self.last_viewer in humans:
            return self.last_viewer
        return humans[0] if humans else 0

    def view(self, seat: int | None = None) -> dict:
        """What ``seat`` (default: the shared screen's viewer) may know, plus the seat kinds."""
        v = view_for(self.game, self.viewer() if seat is None else seat)
        v["seats"] = list(self.seats)
        return v

    # Playing ----------------------------------------------------------------------------------
    def check_version(self, version) -> None:
        if version is not None and version != self.game.version:
            raise SessionError(
                "stale_version",
                f"the game is at version {self.game.version}, not {version}",
                version=self.game.version,
            )

    def play(self, text, version=None, seat: int | None = None) -> Move:
        """Play a human's move text; ``seat``: the seat that sends it (play between browsers),
        which must be the one to act. Raises SessionError, InvalidMove or IllegalMove."""
        self.check_version(version)
        if not isinstance(text, str):
            raise SessionError("bad_request", "'move' must be a move text")
        move = parse_move(text)
        g = self.game
        acting = self.to_act()
        if acting is not None and not self.is_human(acting):
            raise SessionError("not_your_turn", f"seat {acting} is a computer")
        if acting is not None and seat is None and self.seats[acting] == REMOTE:
            raise SessionError("not_your_turn", f"seat {acting} plays from another browser")
        if seat is not None and acting is not None and seat != acting:
            raise SessionError("not_your_turn", f"it is seat {acting}'s turn, not seat {seat}'s")
        g.play(move)
        return move

    def bot_move(self, version=None) -> tuple[int, str]:
        """Let the computer to act play; returns (seat, move text)."""
        self.check_version(version)
        seat = self.to_act()
        if seat is None:
            raise SessionError("not_your_turn", "no computer is to act")
        bot = self.bots.get(seat)
        if bot is None:
            raise SessionError("not_your_turn", f"seat {seat} is not a computer")
        move = bot_move(bot, self.game, seat)
        self.game.play(move)
        return seat, move.text()

    def hint(self, level="hard", version=None, seat: int | None = None) -> dict:
        """What ``level`` (default ``hard``, time-boxed) would play in the viewer's place, and
        why: ``{"move", "level", "reasons", "warnings", "samples"}`` (hints.hint). It sees
        only the viewer's view; its seed is the game's version, and the answer is kept for
        the position (asking again at the same version gives the same hint). ``seat``: the
        asking seat (play between browsers), default the shared screen's viewer."""
        self.check_version(version)
        if not isinstance(level, str) or level not in HINT_LEVELS:
            raise SessionError("bad_option", f"'level' must be one of {', '.join(HINT_LEVELS)}")
        seat = self.viewer() if seat is None else seat
        g = self.game
        if g.current != seat or g.phase in ("deal_over", "game_over") or not self.is_human(seat):
            raise SessionError("not_your_turn", "it is not your turn")
        if self._hints.get("version") != g.version:
            self._hints = {"version": g.version}  # only the current position's hints
        key = (seat, level)
        if key not in self._hints:
            from .ai.hints import hint

            self._hints[key] = hint(
                Observation.for_seat(g, seat), legal_moves(g), seed=g.version, level=level
            )
        return dict(self._hints[key])

    def record(self) -> dict:
        return {**game_record(self.game), "seats": list(self.seats)}

    # Lessons ------------------------------------------------------------------------------------
    def lesson_check(self, text, version=None) -> dict:
        """Check the reader's move against the lesson step; plays it when it is the goal."""
        if self.lesson is None:
            raise SessionError("no_game", "no lesson is running")
        self.check_version(version)
        if not isinstance(text, str):
            raise SessionError("bad_request", "'move' must be a move text")
        steps = self.lesson["steps"]
        step = steps[min(self.lesson_step, len(steps) - 1)]
        result = check_step(self.game, step, text)
        if result["legal"] and result["matches"]:
            self.game.play(text)
            self.lesson_step += 1
            result["success"] = step.get("success")
        result["done"] = self.lesson_step >= len(steps)
        return {**result, "step": self.lesson_step}
