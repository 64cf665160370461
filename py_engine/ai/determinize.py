"""Determinization: a full ``Game`` consistent with what one seat's view shows.

The seat's own hand, the pile, the melds, the red threes, the scores and the turn state are
copied from the view; the cards the seat cannot see (the other hands and the stock) are dealt at
random from the unseen cards, with the right counts. Cards another player was seen to pick up
with the pile (public: the log names the whole pile) and has not melded or discarded since are
put back into that player's hand first, as far as its hand size allows.

The result is a sample, never the real state: a bot may play it out freely.

>>> from py_engine.state import Game
>>> from py_engine.views import view_for
>>> import random
>>> g = Game.new("samba", 4, seed=5)
>>> d = determinize(view_for(g, 0), random.Random(1))
>>> [len(h) for h in d.hands] == [len(h) for h in g.hands], sorted(d.hands[0]) == sorted(g.hands[0])
(True, True)
"""

from __future__ import annotations

import random

from ..cards import IS_RED3, KIND_BY_TEXT, KIND_OF_ID, deck_ids
from ..cards import RANK_CHARS as _RANKS
from ..melds import SEQUENCE, TableMeld, sort_sequence
from ..moves import parse_move
from ..rules import get_rules
from ..state import Game, Turn

_TYPES = {"group": "group", "sequence": "sequence", "black3": "black3", "wild": "wild"}


def known_holdings(view: dict) -> list[list[int]]:
    """Per seat, card kinds known (from the public log) to be in that seat's hand.

    A pile take puts the pile, less its top card, into the taker's hand (red threes aside where
    they are laid at once); the cards it laid with the top card and in its other parts, and
    later melds, discards and red threes by that seat, remove cards again (each read from the
    entry's facts, docs/bridge.md). Only the current deal's part of the (truncated) log is used,
    so this is a lower bound.
    """
    n = view["players"]
    auto_red3 = not view["rules"]["red_threes_by_choice"]
    held: list[list[int]] = [[] for _ in range(n)]
    deal = view["deal"]
    for e in view.get("log", []):
        s = e.get("seat")
        if e.get("deal") != deal or s is None or s == view["seat"]:
            continue
        kind = e.get("kind")
        if kind == "take_pile" and "pile" in e:
            rest = [KIND_BY_TEXT[c] for c in e["pile"][:-1]]
            held[s].extend(k for k in rest if not (auto_red3 and IS_RED3[k]))
            _remove(held[s], e.get("with", ()))
            for p in e.get("parts", ()):
                _remove(held[s], p["cards"])
        elif kind == "meld":
            _remove(held[s], e.get("laid", ()))
        elif kind == "discard" or kind == "red3":
            _remove(held[s], (e["card"],))
    return held


def _remove(cards: list[int], texts) -> None:
    """Take the cards named by ``texts`` (card texts) out of ``cards`` (kinds), where held."""
    for t in texts:
        k = KIND_BY_TEXT[t]
        if k in cards:
            cards.remove(k)


def _asked_kinds(pending: str) -> list[int]:
    """The kinds a partner's asked going-out action (its move text) names: its parts' cards
    and its discard."""
    move = parse_move(pending)
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


def seen_ids(view: dict) -> set[int]:
    ids = {c["id"] for c in view["hand"]}
    ids.update(c["id"] for c in view["pile"]["cards"])
    for side in view["melds"]:
        for m in side:
            ids.update(c["id"] for c in m["cards"])
    for side in view["red_threes"]:
        ids.update(c["id"] for c in side)
    return ids


def determinize(view: dict, rng: random.Random, use_log: bool = True) -> Game:
    """A Game consistent with ``view`` (own hand exact, hidden cards sampled with ``rng``)."""
    return Determinizer(view, use_log).sample(rng)


class Determinizer:
    """``determinize`` for many samples of one view: what depends on the view only (the unseen
    cards, the holdings the log shows, the table) is worked out once, and each ``sample(rng)``
    deals the hidden cards (the same world ``determinize(view, rng)`` gives)."""

    def __init__(self, view: dict, use_log: bool = True):
        rules = self.rules = get_rules(view["rules"]["name"])
        self.me, self.n = view["seat"], view["players"]
        self.unseen = sorted(set(deck_ids(rules.decks, rules.jokers)) - seen_ids(view))
        self.sizes = list(view["hand_sizes"])
        self.own = [c["id"] for c in view["hand"]]
        known = known_holdings(view) if use_log else [[] for _ in range(self.n)]
        t = view.get("turn") or {}
        if t.get("pending") and t.get("asker", -1) not in (-1, self.me):
            # the partner's proposed going-out action names cards it holds
            known[t["asker"]] = _asked_kinds(t["pending"])
        self.known = known
        self.stock_size = view["stock"]
        melds: list[list[TableMeld]] = [[] for _ in view["melds"]]
        top_id = 0
        for s, side in enumerate(view["melds"]):
            for m in side:
                ids = [c["id"] for c in m["cards"]]
                rank = (
                    _RANKS.index(m["rank"]) + 2
                    if m["rank"]
                    else (3 if m["type"] == "black3" else 0)
                )
                suit = "CDHS".index(m["suit"]) if m["suit"] else -1
                melds[s].append(
                    TableMeld(
                        m["id"],
                        _TYPES[m["type"]],
                        rank,
                        suit,
                        sort_sequence(ids) if m["type"] == SEQUENCE else ids,
                    )
                )
                top_id = max(top_id, m["id"])
        pile = [c["id"] for c in view["pile"]["cards"]]
        # The table, the scores and the turn: a game every sample copies, then deals.
        g = self.template = Game.from_position(
            rules,
            self.n,
            view["target"],
            0,
            hands=[[] for _ in range(self.n)],
            stock=[],
            pile=pile,
            melds=melds,
            red3=[[c["id"] for c in side] for side in view["red_threes"]],
            phase=view["phase"],
            current=view["current"] if view["current"] is not None else self.me,
            dealer=view["dealer"],
            deal_no=view["deal"],
            scores=list(view["scores"]),
            pile_marker=rules.covered_red3_freezes_pile
            and any(IS_RED3[KIND_OF_ID[c]] for c in pile),
            next_meld_id=top_id + 1,
            turn=Turn(
                asked=bool(t.get("asked")),
                refused=bool(t.get("refused")),
                pending=t.get("pending"),
                asker=t.get("asker", -1) if t.get("pending") else -1,
            ),
            version=view.get("version", 0),
        )
        g.history = [list(h) for h in view.get("history", [])]

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
            # Only possible when the view is inconsistent (e.g. more red threes than stock room).
            raise ValueError(
                f"cannot determinize: {len(stock)} cards for a stock of {self.stock_size}"
            )
        g = self.template.copy(log=True)
        g.hands, g.stock = hands, stock
        return g


def laid_red_threes(g: Game, me: int, view: dict) -> None:
    """Where red threes are laid by choice (dutch), players lay them as soon as they hold them
    (``medium`` does, in its first move of a turn), so a sampled red three in another player's
    hand is swapped with a stock card: otherwise a move that ends the deal at once looks good
    for the -750 the sampled opponents would pay for cards they would have laid."""
    if not view["rules"].get("red_threes_by_choice"):
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
