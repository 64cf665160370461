"""Melds: what a set of cards is, whether it obeys a rule set, and what it is worth.

Checks work on card kinds (``cards.py``). A ``TableMeld`` on the table holds physical ids (a
meld *move* is ``moves.Meld``).

>>> from py_engine.rules import get_rules
>>> group_counts_ok(4, 2, get_rules("samba")), group_counts_ok(3, 2, get_rules("samba"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import (
    IS_BLACK3,
    IS_NATURAL,
    IS_RED3,
    IS_WILD,
    KIND_OF_ID,
    RANK_OF,
    SUIT_OF,
    VALUE_OF_KIND,
)
from .errors import IllegalMove
from .rules import RuleSet

GROUP, SEQUENCE, BLACK3, WILD = "group", "sequence", "black3", "wild"
_IS_WILD_ID = [IS_WILD[KIND_OF_ID[c]] for c in range(162)]


class TableMeld:
    """A meld on the table: its type, rank (groups) or suit (sequences), its physical card ids
    (sequences low to high) and, kept with them, how many of those are wild."""

    __slots__ = ("id", "type", "rank", "suit", "cards", "wilds")

    def __init__(
        self,
        id: int,
        type: str,
        rank: int = 0,
        suit: int = -1,
        cards: list[int] | None = None,
        wilds: int | None = None,
    ):
        self.id, self.type, self.rank, self.suit = id, type, rank, suit
        self.cards: list[int] = [] if cards is None else cards
        self.wilds = (
            sum(1 for c in self.cards if IS_WILD[KIND_OF_ID[c]]) if wilds is None else wilds
        )

    def __repr__(self) -> str:
        return f"TableMeld({self.id}, {self.type!r}, {self.rank}, {self.suit}, {self.cards})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableMeld) and (
            self.id,
            self.type,
            self.rank,
            self.suit,
            self.cards,
        ) == (other.id, other.type, other.rank, other.suit, other.cards)

    def copy(self) -> TableMeld:
        """An independent copy."""
        return TableMeld(self.id, self.type, self.rank, self.suit, list(self.cards), self.wilds)

    def add(self, ids: list[int]) -> None:
        """Put cards on this meld (sequences stay in rank order)."""
        self.cards = sort_sequence(self.cards + ids) if self.type == SEQUENCE else self.cards + ids
        w = 0
        for c in ids:
            if _IS_WILD_ID[c]:
                w += 1
        self.wilds += w

    def kinds(self) -> list[int]:
        return [KIND_OF_ID[c] for c in self.cards]

    def finished(self, rules: RuleSet) -> str | None:
        """None, or what finished meld this is: natural, mixed, samba, wild."""
        return finished_kind(self.type, len(self.cards), self.wilds, rules)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "rank": self.rank,
            "suit": self.suit,
            "cards": list(self.cards),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> TableMeld:
        return TableMeld(
            int(d["id"]),
            str(d["type"]),
            int(d.get("rank", 0)),
            int(d.get("suit", -1)),
            [int(c) for c in d["cards"]],
        )


def finished_kind(mtype: str, n: int, wilds: int, rules: RuleSet) -> str | None:
    """What a meld of ``n`` cards (``wilds`` of them wild) is when finished, or None: a natural or
    mixed canasta, a samba, a wild-card meld (section 6)."""
    if mtype == GROUP:
        return None if n < rules.canasta_size else ("mixed" if wilds else "natural")
    if mtype == SEQUENCE:
        return "samba" if n >= rules.sequence_max else None
    if mtype == WILD:
        return "wild" if n >= rules.wild_meld_max else None
    return None


def wild_count(kinds: Iterable[int]) -> int:
    return sum(1 for k in kinds if IS_WILD[k])


def group_counts_problem(naturals: int, wilds: int, rules: RuleSet) -> str | None:
    """The reason code a group of ``naturals`` + ``wilds`` cards breaks, or None (section 6)."""
    if naturals + wilds < 3:
        return "too_few_cards"
    if naturals == 0:
        return "wild_only"
    if (
        wilds > rules.group_max_wilds
        or naturals < rules.group_naturals_per_wild * wilds
        or naturals < rules.group_min_naturals
        or (rules.group_naturals_exceed_wilds and naturals <= wilds)
    ):
        return "too_many_wilds"
    return None


def group_counts_ok(naturals: int, wilds: int, rules: RuleSet) -> bool:
    """May a group hold ``naturals`` natural cards and ``wilds`` wild cards?"""
    return group_counts_problem(naturals, wilds, rules) is None


def check_group_counts(naturals: int, wilds: int, rules: RuleSet, detail: str = "") -> None:
    code = group_counts_problem(naturals, wilds, rules)
    if code is not None:
        raise IllegalMove(code, detail)


def classify(kinds: list[int], rules: RuleSet, detail: str = "") -> tuple[str, int, int]:
    """Type, rank and suit of a new meld made of ``kinds``; raises IllegalMove if it is none."""
    if not kinds:
        raise IllegalMove("empty_meld", detail)
    if any(IS_RED3[k] for k in kinds):
        raise IllegalMove("red_three", detail)
    if any(IS_BLACK3[k] for k in kinds):
        if not all(IS_BLACK3[k] for k in kinds):
            raise IllegalMove("not_a_meld", detail)
        if len(kinds) < 3:
            raise IllegalMove("too_few_cards", detail)
        return BLACK3, 3, -1
    wilds = wild_count(kinds)
    naturals = [k for k in kinds if not IS_WILD[k]]
    if not naturals:
        if rules.wild_melds and 3 <= len(kinds) <= rules.wild_meld_max:
            return WILD, 0, -1
        raise IllegalMove("wild_only" if len(kinds) >= 3 else "too_few_cards", detail)
    ranks = {RANK_OF[k] for k in naturals}
    if len(ranks) == 1:
        check_group_counts(len(naturals), wilds, rules, detail)
        return GROUP, ranks.pop(), -1
    if not rules.sequences:
        raise IllegalMove("mixed_ranks", detail)
    check_sequence(kinds, rules, detail)
    return SEQUENCE, 0, SUIT_OF[kinds[0]]


def shape_of(kinds: Sequence[int]) -> tuple[str, int, int]:
    """``classify``'s answer for kinds already known to make a valid new meld (the legal-move
    generator's), without its checks: black threes; no natural card, a wild meld; naturals of
    one rank, a group of that rank; else a sequence of the first card's suit."""
    k0 = kinds[0]
    if IS_BLACK3[k0]:
        return BLACK3, 3, -1
    rank = 0
    for k in kinds:
        if not IS_WILD[k]:
            r = RANK_OF[k]
            if rank and r != rank:
                return SEQUENCE, 0, SUIT_OF[k0]
            rank = r
    if not rank:
        return WILD, 0, -1
    return GROUP, rank, -1


