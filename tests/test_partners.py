"""Issue 39 part 3, partners: an asked partner says no when the cards it would be left holding
cost the side more than going out now gains, the hint never proposes going out blind while the
partner holds many cards, and "the deal may end soon" only when the stock is short for the
table (rounds of its draws, from the rules) or an opponent can (nearly) go out with few cards.
The positions are the blunder suite's (``tests/blunders``, issue 39 cases)."""

from __future__ import annotations

import os

import pytest

from py_engine.ai.act import bot_move
from py_engine.ai.explain import explain
from py_engine.ai.hard import HardBot
from py_engine.ai.hints import hint
from py_engine.ai.info import Info
from py_engine.ai.judge import load_cases, position
from py_engine.ai.medium import MediumBot
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.record import load_scenario
from py_engine.state import Game

CASES = {c["id"]: c for c in load_cases(os.path.join(os.path.dirname(__file__), "blunders"))}


def game_of(cid: str) -> Game:
    return position(CASES[cid])


def hint_of(g: Game, **kw) -> dict:
    """``hint`` for the seat to act."""
    return hint(Observation.for_seat(g, g.current), legal_moves(g), **kw)


def hard_of(g: Game) -> str:
    """``hard``'s move (24 samples) for the seat to act, as its text."""
    return bot_move(HardBot(seed=1, iterations=24), g, g.current).text()


@pytest.mark.parametrize("cid", ["answer-no-held-s4", "answer-no-held-d4"])
def test_partner_holding_more_than_going_out_gains_says_no(cid):
    """Two jokers, three twos and four aces (240 points) while the side leads two canastas to
    none: medium said yes before (the lead alone made yes good)."""
    g = game_of(cid)
    assert g.phase == "answer"
    assert bot_move(MediumBot(seed=1), g, g.current).text() == "answer no"
    assert hard_of(g) == "answer no"
    h = hint_of(g, iterations=24)
    assert h["move"] == "answer no"
    assert {"key": "why.hand_costs", "points": 240} in h["reasons"]


def test_partner_with_a_small_hand_still_says_yes():
    g = game_of("answer-yes-small-s4")
    assert bot_move(MediumBot(seed=1), g, g.current).text() == "answer yes"
    assert hard_of(g) == "answer yes"


def test_hint_asks_rather_than_going_out_blind():
    """The asker's seat: medium melds the nines and must then discard its last card (no ask is
    possible after melding down to one card) while the partner holds nine cards; the hint (over
    hard) asks instead, and the partner's answer is no."""
    g = game_of("ask-first-held-s4")
    assert bot_move(MediumBot(seed=1), g, g.current).text() == "meld new 9D 9H 9S"  # the blunder
    h = hint_of(g, iterations=24)
    assert h["move"].startswith("ask "), h
    g = position(CASES["ask-first-held-s4"])
    g.play(h["move"])
    assert g.phase == "answer"
    assert bot_move(MediumBot(seed=1), g, g.current).text() == "answer no"


def test_hint_still_goes_out_when_the_partner_holds_little():
    c = dict(CASES["ask-first-held-s4"])
    sc = dict(c["scenario"])
    sc["hands"] = [list(h) for h in sc["hands"]]
    sc["hands"][2] = ["6S", "7D"]
    c["scenario"] = sc
    g = position(c)
    assert hint_of(g, iterations=24)["move"] == "meld new 9D 9H 9S"


def canasta_info(stock: int, opp_hand: int, opp_canasta: bool) -> Info:
    """``Info`` of seat 0's observation at ``canasta_game``, showing ``stock`` cards in the
    stock."""
    g = canasta_game(opp_hand, opp_canasta)
    return Info.from_observation(Observation.for_seat(g, 0)._replace(stock=stock))


def canasta_explain(stock: int, opp_hand: int, opp_canasta: bool, text: str) -> dict:
    """``explain`` of ``text`` at ``canasta_game``, its observation showing ``stock`` cards in
    the stock."""
    g = canasta_game(opp_hand, opp_canasta)
    legal = legal_moves(g)
    move = next(m for m in legal if m.text() == text)
    return explain(Observation.for_seat(g, 0)._replace(stock=stock), legal, move)


def canasta_game(opp_hand: int, opp_canasta: bool) -> Game:
    """Canasta, four players (one card drawn a turn): seat 0 holds wild cards beside an open
    group; the opponents have a canasta (they may go out) or a small meld."""
    opp = [["5C", "5C", "5D", "5D", "5H", "5S", "5S"]] if opp_canasta else [["5C", "5C", "5D"]]
    junk = ["4C", "6D", "7S", "9H", "TD", "JC", "QH", "KS", "4D", "6C", "7H"]
    g = load_scenario(
        {
            "rules": "canasta",
            "players": 4,
            "seed": 3,
            "current": 0,
            "phase": "meld",
            "hands": [
                ["JK", "2C", "8D", "9S", "TH"],
                junk[:opp_hand],
                ["6H", "7C", "9D", "TC", "JD", "QC", "KH", "4H"],
                junk[:opp_hand],
            ],
            "melds": [[["KC", "KD", "KH"], ["QC", "QD", "QS", "QS"]], opp],
            "pile": ["9C", "8C"],
        }
    )
    return g


def test_deal_may_end_soon_only_when_it_may():
    w = MediumBot().w
    # third round of a Canasta deal, 55 cards in the stock, opponents with a canasta but
    # eleven cards each: the warning was shown; it must not be
    quiet = canasta_info(55, 11, True)
    assert not quiet.threatened(w["threat_rounds"], int(w["near_out_cards"]))
    assert {"key": "warn.keeps_wilds"} not in canasta_explain(55, 11, True, "discard 8D")[
        "warnings"
    ]
    # the stock short for the table: 4 players x 1 card x 2.5 rounds = 10 cards
    short = canasta_info(10, 11, False)
    assert short.threatened(w["threat_rounds"], int(w["near_out_cards"]))
    assert not canasta_info(11, 11, False).threatened(w["threat_rounds"], int(w["near_out_cards"]))
    # an opponent side that can go out, one of them holding two cards
    near = canasta_info(55, 2, True)
    assert near.threatened(w["threat_rounds"], int(w["near_out_cards"]))
    assert {"key": "warn.keeps_wilds"} in canasta_explain(55, 2, True, "discard 8D")["warnings"]
