"""What the other players' own choices say about their hands, for ``hard``'s sampled worlds.

A player whose side has opened and who draws from the stock rather than take the pile with a
natural pair of its top card holds, most likely, no such pair: taking a pile is almost always
worth more than two cards from the stock (``medium`` takes whenever it can, and so does a club
player). ``Passes(view)`` reads that from the public log: per other seat, the rank of the top
card it last drew past (only its latest draw: it has drawn since the earlier ones). ``apply``
then moves the extra copies of that rank out of the seat's sampled hand into the stock, in
exchange for random stock cards that are not of the rank (the counts of hand and stock stay):
one may stay, and two random cards of the sampled hand stand for the two it has drawn since,
which may be of the rank.
Cards the log shows the seat holding (``determinize.known_holdings``) are never moved: a seat
known to hold a pair of the rank is left alone.

    >>> from py_engine.state import Game
    >>> from py_engine.views import view_for
    >>> Passes(view_for(Game.new("samba", 4, seed=1), 0)).avoid
    [None, None, None, None]
"""
from __future__ import annotations

import random

from ..cards import IS_NATURAL, IS_RED3, KIND_OF_ID, RANK_OF, parse_kind
from .determinize import known_holdings


def passed_ranks(view: dict) -> list[int | None]:
    """Per seat (``None`` for the viewer and where nothing is known): the rank of the natural
    top card the seat drew from the stock past at its latest draw of this deal, if its side
    had opened by the time of the view and no wild card or black three topped the pile."""
    n, me, deal = view["players"], view["seat"], view["deal"]
    out: list[int | None] = [None] * n
    top: int | None = None          # the top card's kind, when the log shows it
    for e in view.get("log", []):
        if e.get("deal") != deal:
            continue
        kind, s = e.get("kind"), e.get("seat")
        if kind == "discard" and e.get("card"):
            top = parse_kind(e["card"])
        elif kind and kind.startswith("take"):
            top = None              # the pile (or its top card) went into a hand
            if s is not None and s != me:
                out[s] = None       # its latest draw phase was this take
        elif kind == "draw" and s is not None and s != me:
            out[s] = RANK_OF[top] if top is not None and IS_NATURAL[top] else None
    sides = view["melds"]
    n_sides = len(sides)
    for s in range(n):
        if out[s] is not None and not sides[s % n_sides]:
            out[s] = None           # not opened: the pair may not have been enough to take
    return out


class Passes:
    """``passed_ranks`` of a view, and the sampled worlds made to agree with them."""

    def __init__(self, view: dict):
        self.me = view["seat"]
        known = known_holdings(view)
        self.avoid: list[int | None] = []
        for s, r in enumerate(passed_ranks(view)):
            held = sum(1 for k in known[s] if IS_NATURAL[k] and RANK_OF[k] == r)
            self.avoid.append(r if r is not None and held < 2 else None)
        self.known = known
        self.active = any(r is not None for r in self.avoid)

    def apply(self, g, rng: random.Random) -> int:
        """Move the extra naturals of each seat's passed rank from its hand into ``g``'s stock
        (swapped with random stock cards of other ranks, never red threes); the number moved."""
        if not self.active:
            return 0
        moved = 0
        stock = g.stock
        for s, r in enumerate(self.avoid):
            if r is None or s == self.me:
                continue
            keep = self.known[s]
            hand = g.hands[s]
            at = [j for j, c in enumerate(hand)
                  if IS_NATURAL[KIND_OF_ID[c]] and RANK_OF[KIND_OF_ID[c]] == r]
            if len(at) < 2:
                continue
            # It has drawn two cards since it passed, which may be of the rank: two random
            # cards of the sampled hand stand for them, and only the others are held to one.
            new = set(rng.sample(range(len(hand)), min(2, len(hand))))
            at = [j for j in at if j not in new]
            allowed = 1
            if len(at) <= allowed:
                continue
            at.sort(key=lambda j: KIND_OF_ID[hand[j]] not in keep)    # a known card stays
            free = [i for i, c in enumerate(stock)
                    if not IS_RED3[KIND_OF_ID[c]] and not (
                        IS_NATURAL[KIND_OF_ID[c]] and RANK_OF[KIND_OF_ID[c]] == r)]
            for j in at[allowed:]:
                if not free:
                    break
                i = free.pop(rng.randrange(len(free)))
                hand[j], stock[i] = stock[i], hand[j]
                moved += 1
        return moved
