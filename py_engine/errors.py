"""The engine's errors and their stable reason codes."""

from __future__ import annotations

# Reason codes carried by IllegalMove; the page maps each to a translated message.
REASONS = {
    "wrong_phase": "that action is not possible at this point of the turn",
    "not_your_turn": "it is not that player's turn",
    "stock_empty": "the stock is empty",
    "stock_not_empty": "the stock still has cards: draw",
    "pile_empty": "the discard pile is empty",
    "pile_blocked": "a wild card or a three on top blocks the pile",
    "pile_frozen": "the pile is frozen: it takes a natural pair",
    "no_natural_pair": "taking the pile needs a natural pair of the top card's rank from your hand",
    "top_card_no_fit": "the top card does not fit that meld",
    "top_card_not_allowed": "this rule set does not allow taking only the top card",
    "pile_onto_meld_not_allowed": "this rule set does not allow taking the pile onto a meld",
    "must_take_pile": "the top card fits one of your melds: you must take the pile",
    "card_not_in_hand": "you do not hold that card",
    "no_such_meld": "there is no such meld of your side",
    "not_a_meld": "those cards do not make a meld",
    "too_few_cards": "a meld needs at least three cards",
    "too_many_wilds": "too many wild cards for this group",
    "wild_only": "wild cards cannot be melded alone",
    "mixed_ranks": "a group holds cards of one rank only",
    "sequence_gap": "a sequence must run in unbroken order",
    "sequence_suit": "a sequence holds cards of one suit only",
    "sequence_wild": "a sequence holds no wild cards, twos or threes",
    "sequence_too_long": "a sequence stops at seven cards (a samba)",
    "meld_closed": "a samba is closed: nothing more may be added",
    "wild_on_canasta": "no wild card may be added to a finished canasta",
    "black_threes_not_out": "black threes may be melded only when going out",
    "red_three": "red threes are laid out, never melded",
    "opening_too_low": "the opening melds do not reach the minimum",
    "must_keep_cards": "you must keep cards until your side can go out",
    "cannot_go_out": "your side may not go out yet",
    "partner_refused": "your partner said no: you may not go out this turn",
    "no_partner": "you have no partner to ask",
    "already_asked": "you have already asked this turn",
    "ask_too_late": "ask before melding down to one card: a no must leave you a legal turn",
    "not_going_out": "asking goes with a complete going-out action",
    "cannot_discard": "that card may not be discarded",
    "cannot_pass": "you may pass only with one card left when you may not go out",
    "must_pass": "with one card left you must pass",
    "merge_mismatch": "only two groups of one rank may be merged",
    "no_end_of_turn": "after that you could not end your turn legally",
    "red_threes_automatic": "red threes are laid automatically in this rule set",
    "not_red_three": "that card is not a red three",
    "empty_meld": "that action lays no cards",
    "game_over": "the game is over",
}


class InvalidMove(ValueError):
    """A move that is malformed (cannot be parsed or refers to nothing)."""

    code = "bad_move_text"


class IllegalMove(ValueError):
    """A well-formed move that the rules forbid; ``code`` is a stable reason code."""

    def __init__(self, code: str, detail: str = "", **info):
        assert code in REASONS, code
        self.code = code
        self.detail = detail
        self.info = info
        msg = REASONS[code] + (f": {detail}" if detail else "")
        super().__init__(msg)

    def __reduce__(self):
        """Pickled as its code, detail and info (an exception is unpickled by calling its class
        with ``args``, here the message, which is no reason code): a refused move in a
        ``multiprocessing`` worker arrives as the same ``IllegalMove``."""
        return (_illegal_move, (type(self), self.code, self.detail, dict(self.info)))


def _illegal_move(cls: type, code: str, detail: str, info: dict) -> IllegalMove:
    return cls(code, detail, **info)


class ScenarioError(ValueError):
    """A scenario, saved state or record that does not describe a valid game."""

    code = "bad_scenario"
