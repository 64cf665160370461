"""Rulebook tests: one or more per numbered section of docs/rules.md, named after the rule."""

from __future__ import annotations

import pytest
from rulebook_helpers import OPENING_BANDS, pos, refused, rest_of_deck

from py_engine import Game, parse_move
from py_engine.cards import IS_NATURAL, IS_WILD, KIND_OF_ID, VALUE_OF_KIND, deck_ids, parse_kind
from py_engine.rules import get_rules


def kinds(game, seat):
    return sorted(game.hand_kinds(seat))


def K(*cards):
    return sorted(parse_kind(c) for c in cards)


# 1. Cards -----------------------------------------------------------------------------------------
def test_1_deck_has_162_cards_18_wild():
    ids = deck_ids()
    assert len(ids) == 162 and len(set(ids)) == 162
    assert sum(IS_WILD[KIND_OF_ID[c]] for c in ids) == 18
    assert sum(IS_NATURAL[KIND_OF_ID[c]] for c in ids) == 132


@pytest.mark.parametrize(
    "card,value",
    [
        ("JK", 50),
        ("2C", 20),
        ("AH", 20),
        ("KS", 10),
        ("8D", 10),
        ("7C", 5),
        ("4H", 5),
        ("3S", 5),
        ("3H", 0),
    ],
)
def test_1_card_values(card, value):
    assert VALUE_OF_KIND[parse_kind(card)] == value


# 2. Players and sides --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules,players,sides",
    [
        ("samba", 2, [[0], [1]]),
        ("samba", 3, [[0], [1], [2]]),
        ("samba", 4, [[0, 2], [1, 3]]),
        ("crawford", 6, [[0, 3], [1, 4], [2, 5]]),
    ],
)
def test_2_partners_sit_opposite(rules, players, sides):
    g = Game.new(rules, players, seed=1)
    assert [g.seats_of(s) for s in range(g.n_sides)] == sides


def test_2_player_left_of_dealer_plays_first_and_dealer_rotates():
    g = Game.new("samba", 4, seed=3)
    first_dealer = g.dealer
    assert g.current == (g.dealer + 1) % 4
    while g.phase not in ("deal_over", "game_over"):
        from py_engine.legal import legal_moves

        g.play(legal_moves(g)[0])
    g.play("next")
    assert g.dealer == (first_dealer + 1) % 4 and g.current == (g.dealer + 1) % 4


# 3. The deal -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules,players,size", [("samba", 4, 15), ("dutch", 6, 13), ("crawford", 6, 15)]
)
def test_3_each_player_gets_15_cards_dutch_six_13(rules, players, size):
    r = get_rules(rules)
    for seed in range(5):
        g = Game.new(rules, players, seed=seed)
        for s in range(players):
            laid = 0
            if r.red_threes_automatic:
                laid = 0  # replaced one for one: the hand keeps its size
            assert len(g.hands[s]) == size - laid


def test_3_up_card_covered_until_a_natural_shows():
    # Inject a deck whose up-cards are 2C, 3S, 3H, then 9D.
    g = Game.new("samba", 2, seed=1)
    deck = deck_ids()
    top = [parse_kind(c) for c in ("2C", "3S", "3H", "9D")]
    chosen = [next(c for c in deck if KIND_OF_ID[c] == k) for k in top]
    rest = [c for c in deck if c not in chosen]
    order = rest[: len(rest) - 30] + list(reversed(chosen)) + rest[len(rest) - 30 :]
    # The last 30 cards are dealt (two hands of 15), then the up-cards in order.
    g.deal_no, g.dealer = 0, 1
    g.start_deal(order)
    assert [KIND_OF_ID[c] for c in g.pile] == top
    assert not g.pile_blocked()


def test_3_crawford_covered_red_three_freezes_pile():
    g = Game.new("crawford", 4, seed=1)
    deck = deck_ids()
    top = [parse_kind(c) for c in ("3H", "9D")]
    chosen = [next(c for c in deck if KIND_OF_ID[c] == k) for k in top]
    rest = [c for c in deck if c not in chosen]
    order = rest[: len(rest) - 60] + list(reversed(chosen)) + rest[len(rest) - 60 :]
    g.deal_no, g.dealer = 0, 3
    g.start_deal(order)
    assert g.pile_marker and g.pile_frozen(0) and g.pile_frozen(1)