def check_sequence(kinds: list[int], rules: RuleSet, detail: str = "") -> None:
    if any(IS_WILD[k] or not IS_NATURAL[k] for k in kinds):
        raise IllegalMove("sequence_wild", detail)
    if len({SUIT_OF[k] for k in kinds}) != 1:
        raise IllegalMove("sequence_suit", detail)
    ranks = sorted(RANK_OF[k] for k in kinds)
    if len(ranks) < 3:
        raise IllegalMove("too_few_cards", detail)
    if len(ranks) > rules.sequence_max:
        raise IllegalMove("sequence_too_long", detail)
    if any(b != a + 1 for a, b in zip(ranks, ranks[1:])):
        raise IllegalMove("sequence_gap", detail)


def addition_problem(
    meld: TableMeld, new: list[int] | tuple[int, ...], rules: RuleSet
) -> str | None:
    """The reason code for which the kinds ``new`` may not join ``meld``, or None (section 6)."""
    if not new:
        return "empty_meld"
    for k in new:
        if IS_RED3[k]:
            return "red_three"
    t = meld.type
    if t == GROUP:
        rank = meld.rank
        w_new = 0
        for k in new:
            if IS_WILD[k]:
                w_new += 1
            elif RANK_OF[k] != rank:
                return "mixed_ranks"
        n_old = len(meld.cards)
        if w_new and not rules.wild_onto_canasta and n_old >= rules.canasta_size:
            return "wild_on_canasta"
        wilds = meld.wilds + w_new
        return group_counts_problem(n_old + len(new) - wilds, wilds, rules)
    if t == SEQUENCE:
        n_old = len(meld.cards)
        if n_old >= rules.sequence_max:
            return "meld_closed"
        suit = meld.suit
        if any(IS_NATURAL[k] and SUIT_OF[k] != suit for k in new):
            return "sequence_suit"
        if any(not IS_NATURAL[k] for k in new):
            return "sequence_wild"
        n = n_old + len(new)
        if n > rules.sequence_max:
            return "sequence_too_long"
        ranks = {RANK_OF[k] for k in new}
        lo = RANK_OF[KIND_OF_ID[meld.cards[0]]]
        hi = RANK_OF[KIND_OF_ID[meld.cards[-1]]]
        if (
            len(ranks) != len(new)
            or any(lo <= r <= hi for r in ranks)
            or max(hi, *ranks) - min(lo, *ranks) + 1 != n
        ):
            return "sequence_gap"
        return None
    if t == BLACK3:
        return None if all(IS_BLACK3[k] for k in new) else "not_a_meld"
    if t == WILD:
        if len(meld.cards) >= rules.wild_meld_max:
            return "meld_closed"
        if not all(IS_WILD[k] for k in new) or len(meld.cards) + len(new) > rules.wild_meld_max:
            return "not_a_meld"
    return None


