"""An independent audit of the engine against docs/rules.md: edges that test_rulebook.py does not
reach. Each test names the section (and, where docs/rules.md is silent, the decision in
docs/decisions.md) that it checks."""

from __future__ import annotations

import pytest
from rulebook_helpers import pos, refused, rest_of_deck

from py_engine import Game, parse_move
from py_engine.cards import KIND_OF_ID, deck_ids, parse_kind
from py_engine.melds import GROUP, TableMeld
from py_engine.rules import get_rules

TWO_CANASTAS = [["KC"] * 3 + ["KD"] * 3 + ["KH"], ["4H", "5H", "6H", "7H", "8H", "9H", "TH"]]
KINGS = ["KC", "KD", "KH"]


def K(*cards):
    return sorted(parse_kind(c) for c in cards)


def hand(game, seat=0):
    return sorted(game.hand_kinds(seat))


def injected_deal(rules, players, up_cards):
    """A fresh deal whose up-cards are ``up_cards`` (in the order turned)."""
    g = Game.new(rules, players, seed=1)
    deck = deck_ids()
    chosen = [next(c for c in deck if KIND_OF_ID[c] == parse_kind(k)) for k in up_cards]
    rest = [c for c in deck if c not in chosen]
    dealt = 15 * players
    order = rest[: len(rest) - dealt] + list(reversed(chosen)) + rest[len(rest) - dealt :]
    g.deal_no, g.dealer = 0, players - 1
    g.start_deal(order)
    return g


# 2. Players and sides ---------------------------------------------------------------------------
def test_2_six_player_partners_three_seats_apart_and_asked():
    """Section 2: 6 players, partners 0+3, 1+4, 2+5; the question goes to that partner."""
    for rules in ("dutch", "crawford"):
        g = pos(
            rules, 6, hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[TWO_CANASTAS, [], []]
        )
        assert [g.seats_of(s) for s in range(3)] == [[0, 3], [1, 4], [2, 5]]
        g.play("ask new QS QD QC; discard JS")
        assert g.phase == "answer" and g.current == 3


@pytest.mark.parametrize("rules,players", [("samba", 2), ("samba", 3), ("dutch", 5)])
def test_2_players_alone_have_no_partner_to_ask(rules, players):
    """Section 2 (D2 for five players): everyone alone, so nobody to ask (section 8)."""
    g = pos(
        rules,
        players,
        hands=[["QS", "QD", "QC", "JS"]],
        phase="meld",
        melds=[TWO_CANASTAS] + [[] for _ in range(players - 1)],
    )
    assert g.n_sides == players
    refused(g, "ask new QS QD QC; discard JS", "no_partner")


# 3. The deal --------------------------------------------------------------------------------------
def test_3_crawford_covered_wild_freezes_the_pile_for_everyone():
    """Sections 3 and 5: in crawford a wild card covered at the deal freezes the pile."""
    g = injected_deal("crawford", 4, ["2C", "9D"])
    assert [KIND_OF_ID[c] for c in g.pile] == [parse_kind("2C"), parse_kind("9D")]
    # Open side 0 with three kings from the stock: the pile stays frozen for it.
    kings = [c for c in g.stock if KIND_OF_ID[c] == parse_kind("KS")][:3]
    for c in kings:
        g.stock.remove(c)
    g.melds[0].append(TableMeld(g.next_meld_id, GROUP, 13, -1, kings))
    assert g.opened(0) and g.pile_frozen(0) and g.pile_frozen(1)


def test_3_samba_covered_red_three_does_not_freeze():
    """Sections 3 and 5: the samba pile never freezes, even over a covered red three."""
    g = injected_deal("samba", 2, ["3H", "9D"])
    assert not g.pile_frozen(0) and not g.pile_frozen(1)


# 4. A turn ----------------------------------------------------------------------------------------
def test_4_top_card_only_onto_own_sides_sequence():
    """Section 4: the top card extends one of *your side's* sequences."""
    g = pos(
        players=4,
        hands=[["9C", "9D", "KS"]],
        pile=["KD", "7H"],
        melds=[[KINGS], [["4H", "5H", "6H"]]],
    )
    refused(g, "top m2", "no_such_meld")


