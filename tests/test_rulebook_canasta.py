"""Rulebook tests for classic Canasta as the site of seeds 001/004 plays it (docs/rules.md
section 11): 108 cards, hands and draws by player count, groups only with at most three wild
cards and more naturals than wild cards, the frozen pile and the one-natural-plus-wild take,
red threes that cannot be discarded and count minus for a side that melded nothing, one canasta
to go out (two with two players), going out 100 or 200 concealed, a game to 5,000 (7,500 with
three players). Each test is named after the rule it checks."""

from __future__ import annotations

import pytest
from rulebook_helpers import pos, refused

from py_engine import Game
from py_engine.cards import IDS_OF_KIND, IS_RED3, KIND_OF_ID, deck_ids, parse_kind
from py_engine.lessons import validate_lesson
from py_engine.melds import TableMeld
from py_engine.rules import Options, get_rules
from py_engine.scoring import going_out_bonus, score_side

C = get_rules("canasta")
KINGS = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]  # a natural canasta (70 points)
QUEENS = ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]
FILLER = [["5C", "6D", "7H"], ["5D", "6C", "7S"], ["8C", "9D", "4H"]]


def K(*cards):
    return sorted(parse_kind(c) for c in cards)


def kinds(game, seat):
    return sorted(game.hand_kinds(seat))


def canasta(players=4, hands=(), melds=None, **kw):
    """A Canasta position; the current seat's hand first, the others filler."""
    hands = list(hands) + FILLER[len(hands) : players]
    n_sides = C.n_sides(players)
    melds = melds if melds is not None else [[] for _ in range(n_sides)]
    return pos("canasta", players, hands=hands, melds=melds, **kw)


def opened(hand, players=4, side_melds=(("JC", "JD", "JH"),), **kw):
    """The current player's side has melded; meld phase."""
    melds = [[list(m) for m in side_melds]] + [[] for _ in range(C.n_sides(players) - 1)]
    return canasta(players, hands=[list(hand)], melds=melds, phase="meld", **kw)


def card_id(text, copy=0):
    return IDS_OF_KIND[parse_kind(text)][copy]


# Cards, players, the deal --------------------------------------------------------------------
def test_11_canasta_two_packs_and_four_jokers_108_cards():
    ids = deck_ids(C.decks, C.jokers)
    assert len(ids) == 108 and len(set(ids)) == 108
    g = Game.new("canasta", 4, seed=5)
    assert sorted(g.all_card_ids()) == ids


@pytest.mark.parametrize("players,dealt", [(2, 15), (3, 13), (4, 11)])
def test_11_canasta_deals_15_13_or_11_cards(players, dealt):
    for seed in range(4):
        g = Game.new("canasta", players, seed=seed)
        assert all(len(h) == dealt for h in g.hands)  # red threes laid and replaced
        assert not any(IS_RED3[KIND_OF_ID[c]] for h in g.hands for c in h)


def test_11_canasta_four_players_play_in_partnerships_three_alone():
    assert [Game.new("canasta", 4, seed=1).seats_of(s) for s in range(2)] == [[0, 2], [1, 3]]
    assert Game.new("canasta", 3, seed=1).n_sides == 3


@pytest.mark.parametrize("players,drawn", [(2, 2), (3, 2), (4, 1)])
def test_11_canasta_draws_two_cards_at_two_or_three_players_one_at_four(players, drawn):
    g = canasta(players, hands=[["9C", "9D", "KS"]])
    g.play("draw")
    assert len(g.hands[0]) == 3 + drawn and g.phase == "meld"


# Melds ------------------------------------------------------------------------------------------
def test_11_canasta_has_no_sequences():
    g = opened(["4H", "5H", "6H", "9S", "TD"])
    refused(g, "meld new 4H 5H 6H", "mixed_ranks")


