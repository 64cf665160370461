"""What the other players' own choices say about their hands, for ``hard``'s sampled worlds.

Two habits every sensible player shares (and ``medium`` has; ``tests/test_inference.py``
checks them on its self-play):

- **A pile drawn past.** A player whose side has opened and who draws from the stock rather
  than take the pile with a natural pair of its top card holds no such pair: taking a pile is
  almost always worth more than two cards from the stock. It held at most one natural of that
  rank *before* the two cards it drew then.
- **A card discarded.** A player rarely throws away a card of a rank it holds another natural
  of (a pair is worth keeping): after a natural discard it holds none of the rank, but for the
  cards it has drawn since (``medium``: 5 % of its natural discards break a pair).

``Avoided(obs)`` (the seat's ``Observation``) reads them from the public log, per other seat, since its latest pile take
(the take put the pile's cards in its hand): for each rank the most recent such fact, as a cap on
the naturals of the rank the seat holds among its cards older than the ones drawn since.
``apply`` then moves the extra copies out of a sampled hand into the stock, in exchange for random
stock cards of other ranks (the counts of hand and stock stay): random cards of the sampled hand
stand for the ones drawn since. A discard's fact is applied in 95 % of the samples. Cards the log
shows the seat holding (``determinize.known_holdings``) are never moved.

    >>> from py_engine.observation import Observation
    >>> from py_engine.state import Game
    >>> Avoided(Observation.for_seat(Game.new("samba", 4, seed=1), 0)).caps
    [{}, {}, {}, {}]
"""

from __future__ import annotations

import math
import random

from py_engine.ai.determinize import known_holdings
from py_engine.cards import IS_NATURAL, IS_RED3, KIND_OF_ID, RANK_OF
from py_engine.observation import Observation

DISCARD_TRUST = 0.95  # the share of samples a discard's fact is applied in
PASS, DISCARD, MELDED, ADDED = "pass", "discard", "melded", "added"
CAPS = {PASS: 1, DISCARD: 0, MELDED: 2, ADDED: 0}
# per card id: its rank if it is a natural card, else 0
_NATURAL_RANK = [RANK_OF[k] if IS_NATURAL[k] else 0 for k in KIND_OF_ID]


def natural_counts(hand: list[int]) -> list[int]:
    """The natural cards of each rank (index 4..14) among the card ids ``hand``."""
    count = [0] * 15
    for c in hand:
        count[_NATURAL_RANK[c]] += 1
    count[0] = 0  # (wild cards and threes)
    return count


def loose_positions(hand: list[int], known: list[int]) -> list[int]:
    """The positions in ``hand`` (card ids) of the cards the log does not show the seat
    holding (``known``: kinds, each standing for one card)."""
    keep = list(known)
    loose = []
    for j, c in enumerate(hand):
        if KIND_OF_ID[c] in keep:
            keep.remove(KIND_OF_ID[c])
        else:
            loose.append(j)
    return loose


def read_choices(obs: Observation) -> list[dict[tuple[int, str], int]]:
    """Per seat (empty for the viewer): (rank, what the seat did) -> the cards it has drawn
    since, the most recent fact of each kind per rank since its latest pile take: ``PASS`` (drew
    past a natural top card of the rank), ``DISCARD`` (discarded a natural of it), ``MELDED``
    (ended a turn with its side opened: it would have melded three naturals of any rank) and
    ``ADDED`` (ended a turn with the side's open group of the rank on the table: it would have
    added its naturals).
    A pass counts only where the seat's side has opened (before that a pair may not have been
    enough to take the pile) and the top card was a natural one."""
    n, me, deal = obs.players, obs.seat, obs.deal
    facts: list[dict[tuple[int, str], int]] = [{} for _ in range(n)]
    drawn = [0] * n  # cards each seat has drawn since each fact: added later
    events: list[list[tuple[int, str, int]]] = [[] for _ in range(n)]  # (rank, kind, drawn at)
    top: int | None = None  # the pile's top card, when the log shows it
    n_sides = len(obs.melds)
    log = [e for e in obs.log if e.deal == deal]
    # When each meld on the table now was laid (log position; -1: before the log shows): the
    # entry naming its id, else (laid with a pile take, which names no id) the side's latest
    # take, the latest moment it can have been laid.
    first: dict[int, int] = {}
    last_take = [-1] * n_sides
    for i, e in enumerate(log):
        for mid in e.public.get("melds", ()):
            first.setdefault(mid, i)
        if e.kind.startswith("take") and e.seat is not None:
            last_take[e.seat % n_sides] = i
    laid: list[list[tuple[int, int]]] = []  # per side: (when, rank of an open group or 0)
    for side, ms in enumerate(obs.melds):
        laid.append(
            [
                (
                    first.get(m.id, last_take[side]),
                    m.rank if m.type == "group" and not m.closed and m.rank >= 2 else 0,
                )
                for m in ms
            ]
        )
    opened_turn: list[set[int] | None] = [None] * n
    for i, e in enumerate(log):
        kind, s = e.kind, e.seat
        mine = s is not None and s != me
        if kind == "discard" and e.public.get("card") is not None:
            top = e.public["card"]
            if mine and IS_NATURAL[top]:
                events[s].append((RANK_OF[top], DISCARD, drawn[s]))
            if mine:
                # its side had opened if a meld on the table now was laid before: then it
                # could have added to the side's open groups laid before
                before = [r for when, r in laid[s % n_sides] if when < i]
                opened_turn[s] = {r for r in before if r} if before else None
        elif kind.startswith("take"):
            top = None  # the pile (or its top card) went into a hand
            if mine:
                events[s].clear()  # the pile's cards are in its hand now
                opened_turn[s] = None
        elif kind == "draw" and mine:
            if top is not None and IS_NATURAL[top]:
                events[s].append((RANK_OF[top], PASS, drawn[s]))
            drawn[s] += e.public.get("n", 2)
    sides = obs.melds
    for s in range(n):
        if s == me:
            continue
        open_groups = opened_turn[s]
        if open_groups is not None:
            # its side had opened when it last discarded: what it held after that turn
            for r in range(4, 15):
                events[s].append((r, MELDED, drawn[s]))
            for r in open_groups:
                events[s].append((r, ADDED, drawn[s]))
        for rank, what, at in events[s]:
            if what == PASS and not sides[s % len(sides)]:
                continue
            # a pass is made before the draw it is: its two cards count as drawn since
            since = drawn[s] - at
            facts[s][(rank, what)] = since  # the most recent fact of each kind
    return facts


