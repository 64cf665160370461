"""The computer levels by name (``LEVELS``) and ``make_bot``: ``random`` (uniform over legal
moves), ``easy`` (simple rules), ``medium`` (a heuristic player, ``medium.py``), ``hard``
(information-set Monte Carlo over ``medium``, ``hard.py``). The names and their order are
``py_engine/levels.py``'s (the one list of them)."""

from __future__ import annotations

from .. import levels
from .hard import HardBot
from .medium import MediumBot
from .simple import EasyBot, RandomBot

_PLAYERS = {"random": RandomBot, "easy": EasyBot, "medium": MediumBot, "hard": HardBot}
# Each level of ``levels.LEVELS``, in its order, and its player.
LEVELS = {name: _PLAYERS[name] for name in levels.LEVELS}
assert set(LEVELS) == set(_PLAYERS), "py_engine/levels.py and the bots disagree"


def make_bot(level: str, seed: int = 0, **kw):
    try:
        cls = LEVELS[level]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}"
        ) from None
    return cls(seed=seed, **kw)
