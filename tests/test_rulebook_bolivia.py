"""Rulebook tests for Bolivia (docs/rules.md section 11): Dutch Samba plus melds of wild cards
only, the closed seven-wild "bolivia", the escalera needed to go out, black threes in hand at
-100 each and a game to 15,000. Each test is named after the rule it checks."""

from __future__ import annotations

import pytest
from rulebook_helpers import pos, refused

from py_engine import Game
from py_engine.cards import IDS_OF_KIND, parse_kind
from py_engine.lessons import validate_lesson
from py_engine.melds import WILD, bonus_of, canasta_kind
from py_engine.rules import Options, get_rules
from py_engine.scoring import score_side

B = get_rules("bolivia")
CANASTA_OF_KINGS = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]
ESCALERA = ["4H", "5H", "6H", "7H", "8H", "9H", "TH"]
BOLIVIA = ["2C", "2D", "2H", "2S", "JK", "JK", "2C"]


def K(*cards):
    return [parse_kind(c) for c in cards]


def opened(hand, players=2, side_melds=(("QC", "QD", "QH"),), **kw):
    """Bolivia, the current player's side already on the table, in the meld phase."""
    melds = [[list(m) for m in side_melds]] + [[] for _ in range(B.n_sides(players) - 1)]
    return pos("bolivia", players, hands=[list(hand)], phase="meld", melds=melds, **kw)


def table_meld(game, side=0, index=-1):
    return game.melds[side][index]


# Wild-card melds ----------------------------------------------------------------------------
def test_11_bolivia_three_wild_cards_make_a_meld_of_their_own():
    g = opened(["2C", "2D", "JK", "9S", "TD"])
    g.play("meld new 2C 2D JK")
    m = table_meld(g)
    assert m.type == WILD and sorted(m.kinds()) == sorted(K("2C", "2D", "JK"))


def test_11_samba_has_no_wild_card_melds_where_bolivia_has():
    g = pos(
        "samba",
        2,
        hands=[["2C", "2D", "JK", "9S", "TD"]],
        phase="meld",
        melds=[[["QC", "QD", "QH"]], []],
    )
    refused(g, "meld new 2C 2D JK", "wild_only")


def test_11_bolivia_two_wild_cards_are_too_few_for_a_meld():
    g = opened(["2C", "JK", "9S", "TD"])
    refused(g, "meld new 2C JK", "too_few_cards")


def test_11_bolivia_a_wild_meld_holds_at_most_seven_cards():
    g = opened(BOLIVIA + ["2S", "9S"])
    refused(g, "meld new " + " ".join(BOLIVIA + ["2S"]), "wild_only")
    g.play("meld new " + " ".join(BOLIVIA))
    assert table_meld(g).finished(B) == "wild"


def test_11_bolivia_a_wild_meld_takes_wild_cards_only():
    g = opened(["9S", "9D", "2H", "TD"], side_melds=[["2C", "2D", "JK"]])
    mid = table_meld(g).id
    refused(g, f"meld add m{mid} 9S", "not_a_meld")
    g.play(f"meld add m{mid} 2H")
    assert len(table_meld(g).cards) == 4


def test_11_bolivia_wild_meld_counts_its_card_values_for_the_opening():
    # Three twos: 20 + 20 + 20 = 60, enough for an opening minimum of 50 ...
    g = pos("bolivia", 2, hands=[["2C", "2D", "2H", "9S", "TD"]], phase="meld")
    g.play("meld new 2C 2D 2H")
    assert g.opened(0)
    # ... but not for 90 (a side score of 1,500).
    g = pos("bolivia", 2, hands=[["2C", "2D", "2H", "9S", "TD"]], phase="meld", scores=[1500, 0])
    refused(g, "meld new 2C 2D 2H", "opening_too_low")  # 60 < 90


def test_11_bolivia_seven_wild_cards_are_a_closed_bolivia_worth_2500():
    g = opened(["JK", "9S", "TD"], side_melds=[BOLIVIA[:6]])
    mid = table_meld(g).id
    g.play(f"meld add m{mid} JK")
    m = table_meld(g)
    assert m.finished(B) == "wild" and canasta_kind(m.type, m.kinds(), B) == "wild"
    assert bonus_of(m.type, m.kinds(), B) == 2500
    g2 = opened(["JK", "9S", "TD"], side_melds=[BOLIVIA])
    refused(g2, f"meld add m{table_meld(g2).id} JK", "meld_closed")


def test_11_bolivia_bonus_scored_at_the_end_of_the_deal():
    # A bolivia (five twos and two jokers: 200 points), an escalera (50) and a canasta of kings
    # (70); the player goes out by melding three queens (30).
    g = opened(["QS", "QD", "QC"], side_melds=[BOLIVIA, ESCALERA, CANASTA_OF_KINGS])
    g.play("meld new QS QD QC")
    s = g.deal_result["sides"][0]
    assert g.went_out == 0
    assert s["melds"] == 5 * 20 + 2 * 50 + 50 + 70 + 30
    assert s["bonuses"] == 2500 + 1500 + 500
    assert s["going_out"] == 200


# The escalera requirement ------------------------------------------------------------------------
def test_11_bolivia_two_canastas_without_an_escalera_do_not_let_a_side_go_out():
    queens = ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]
    g = opened(["JS", "JD", "JC", "TD"], side_melds=[CANASTA_OF_KINGS, queens])
    assert not g.requirement_met(0)
    g.play("meld new JS JD JC")
    refused(g, "discard TD", "must_pass")  # may not go out: the dutch pass instead
    g.play("pass")
    assert g.went_out is None