def test_11_canasta_never_takes_only_the_top_card():
    g = canasta(4, hands=[["9C", "KS", "QS"]], pile=["8D", "7H"], melds=[[["JC", "JD", "JH"]], []])
    refused(g, f"top m{g.melds[0][0].id}", "top_card_not_allowed")
    refused(g, f"take m{g.melds[0][0].id}", "pile_onto_meld_not_allowed")


def test_11_canasta_group_needs_more_naturals_than_wild_cards():
    g = opened(["9C", "9D", "9H", "2C", "2D", "2H", "TD", "TS"])
    refused(g, "meld new 9C 9D 2C 2D", "too_many_wilds")  # 2 naturals, 2 wild cards
    refused(g, "meld new 9C 9D 9H 2C 2D 2H", "too_many_wilds")  # 3 and 3
    g.play("meld new 9C 9D 2C")  # 2 and 1: more naturals
    assert g.melds[0][-1].type == "group"


def test_11_canasta_group_holds_at_most_three_wild_cards():
    g = opened(["2C", "JK", "TD", "TS"], side_melds=[["9C", "9D", "9H", "9S", "2D", "2H"]])
    mid = g.melds[0][0].id
    refused(g, f"meld add m{mid} JK 2C", "too_many_wilds")  # 4 wild cards
    g.play(f"meld add m{mid} JK")  # 4 naturals, 3 wild cards
    assert g.melds[0][0].wilds == 3 and g.melds[0][0].finished(C) == "mixed"
    g2 = opened(["2C", "JK", "TD", "TS"], side_melds=[["9C", "9D", "9H", "9S", "9C", "2D", "2H"]])
    g2.play(f"meld add m{g2.melds[0][0].id} JK")  # 5 naturals, 3 wild cards
    refused(g2, f"meld add m{g2.melds[0][0].id} 2C", "too_many_wilds")


def test_11_canasta_a_canasta_may_take_a_wild_card_within_the_limit():
    g = opened(["2C", "TD", "TS"], side_melds=[KINGS])
    g.play(f"meld add m{g.melds[0][0].id} 2C")
    assert g.melds[0][0].finished(C) == "mixed"


def test_11_canasta_wild_cards_never_meld_alone():
    g = opened(["2C", "2D", "JK", "TD", "TS"])
    refused(g, "meld new 2C 2D JK", "wild_only")


# The pile ---------------------------------------------------------------------------------------
def test_11_canasta_pile_frozen_before_the_side_first_meld_needs_a_natural_pair():
    g = canasta(4, hands=[["9C", "2D", "KS", "QS"]], pile=["4C", "9H"], scores=[-100, 0])
    assert g.pile_frozen(0)
    refused(g, "take 9C 2D", "no_natural_pair")
    g = canasta(4, hands=[["9C", "9D", "KS", "QS"]], pile=["4C", "9H"], scores=[-100, 0])
    g.play("take 9C 9D")
    assert len(g.melds[0]) == 1 and kinds(g, 0) == K("KS", "QS", "4C") and g.pile == []


def test_11_canasta_unfrozen_pile_taken_with_one_natural_and_a_wild_card():
    g = canasta(
        4,
        hands=[["9C", "2D", "KS", "QS"]],
        pile=["4C", "8D", "9H"],
        melds=[[["JC", "JD", "JH"]], []],
    )
    assert not g.pile_frozen(0)
    g.play("take 9C 2D")
    m = g.melds[0][-1]
    assert m.type == "group" and sorted(m.kinds()) == K("9H", "9C", "2D")
    assert kinds(g, 0) == K("KS", "QS", "4C", "8D")  # the rest of the pile into the hand


def test_11_canasta_one_natural_and_a_wild_card_never_take_a_frozen_pile():
    g = canasta(4, hands=[["9C", "2D", "KS", "QS"]], pile=["4C", "9H"])
    refused(g, "take 9C 2D", "no_natural_pair")  # not yet melded: frozen


