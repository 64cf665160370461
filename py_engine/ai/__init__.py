"""Computer players. A bot sees only its seat's observation (``Observation.for_seat``) and legal
moves, a seeded RNG and a budget; ``decide(observation, legal) -> Move`` (``act.bot_move``).

Levels (``levels.py``): ``random`` (uniform over legal moves), ``easy`` (simple rules),
``medium`` (a heuristic player, ``medium.py``), ``hard`` (information-set Monte Carlo over
``medium``, ``hard.py``). Modules import one way (tests/test_layers.py, ``AI_ORDER``).
"""

from __future__ import annotations

from .hard import HardBot
from .levels import LEVELS, make_bot
from .medium import MediumBot
from .simple import EasyBot, RandomBot

__all__ = ["LEVELS", "make_bot", "HardBot", "MediumBot", "EasyBot", "RandomBot"]