def test_11_bolivia_a_canasta_and_an_escalera_let_a_side_go_out():
    g = opened(["JS", "JD", "JC", "TD"], side_melds=[CANASTA_OF_KINGS, ESCALERA])
    assert g.requirement_met(0)
    g.play("meld new JS JD JC")
    g.play("discard TD")
    assert g.went_out == 0 and g.deal_result["sides"][0]["going_out"] == 200


def test_11_bolivia_an_escalera_alone_is_not_enough():
    g = opened(["JS", "JD", "JC", "TD"], side_melds=[ESCALERA, ["QC", "QD", "QH"]])
    assert not g.requirement_met(0)
    g.play("meld new JS JD JC")
    refused(g, "discard TD", "must_pass")


def test_11_bolivia_a_bolivia_counts_as_one_of_the_two_canastas():
    """D18: a bolivia is a finished meld like a canasta; with an escalera the side may go out."""
    g = opened(["JS", "JD", "JC", "TD"], side_melds=[BOLIVIA, ESCALERA])
    assert g.requirement_met(0)
    g2 = opened(["JS", "JD", "JC", "TD"], side_melds=[BOLIVIA, CANASTA_OF_KINGS])
    assert not g2.requirement_met(0)


def test_11_bolivia_escalera_requirement_decides_the_red_three_sign():
    reds = [IDS_OF_KIND[parse_kind("3H")][0], IDS_OF_KIND[parse_kind("3D")][0]]
    g = opened(["JS", "TD"], side_melds=[CANASTA_OF_KINGS, ["QC"] * 3 + ["QD"] * 3 + ["QH"]])
    without = score_side(B, 2, g.melds[0], reds, [[]], False)
    assert without["red_threes"] == -200  # dutch: -100 each without the requirement
    g = opened(["JS", "TD"], side_melds=[CANASTA_OF_KINGS, ESCALERA])
    assert score_side(B, 2, g.melds[0], reds, [[]], False)["red_threes"] == 200


# Black threes, the game ------------------------------------------------------------------------------
def test_11_bolivia_black_threes_left_in_hand_cost_100_each():
    b3 = [IDS_OF_KIND[parse_kind("3C")][0], IDS_OF_KIND[parse_kind("3S")][0]]
    assert score_side(B, 2, [], [], [b3], False)["hands"] == -200
    assert score_side(get_rules("dutch"), 2, [], [], [b3], False)["hands"] == -10


def test_11_bolivia_black_threes_in_the_loser_hand_at_the_end_of_a_deal():
    g2 = pos(
        "bolivia",
        2,
        hands=[["QS", "QD", "QC"], ["3C", "3S", "9D"]],
        phase="meld",
        melds=[[ESCALERA, CANASTA_OF_KINGS], []],
    )
    g2.play("meld new QS QD QC")
    assert g2.deal_result["sides"][1]["hands"] == -100 - 100 - 10


def test_11_bolivia_black_threes_meld_only_going_out_as_in_dutch():
    g = opened(["3C", "3S", "3C", "QS", "JS"], side_melds=[ESCALERA, CANASTA_OF_KINGS])
    refused(g, "meld new 3C 3S 3C", "black_threes_not_out")


def test_11_bolivia_game_goes_to_15000():
    assert Options.make(B) == Options(4, 15000)
    assert all(B.target_for(p) == 15000 for p in B.players_allowed)
    g = opened(["QS", "QD", "QC"], side_melds=[ESCALERA, CANASTA_OF_KINGS], scores=[10000, 0])
    g.play("meld new QS QD QC")
    assert g.scores[0] > 10000 and g.phase == "deal_over"  # 10,000 does not end a bolivia game
    g = opened(["QS", "QD", "QC"], side_melds=[ESCALERA, CANASTA_OF_KINGS], scores=[13000, 0])
    g.play("meld new QS QD QC")
    assert g.scores[0] >= 15000 and g.phase == "game_over" and g.result["winner"] == 0


# As Dutch Samba otherwise --------------------------------------------------------------------------
def test_11_bolivia_is_dutch_for_red_threes_passing_and_the_deal():
    d = get_rules("dutch")
    for field in (
        "players_allowed",
        "hand_sizes",
        "take_top_card",
        "red_threes_automatic",
        "red_three_held_penalty",
        "red_three_discardable",
        "keep_cards",
        "pass_with_one",
        "group_max_wilds",
        "group_naturals_per_wild",
        "sequence_max",
        "samba_bonus",
    ):
        assert getattr(B, field) == getattr(d, field), field
    g = pos("bolivia", 4, hands=[["9C", "3H", "KS"]])
    g.play("red3 3H")
    assert len(g.red3[0]) == 1
    assert len(Game.new("bolivia", 6, seed=2).hands[0]) == 13


def test_11_bolivia_scenarios_and_lessons_accept_the_rule_set():
    lesson = {
        "format": "samba-lesson/1",
        "id": "bolivia-wild",
        "title": "A meld of wild cards",
        "intro": "In Bolivia three wild cards make a meld.",
        "scenario": {
            "rules": "bolivia",
            "players": 2,
            "phase": "meld",
            "hands": [["2C", "2D", "JK", "9S", "TD"], ["5C", "6D", "7H"]],
            "melds": [[["QC", "QD", "QH"]], []],
        },
        "steps": [{"goal": "Meld the three wild cards.", "accept": ["meld new 2C 2D JK"]}],
    }
    assert validate_lesson(lesson) is lesson


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_11_bolivia_offered_at_every_dutch_player_count(players):
    g = Game.new("bolivia", players, seed=players)
    assert g.rules is B and g.target == 15000 and g.phase == "draw"