def test_4_top_card_not_onto_a_group_of_its_rank():
    """Section 4: only a sequence takes the top card alone, never a group it would fit."""
    g = pos(hands=[["9C", "9D", "QS"]], pile=["4C", "KS"], melds=[[KINGS], []])
    refused(g, "top m1", "top_card_no_fit")


def test_4_top_card_take_leaves_rest_of_pile_and_a_blocked_top():
    """Section 4: the rest of the pile stays; a wild card now on top blocks it (section 5)."""
    g = pos(hands=[["9C", "9D", "KS"]], pile=["9H", "2C", "8S"], melds=[[["5S", "6S", "7S"]], []])
    g.play("top m1")
    assert [KIND_OF_ID[c] for c in g.pile] == K("9H") + K("2C")
    assert g.pile_blocked() and len(g.melds[0][0].cards) == 4


def test_4_dutch_top_card_with_one_card_then_pass():
    """Sections 4 and 8: in dutch one card may be kept (then pass), so a top-card take with
    one card in hand is legal there (it is refused where two must be kept)."""
    g = pos("dutch", 4, hands=[["QS"]], pile=["KD", "7H"], melds=[[["4H", "5H", "6H"]], []])
    g.play("top m1")
    assert g.can(parse_move("pass")) and not g.can(parse_move("discard QS"))


# 5. The discard pile ------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["samba", "dutch"])
def test_5_no_top_card_onto_a_group_take_in_samba_or_dutch(rules):
    """Section 5: in samba and dutch the pile is taken only with a natural pair."""
    g = pos(
        rules, 4, hands=[["9C", "KS", "QS"]], pile=["4D", "7H"], melds=[[["7C", "7D", "7S"]], []]
    )
    refused(g, "take m1", "pile_onto_meld_not_allowed")


def test_5_samba_pile_with_a_wild_inside_is_not_frozen():
    """Section 5: the samba pile never freezes; a wild card below the top does not stop a pair."""
    g = pos(hands=[["9C", "9D", "KS", "QS"]], pile=["4C", "JK", "9H"], melds=[[KINGS], []])
    g.play("take 9C 9D")
    assert hand(g) == K("KS", "QS", "4C", "JK") and g.pile == []


def test_5_crawford_unfrozen_pile_also_taken_with_a_pair():
    """Section 5: an opened crawford side may take an unfrozen pile with a natural pair too,
    laid as a new group."""
    g = pos(
        "crawford",
        4,
        hands=[["9C", "9D", "KS", "QS"]],
        pile=["4D", "9H"],
        melds=[[["7C", "7D", "7S"]], []],
    )
    g.play("take 9C 9D")
    assert len(g.melds[0]) == 2 and len(g.melds[0][1].cards) == 3
    assert hand(g) == K("KS", "QS", "4D")


def test_5_crawford_never_one_natural_and_one_wild_even_unfrozen():
    """Section 5: never with one natural and one wild card."""
    g = pos(
        "crawford",
        4,
        hands=[["9C", "2D", "KS", "QS"]],
        pile=["4D", "9H"],
        melds=[[["7C", "7D", "7S"]], []],
    )
    assert not g.pile_frozen(0)
    refused(g, "take 9C 2D", "no_natural_pair")


def test_5_crawford_top_card_onto_a_short_sequence():
    """Section 5: the top card may go on one of the side's sequences with fewer than 7 cards;
    the whole pile is taken."""
    g = pos(
        "crawford",
        4,
        hands=[["9C", "KS", "QS"]],
        pile=["8C", "7H"],
        melds=[[["4H", "5H", "6H"]], []],
    )
    g.play("take m1")
    assert len(g.melds[0][0].cards) == 4 and g.pile == []
    assert hand(g) == K("9C", "KS", "QS", "8C")


def test_5_crawford_taking_the_pile_ends_the_deal_freeze():
    """Section 5: the pile is frozen *while* a red 3 covered at the deal is in it; once the
    pile has been taken the new pile is not frozen by it."""
    g = pos(
        "crawford",
        4,
        hands=[["9C", "9D", "KS", "QS"]],
        pile=["3H", "9H"],
        melds=[[["7C", "7D", "7S"]], []],
        pile_frozen=True,
    )
    assert g.pile_frozen(0)
    g.play("take 9C 9D")
    assert len(g.red3[0]) == 1 and not g.pile_frozen(0)


