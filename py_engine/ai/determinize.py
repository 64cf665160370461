"""Determinization: a full ``Game`` consistent with what one seat observes.

The seat's own hand, the pile, the melds, the red threes, the scores and the turn state are
copied from its observation (``observation.Observation``); the cards the seat cannot see (the other hands and the stock) are dealt at
random from the unseen cards, with the right counts. Cards another player was seen to pick up
with the pile (public: the log names the whole pile) and has not melded or discarded since are
put back into that player's hand first, as far as its hand size allows.

The result is a sample, never the real state: a bot may play it out freely.

>>> from py_engine.observation import Observation
>>> from py_engine.state import Game
>>> import random
>>> g = Game.new("samba", 4, seed=5)
>>> d = determinize(Observation.for_seat(g, 0), random.Random(1))
>>> [len(h) for h in d.hands] == [len(h) for h in g.hands], sorted(d.hands[0]) == sorted(g.hands[0])
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..cards import IS_RED3, KIND_BY_TEXT, KIND_OF_ID, deck_ids
from ..melds import SEQUENCE, TableMeld, sort_sequence
from ..moves import Move
from ..observation import Observation
from ..state import Game, Turn

_TYPES = {"group": "group", "sequence": "sequence", "black3": "black3", "wild": "wild"}


def known_holdings(obs: Observation) -> list[list[int]]:
    """Per seat, card kinds known (from the public log) to be in that seat's hand.

    A pile take puts the pile, less its top card, into the taker's hand (red threes aside where
    they are laid at once); the cards it laid with the top card and in its other parts, and
    later melds, discards and red threes by that seat, remove cards again (each read from the
    entry's facts, which name cards by their kinds). Only the current deal's part of the
    observation's (truncated) log is used, so this is a lower bound.
    """
    auto_red3 = obs.rules.red_threes_automatic
    held: list[list[int]] = [[] for _ in range(obs.players)]
    deal, me = obs.deal, obs.seat
    for e in obs.log:
        s = e.seat
        if e.deal != deal or s is None or s == me:
            continue
        kind = e.kind
        pub = e.public
        if kind == "take_pile" and "pile" in pub:
            # (the log names the pile taken by its cards' texts)
            rest = [KIND_BY_TEXT[c] for c in pub["pile"][:-1]]
            held[s].extend(k for k in rest if not (auto_red3 and IS_RED3[k]))
            _remove(held[s], pub.get("with", ()))
            for p in pub.get("parts", ()):
                _remove(held[s], p["cards"])
        elif kind == "meld":
            _remove(held[s], pub.get("laid", ()))
        elif kind == "discard" or kind == "red3":
            _remove(held[s], (pub["card"],))
    return held


def _remove(cards: list[int], kinds: Iterable[int]) -> None:
    """Take the cards of ``kinds`` out of ``cards`` (kinds), where held."""
    for k in kinds:
        if k in cards:
            cards.remove(k)


def _asked_kinds(move: Move) -> list[int]:
    """The kinds a partner's asked going-out action (the turn's proposal) names: its parts'
    cards and its discard."""
    out: list[int] = []
    for p in getattr(move, "parts", ()):
        out += p.cards
    discard = getattr(move, "discard", None)
    if discard is not None:
        out.append(discard)
    return out


def shuffle(x: list, rng: random.Random) -> None:
    """``rng.shuffle(x)``: the same draws and the same order (CPython's ``Random.shuffle`` with
    its ``_randbelow`` written out, without a call per card; a test compares the two)."""
    if type(rng) is not random.Random:
        rng.shuffle(x)  # (a subclass may draw otherwise)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def determinize(obs: Observation, rng: random.Random, use_log: bool = True) -> Game:
    """A Game consistent with ``obs`` (own hand exact, hidden cards sampled with ``rng``)."""
    return Determinizer(obs, use_log).sample(rng)


class Determinizer:
    """``determinize`` for many samples of one observation: what depends on it only (the
    unseen cards, the holdings the log shows, the table) is worked out once, and each
    ``sample(rng)`` deals the hidden cards (the same world ``determinize(obs, rng)`` gives)."""

    def __init__(self, obs: Observation, use_log: bool = True):
        rules = self.rules = obs.rules
        self.me, self.n = obs.seat, obs.players
        self.unseen = sorted(set(deck_ids(rules.decks, rules.jokers)) - obs.cards())
        self.sizes = list(obs.hand_sizes)
        self.own = list(obs.hand)
        known = known_holdings(obs) if use_log else [[] for _ in range(self.n)]
        t = obs.turn
        if t.proposal is not None and t.asker not in (-1, self.me):
            # the partner's proposed going-out action names cards it holds
            known[t.asker] = _asked_kinds(t.proposal)
        self.known = known
        self.stock_size = obs.stock
        melds: list[list[TableMeld]] = [[] for _ in obs.melds]
        top_id = 0
        for s, side in enumerate(obs.melds):
            for m in side:
                ids = list(m.cards)
                rank = m.rank if m.rank >= 2 else (3 if m.type == "black3" else 0)
                melds[s].append(
                    TableMeld(
                        m.id,
                        _TYPES[m.type],
                        rank,
                        m.suit,
                        sort_sequence(ids) if m.type == SEQUENCE else ids,
                    )
                )
                top_id = max(top_id, m.id)
        pile = list(obs.pile)
        # The table, the scores and the turn: a game every sample copies, then deals.
        g = self.template = Game.from_position(
            rules,
            self.n,
            obs.target,
            0,
            hands=[[] for _ in range(self.n)],
            stock=[],
            pile=pile,
            melds=melds,
            red3=[list(side) for side in obs.red_threes],
            phase=obs.phase,
            current=obs.current if obs.current is not None else self.me,
            dealer=obs.dealer,
            deal_no=obs.deal,
            scores=list(obs.scores),
            pile_marker=rules.covered_red3_freezes_pile
            and any(IS_RED3[KIND_OF_ID[c]] for c in pile),
            next_meld_id=top_id + 1,
            turn=Turn(
                asked=bool(t.asked),
                refused=bool(t.refused),
                pending=t.pending,
                asker=t.asker if t.pending else -1,
            ),
            version=obs.version,
        )
        g.history = [list(h) for h in obs.history]

    def sample(self, rng: random.Random) -> Game:
        me, n, sizes = self.me, self.n, self.sizes
        unseen = list(self.unseen)
        shuffle(unseen, rng)
        hands: list[list[int]] = [[] for _ in range(n)]
        hands[me] = list(self.own)
        pool_by_kind: dict[int, list[int]] | None = None  # (made when a holding is known)
        taken: set[int] = set()
        for s, kinds in enumerate(self.known):
            for k in kinds:
                if s != me and len(hands[s]) < sizes[s]:
                    if pool_by_kind is None:
                        pool_by_kind = {}
                        for c in unseen:
                            pool_by_kind.setdefault(KIND_OF_ID[c], []).append(c)
                    if pool_by_kind.get(k):
                        c = pool_by_kind[k].pop()
                        hands[s].append(c)
                        taken.add(c)
        rest = [c for c in unseen if c not in taken] if taken else unseen
        # Red threes are never held where they are laid at once: keep them for the stock.
        if self.rules.red_threes_automatic:
            reds = [c for c in rest if IS_RED3[KIND_OF_ID[c]]]
            rest = [c for c in rest if not IS_RED3[KIND_OF_ID[c]]]
        else:
            reds = []
        at = 0
        for s in range(n):
            if s == me:
                continue
            need = sizes[s] - len(hands[s])
            if need > 0:
                hands[s].extend(rest[at : at + need])
                at += need
        stock = rest[at:] + reds
        shuffle(stock, rng)
        if len(stock) != self.stock_size:
            # Only possible when the observation is inconsistent (e.g. more red threes than stock room).
            raise ValueError(
                f"cannot determinize: {len(stock)} cards for a stock of {self.stock_size}"
            )
        g = self.template.copy(log=True)
        g.hands, g.stock = hands, stock
        return g


def laid_red_threes(g: Game, me: int) -> None:
    """Where red threes are laid by choice (dutch), players lay them as soon as they hold them
    (``medium`` does, in its first move of a turn), so a sampled red three in another player's
    hand is swapped with a stock card: otherwise a move that ends the deal at once looks good
    for the -750 the sampled opponents would pay for cards they would have laid."""
    if g.rules.red_threes_automatic:
        return
    stock = g.stock
    free = [i for i, c in enumerate(stock) if not IS_RED3[KIND_OF_ID[c]]]
    for s, hand in enumerate(g.hands):
        if s == me:
            continue
        for j, c in enumerate(hand):
            if IS_RED3[KIND_OF_ID[c]] and free:
                i = free.pop()
                hand[j], stock[i] = stock[i], c
