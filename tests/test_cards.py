"""Unit tests for py_engine/cards.py against docs/rules.md section 1 and docs/formats.md."""

from __future__ import annotations

from collections import Counter

import pytest

from py_engine import cards
from py_engine.cards import (
    IS_BLACK3,
    IS_NATURAL,
    IS_RED3,
    IS_WILD,
    JOKER,
    KIND_OF_ID,
    VALUE_OF_KIND,
    deck_ids,
    id_text,
    kind_text,
    parse_kind,
)

DECK = deck_ids()
RANKS = "23456789TJQKA"
SUITS = "CDHS"


def _value_from_rule_text(text: str) -> int:
    """Card values written out from docs/rules.md section 1, by card text (independent of the
    engine's tables): joker 50; 2 and A 20; K..8 10; 7..4 5; black 3 5; red 3 nothing."""
    if text == "JK":
        return 50
    rank, suit = text[0], text[1]
    if rank in "2A":
        return 20
    if rank in "KQJT98":
        return 10
    if rank in "7654":
        return 5
    assert rank == "3"
    return 5 if suit in "CS" else 0


def test_deck_has_162_cards_with_unique_ids():
    assert len(DECK) == 162
    assert len(set(DECK)) == 162
    assert set(DECK) == set(range(162))


def test_three_copies_of_each_card_and_six_jokers():
    counts = Counter(id_text(c) for c in DECK)
    assert len(counts) == 53
    assert counts["JK"] == 6
    assert all(n == 3 for t, n in counts.items() if t != "JK")


def test_wild_natural_and_three_counts():
    kinds = [KIND_OF_ID[c] for c in DECK]
    assert sum(IS_WILD[k] for k in kinds) == 18
    assert sum(IS_NATURAL[k] for k in kinds) == 132
    assert sum(IS_RED3[k] for k in kinds) == 6
    assert sum(IS_BLACK3[k] for k in kinds) == 6
    # every card is exactly one of wild / natural / red three / black three
    for k in set(kinds):
        assert IS_WILD[k] + IS_NATURAL[k] + IS_RED3[k] + IS_BLACK3[k] == 1, kind_text(k)


def test_wild_cards_are_jokers_and_twos():
    wild_texts = sorted({id_text(c) for c in DECK if IS_WILD[KIND_OF_ID[c]]})
    assert wild_texts == ["2C", "2D", "2H", "2S", "JK"]


def test_red_threes_are_hearts_and_diamonds():
    assert sorted({id_text(c) for c in DECK if IS_RED3[KIND_OF_ID[c]]}) == ["3D", "3H"]
    assert sorted({id_text(c) for c in DECK if IS_BLACK3[KIND_OF_ID[c]]}) == ["3C", "3S"]


@pytest.mark.parametrize("text", [r + s for r in RANKS for s in SUITS] + ["JK"])
def test_card_value_matches_rule_text(text):
    assert VALUE_OF_KIND[parse_kind(text)] == _value_from_rule_text(text)


def test_deck_value_sum_from_rule_text():
    # Computed from docs/rules.md section 1 by hand, per 52-card pack:
    # 2s and As: 8 cards * 20 = 160; K..8: 24 * 10 = 240; 7..4: 16 * 5 = 80;
    # black 3s: 2 * 5 = 10; red 3s: 0  -> 490 per pack; three packs 1470; six jokers 300.
    expected = 3 * (8 * 20 + 24 * 10 + 16 * 5 + 2 * 5) + 6 * 50
    assert expected == 1770
    assert sum(VALUE_OF_KIND[KIND_OF_ID[c]] for c in DECK) == expected
    assert sum(_value_from_rule_text(id_text(c)) for c in DECK) == expected


def test_all_53_kinds_round_trip():
    seen = set()
    for k in range(cards.N_KINDS):
        t = kind_text(k)
        assert parse_kind(t) == k
        assert parse_kind(t.lower()) == k
        seen.add(t)
    assert len(seen) == 53
    assert seen == {r + s for r in RANKS for s in SUITS} | {"JK"}


def test_card_id_layout_matches_formats_doc():
    # docs/formats.md: id = deck * 52 + suit * 13 + rank - 2, jokers 156..161
    for deck in range(3):
        for si, s in enumerate(SUITS):
            for rank in range(2, 15):
                assert id_text(deck * 52 + si * 13 + rank - 2) == RANKS[rank - 2] + s
    assert all(KIND_OF_ID[c] == JOKER for c in range(156, 162))


@pytest.mark.parametrize(
    "text,expected",
    [
        ("10H", "TH"),
        ("10h", "TH"),
        ("th", "TH"),
        ("7s", "7S"),
        ("as", "AS"),
        ("jk", "JK"),
        ("X", "JK"),
        ("joker", "JK"),
        ("Joker", "JK"),
        (" 7S ", "7S"),
        ("qD", "QD"),
    ],
)
def test_aliases_and_case_accepted(text, expected):
    assert kind_text(parse_kind(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "1H",
        "11H",
        "7",
        "S",
        "7Z",
        "ZS",
        "7SS",
        "10",
        "100H",
        "1OH",
        "JKR",
        "7 S",
        "S7",
        "0H",
        "KK",
    ],
)
def test_malformed_cards_rejected(text):
    with pytest.raises(ValueError) as e:
        parse_kind(text)
    assert "malformed" in str(e.value)