def test_3_stock_after_four_player_deal():
    for seed in range(10):
        g = Game.new("samba", 4, seed=seed)
        laid = sum(len(r) for r in g.red3)
        assert len(g.stock) == 162 - 60 - len(g.pile) - laid


# 4. A turn -------------------------------------------------------------------------------------------
def test_4_draw_two_cards():
    g = pos(hands=[["9C", "9D", "KS"]])
    n = len(g.stock)
    g.play("draw")
    assert len(g.hands[0]) == 5 and len(g.stock) == n - 2 and g.phase == "meld"


def test_4_draw_only_one_when_one_left():
    reds, rest = rest_of_deck("9C", "9D", "KS", "5C", "6D", "7H", "8D", "4C")
    g = pos(
        hands=[["9C", "9D", "KS"], ["5C", "6D", "7H"]],
        pile=rest + ["8D"],
        stock=["4C"],
        red_threes=[reds, []],
    )
    g.play("draw")
    assert g.stock == [] and parse_kind("4C") in g.hand_kinds(0) and g.phase == "meld"


@pytest.mark.parametrize("seq,top", [(["5H", "6H", "7H"], "4H"), (["4H", "5H", "6H"], "7H")])
def test_4_take_top_card_onto_sequence_either_end(seq, top):
    g = pos(hands=[["9C", "9D", "KS"]], pile=["KD", top], melds=[[seq], []])
    g.play(f"top m{g.melds[0][0].id}")
    assert len(g.melds[0][0].cards) == 4 and len(g.pile) == 1 and g.phase == "meld"
    assert kinds(g, 0) == K("9C", "9D", "KS")


def test_4_top_card_never_starts_a_sequence_and_not_onto_a_group():
    g = pos(hands=[["8H", "9H", "KS"]], pile=["7H"], melds=[[["KC", "KD", "KH"]], []])
    refused(g, f"top m{g.melds[0][0].id}", "top_card_no_fit")


def test_4_top_card_not_onto_a_samba():
    g = pos(
        hands=[["9C", "9D", "KS"]],
        pile=["JH"],
        melds=[[["4H", "5H", "6H", "7H", "8H", "9H", "TH"]], []],
    )
    refused(g, f"top m{g.melds[0][0].id}", "top_card_no_fit")


def test_4_crawford_has_no_top_card_take():
    g = pos(
        "crawford", 4, hands=[["9C", "9D", "KS"]], pile=["7H"], melds=[[["4H", "5H", "6H"]], []]
    )
    refused(g, f"top m{g.melds[0][0].id}", "top_card_not_allowed")


def test_4_any_card_may_be_discarded_wild_and_black_three():
    for card in ("2C", "JK", "3S"):
        g = pos(hands=[["9C", "9D", card]], phase="meld")
        g.play(f"discard {card}")
        assert KIND_OF_ID[g.pile[-1]] == parse_kind(card)


def test_4_dutch_pass_with_one_card():
    g = pos(
        "dutch", 4, hands=[["9C", "9D", "9H", "KS"]], phase="meld", melds=[[["QC", "QD", "QH"]], []]
    )
    g.play("meld new 9C 9D 9H")
    assert len(g.hands[0]) == 1
    refused(g, "discard KS", "must_pass")
    cur = g.current
    g.play("pass")
    assert g.current == (cur + 1) % 4 and len(g.hands[0]) == 1


def test_4_dutch_red_three_may_be_discarded():
    g = pos("dutch", 4, hands=[["9C", "3H", "KS"]], phase="meld")
    g.play("discard 3H")
    assert KIND_OF_ID[g.pile[-1]] == parse_kind("3H")


# 5. The discard pile ---------------------------------------------------------------------------------
@pytest.mark.parametrize("top", ["2C", "JK", "3S", "3H"])
def test_5_pile_blocked_by_wild_or_three(top):
    g = pos(hands=[["9C", "9D", "KS", "2D", "3C", "3C"]], pile=["9H", top])
    refused(g, "take 9C 9D", "pile_blocked")