def test_5_pile_take_must_leave_a_legal_end_of_turn():
    """Sections 5 and 8: a pile taken with a pair that leaves one card (samba keeps two) is
    refused; the same take leaving two cards is legal."""
    g = pos(hands=[["9C", "9D", "KS"]], pile=["9H"], melds=[[KINGS], []])
    refused(g, "take 9C 9D", "must_keep_cards")
    g = pos(hands=[["9C", "9D", "KS"]], pile=["4C", "9H"], melds=[[KINGS], []])
    g.play("take 9C 9D")
    assert hand(g) == K("KS", "4C")


def test_5_opening_melds_come_from_the_hand_not_the_pile():
    """Section 5 (D3): the melds laid with the pile's group come from the hand."""
    g = pos(hands=[["9C", "9D", "KS", "KD", "QS"]], pile=["KH", "AC", "9H"])
    refused(g, "take 9C 9D; new KS KD KH", "card_not_in_hand")


def test_5_red_three_found_in_pile_does_not_count_to_opening():
    """Sections 5 and 7: a red 3 in the taken pile is laid but does not count."""
    g = pos(hands=[["9C", "9D", "JS", "QS"]], pile=["3H", "3D", "9H"])
    refused(g, "take 9C 9D", "opening_too_low")


# 6. Melds -----------------------------------------------------------------------------------------
def test_6_group_ratio_when_adding_a_second_wild():
    """Section 6 (samba): naturals >= 2 x wilds; 3 naturals + 2 wilds is too few, 4 + 2 is fine."""
    g = pos(hands=[["2C", "KS", "QS"]], phase="meld", melds=[[["7C", "7D", "7S", "2D"]], []])
    refused(g, "meld add m1 2C", "too_many_wilds")
    g = pos(hands=[["2C", "KS", "QS"]], phase="meld", melds=[[["7C", "7D", "7S", "7H", "2D"]], []])
    g.play("meld add m1 2C")
    assert len(g.melds[0][0].cards) == 6


def test_6_canasta_still_holds_at_most_two_wilds():
    """Section 6: a canasta is a group, so at most 2 wild cards however long it grows."""
    g = pos(
        hands=[["JK", "KS", "QS"]],
        phase="meld",
        melds=[[["9C"] * 3 + ["9D"] * 3 + ["9H", "2C", "2D"]], []],
    )
    refused(g, "meld add m1 JK", "too_many_wilds")


def test_6_crawford_group_at_most_two_wilds():
    """Section 6 (crawford): two naturals suffice, but still at most 2 wild cards."""
    g = pos(
        "crawford",
        4,
        hands=[["JK", "KS", "QS"]],
        phase="meld",
        melds=[[["9C", "9D", "9H", "9S", "2C", "2D"]], []],
    )
    refused(g, "meld add m1 JK", "too_many_wilds")


def test_6_crawford_wild_may_complete_a_canasta():
    """Section 6 (crawford): the ban is on adding a wild card to a *finished* canasta; a wild
    that makes the seventh card is fine."""
    g = pos(
        "crawford",
        4,
        hands=[["2C", "KS", "QS"]],
        phase="meld",
        melds=[[["9C"] * 3 + ["9D"] * 3], []],
    )
    g.play("meld add m1 2C")
    from py_engine.melds import canasta_kind

    assert canasta_kind("group", g.melds[0][0].kinds(), g.rules) == "mixed"


def test_6_crawford_one_addition_places_the_wild_card_first_D16():
    """Section 6 (crawford), D16: one addition of a natural and a wild card to a six-card group
    is legal (the wild card is the seventh card); as two additions, the order written counts."""
    six = [["9C"] * 3 + ["9D"] * 3]
    g = pos("crawford", 4, hands=[["9S", "2C", "KS", "QS"]], phase="meld", melds=[six, []])
    g.play("meld add m1 9S 2C")
    assert len(g.melds[0][0].cards) == 8
    g = pos("crawford", 4, hands=[["9S", "2C", "KS", "QS"]], phase="meld", melds=[six, []])
    refused(g, "meld add m1 9S; add m1 2C", "wild_on_canasta")
    g.play("meld add m1 2C; add m1 9S")
    assert len(g.melds[0][0].cards) == 8


