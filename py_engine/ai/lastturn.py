"""``hard``'s own ranking: ``medium``, plus a club player's habit for the last turn of a deal.

When an opponent side can go out and one of its players holds at most ``CARDS`` cards, the deal
is about to end without this side's say: what is still in hand then counts against the side,
what is on the table for it. So on such a turn the player **lays everything it can** (wild
cards onto any meld with room, as when going out; no natural pair kept back for the pile) and
**sheds high cards** ``SHED`` times as hard as usual when it discards. Everything else is
``medium``'s. ``medium`` itself keeps its own ranking (it is the level below ``hard``); the
habit was measured as ``medium`` with it against ``medium`` on tuning deals (docs/ai.md, the
habit's figures; their history in docs/journal/2026-12-05-ai-sessions.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..moves import Move, Part
from .info import Info
from .medium import MediumBot


class LastTurnMedium(MediumBot):
    """``medium``'s ranking with the last-turn habit (module docstring)."""

    level = "medium_lastturn"  # (no level players choose: ``hard`` ranks its moves with it)
    CARDS = 2  # an opponent side that can go out, with a player holding at most this many
    SHED = 4.0  # ``value_shed`` times this on such a turn

    @classmethod
    def closing_seat(cls, info: Info) -> int | None:
        """The opponent who may end the deal on its next turn: its side can go out and it holds
        at most ``CARDS`` cards (the fewest, then the next to play); None if there is none."""
        sizes = info.hand_sizes
        seats = [
            p
            for p in range(info.n)
            if info.side_of[p] != info.side
            and info.canastas[info.side_of[p]] >= info.req
            and sizes[p] <= cls.CARDS
        ]
        return min(seats, key=lambda p: (sizes[p], (p - info.seat) % info.n)) if seats else None

    @classmethod
    def about_to_end(cls, info: Info) -> bool:
        """An opponent side can go out and one of its players holds at most ``CARDS`` cards."""
        return cls.closing_seat(info) is not None

    def _last_turn(self, info: Info) -> bool:
        return info.phase == "meld" and self.about_to_end(info)

    def scored(self, info: Info, moves: Sequence[Move]) -> list[tuple[float, Move]]:
        base = self.w
        if self._last_turn(info):
            self.w = dict(base, value_shed=base["value_shed"] * self.SHED, keep_pair_pile=10**6)
        try:
            return super().scored(info, moves)
        finally:
            self.w = base

    def meld_score(self, info: Info, parts: Sequence[Part]) -> float:
        if not info.can_out and self._last_turn(info):
            info.want_out = True  # wild cards laid as if going out (``meld_score``)
            try:
                return super().meld_score(info, parts)
            finally:
                info.want_out = None
        return super().meld_score(info, parts)