def test_5_take_pile_needs_natural_pair():
    g = pos(hands=[["9C", "2D", "KS", "QS"]], pile=["4C", "9H"], scores=[-100, 0])
    refused(g, "take 9C 2D", "no_natural_pair")
    refused(g, "take 9C", "no_natural_pair")


def test_5_take_pile_new_group_rest_into_hand():
    g = pos(hands=[["9C", "9D", "9S", "2D", "KS", "QS"]], pile=["4C", "8H", "9H"], scores=[-100, 0])
    g.play("take 9C 9D 9S 2D")
    assert len(g.melds[0]) == 1 and len(g.melds[0][0].cards) == 5
    assert kinds(g, 0) == K("KS", "QS", "4C", "8H") and g.pile == []


def test_5_samba_red_threes_in_pile_laid_without_replacement():
    g = pos(hands=[["9C", "9D", "KS", "QS"]], pile=["3H", "4C", "9H"], scores=[-100, 0])
    stock = len(g.stock)
    g.play("take 9C 9D")
    assert len(g.red3[0]) == 1 and len(g.stock) == stock and kinds(g, 0) == K("KS", "QS", "4C")


def test_5_dutch_red_threes_in_pile_go_into_hand():
    g = pos("dutch", 4, hands=[["9C", "9D", "KS", "QS"]], pile=["3H", "4C", "9H"], scores=[-100, 0])
    g.play("take 9C 9D")
    assert g.red3[0] == [] and kinds(g, 0) == K("KS", "QS", "4C", "3H")


def test_5_pile_group_obeys_group_limits():
    g = pos(hands=[["9C", "9D", "2D", "2C", "JK", "KS"]], pile=["9H"], scores=[-100, 0])
    refused(g, "take 9C 9D 2D 2C", "too_many_wilds")


def test_5_opening_by_pile_counts_top_card_not_rest():
    # 9+9+9 = 30 < 50, pile rest is rich but does not count.
    g = pos(hands=[["9C", "9D", "KS", "QS"]], pile=["AC", "AD", "JK", "9H"])
    refused(g, "take 9C 9D", "opening_too_low")
    # With another meld from the hand in the same action it reaches 50.
    g = pos(hands=[["9C", "9D", "KS", "KD", "KH", "QS"]], pile=["AC", "9H"])
    refused(g, "take 9C 9D", "opening_too_low")
    g.play("take 9C 9D; new KS KD KH")
    assert len(g.melds[0]) == 2


def test_5_crawford_frozen_for_unmelded_side_needs_pair():
    g = pos("crawford", 4, hands=[["9C", "2D", "KS", "QS"]], pile=["4C", "9H"])
    assert g.pile_frozen(0)
    refused(g, "take 9C 2D", "no_natural_pair")


def test_5_crawford_unfrozen_pile_taken_onto_meld():
    g = pos(
        "crawford",
        4,
        hands=[["5C", "KS", "QS"]],
        pile=["4C", "8D", "9H"],
        melds=[[["9C", "9D", "9S"]], []],
    )
    mid = g.melds[0][0].id
    g.play(f"take m{mid}")
    assert len(g.melds[0][0].cards) == 4 and kinds(g, 0) == K("5C", "KS", "QS", "4C", "8D")


def test_5_crawford_wild_in_pile_freezes_for_everyone():
    g = pos(
        "crawford",
        4,
        hands=[["5C", "KS", "QS"]],
        pile=["2C", "8D", "9H"],
        melds=[[["9C", "9D", "9S"]], []],
    )
    assert g.pile_frozen(0)
    refused(g, f"take m{g.melds[0][0].id}", "pile_frozen")


def test_5_crawford_never_onto_a_finished_canasta():
    g = pos(
        "crawford",
        4,
        hands=[["5C", "KS", "QS"]],
        pile=["8D", "9H"],
        melds=[[["9C", "9D", "9S", "9C", "9D", "9S", "9H"]], []],
    )
    refused(g, f"take m{g.melds[0][0].id}", "top_card_no_fit")


# 6. Melds -------------------------------------------------------------------------------------------
def opened(rules="samba", players=2, hand=(), **kw):
    return pos(
        rules,
        players,
        hands=[list(hand)],
        phase="meld",
        melds=[[["KC", "KD", "KH"]]] + [[] for _ in range(players - 1 if players != 4 else 1)]
        if players != 6
        else [[["KC", "KD", "KH"]], [], []],
        **kw,
    )


