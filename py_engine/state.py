"""``Game``: a ``Position`` that plays moves. ``Game.verify(move)`` raises IllegalMove with a reason
code or returns what the move would leave (a ``Plan``), and ``Game.play(move)`` applies it; each
move type's check and effect are in actions.py (``verify_<action>``, ``apply_<action>``), found by
the move type's ``action``. ``play`` trusts the moves legal.py generated at the same position.

>>> g = Game.new("samba", players=4, seed=7)
>>> g.phase, g.current, len(g.hands[0]), len(g.stock) <= 101
('draw', 0, 15, True)
>>> g.can(Draw()), g.can(Discard(0))
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self
from weakref import WeakKeyDictionary

from . import actions
from .actions import Plan, plan_of, take_ids
from .errors import IllegalMove, InvalidMove
from .melds import shape_of

# (Discard and Draw: for the docstring's examples, which run in this module's namespace)
from .moves import MOVE_TYPES, AddTo, Discard, Draw, Meld, Move, parse_move  # noqa: F401
from .position import PHASES, Position, Turn

__all__ = ["PHASES", "Game", "PerGame", "Plan", "Turn"]


class Game(Position):
    """A game of Samba: several deals to the target score."""

    # The generation record (``generation``): the version it was made at, and the moves legal.py
    # generated there, each with its plan (or None). Game's own: ``Position.copy`` shares the
    # attributes, ``copy`` below drops it.
    _generated_at: int = -1
    _generated: dict[Move, Plan | None] | None = None

    # verify / can / play ------------------------------------------------------------------
    def verify(self, move: Move) -> Plan | None:
        """Raise IllegalMove (with a reason code) unless ``move`` is legal now; change nothing."""
        check = _VERIFY.get(type(move))
        if check is None:
            try:
                verify: Callable[[Game, Move], Plan | None] = getattr(
                    actions, "verify_" + move.action
                )
                return verify(self, move)
            except AttributeError:
                raise InvalidMove(f"not a move: {move!r}") from None
        return check(self, move)

    def can(self, move: Move) -> bool:
        try:
            self.verify(move)
            return True
        except IllegalMove:
            return False

    def generation(self) -> dict[Move, Plan | None]:
        """The record of the moves generated at this position, kept by the game and its
        version (``legal.py`` fills it: move -> its plan, or None where ``trusted_plan`` builds
        it); a new one at each new version. Moves are values: an equal move (parsed from the
        text of a generated one) finds the same entry. Whatever changes a game but ``play``
        (a test or tool setting cards by hand) gives it a new version, or works on a copy."""
        gen = self._generated
        if gen is None or self._generated_at != self.version:
            gen = self._generated = {}
            self._generated_at = self.version
        return gen

    def copy(self, log: bool = False) -> Self:
        """``Position.copy``, without the generation record (a copy may be changed by hand)."""
        g = super().copy(log)
        g._generated = None
        return g

    def trusted_plan(self, move: Move) -> Plan | None | bool:
        """The plan of ``move`` if it is one of the moves generated at this very position (the
        same move at the same version), without checking it again; ``False`` if it must be
        verified. A meld move generated from counts gets its plan built here (its
        parts are valid melds and legal by construction, ``tests/test_trusted_play.py``)."""
        gen = self._generated
        if gen is None or self._generated_at != self.version:
            return False
        got = gen.get(move, False)
        if got is not None:
            return got
        if type(move) is not Meld:
            return False
        plan = plan_of(self)
        for part in move.parts:
            ids = take_ids(plan.hand, part.cards)
            plan.laid.extend(ids)
            if isinstance(part, AddTo):
                plan.touch(part.meld).add(ids)
            else:
                mtype, rank, suit = shape_of(part.cards)
                plan.new_meld(mtype, rank, suit, ids)
        return plan

    def play(self, move: Move | str) -> dict[str, Any]:
        """Apply a legal move (or its text) for the seat to act; returns the log record.

        A move the legal-move generator made at this position (``trusted_plan``) is not checked
        again; any other is verified first."""
        if isinstance(move, str):
            move = parse_move(move)
        plan = self.trusted_plan(move) if self._generated is not None else False
        if plan is False:
            plan = self.verify(move)
        seat = self.current
        log = self.log
        n_log = len(log)
        apply = _APPLY.get(type(move))
        if apply is None:
            getattr(actions, "apply_" + move.action)(self, move, plan)
        else:
            apply(self, move, plan)
        if self.record_log:
            self.moves.append(move.text())
        self.version += 1
        return log[n_log] if len(log) > n_log else {"seat": seat, "move": move.text()}


# Each move type's check and effect (``verify`` and ``play`` look them up by the move's type).
_VERIFY: dict[type[Move], Callable[[Game, Move], Plan | None]] = {
    cls: getattr(actions, "verify_" + cls.action) for cls in MOVE_TYPES
}
_APPLY = {cls: getattr(actions, "apply_" + cls.action) for cls in MOVE_TYPES}


class PerGame(WeakKeyDictionary[Game, dict[Any, Any]]):
    """What one layer keeps per game (each layer its own instance): a dict for each game object,
    made on first use and gone with the game (a copy of a game is another key). What a layer
    keeps there must stay true of the game it was made from, or be checked against its
    ``version``."""

    def of(self, game: Game) -> dict[Any, Any]:
        kept = self.get(game)
        if kept is None:
            kept = self[game] = {}
        return kept
