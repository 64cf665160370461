"""The computer levels by name (``LEVELS``) and ``make_bot``: ``random`` (uniform over legal
moves), ``easy`` (simple rules), ``medium`` (a heuristic player, ``medium.py``), ``hard``
(information-set Monte Carlo over ``medium``, ``hard.py``)."""
from __future__ import annotations

from .hard import HardBot
from .medium import MediumBot
from .simple import EasyBot, RandomBot

LEVELS = {"random": RandomBot, "easy": EasyBot, "medium": MediumBot,
          "hard": HardBot}


def make_bot(level: str, seed: int = 0, **kw):
    try:
        cls = LEVELS[level]
    except (KeyError, TypeError):
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}") \
            from None
    return cls(seed=seed, **kw)