def test_6_group_at_most_two_wilds_and_twice_as_many_naturals():
    g = opened(hand=["9C", "9D", "2C", "2D", "QS", "JS"])
    refused(g, "meld new 9C 9D 2C 2D", "too_many_wilds")
    g.play("meld new 9C 9D 2C")
    assert g.melds[0][-1].type == "group"


def test_6_crawford_group_needs_two_naturals_only():
    g = opened("crawford", 4, hand=["9C", "9D", "2C", "2D", "QS", "JS", "JK"])
    g.play("meld new 9C 9D 2C 2D")
    refused(g, f"meld add m{g.melds[0][-1].id} JK", "too_many_wilds")


def test_6_wild_never_melds_alone():
    g = opened(hand=["2C", "2D", "JK", "QS", "JS"])
    refused(g, "meld new 2C 2D JK", "wild_only")


def test_6_several_groups_of_one_rank_and_merge():
    g = opened(hand=["KS", "KS", "KH", "QS", "JS", "TH"])
    g.play("meld new KS KS KH")
    a, b = g.melds[0][0].id, g.melds[0][1].id
    g.play(f"merge m{a} m{b}")
    assert len(g.melds[0]) == 1 and len(g.melds[0][0].cards) == 6


def test_6_merge_must_obey_limits():
    g = pos(
        hands=[["QS", "JS", "TH"]],
        phase="meld",
        melds=[[["KC", "KD", "KH", "KS", "2C", "2D"], ["KC", "KD", "2H"]], []],
    )
    a, b = g.melds[0][0].id, g.melds[0][1].id
    refused(g, f"merge m{a} m{b}", "too_many_wilds")


def test_6_canasta_natural_and_mixed_and_wild_makes_it_mixed():
    from py_engine.melds import canasta_kind

    r = get_rules("samba")
    assert canasta_kind("group", K(*["KS"] * 7), r) == "natural"
    assert canasta_kind("group", K(*["KS"] * 6, "2C"), r) == "mixed"
    g = pos(
        hands=[["2C", "QS", "JS", "TH"]],
        phase="meld",
        melds=[[["KC", "KD", "KH", "KS", "KC", "KD", "KH"]], []],
    )
    g.play(f"meld add m{g.melds[0][0].id} 2C")
    assert canasta_kind("group", g.melds[0][0].kinds(), r) == "mixed"


def test_6_crawford_no_wild_onto_finished_canasta():
    g = pos(
        "crawford",
        4,
        hands=[["2C", "QS", "JS", "TH"]],
        phase="meld",
        melds=[[["KC", "KD", "KH", "KS", "KC", "KD", "KH"]], []],
    )
    refused(g, f"meld add m{g.melds[0][0].id} 2C", "wild_on_canasta")


def test_6_sequence_rules():
    g = opened(hand=["4H", "5H", "7H", "8H", "9S", "2H", "QS", "JS"])
    refused(g, "meld new 4H 5H 7H", "sequence_gap")
    refused(g, "meld new 7H 8H 9S", "sequence_suit")
    refused(g, "meld new 4H 5H 2H", "sequence_wild")


def test_6_sequence_no_wrap_and_low_is_four():
    g = opened(hand=["QS", "KS", "AS", "4S", "5S", "JD", "TD"])
    g.play("meld new QS KS AS")
    refused(g, f"meld add m{g.melds[0][-1].id} 4S", "sequence_gap")


def test_6_sequence_extends_either_end_never_joined():
    g = pos(
        hands=[["6H", "TH", "QS", "JS"]],
        phase="meld",
        melds=[[["7H", "8H", "9H"], ["JH", "QH", "KH"]], []],
    )
    a, b = g.melds[0][0].id, g.melds[0][1].id
    g.play(f"meld add m{a} 6H; add m{a} TH")
    assert len(g.melds[0][0].cards) == 5
    refused(g, f"merge m{a} m{b}", "merge_mismatch")


def test_6_samba_is_closed():
    g = pos(
        hands=[["JH", "QS", "JS", "TC"]],
        phase="meld",
        melds=[[["4H", "5H", "6H", "7H", "8H", "9H", "TH"]], []],
    )
    refused(g, f"meld add m{g.melds[0][0].id} JH", "meld_closed")