class Avoided:
    """``read_choices`` of an observation, and the sampled worlds made to agree with it."""

    def __init__(self, obs: Observation):
        self.me = obs.seat
        known = known_holdings(obs)
        self.known = known
        # per seat: rank -> [(cap on the older naturals of the rank, cards drawn since, trust)]
        self.caps: list[dict[int, list[tuple[int, int, float]]]] = []
        for s, facts in enumerate(read_choices(obs)):
            caps: dict[int, list[tuple[int, int, float]]] = {}
            for (r, what), since in facts.items():
                cap = CAPS[what]
                held = sum(1 for k in known[s] if IS_NATURAL[k] and RANK_OF[k] == r)
                if held <= cap:
                    caps.setdefault(r, []).append(
                        (cap, since, DISCARD_TRUST if what == DISCARD else 1.0)
                    )
            self.caps.append(caps if s != self.me else {})
        t = obs.turn
        if t.pending and t.asker >= 0:
            self.caps[t.asker] = {}  # its proposal names cards it must still hold
        self.active = any(self.caps)

    def apply(self, g, rng: random.Random) -> int:
        """Move the extra naturals of each capped rank from each seat's sampled hand into
        ``g``'s stock (swapped with random stock cards of other ranks, never red threes); the
        number of cards moved."""
        if not self.active:
            return 0
        moved = 0
        stock = g.stock
        for s, caps in enumerate(self.caps):
            if not caps:
                continue
            hand, keep = g.hands[s], self.known[s]
            # the stock cards swapped in are never of a rank held to none or one
            strict = {r for r, cs in caps.items() if any(c[0] <= 1 for c in cs)}
            for r, cap, since, trust in [(r, *c) for r, cs in caps.items() for c in cs]:
                at = [j for j, c in enumerate(hand) if _NATURAL_RANK[c] == r]
                if len(at) <= cap or (trust < 1.0 and rng.random() >= trust):
                    continue
                # random cards of the sampled hand stand for the ones drawn since the fact
                new = set(rng.sample(range(len(hand)), min(since, len(hand))))
                at = [j for j in at if j not in new]
                if len(at) <= cap:
                    continue
                at.sort(key=lambda j: KIND_OF_ID[hand[j]] not in keep)  # a known card stays
                free = [
                    i
                    for i, c in enumerate(stock)
                    if not IS_RED3[KIND_OF_ID[c]] and _NATURAL_RANK[c] not in strict
                ]
                for j in at[cap:]:
                    if not free:
                        break
                    i = free.pop(rng.randrange(len(free)))
                    hand[j], stock[i] = stock[i], hand[j]
                    moved += 1
        return moved


class PairRich:
    """Sampled hands as rich in natural pairs as kept hands are: a player keeps its pairs (they
    take the pile) and throws singles away, so a hand it has kept holds more pairs than the same
    number of cards dealt at random (``medium`` self-play, samba 4: 2.07 natural pairs in the next
    player's hand per position against 1.52 in the view's plain samples, docs/journal/2026-12-05-ai-sessions.md, "Session 7").
    ``apply`` swaps each other seat's unknown hand cards with stock cards (Metropolis steps,
    ``steps`` per card), weighting a hand by ``exp(beta * pairs)``; cards the log shows a seat
    holding stay. ``beta`` 1.0 brings the mean to 2.03 on those positions."""

    def __init__(self, obs: Observation, beta: float = 1.0, steps: int = 4):
        self.me, self.beta, self.steps = obs.seat, beta, steps
        self.known = known_holdings(obs)
        t = obs.turn
        self.asker = t.asker if t.pending else -1

    def apply(self, g, rng: random.Random) -> int:
        """Enrich every other seat's sampled hand in ``g``; the number of swaps made."""
        stock = g.stock
        free = [i for i, c in enumerate(stock) if not IS_RED3[KIND_OF_ID[c]]]
        if not free:
            return 0
        swaps = 0
        keep_out = math.exp(-self.beta)  # the chance a step that breaks a pair is taken
        for s, hand in enumerate(g.hands):
            if s in (self.me, self.asker):
                continue
            loose = loose_positions(hand, self.known[s])
            if not loose:
                continue
            count = natural_counts(hand)
            for _ in range(self.steps * len(hand)):
                j = loose[rng.randrange(len(loose))]
                i = free[rng.randrange(len(free))]
                out, inn = _NATURAL_RANK[hand[j]], _NATURAL_RANK[stock[i]]
                if out == inn:
                    continue
                change = (inn > 0 and count[inn] == 1) - (out > 0 and count[out] == 2)
                if change < 0 and rng.random() >= keep_out:
                    continue
                count[out] -= 1
                count[inn] += 1
                hand[j], stock[i] = stock[i], hand[j]
                swaps += 1
        return swaps