def test_11_canasta_a_wild_card_in_the_pile_freezes_it_for_everyone():
    g = canasta(
        4,
        hands=[["9C", "9D", "2D", "KS", "QS"]],
        pile=["4C", "2C", "8D", "9H"],
        melds=[[["JC", "JD", "JH"]], []],
    )
    assert g.pile_frozen(0)
    refused(g, "take 9C 2D", "no_natural_pair")
    g.play("take 9C 9D")
    assert g.pile == [] and kinds(g, 0) == K("2D", "KS", "QS", "4C", "2C", "8D")


@pytest.mark.parametrize("top", ["3S", "3C", "2C", "JK"])
def test_11_canasta_never_taken_with_a_black_three_or_wild_card_on_top(top):
    g = canasta(
        4,
        hands=[["9C", "9D", "2D", "3C", "KS", "QS"]],
        pile=["9H", top],
        melds=[[["JC", "JD", "JH"]], []],
    )
    refused(g, "take 9C 9D", "pile_blocked")


def test_11_canasta_the_taken_top_card_and_its_pair_meet_the_opening_minimum():
    # 50 needed: K K (20) + the top K (10) + Q Q Q (30) = 60; the rest of the pile never counts.
    g = canasta(4, hands=[["KC", "KD", "QC", "QD", "QH", "5S"]], pile=["AC", "AD", "KH"])
    refused(g, "take KC KD", "opening_too_low")
    g.play("take KC KD; new QC QD QH")
    assert g.opened(0)


# Opening minimum ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "score,minimum",
    [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (7000, 120), (20000, 120)],
)
def test_11_canasta_opening_minimum_15_50_90_120(score, minimum):
    assert C.opening_minimum(score) == minimum


def test_11_canasta_opening_minimum_applied_to_a_meld():
    hand = ["KC", "KD", "KH", "QC", "QD", "QH", "AS", "AD", "AH", "5S", "6S"]
    g = canasta(2, hands=[hand], phase="meld", scores=[7000, 0])
    refused(g, "meld new KC KD KH; new QC QD QH", "opening_too_low")  # 60 < 120
    g.play("meld new KC KD KH; new QC QD QH; new AS AD AH")  # 120, no 150 band
    assert g.opened(0)


# Red threes -------------------------------------------------------------------------------------
def test_11_canasta_red_threes_cannot_be_discarded():
    g = canasta(4, hands=[["9C", "KS", "QS"]], phase="meld")
    # Red threes are laid at once, so one in hand can only be set up as a position.
    hands = [list(h) for h in g.hands]
    hands[0].append(card_id("3H"))
    stock = [c for c in g.stock if c != card_id("3H")]
    g = Game.from_position(
        "canasta",
        4,
        hands=hands,
        stock=stock,
        pile=list(g.pile),
        melds=[[], []],
        red3=[[], []],
        phase="meld",
        current=0,
    )
    refused(g, "discard 3H", "cannot_discard")
    g.play("discard 9C")


def test_11_canasta_red_three_drawn_is_laid_and_replaced():
    reds = [c for c in deck_ids(C.decks, C.jokers) if IS_RED3[KIND_OF_ID[c]]]
    assert len(reds) == 4
    g = canasta(2, hands=[["9C", "9D", "KS"]])
    # put a red three on top of the stock, then draw
    three = next(c for c in g.stock if IS_RED3[KIND_OF_ID[c]])
    g.stock.remove(three)
    g.stock.append(three)
    g.play("draw")
    assert three in g.red3[0] and len(g.hands[0]) == 5


@pytest.mark.parametrize(
    "n,melded,expected",
    [
        (1, True, 100),
        (2, True, 200),
        (4, True, 800),
        (1, False, -100),
        (2, False, -200),
        (4, False, -800),
    ],
)
def test_11_canasta_red_threes_100_all_four_800_minus_for_a_side_that_melded_nothing(
    n, melded, expected
):
    reds = [c for c in deck_ids(C.decks, C.jokers) if IS_RED3[KIND_OF_ID[c]]][:n]
    melds = [TableMeld(1, "group", 11, -1, [card_id("JC"), card_id("JD"), card_id("JH")])]
    s = score_side(C, 4, melds if melded else [], reds, [[], []], False)
    assert s["red_threes"] == expected


