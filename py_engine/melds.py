"""Melds: what a set of cards is, whether it obeys a rule set, and what it is worth.

Checks work on card kinds (``cards.py``). A ``Meld`` on the table holds physical ids.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (IS_BLACK3, IS_NATURAL, IS_RED3, IS_WILD, KIND_OF_ID, RANK_OF, SUIT_OF,
                    VALUE_OF_KIND)
from .errors import IllegalMove
from .rules import RuleSet

GROUP, SEQUENCE, BLACK3, WILD = "group", "sequence", "black3", "wild"


@dataclass
class Meld:
    id: int
    type: str
    rank: int = 0          # groups
    suit: int = -1         # sequences
    cards: list[int] = field(default_factory=list)   # physical ids (sequences low to high)

    def kinds(self) -> list[int]:
        return [KIND_OF_ID[c] for c in self.cards]

    def to_json(self) -> dict:
        return {"id": self.id, "type": self.type, "rank": self.rank, "suit": self.suit,
                "cards": list(self.cards)}

    @staticmethod
    def from_json(d: dict) -> "Meld":
        return Meld(int(d["id"]), str(d["type"]), int(d.get("rank", 0)), int(d.get("suit", -1)),
                    [int(c) for c in d["cards"]])


def wild_count(kinds) -> int:
    return sum(1 for k in kinds if IS_WILD[k])


def check_group_counts(naturals: int, wilds: int, rules: RuleSet, detail: str = "") -> None:
    if naturals + wilds < 3:
        raise IllegalMove("too_few_cards", detail)
    if naturals == 0:
        raise IllegalMove("wild_only", detail)
    if (wilds > rules.group_max_wilds or naturals < rules.group_naturals_per_wild * wilds
            or naturals < rules.group_min_naturals
            or (rules.group_naturals_exceed_wilds and naturals <= wilds)):
        raise IllegalMove("too_many_wilds", detail)


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


def check_addition(mtype: str, rank: int, suit: int, old: list[int], new: list[int],
                   rules: RuleSet, detail: str = "") -> None:
    """May the kinds ``new`` join a meld of kinds ``old``?"""
    if not new:
        raise IllegalMove("empty_meld", detail)
    if any(IS_RED3[k] for k in new):
        raise IllegalMove("red_three", detail)
    allk = old + new
    if mtype == GROUP:
        if any(not IS_WILD[k] and RANK_OF[k] != rank for k in new):
            raise IllegalMove("mixed_ranks", detail)
        if (not rules.wild_onto_canasta and len(old) >= rules.canasta_size
                and any(IS_WILD[k] for k in new)):
            raise IllegalMove("wild_on_canasta", detail)
        w = wild_count(allk)
        check_group_counts(len(allk) - w, w, rules, detail)
    elif mtype == SEQUENCE:
        if len(old) >= rules.sequence_max:
            raise IllegalMove("meld_closed", detail)
        if any(not IS_WILD[k] and IS_NATURAL[k] and SUIT_OF[k] != suit for k in new):
            raise IllegalMove("sequence_suit", detail)
        check_sequence(allk, rules, detail)
    elif mtype == BLACK3:
        if not all(IS_BLACK3[k] for k in new):
            raise IllegalMove("not_a_meld", detail)
    elif mtype == WILD:
        if len(old) >= rules.wild_meld_max:
            raise IllegalMove("meld_closed", detail)
        if not all(IS_WILD[k] for k in new) or len(allk) > rules.wild_meld_max:
            raise IllegalMove("not_a_meld", detail)


def canasta_kind(mtype: str, kinds: list[int], rules: RuleSet) -> str | None:
    """None, or what finished meld this is: natural, mixed, samba, wild."""
    n = len(kinds)
    if mtype == GROUP and n >= rules.canasta_size:
        return "mixed" if wild_count(kinds) else "natural"
    if mtype == SEQUENCE and n >= rules.sequence_max:
        return "samba"
    if mtype == WILD and n >= rules.wild_meld_max:
        return "wild"
    return None


def cards_needed(mtype: str, n: int, rules: RuleSet) -> int:
    if mtype == GROUP:
        return max(0, rules.canasta_size - n)
    if mtype == SEQUENCE:
        return max(0, rules.sequence_max - n)
    if mtype == WILD:
        return max(0, rules.wild_meld_max - n)
    return 0


def is_closed(mtype: str, n: int, rules: RuleSet) -> bool:
    return ((mtype == SEQUENCE and n >= rules.sequence_max)
            or (mtype == WILD and n >= rules.wild_meld_max))


def bonus_of(mtype: str, kinds: list[int], rules: RuleSet) -> int:
    ck = canasta_kind(mtype, kinds, rules)
    return {None: 0, "natural": rules.natural_canasta_bonus, "mixed": rules.mixed_canasta_bonus,
            "samba": rules.samba_bonus, "wild": rules.wild_canasta_bonus}[ck]


def value_of(kinds) -> int:
    return sum(VALUE_OF_KIND[k] for k in kinds)


def sort_sequence(ids: list[int]) -> list[int]:
    return sorted(ids, key=lambda c: RANK_OF[KIND_OF_ID[c]])
