"""The move a computer player plays for a seat of a game (``bot_move``): from the seat's
observation and legal moves where the bot reads them (``decide``), else from the seat's JSON
view (``choose``, the levels that read the view: ``hard``, and ``medium``'s variants that score
the view)."""

from __future__ import annotations

from typing import Any

from ..legal import legal_moves
from ..moves import Move, parse_move
from ..observation import Observation
from ..state import Game
from ..views import view_for


def bot_move(bot: Any, game: Game, seat: int) -> Move:
    """``bot``'s move for ``seat`` (the seat to act)."""
    if getattr(bot, "observes", False):
        move: Move = bot.decide(Observation.for_seat(game, seat), legal_moves(game))
        return move
    return parse_move(bot.choose(view_for(game, seat)))


__all__ = ["bot_move"]