def test_11_canasta_red_threes_count_plus_without_a_canasta_once_the_side_melded():
    # samba counts them minus without the going-out requirement; canasta only asks for a meld
    reds = [card_id("3H"), card_id("3D")]
    melds = [TableMeld(1, "group", 11, -1, [card_id("JC"), card_id("JD"), card_id("JH")])]
    assert score_side(C, 4, melds, reds, [[], []], False)["red_threes"] == 200
    assert score_side(get_rules("samba"), 4, melds, reds, [[], []], False)["red_threes"] == -200


# Going out --------------------------------------------------------------------------------------
def test_11_canasta_one_canasta_lets_a_side_of_four_players_go_out():
    g = opened(["QS", "QD", "QC", "TD"], side_melds=[KINGS])
    g.play("meld new QS QD QC")
    g.play("discard TD")
    assert g.went_out == 0 and g.deal_result["reason"] == "out"


@pytest.mark.parametrize("players", [3, 4])
def test_11_canasta_one_canasta_is_enough_with_three_or_four_players(players):
    assert C.canastas_needed(players) == 1
    g = opened(["QS", "QD", "QC", "TD"], players=players, side_melds=[KINGS])
    assert g.requirement_met(0)


def test_11_canasta_two_players_need_two_canastas():
    assert C.canastas_needed(2) == 2
    g = opened(["QS", "QD", "QC", "TD"], players=2, side_melds=[KINGS])
    assert not g.requirement_met(0)
    refused(g, "meld new QS QD QC", "must_keep_cards")
    g = opened(["9S", "9D", "9C", "TD"], players=2, side_melds=[KINGS, QUEENS])
    g.play("meld new 9S 9D 9C")
    g.play("discard TD")
    assert g.went_out == 0


def test_11_canasta_going_out_is_worth_100():
    g = opened(["QS", "QD", "QC", "TD"], side_melds=[KINGS])
    g.play("meld new QS QD QC")
    g.play("discard TD")
    s = g.deal_result["sides"][0]
    assert s["going_out"] == 100
    assert s["melds"] == 70 + 30 and s["bonuses"] == 500
    assert s["hands"] == -(10 + 10 + 5)  # the partner's 8C 9D 4H
    assert s["total"] == 70 + 30 + 500 + 100 - 25


def test_11_canasta_concealed_going_out_bonus_rule():
    assert going_out_bonus(C, went_out=True, melded_before_turn=False) == 200
    assert going_out_bonus(C, went_out=True, melded_before_turn=True) == 100
    assert going_out_bonus(C, went_out=False, melded_before_turn=False) == 0
    assert going_out_bonus(get_rules("samba"), True, melded_before_turn=False) == 200
    kings = [
        TableMeld(
            1,
            "group",
            13,
            -1,
            [
                card_id(c, i)
                for c, i in zip(["KC", "KD", "KH", "KS", "KC", "KD", "KH"], [0, 0, 0, 0, 1, 1, 1])
            ],
        )
    ]
    s = score_side(C, 4, kings, [], [[], []], True, melded_before_turn=False)
    assert s["going_out"] == 200 and s["total"] == 70 + 500 + 200


def test_11_canasta_going_out_in_one_turn_with_nothing_melded_before_is_worth_200():
    """The whole hand goes down in one turn, the side having melded nothing before: 200 (D17)."""
    g = canasta(4, hands=[KINGS + ["QC", "QD", "QH", "TD"]], phase="meld")
    assert not g.opened(0)
    g.play("meld new " + " ".join(KINGS) + "; new QC QD QH")
    g.play("discard TD")
    s = g.deal_result["sides"][0]
    assert g.went_out == 0
    assert s["going_out"] == 200
    assert s["total"] == 70 + 30 + 500 + 200 - 25