def test_6_crawford_merge_may_not_bring_a_wild_into_a_canasta():
    """Section 6 (crawford): merging a group with a wild card into a finished canasta adds a
    wild card to it."""
    g = pos(
        "crawford",
        4,
        hands=[["KS", "QS", "JS"]],
        phase="meld",
        melds=[[["9C"] * 3 + ["9D"] * 3 + ["9H"], ["9S", "9H", "2C"]], []],
    )
    refused(g, "merge m1 m2", "wild_on_canasta")
    refused(g, "merge m2 m1", "wild_on_canasta")


@pytest.mark.parametrize(
    "cards,code",
    [
        (["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"], "sequence_too_long"),
        (["AS", "4S", "5S"], "sequence_gap"),
        (["3S", "4S", "5S"], "not_a_meld"),
        (["4D", "5D", "6D", "6D"], "sequence_gap"),
    ],
)
def test_6_sequence_limits(cards, code):
    """Section 6: 3 to 7 cards, 4 low and A high, no threes, no wrap-around, no repeats."""
    g = pos(hands=[cards + ["QD", "QC"]], phase="meld", melds=[[KINGS], []])
    refused(g, "meld new " + " ".join(cards), code)


def test_6_sequence_jack_to_ace_and_seven_card_new_meld_is_a_closed_samba():
    """Section 6: A is high; a new 7-card sequence is a samba, closed at both ends."""
    g = pos(
        hands=[["8S", "9S", "TS", "JS", "QS", "KS", "AS", "7S", "QD", "QC"]],
        phase="meld",
        melds=[[KINGS], []],
    )
    g.play("meld new 8S 9S TS JS QS KS AS")
    m = g.melds[0][-1]
    assert m.type == "sequence" and len(m.cards) == 7
    refused(g, f"meld add m{m.id} 7S", "meld_closed")
    assert g.rules.samba_bonus == 1500 and g.meets_requirement(0) is False


def test_6_black_threes_never_with_a_wild_card():
    """Section 6: black threes, no wild cards."""
    g = pos(hands=[["3C", "3S", "3C", "2D"]], phase="meld", melds=[TWO_CANASTAS, []])
    refused(g, "meld new 3C 3S 3C 2D", "not_a_meld")


def test_9_black_threes_melded_going_out_count_five_each():
    """Sections 6 and 9: black threes melded when going out count 5 each on the table and
    make no canasta."""
    g = pos(hands=[["3C", "3S", "3C", "QS"]], phase="meld", melds=[TWO_CANASTAS, []])
    g.play("meld new 3C 3S 3C")
    g.play("discard QS")
    s = g.deal_result["sides"][0]
    assert s["melds"] == 70 + 50 + 15 and s["bonuses"] == 500 + 1500


# 7. Opening minimum -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "score,move,code",
    [
        (-1, "meld new 4C 4D 4H", None),  # 15 of 15
        (0, "meld new 4C 4D 4H", "opening_too_low"),  # 15 of 50
        (6995, "meld new AC AD AH AS AC; new QS QD QH", None),  # 130 of 120
        (7000, "meld new AC AD AH AS AC; new QS QD QH", "opening_too_low"),  # 130 of 150
        (7000, "meld new AC AD AH AS AC; new KS KD KH KC KS", None),
    ],
)  # 150 of 150
def test_7_opening_band_edges_in_play(score, move, code):
    """Section 7: below 0 the minimum is 15; at 0 it is 50; at 6,995 120; at 7,000 150."""
    cards = [c for part in move[len("meld ") :].split(";") for c in part.split()[1:]]
    g = pos(hands=[cards + ["9C", "TD"]], phase="meld", scores=[score, 0])
    if code:
        refused(g, move, code)
    else:
        g.play(move)
        assert g.opened(0)


def test_7_canasta_bonus_does_not_count_toward_the_opening():
    """Section 7: card values only, never bonuses: seven fours (35) do not open at 50."""
    g = pos(hands=[["4C", "4D", "4H", "4S", "4C", "4D", "4H", "9C", "TD"]], phase="meld")
    refused(g, "meld new 4C 4D 4H 4S 4C 4D 4H", "opening_too_low")


def test_7_partner_opened_so_no_minimum():
    """Sections 2 and 7: the opening belongs to the side; after the partner's opening no
    minimum applies to the other partner."""
    g = pos(players=4, hands=[["4C", "4D", "4H", "9C", "TD"]], phase="meld", melds=[[KINGS], []])
    g.play("meld new 4C 4D 4H")
    assert len(g.melds[0]) == 2