def canasta_kind(mtype: str, kinds: list[int], rules: RuleSet) -> str | None:
    """None, or what finished meld this is: natural, mixed, samba, wild."""
    return finished_kind(mtype, len(kinds), wild_count(kinds), rules)


def cards_needed(mtype: str, n: int, rules: RuleSet) -> int:
    if mtype == GROUP:
        return max(0, rules.canasta_size - n)
    if mtype == SEQUENCE:
        return max(0, rules.sequence_max - n)
    if mtype == WILD:
        return max(0, rules.wild_meld_max - n)
    return 0


def is_closed(mtype: str, n: int, rules: RuleSet) -> bool:
    return (mtype == SEQUENCE and n >= rules.sequence_max) or (
        mtype == WILD and n >= rules.wild_meld_max
    )


def bonus_of(mtype: str, kinds: list[int], rules: RuleSet) -> int:
    return finished_bonus(canasta_kind(mtype, kinds, rules), rules)


def finished_bonus(kind: str | None, rules: RuleSet) -> int:
    """The bonus of a finished meld of ``kind`` (``finished_kind``'s answer; None: 0)."""
    if kind is None:
        return 0
    if kind == "natural":
        return rules.natural_canasta_bonus
    if kind == "mixed":
        return rules.mixed_canasta_bonus
    if kind == "samba":
        return rules.samba_bonus
    if kind == "wild":
        return rules.wild_canasta_bonus
    raise KeyError(kind)


def value_of(kinds: Iterable[int]) -> int:
    return sum(VALUE_OF_KIND[k] for k in kinds)


_RANK_OF_ID = [RANK_OF[KIND_OF_ID[c]] for c in range(162)]
VALUE_OF_ID = [VALUE_OF_KIND[KIND_OF_ID[c]] for c in range(162)]


def meld_value(m: TableMeld) -> int:
    """``value_of(m.kinds())``: the card points of a table meld."""
    return sum(map(VALUE_OF_ID.__getitem__, m.cards))


def meld_bonus(m: TableMeld, rules: RuleSet) -> int:
    """``bonus_of(m.type, m.kinds(), rules)``, from the meld's kept wild-card count."""
    return finished_bonus(finished_kind(m.type, len(m.cards), m.wilds, rules), rules)


def sort_sequence(ids: list[int]) -> list[int]:
    return sorted(ids, key=_RANK_OF_ID.__getitem__)
