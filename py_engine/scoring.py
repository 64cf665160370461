"""Deal scoring (docs/rules.md section 10), on plain data: melds, red threes and hands per side.

>>> from py_engine.rules import get_rules
>>> canasta = get_rules("canasta")
>>> going_out_bonus(canasta, went_out=True, melded_before_turn=True)
100
>>> going_out_bonus(canasta, went_out=True, melded_before_turn=False)
200
>>> going_out_bonus(get_rules("samba"), went_out=True, melded_before_turn=False)
200
"""

from __future__ import annotations

from typing import Any

from .cards import IS_BLACK3, IS_RED3, KIND_OF_ID, VALUE_OF_KIND
from .melds import GROUP, SEQUENCE, WILD, TableMeld, meld_bonus, meld_value
from .rules import RuleSet


def side_canastas(melds: list[TableMeld], rules: RuleSet) -> tuple[int, int]:
    """(canastas and sambas, of which sambas/escaleras) of one side's melds."""
    total = seqs = 0
    shortest = rules.shortest_finished
    for m in melds:
        n = len(m.cards)
        if n < shortest:
            continue  # too short to be finished
        t = m.type  # (``melds.finished_kind``, inline)
        if t == GROUP:
            total += n >= rules.canasta_size
        elif t == SEQUENCE:
            if n >= rules.sequence_max:
                total += 1
                seqs += 1
        elif t == WILD:
            total += n >= rules.wild_meld_max
    return total, seqs


def requirement_met(melds: list[TableMeld], rules: RuleSet, players: int) -> bool:
    total, seqs = side_canastas(melds, rules)
    return total >= rules.canastas_needed(players) and (not rules.go_out_needs_sequence or seqs > 0)


def red_threes_score(n: int, rules: RuleSet, positive: bool) -> int:
    if n == 0:
        return 0
    full = rules.red_three_all_bonus if n == rules.red_threes_total() else n * rules.red_three_value
    if positive:
        return full
    return -(full if rules.red_three_unmet_penalty_all else n * rules.red_three_value)


def hand_value(ids: list[int], rules: RuleSet) -> int:
    """What a hand costs at the end of a deal (a positive number)."""
    total = 0
    for c in ids:
        k = KIND_OF_ID[c]
        total += rules.black_three_hand_penalty if IS_BLACK3[k] else VALUE_OF_KIND[k]
    return total


def going_out_bonus(rules: RuleSet, went_out: bool, melded_before_turn: bool = True) -> int:
    """The bonus for going out (docs/rules.md sections 8 and 10): ``going_out_bonus``, or (Canasta)
    ``concealed_going_out_bonus`` when the side went out in a turn that began with none of its
    melds on the table, its whole hand laid down in that one turn (D17). A rule set whose
    concealed bonus is 0 pays the plain bonus either way."""
    if not went_out:
        return 0
    if not melded_before_turn and rules.concealed_going_out_bonus:
        return rules.concealed_going_out_bonus
    return rules.going_out_bonus


def score_side(
    rules: RuleSet,
    players: int,
    melds: list[TableMeld],
    red_threes: list[int],
    hands: list[list[int]],
    went_out: bool,
    melded_before_turn: bool = True,
) -> dict[str, Any]:
    """The deal's score of one side, broken down; ``hands`` are its players' hands.

    ``melded_before_turn`` says, for a side that went out, whether it had any meld on the
    table when the going-out turn began (False: a concealed going out, ``going_out_bonus``)."""
    meld_points = sum(meld_value(m) for m in melds)
    bonuses = sum(meld_bonus(m, rules) for m in melds)
    if rules.red_three_penalty_if == "unmet":
        positive = requirement_met(melds, rules, players)
    else:
        positive = bool(melds)
    red = red_threes_score(len(red_threes), rules, positive)
    out = going_out_bonus(rules, went_out, melded_before_turn)
    in_hand = -sum(hand_value(h, rules) for h in hands)
    penalty = -rules.red_three_held_penalty * sum(
        1 for h in hands if any(IS_RED3[KIND_OF_ID[c]] for c in h)
    )
    total = meld_points + bonuses + red + out + in_hand + penalty
    return {
        "melds": meld_points,
        "bonuses": bonuses,
        "red_threes": red,
        "going_out": out,
        "hands": in_hand,
        "penalty": penalty,
        "total": total,
    }
