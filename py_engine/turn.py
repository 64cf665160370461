"""The turn rules (docs/rules.md sections 7 and 8), each a small function named after the rule.

They work on plain values, so the state's checks, the legal-move generator, the view and the
bots ask the same questions of the same code.

>>> from py_engine.rules import get_rules
>>> samba, dutch = get_rules("samba"), get_rules("dutch")
>>> keeps_enough_cards(samba, 1, may_go_out=False), keeps_enough_cards(dutch, 1, may_go_out=False)
(False, True)
>>> turn_can_end(samba, 0, may_go_out=True), turn_can_end(samba, 1, may_go_out=False)
(True, False)
"""

from __future__ import annotations

from .rules import RuleSet


def opening_minimum_met(points: int, minimum: int) -> bool:
    """An opening counts the card values of everything laid in the one action (section 7)."""
    return points >= minimum


def may_go_out(requirement_met: bool, partner_refused: bool) -> bool:
    """A side goes out only with its requirement met, and not after the partner said no."""
    return requirement_met and not partner_refused


def keeps_enough_cards(rules: RuleSet, cards_left: int, may_go_out: bool) -> bool:
    """Until the side may go out, a player keeps ``rules.keep_cards`` cards after melding."""
    return may_go_out or cards_left >= rules.keep_cards


def turn_can_end(rules: RuleSet, cards_left: int, may_go_out: bool) -> bool:
    """Could the turn still end legally with ``cards_left`` cards in hand (a discard, a pass in
    ``dutch`` with one card, or going out)?"""
    if cards_left >= 2:
        return True
    if cards_left == 1:
        return may_go_out or rules.pass_with_one
    return cards_left == 0 and may_go_out


def may_pass(rules: RuleSet, cards_in_hand: int, may_go_out: bool) -> bool:
    """(``dutch``) With one card left and no right to go out, the turn ends by passing."""
    return rules.pass_with_one and cards_in_hand == 1 and not may_go_out


def ask_problem(rules: RuleSet, has_partner: bool, asked: bool, cards_in_hand: int) -> str | None:
    """Why the player may not ask "may I go out?" now (a reason code), or None.

    Asking is for partnerships, once a turn, and before melding down so far that a "no" would
    leave no legal end of the turn (section 8)."""
    if not rules.may_ask_partner or not has_partner:
        return "no_partner"
    if asked:
        return "already_asked"
    if cards_in_hand < (1 if rules.pass_with_one else 2):
        return "ask_too_late"
    return None