def test_6_several_sequences_of_one_suit():
    g = opened(hand=["4H", "5H", "6H", "4H", "5H", "6H", "QS", "JS"])
    g.play("meld new 4H 5H 6H; new 4H 5H 6H")
    assert sum(m.type == "sequence" for m in g.melds[0]) == 2


def test_6_black_threes_only_when_going_out():
    g = pos(
        hands=[["3C", "3S", "3C", "QS", "JS"]],
        phase="meld",
        melds=[[["KC"] * 3 + ["KD"] * 3 + ["KH"], ["4H", "5H", "6H", "7H", "8H", "9H", "TH"]], []],
    )
    refused(g, "meld new 3C 3S 3C", "black_threes_not_out")
    g = pos(
        hands=[["3C", "3S", "3C", "QS"]],
        phase="meld",
        melds=[[["KC"] * 3 + ["KD"] * 3 + ["KH"], ["4H", "5H", "6H", "7H", "8H", "9H", "TH"]], []],
    )
    g.play("meld new 3C 3S 3C")
    g.play("discard QS")
    assert g.went_out == 0


# 7. Opening minimum -----------------------------------------------------------------------------------
@pytest.mark.parametrize("score,minimum", OPENING_BANDS)
def test_7_opening_minimum_by_score(score, minimum):
    assert get_rules("samba").opening_minimum(score) == minimum


def test_7_opening_counts_several_melds_in_one_action():
    hand = ["4S", "5S", "6S", "KD", "KC", "KH", "QD", "QC", "QH", "TS", "9H"]
    g = pos(hands=[hand], phase="meld")
    refused(g, "meld new 4S 5S 6S", "opening_too_low")  # 15
    refused(g, "meld new 4S 5S 6S; new KD KC KH", "opening_too_low")  # 45
    g.play("meld new 4S 5S 6S; new KD KC KH; new QD QC QH")  # 75
    assert g.opened(0) and len(g.melds[0]) == 3


def test_7_opening_counts_top_card_of_taken_pile():
    # 9+9 from hand + 9 top = 27; with K K K (30) = 57 >= 50; without the top card 48 < 50.
    g = pos(hands=[["9C", "9D", "KD", "KC", "KH", "QS", "JS"]], pile=["AC", "9H"])
    refused(g, "take 9C 9D", "opening_too_low")
    g.play("take 9C 9D; new KD KC KH")
    assert g.opened(0)


def test_7_no_minimum_after_opening():
    g = opened(hand=["4S", "5S", "6S", "QS", "JS"])
    g.play("meld new 4S 5S 6S")
    assert len(g.melds[0]) == 2


def test_7_minimum_follows_side_score():
    g = pos(
        hands=[["KD", "KC", "KH", "QD", "QC", "QH", "AS", "AS", "AS", "TS", "9S"]],
        phase="meld",
        scores=[3000, 0],
    )
    refused(g, "meld new KD KC KH; new QD QC QH", "opening_too_low")  # 60 < 120
    g.play("meld new KD KC KH; new QD QC QH; new AS AS AS")  # 120
    assert g.opened(0)


# 8. Going out -----------------------------------------------------------------------------------------
TWO_CANASTAS = [["KC"] * 3 + ["KD"] * 3 + ["KH"], ["4H", "5H", "6H", "7H", "8H", "9H", "TH"]]


def test_8_go_out_needs_two_canastas():
    g = pos(hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[[TWO_CANASTAS[0]], []])
    refused(g, "meld new QS QD QC", "must_keep_cards")
    g = pos(hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[TWO_CANASTAS, []])
    g.play("meld new QS QD QC")
    g.play("discard JS")
    assert g.went_out == 0 and g.deal_result["sides"][0]["going_out"] == 200


def test_8_go_out_by_melding_every_card():
    g = pos(hands=[["QS", "QD", "QC"]], phase="meld", melds=[TWO_CANASTAS, []])
    g.play("meld new QS QD QC")
    assert g.went_out == 0 and g.phase in ("deal_over", "game_over")


def test_8_samba_keep_two_cards_until_requirement():
    g = pos(hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[[["KC", "KD", "KH"]], []])
    refused(g, "meld new QS QD QC", "must_keep_cards")


