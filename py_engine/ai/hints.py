"""The hint: a time-boxed move from ``hard`` (or another level), explained.

``hint(obs, legal)`` (a seat's observation and its legal moves) asks ``hard`` within a hint's time box (``HINT_BUDGET`` seconds scaled to the
machine like ``hard``'s own budget, at most ``HINT_CAP``; ``budget=`` fixes the seconds,
``iterations=`` the samples) and returns ``{"move": ..., "level": "hard", "reasons": [...],
"warnings": [...], "samples": n}`` (``explain.explain``'s reasons and warnings); ``level=`` asks
another level (its move explained the same).
"""

from __future__ import annotations

from ..moves import Move
from ..observation import Observation
from .explain import explain
from .hard import HardBot
from .levels import make_bot

HINT_BUDGET = 0.5  # seconds on the reference machine (scaled like hard's, hard.auto_budget)
HINT_CAP = 1.0  # never more, however slow the machine


def hint(
    obs: Observation,
    legal: list[Move],
    budget: float | None = None,
    seed: int = 0,
    level: str = "hard",
    iterations: int | None = None,
) -> dict:
    """``level``'s move for the seat (``hard``: time-boxed, module doc), with its reasons."""
    bot: object
    if level == "hard":
        bot = HardBot(
            seed=seed, budget=budget, iterations=iterations, base=HINT_BUDGET, cap=HINT_CAP
        )
    else:
        bot = make_bot(level, seed=seed)
    move = bot.decide(obs, legal)  # type: ignore[attr-defined]
    stats = getattr(bot, "last_stats", None) or {}
    return {"level": level, **explain(obs, legal, move), "samples": stats.get("samples", 0)}


__all__ = ["hint", "HINT_BUDGET", "HINT_CAP"]
