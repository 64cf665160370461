"""The move a computer player plays for a seat of a game (``bot_move``): the bot's
``decide(observation, legal moves) -> Move`` on the seat's observation
(``Observation.for_seat``) and the game's legal moves. A bot is given nothing else."""

from __future__ import annotations

from typing import Any

from ..legal import legal_moves
from ..moves import Move
from ..observation import Observation
from ..state import Game


def bot_move(bot: Any, game: Game, seat: int) -> Move:
    """``bot``'s move for ``seat`` (the seat to act)."""
    move: Move = bot.decide(Observation.for_seat(game, seat), legal_moves(game))
    return move


__all__ = ["bot_move"]