def test_8_dutch_keep_one_card_then_pass():
    g = pos(
        "dutch", 4, hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[[["KC", "KD", "KH"]], []]
    )
    g.play("meld new QS QD QC")
    assert g.can(parse_move("pass")) and not g.can(parse_move("discard JS"))


def test_8_refuse_top_card_take_with_one_card_in_hand():
    g = pos(hands=[["QS"]], pile=["KD", "7H"], melds=[[["4H", "5H", "6H"]], []])
    refused(g, f"top m{g.melds[0][0].id}", "no_end_of_turn")


def test_8_ask_partner_yes_goes_out():
    g = pos(players=4, hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[TWO_CANASTAS, []])
    g.play("ask new QS QD QC; discard JS")
    assert g.phase == "answer" and g.current == 2
    g.play("answer yes")
    assert g.went_out == 0


def test_8_ask_partner_no_is_binding():
    g = pos(players=4, hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[TWO_CANASTAS, []])
    g.play("ask new QS QD QC; discard JS")
    g.play("answer no")
    assert g.phase == "meld" and g.current == 0 and g.turn.refused
    refused(g, "meld new QS QD QC", "partner_refused")
    refused(g, "ask new QS QD QC; discard JS", "already_asked")
    g.play("discard JS")
    assert g.went_out is None and g.current == 1


def test_8_ask_needs_partner_and_a_complete_going_out():
    g = pos(players=2, hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[TWO_CANASTAS, []])
    refused(g, "ask new QS QD QC; discard JS", "no_partner")
    g = pos(
        players=4, hands=[["QS", "QD", "QC", "JS", "TS"]], phase="meld", melds=[TWO_CANASTAS, []]
    )
    refused(g, "ask new QS QD QC; discard JS", "not_going_out")


def test_8_empty_stock_ends_deal_without_going_out_bonus():
    reds, rest = rest_of_deck("9C", "9D", "KS", "5C", "6D", "7H", "8D")
    g = pos(
        hands=[["9C", "9D", "KS"], ["5C", "6D", "7H"]],
        pile=rest + ["8D"],
        stock=[],
        red_threes=[reds, []],
    )
    refused(g, "draw", "stock_empty")
    g.play("end")
    assert g.deal_result["reason"] == "stock" and g.went_out is None
    assert all(s["going_out"] == 0 for s in g.deal_result["sides"])


def test_8_crawford_must_take_fitting_unfrozen_pile_on_empty_stock():
    reds, rest = rest_of_deck("9C", "9D", "9S", "5C", "6D", "7H", "9H", "KS")
    g = pos(
        "crawford",
        4,
        hands=[["5C", "6D"], rest, ["7H"], ["KS"]],
        pile=["9H"],
        melds=[[["9C", "9D", "9S"]], []],
        stock=[],
        red_threes=[[], reds],
    )
    refused(g, "end", "must_take_pile")
    g.play(f"take m{g.melds[0][0].id}")
    assert g.phase == "meld" and len(g.melds[0][0].cards) == 4


# 9. Threes ----------------------------------------------------------------------------------------------
def test_9_red_threes_dealt_are_laid_and_replaced():
    for seed in range(20):
        g = Game.new("samba", 4, seed=seed)
        assert all(len(h) == 15 for h in g.hands)
        assert not any(
            KIND_OF_ID[c] in (parse_kind("3H"), parse_kind("3D")) for h in g.hands for c in h
        )


def test_9_red_three_drawn_is_laid_and_replaced():
    g = pos(hands=[["9C", "9D", "KS"]], stock_top=["3H", "5C", "6C"])
    g.play("draw")
    assert kinds(g, 0) == K("9C", "9D", "KS", "5C", "6C") and len(g.red3[0]) == 1


def test_9_red_three_that_cannot_be_replaced_ends_deal():
    reds, rest = rest_of_deck("9C", "9D", "KS", "5C", "6D", "7H", "8D", "3H")
    g = pos(
        hands=[["9C", "9D", "KS"], ["5C", "6D", "7H"]],
        pile=rest + ["8D"],
        stock=["3H"],
        red_threes=[reds, []],
    )
    g.play("draw")
    assert g.phase in ("deal_over", "game_over") and g.deal_result["reason"] == "red_three"


