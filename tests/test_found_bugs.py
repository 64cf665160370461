"""Engine bugs found while writing the test suite. Each test fails until the engine is fixed.

All four concern ``record.state_from_json`` / ``check_consistent``: a saved state is trusted
for fields that the loader does not check against the cards, so a corrupted (or hand-edited)
state loads and then plays by wrong rules instead of raising ScenarioError.
"""

from __future__ import annotations

import json

import pytest
from conftest import scenario

from py_engine.errors import ScenarioError
from py_engine.record import state_from_json, state_to_json


def _saved() -> dict:
    g = scenario(
        players=2,
        current=0,
        phase="meld",
        hands=[["9S", "9H", "KD", "4C"], ["5D", "6D"]],
        melds=[[["AS", "AH", "AD"]], []],
        pile=["8C"],
    )
    return json.loads(json.dumps(state_to_json(g)))


def test_state_meld_rank_must_match_its_cards():
    """A group of aces saved with "rank": 9 loads, and then nines may be added to it."""
    d = _saved()
    d["melds"][0][0]["rank"] = 9
    with pytest.raises(ScenarioError):
        state_from_json(d)


def test_state_meld_type_must_match_its_cards():
    """A group of aces saved as "type": "black3" (or any unknown type) loads."""
    for bad in ("black3", "bogus"):
        d = _saved()
        d["melds"][0][0]["type"] = bad
        with pytest.raises(ScenarioError):
            state_from_json(d)


def test_state_red_threes_must_be_red_threes():
    """A king moved from a hand into a side's red threes loads (and would score 100)."""
    d = _saved()
    king = d["hands"][0][2]
    d["hands"][0].remove(king)
    d["red_threes"][0].append(king)
    with pytest.raises(ScenarioError):
        state_from_json(d)


def test_state_answer_phase_needs_a_pending_question():
    """phase "answer" with no pending question loads; "answer yes" then fails inside the
    engine with InvalidMove("empty move None") instead of the state being refused."""
    d = _saved()
    d["phase"] = "answer"
    with pytest.raises(ScenarioError):
        state_from_json(d)
