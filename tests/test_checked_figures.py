"""docs/rules.md section 12: the checked figures."""

from __future__ import annotations

import pytest

from py_engine import Game
from py_engine.cards import KIND_OF_ID, deck_ids, parse_kind
from py_engine.melds import GROUP, SEQUENCE, WILD, TableMeld, bonus_of, value_of
from py_engine.rules import get_rules
from py_engine.scoring import score_side

R = get_rules("samba")


def ids(*cards):
    pool = list(deck_ids())
    out = []
    for c in cards:
        i = next(x for x in pool if KIND_OF_ID[x] == parse_kind(c))
        pool.remove(i)
        out.append(i)
    return out


SAMBA_4_10 = TableMeld(1, SEQUENCE, 0, 2, ids("4H", "5H", "6H", "7H", "8H", "9H", "TH"))
SEVEN_KINGS = TableMeld(2, GROUP, 13, -1, ids(*["KS", "KH", "KD", "KC", "KS", "KH", "KD"]))


def test_12_samba_4_to_10_of_hearts():
    assert value_of(SAMBA_4_10.kinds()) == 50
    assert value_of(SAMBA_4_10.kinds()) + bonus_of(SEQUENCE, SAMBA_4_10.kinds(), R) == 1550


def test_12_seven_kings_natural_canasta():
    assert value_of(SEVEN_KINGS.kinds()) == 70
    assert value_of(SEVEN_KINGS.kinds()) + bonus_of(GROUP, SEVEN_KINGS.kinds(), R) == 570


def test_12_side_with_those_two_melds_and_going_out():
    s = score_side(R, 4, [SAMBA_4_10, SEVEN_KINGS], [], [[], []], went_out=True)
    assert s["total"] == 2320


@pytest.mark.parametrize("low,expected", [(4, 50), (5, 55), (6, 60), (7, 65), (8, 80)])
def test_12_samba_card_values(low, expected):
    ranks = "23456789TJQKA"
    cards = [ranks[r - 2] + "S" for r in range(low, low + 7)]
    assert value_of([parse_kind(c) for c in cards]) == expected


def test_12_stock_after_four_player_deal():
    for seed in range(30):
        g = Game.new("samba", 4, seed=seed)
        laid = sum(len(r) for r in g.red3)  # laid red threes were replaced from the stock
        assert len(g.stock) + laid == 162 - 60 - len(g.pile)
        assert len(g.stock) + laid <= 101


def test_12_bolivia_five_twos_and_two_jokers():
    b = get_rules("bolivia")
    bolivia = TableMeld(3, WILD, 0, -1, ids("2C", "2D", "2H", "2S", "2C", "JK", "JK"))
    assert bolivia.finished(b) == "wild"
    assert value_of(bolivia.kinds()) == 200
    assert value_of(bolivia.kinds()) + bonus_of(WILD, bolivia.kinds(), b) == 2700


def test_12_canasta_stock_after_four_player_deal():
    c = get_rules("canasta")
    for seed in range(30):
        g = Game.new("canasta", 4, seed=seed)
        laid = sum(len(r) for r in g.red3)
        assert len(g.stock) + laid == 108 - 44 - len(g.pile)
        assert len(g.stock) + laid <= 63
        assert sorted(g.all_card_ids()) == deck_ids(c.decks, c.jokers)


def test_12_canasta_concealed_going_out_with_seven_kings():
    c = get_rules("canasta")
    concealed = score_side(c, 4, [SEVEN_KINGS], [], [[], []], True, melded_before_turn=False)
    assert concealed["total"] == 770
    plain = score_side(c, 4, [SEVEN_KINGS], [], [[], []], True, melded_before_turn=True)
    assert plain["total"] == 670