def test_11_canasta_partner_melded_before_so_going_out_is_not_concealed():
    # The side's meld was laid by the partner in an earlier turn: the plain 100 (D17).
    g = canasta(
        4, hands=[KINGS + ["QC", "QD", "QH", "TD"]], phase="meld", melds=[[["JC", "JD", "JH"]], []]
    )
    g.play("meld new " + " ".join(KINGS) + "; new QC QD QH")
    g.play("discard TD")
    assert g.deal_result["sides"][0]["going_out"] == 100


def test_11_canasta_keep_two_cards_until_the_side_may_go_out():
    g = opened(["QS", "QD", "QC", "TD"])
    refused(g, "meld new QS QD QC", "must_keep_cards")


# The game ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,target", [(2, 5000), (3, 7500), (4, 5000)])
def test_11_canasta_game_to_5000_or_7500_with_three_players(players, target):
    assert Options.make(C, players) == Options(players, target)
    assert Game.new("canasta", players, seed=1).target == target
    assert Options.make(C, 3, 5000) == Options(3, 5000)  # another target may be chosen


def test_11_canasta_game_ends_at_5000():
    g = opened(["QS", "QD", "QC", "TD"], side_melds=[KINGS], scores=[4500, 0])
    g.play("meld new QS QD QC")
    g.play("discard TD")
    assert g.scores[0] == 4500 + 700 - 25 and g.phase == "game_over" and g.result["winner"] == 0


def test_11_canasta_empty_stock_ends_the_deal_when_the_pile_is_not_taken():
    """D19: no Canasta continuation here (the pile is never taken onto a meld)."""
    g = canasta(4, hands=[["9C", "KS", "QS"]], pile=["8D", "JS"], melds=[[["JC", "JD", "JH"]], []])
    hands = [list(h) for h in g.hands]
    hands[1] += g.stock  # the stock is empty: its cards are elsewhere
    g = Game.from_position(
        "canasta",
        4,
        hands=hands,
        stock=[],
        pile=list(g.pile),
        melds=g.melds,
        red3=g.red3,
        current=0,
    )
    assert g.pile_frozen(0) is False  # the top JS would fit the side's jacks
    refused(g, "draw", "stock_empty")
    g.play("end")
    assert g.deal_result["reason"] == "stock" and g.went_out is None


def test_11_canasta_scenarios_and_lessons_accept_the_rule_set():
    lesson = {
        "format": "samba-lesson/1",
        "id": "canasta-take",
        "title": "An unfrozen pile",
        "intro": "In Canasta one natural and a wild card take an unfrozen pile.",
        "scenario": {
            "rules": "canasta",
            "players": 4,
            "pile": ["4C", "9H"],
            "hands": [
                ["9C", "2D", "KS", "QS"],
                ["5C", "6D", "7H"],
                ["5D", "6C", "7S"],
                ["8C", "9D", "4H"],
            ],
            "melds": [[["JC", "JD", "JH"]], []],
        },
        "steps": [{"goal": "Take the pile.", "accept": ["take 9C 2D"]}],
    }
    assert validate_lesson(lesson) is lesson
    bad = dict(lesson, scenario=dict(lesson["scenario"], hands=[["9C", "9C", "9C"]] * 4))
    with pytest.raises(ValueError):
        validate_lesson(bad)  # 108 cards: only two nines of clubs


def test_11_engine_never_tests_the_names_of_bolivia_or_canasta():
    """Both rule sets are data: no engine module compares a rule set's name with them."""
    import pathlib
    import re

    import py_engine

    files = [
        f
        for f in pathlib.Path(py_engine.__file__).resolve().parent.rglob("*.py")
        if f.name != "rules.py"
    ]
    assert len(files) > 10
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"""==\s*["'](bolivia|canasta)["']""", text), f
        assert not re.search(r"""["'](bolivia|canasta)["']\s*(==|in\b)""", text), f