def test_9_dutch_red_threes_by_choice_no_replacement():
    g = pos("dutch", 4, hands=[["9C", "3H", "KS"]])
    n = len(g.stock)
    g.play("red3 3H")
    assert len(g.red3[0]) == 1 and kinds(g, 0) == K("9C", "KS") and len(g.stock) == n
    refused(g, "red3 9C", "not_red_three")
    g2 = pos(hands=[["9C", "9D", "KS"]])
    refused(g2, "red3 3H", "red_threes_automatic")


@pytest.mark.parametrize(
    "rules,n,met,expected",
    [
        ("samba", 1, True, 100),
        ("samba", 6, True, 1000),
        ("samba", 2, False, -200),
        ("samba", 6, False, -1000),
        ("dutch", 6, False, -600),
        ("dutch", 6, True, 1000),
        ("crawford", 6, False, -1000),
    ],
)
def test_9_red_three_bonus_and_penalty(rules, n, met, expected):
    from py_engine.scoring import red_threes_score

    assert red_threes_score(n, get_rules(rules), met) == expected


def test_9_dutch_red_three_held_costs_750():
    from py_engine.cards import deck_ids as d
    from py_engine.scoring import score_side

    red = next(c for c in d() if KIND_OF_ID[c] == parse_kind("3H"))
    s = score_side(get_rules("dutch"), 4, [], [], [[red], []], False)
    assert s["penalty"] == -750 and s["hands"] == 0


def test_9_black_three_counts_minus_5_in_hand():
    from py_engine.scoring import score_side

    b3 = next(c for c in deck_ids() if KIND_OF_ID[c] == parse_kind("3S"))
    assert score_side(get_rules("samba"), 2, [], [], [[b3]], False)["hands"] == -5


# 10. Scoring and the game --------------------------------------------------------------------------------
def test_10_deal_score_is_sum_of_parts_and_game_ends_at_target():
    g = pos(
        hands=[["QS", "QD", "QC"]],
        phase="meld",
        melds=[TWO_CANASTAS, []],
        scores=[8000, 0],
        target=10000,
    )
    g.play("meld new QS QD QC")
    s = g.deal_result["sides"][0]
    assert s["melds"] == 70 + 50 + 30 and s["bonuses"] == 500 + 1500 and s["going_out"] == 200
    assert s["total"] == sum(
        s[k] for k in ("melds", "bonuses", "red_threes", "going_out", "hands", "penalty")
    )
    assert g.phase == "game_over" and g.result["winner"] == 0


def test_10_tie_at_the_top_is_a_draw():
    # Side 0 scores 70 + 50 + 30 (cards) + 500 + 1,500 (bonuses) + 200 (out) = 2,350;
    # side 1 keeps 5C 6D 7H: -15. Both end on 10,350.
    g = pos(
        hands=[["QS", "QD", "QC"], ["5C", "6D", "7H"]],
        phase="meld",
        melds=[TWO_CANASTAS, []],
        scores=[8000, 10365],
        target=10000,
    )
    g.play("meld new QS QD QC")
    assert g.scores == [10350, 10350]
    assert g.phase == "game_over" and g.result["draw"] and g.result["winner"] is None


def test_10_sixty_deal_cap_is_a_draw():
    g = pos(
        hands=[["QS", "QD", "QC"]],
        phase="meld",
        melds=[TWO_CANASTAS, []],
        deal=60,
        scores=[0, 0],
        target=10000,
    )
    g.play("meld new QS QD QC")
    assert g.phase == "game_over" and g.result["draw"] and g.result["reason"] == "deal_cap"


# 11. The rule sets are data --------------------------------------------------------------------------------
def test_11_engine_never_tests_preset_names():
    import pathlib
    import re

    import py_engine

    src = pathlib.Path(py_engine.__file__).resolve().parent
    files = list(src.rglob("*.py"))
    assert len(files) > 10
    for f in files:
        if f.name == "rules.py":
            continue
        text = f.read_text()
        assert not re.search(r"""name\s*==\s*["'](samba|dutch|crawford)""", text), f
        assert not re.search(r"""==\s*["'](dutch|crawford)["']""", text), f
