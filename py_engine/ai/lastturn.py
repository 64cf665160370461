"""``hard``'s own ranking: ``medium``, plus a club player's habit for the last turn of a deal.

When an opponent side can go out and one of its players holds at most ``CARDS`` cards, the deal
is about to end without this side's say: what is still in hand then counts against the side,
what is on the table for it. So on such a turn the player **lays everything it can** (wild
cards onto any meld with room, as when going out; no natural pair kept back for the pile) and
**sheds high cards** ``SHED`` times as hard as usual when it discards. Everything else is
``medium``'s. ``medium`` itself keeps its own ranking (it is the level below ``hard``); the
habit was measured as ``medium`` with it against ``medium`` on tuning deals (docs/ai.md,
"Session 9").
"""
from __future__ import annotations

from .medium import Info, MediumBot


class LastTurnMedium(MediumBot):
    """``medium``'s ranking with the last-turn habit (module docstring)."""
    level = "medium_lastturn"       # (a study level; ``hard`` ranks its moves with it)
    CARDS = 2       # an opponent side that can go out, with a player holding at most this many
    SHED = 4.0      # ``value_shed`` times this on such a turn

    def __init__(self, seed: int = 0, weights: dict | None = None, **kw):
        super().__init__(seed=seed, weights=weights, **kw)
        self._last_turn = False

    @classmethod
    def about_to_end(cls, info: Info) -> bool:
        """An opponent side can go out and one of its players holds at most ``CARDS`` cards."""
        sizes = info.view["hand_sizes"]
        return any(c >= info.req and any(sizes[p] <= cls.CARDS for p in range(info.n)
                                         if info.side_of[p] == s)
                   for s, c in enumerate(info.canastas) if s != info.side)

    def scored_moves(self, view: dict) -> list[tuple[float, str]]:
        base = self.w
        self._last_turn = view["phase"] == "meld" and self.about_to_end(Info(view))
        if self._last_turn:
            self.w = dict(base, value_shed=base["value_shed"] * self.SHED,
                          keep_pair_pile=10 ** 6)
        try:
            return super().scored_moves(view)
        finally:
            self.w = base
            self._last_turn = False

    def meld_score(self, info: Info, text: str) -> float:
        if self._last_turn and not info.can_out:
            info.want_out = True        # wild cards laid as if going out (``meld_score``)
            try:
                return super().meld_score(info, text)
            finally:
                info.want_out = None
        return super().meld_score(info, text)