# 8. Going out and the end of a deal ---------------------------------------------------------------
@pytest.mark.parametrize(
    "melds",
    [
        [["KC"] * 3 + ["KD"] * 3 + ["KH"], ["QC"] * 3 + ["QD"] * 2 + ["2C", "JK"]],
        [["4H", "5H", "6H", "7H", "8H", "9H", "TH"], ["5S", "6S", "7S", "8S", "9S", "TS", "JS"]],
    ],
)
def test_8_requirement_two_canastas_or_two_sambas(melds):
    """Section 8: two canastas or sambas, in any mix (one of each is in test_rulebook)."""
    g = pos(hands=[["AS", "AD", "AC", "JD"]], phase="meld", melds=[melds, []])
    g.play("meld new AS AD AC")
    g.play("discard JD")
    assert g.went_out == 0 and g.deal_result["sides"][0]["going_out"] == 200


def test_8_second_canasta_completed_in_the_going_out_action():
    """Section 8: the requirement may be met by the action that goes out."""
    g = pos(
        hands=[["QS", "QD", "JD"]],
        phase="meld",
        melds=[[TWO_CANASTAS[0], ["QC"] * 3 + ["QH"] * 2], []],
    )
    g.play("meld add m2 QS QD")
    g.play("discard JD")
    assert g.went_out == 0


def test_8_crawford_keeps_two_cards():
    """Section 8: crawford, like samba, keeps two cards until the requirement is met."""
    g = pos("crawford", 4, hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[[KINGS], []])
    refused(g, "meld new QS QD QC", "must_keep_cards")


def test_8_dutch_may_not_pass_when_able_to_go_out():
    """Section 8 (D6): a dutch player who may go out with one card discards it."""
    g = pos("dutch", 4, hands=[["QS", "QD", "QC", "JS"]], phase="meld", melds=[TWO_CANASTAS, []])
    g.play("meld new QS QD QC")
    refused(g, "pass", "cannot_pass")
    g.play("discard JS")
    assert g.went_out == 0


def test_8_ask_too_late_with_one_card_keep_two_but_not_in_dutch():
    """Section 8 (D4): asking needs a hand that a "no" leaves playable: two cards where two
    are kept, one in dutch (a "no" then means pass)."""
    g = pos(players=4, hands=[["JS"]], phase="meld", melds=[TWO_CANASTAS, []])
    refused(g, "ask discard JS", "ask_too_late")
    g = pos("dutch", 4, hands=[["JS"]], phase="meld", melds=[TWO_CANASTAS, []])
    g.play("ask discard JS")
    g.play("answer no")
    refused(g, "discard JS", "partner_refused")
    g.play("pass")
    assert g.went_out is None and g.current == 1


def test_8_end_only_with_an_empty_stock():
    """Section 8 (D13): the deal ends on an empty stock only."""
    g = pos(hands=[["9C", "9D", "KS"]])
    refused(g, "end", "stock_not_empty")


def test_8_top_card_may_be_taken_from_an_empty_stock():
    """Section 8: a player facing an empty stock may take the top card instead (samba)."""
    reds, rest = rest_of_deck("9C", "9D", "KS", "5C", "6D", "QH", "7H", "4H", "5H", "6H")
    g = pos(
        hands=[["9C", "9D", "KS"], ["5C", "6D", "QH"]],
        pile=rest + ["7H"],
        melds=[[["4H", "5H", "6H"]], []],
        stock=[],
        red_threes=[reds, []],
    )
    g.play("top m1")
    assert g.phase == "meld" and len(g.melds[0][0].cards) == 4


def test_8_crawford_may_end_when_the_pile_does_not_fit():
    """Section 8 (crawford): only a fitting unfrozen pile must be taken."""
    reds, rest = rest_of_deck("9C", "9D", "9S", "5C", "6D", "7H", "8H", "KS")
    g = pos(
        "crawford",
        4,
        hands=[["5C", "6D"], rest, ["7H"], ["KS"]],
        pile=["8H"],
        melds=[[["9C", "9D", "9S"]], []],
        stock=[],
        red_threes=[[], reds],
    )
    g.play("end")
    assert g.deal_result["reason"] == "stock" and g.went_out is None


