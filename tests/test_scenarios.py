"""Scenarios (docs/formats.md "Scenarios"): positions set up from JSON, validated with errors
that name the problem; a missing stock is filled from the seed."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import scenario

from py_engine.cards import deck_ids, id_text
from py_engine.errors import ScenarioError
from py_engine.record import load_scenario, scenario_of

BASE = {"players": 2, "hands": [["7S", "7H", "KD"], ["9H", "9D", "AS"]], "pile": ["5D", "8C"]}


def sc(**changes):
    d = dict(BASE)
    d.update(changes)
    return d


def error_of(d) -> str:
    with pytest.raises(ScenarioError) as e:
        load_scenario(d)
    return str(e.value)


def test_minimal_scenario_sets_up_the_position():
    g = scenario(**BASE)
    assert [[id_text(c) for c in h] for h in g.hands] == BASE["hands"]
    assert [id_text(c) for c in g.pile] == ["5D", "8C"]
    assert g.rules.name == "samba" and g.target == 10000
    assert g.dealer == 1 and g.current == 0 and g.phase == "draw" and g.deal_no == 1
    assert sorted(g.all_card_ids()) == sorted(deck_ids())
    assert len(g.stock) == 162 - 6 - 2


def test_full_scenario_fields():
    g = scenario(
        rules="samba",
        players=4,
        target=5000,
        seed=7,
        scores=[1200, 3400],
        dealer=3,
        deal=2,
        current=0,
        phase="draw",
        hands=[["7S", "7H", "KD", "2C"], ["4C", "5C"], ["9H", "9D"], ["AS", "QS"]],
        pile=["5D", "8C", "7D"],
        melds=[[["4H", "5H", "6H"]], [["KC", "KS", "KH", "2D"]]],
        red_threes=[["3H"], []],
    )
    assert g.target == 5000 and g.scores == [1200, 3400] and g.deal_no == 2
    assert g.minimum(0) == 50 and g.minimum(1) == 120
    assert [m.type for m in g.melds[0]] == ["sequence"] and [m.type for m in g.melds[1]] == [
        "group"
    ]
    assert [id_text(c) for c in g.red3[0]] == ["3H"]
    assert g.opened(0) and g.opened(1)
    assert sorted(g.all_card_ids()) == sorted(deck_ids())


def test_missing_stock_is_filled_deterministically_per_seed():
    a, b, c = scenario(**sc(seed=3)), scenario(**sc(seed=3)), scenario(**sc(seed=4))
    assert a.stock == b.stock
    assert a.stock != c.stock
    assert sorted(a.stock) == sorted(c.stock)
    assert len(a.all_card_ids()) == 162


def test_given_stock_must_complete_the_deck():
    g = scenario(**BASE)
    full = scenario_of(g)
    again = load_scenario(full)
    # copies are interchangeable: the same cards (by kind) in the same places
    assert [id_text(c) for c in again.stock] == [id_text(c) for c in g.stock]
    assert scenario_of(again) == full
    short = dict(full, stock=full["stock"][:-1])
    assert "missing" in error_of(short)
    extra = dict(full, stock=full["stock"] + ["7S"])
    msg = error_of(extra)
    assert "more copies of 7S" in msg and "stock" in msg


def test_too_many_copies_named():
    msg = error_of(sc(hands=[["7S", "7S", "7S"], ["7S", "9D"]]))
    assert "more copies of 7S than the deck has" in msg and "hand 1" in msg
    msg = error_of(sc(pile=["JK"] * 7))
    assert "more copies of JK" in msg and "pile" in msg


def test_malformed_card_named():
    msg = error_of(sc(hands=[["7S"], ["9H", "ZZ"]]))
    assert "hand 1" in msg and "malformed card 'ZZ'" in msg
    assert "malformed card 7" in error_of(sc(hands=[["7S"], [7]]))


def test_illegal_meld_named():
    msg = error_of(sc(melds=[[], [["KC", "KS", "KH"], ["4H", "5H", "7H"]]]))
    assert "side 1 meld 2 is illegal" in msg and "unbroken" in msg
    msg = error_of(sc(melds=[[["KC", "2S", "2H"]], []]))
    assert "side 0 meld 1 is illegal" in msg and "wild" in msg
    msg = error_of(sc(melds=[[["3H", "3D", "3H"]], []]))
    assert "side 0 meld 1 is illegal" in msg


def test_wrong_number_of_hands():
    assert "'hands' must list 2 hands" in error_of(sc(hands=[["7S"]]))
    assert "'hands' must list 4 hands" in error_of(sc(players=4))
    assert "hands" in error_of({"players": 2})


def test_empty_hand():
    assert "hand 1 is empty" in error_of(sc(hands=[["7S"], []]))


def test_a_position_with_no_legal_move_is_refused():
    # samba, meld phase, one card, no canasta: it may neither be discarded (that would go out)
    # nor melded, so the game could not go on.
    msg = error_of(sc(phase="meld", hands=[["7S"], ["9H", "9D", "AS"]]))
    assert "no legal move" in msg
    g = scenario(**sc(phase="meld", hands=[["7S", "KD"], ["9H", "9D", "AS"]]))
    assert g.phase == "meld"


def test_red_three_in_hand_where_laid_at_once():
    msg = error_of(sc(hands=[["7S", "3H"], ["9D"]]))
    assert "hand 0" in msg and "red three" in msg
    g = scenario(**sc(rules="dutch", players=2, hands=[["7S", "3H"], ["9D"]]))
    assert "3H" in [id_text(c) for c in g.hands[0]]


def test_unknown_field():
    msg = error_of(sc(stok=["7S"], colour="red"))
    assert "unknown scenario field" in msg and "stok" in msg and "colour" in msg


@pytest.mark.parametrize(
    "changes,needle",
    [
        ({"rules": "poker"}, "poker"),
        ({"players": 5}, "players"),
        ({"target": 1234}, "target"),
        ({"seed": "x"}, "seed"),
        ({"scores": [1, 2, 3]}, "scores"),
        ({"scores": ["a", 0]}, "scores"),
        ({"dealer": 2}, "dealer"),
        ({"current": -1}, "current"),
        ({"deal": 0}, "deal"),
        ({"deal": 61}, "deal"),
        ({"phase": "answer"}, "phase"),
        ({"melds": [[]]}, "melds"),
        ({"melds": [["7S"], []]}, "side 0 meld 1"),
        ({"red_threes": [["7S"], []]}, "only 3H and 3D"),
        ({"red_threes": [[]]}, "red_threes"),
        ({"pile": "7S"}, "pile"),
        ({"hands": "7S 8S"}, "hands"),
    ],
)
def test_other_validation_errors(changes, needle):
    assert needle in error_of(sc(**changes))


@pytest.mark.parametrize("garbage", [None, [], "scenario", 3])
def test_scenario_must_be_an_object(garbage):
    assert "object" in error_of(garbage)


def test_scenario_counts_red_threes_and_melds_into_the_deck():
    g = scenario(**sc(red_threes=[["3H", "3H", "3H", "3D"], []], melds=[[["AS", "AS", "AH"]], []]))
    counts = Counter(id_text(c) for c in g.stock)
    assert counts["3H"] == 0 and counts["3D"] == 2
    assert counts["AS"] == 0 and counts["AH"] == 2  # one AS in hand 1, two in the meld