# 9. Threes ----------------------------------------------------------------------------------------
def test_9_replacement_red_three_is_laid_and_replaced_again():
    """Section 9 (D9): a red 3 drawn as a replacement is laid and replaced in turn."""
    g = pos(hands=[["9C", "9D", "KS"]], stock_top=["3H", "3D", "5C", "6C"])
    g.play("draw")
    assert len(g.red3[0]) == 2 and hand(g) == K("9C", "9D", "KS", "5C", "6C")


def test_9_crawford_red_three_in_taken_pile_not_replaced():
    """Section 9: in crawford a red 3 found in a taken pile is laid, with no replacement."""
    g = pos(
        "crawford",
        4,
        hands=[["5C", "KS", "QS"]],
        pile=["3D", "4C", "9H"],
        melds=[[["9C", "9D", "9S"]], []],
    )
    n = len(g.stock)
    g.play("take m1")
    assert len(g.red3[0]) == 1 and len(g.stock) == n and hand(g) == K("5C", "KS", "QS", "4C")


def test_9_all_six_red_threes_in_a_deal_result():
    """Sections 9 and 10: all six on a side that met the requirement: +1,000 in the deal."""
    g = pos(
        hands=[["QS", "QD", "QC"]],
        phase="meld",
        melds=[TWO_CANASTAS, []],
        red_threes=[["3H", "3H", "3H", "3D", "3D", "3D"], []],
    )
    g.play("meld new QS QD QC")
    assert g.deal_result["sides"][0]["red_threes"] == 1000


def test_9_red_threes_count_against_an_unmet_side_at_deal_end():
    """Section 9: minus for a side that does not meet the requirement (samba: each -100)."""
    g = pos(
        hands=[["QS", "QD", "QC"], ["5C", "6D", "7H"]],
        phase="meld",
        melds=[TWO_CANASTAS, []],
        red_threes=[[], ["3H", "3D"]],
    )
    g.play("meld new QS QD QC")
    s = g.deal_result["sides"][1]
    assert s["red_threes"] == -200 and s["hands"] == -15 and s["total"] == -215


def test_9_dutch_held_red_threes_cost_per_player():
    """Section 9 (D8): 750 per player holding red threes, however many each holds."""
    from py_engine.scoring import score_side

    reds = [c for c in deck_ids() if KIND_OF_ID[c] == parse_kind("3H")]
    s = score_side(get_rules("dutch"), 4, [], [], [[reds[0], reds[1]], [reds[2]]], False)
    assert s["penalty"] == -1500 and s["hands"] == 0


def test_9_dutch_red_three_may_not_be_melded():
    """Section 9: red threes are laid as bonuses, never in melds."""
    g = pos("dutch", 4, hands=[["3H", "3D", "3H", "QS"]], phase="meld", melds=[[KINGS], []])
    refused(g, "meld new 3H 3D 3H", "red_three")


# 10. Scoring and the game -------------------------------------------------------------------------
def test_10_deal_over_below_target_and_scores_carried():
    """Section 10: below the target the game goes on; the totals carry to the next deal."""
    g = pos(
        hands=[["QS", "QD", "QC"], ["5C", "6D", "7H"]],
        phase="meld",
        melds=[TWO_CANASTAS, []],
        scores=[100, 200],
    )
    g.play("meld new QS QD QC")
    assert g.phase == "deal_over" and g.scores == [100 + 2350, 200 - 15]
    g.play("next")
    assert g.deal_no == 2 and g.minimum(0) == 90 and g.minimum(1) == 50


def test_10_three_way_tie_at_the_top_is_a_draw():
    """Section 10: a tie at the top is a draw, with three players too."""
    g = pos(
        "samba",
        3,
        hands=[["QS", "QD", "QC"], ["5C", "6D", "7H"], ["4C"]],
        phase="meld",
        melds=[TWO_CANASTAS, [], []],
        scores=[8000, 10365, 10355],
    )
    g.play("meld new QS QD QC")
    assert g.scores == [10350, 10350, 10350] and g.result["draw"]


def test_10_target_reached_in_deal_sixty_wins():
    """Section 10: the target decides the game even in the sixtieth deal."""
    g = pos(
        hands=[["QS", "QD", "QC"]],
        phase="meld",
        melds=[TWO_CANASTAS, []],
        deal=60,
        scores=[8000, 0],
    )
    g.play("meld new QS QD QC")
    assert g.result["winner"] == 0 and g.result["reason"] == "target"
