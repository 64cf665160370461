"""The blunder suite (``tests/blunders/*.json``, format in ``py_engine/ai/judge.py``): positions
where a club player calls one move a blunder, each with its reason or source. ``medium`` must
avoid at least 90 % of them and ``hard`` (a fixed number of samples, reproducible) all of them.

A bot that prefers the blunders is caught in every position, so the checks can fail.
"""

from __future__ import annotations

import os

import pytest

from py_engine.ai.hard import HardBot
from py_engine.ai.info import Info
from py_engine.ai.judge import check, load_cases, position, split_moves, turn_blunder
from py_engine.ai.medium import MediumBot
from py_engine.legal import legal_moves
from py_engine.moves import LayRedThree, Move
from py_engine.observation import Observation

HERE = os.path.join(os.path.dirname(__file__), "blunders")
CASES = load_cases(HERE)
KINDS = {
    "known_pair",
    "block",
    "feed_top",
    "top_samba",
    "last_samba_card",
    "out_loses_game",
    "answer_yes",
    "dutch_red3",
    "hoard_wild",
    "ask_first",
}


def test_suite_is_complete():
    assert len(CASES) >= 40
    assert {c["kind"] for c in CASES} == KINDS
    assert len({c["id"] for c in CASES}) == len(CASES)
    for c in CASES:
        assert c["reason"].strip() and c["source"].strip(), c["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_is_a_real_choice(case):
    """The position loads, the seat to act has a good move, and the blunder is possible."""
    g = position(case)
    bad, good = split_moves(case, legal_moves(g))
    assert good
    assert bad or case.get("after")


class Blunderer(MediumBot):
    """``medium``, except that it plays a blunder of the case whenever it can: going out where
    that is the blunder, and never laying the cards it should not keep."""

    def __init__(self, case):
        super().__init__(seed=0)
        self.case = case

    def decide(self, obs: Observation, legal: list[Move]) -> Move:
        info = Info.from_observation(obs, legal)
        ranked = [m for _, m in self.rank(info, legal)]
        for m in ranked:
            if turn_blunder(self.case, info, m):
                return m
        keep = self.case.get("after", {}).get("not_held", [])
        for m in ranked:
            toks = m.text().replace(";", " ").split()
            if not any(t in keep for t in toks) and type(m) is not LayRedThree:
                return m
        return ranked[0]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_blundering_bot_is_caught(case):
    ok, moves = check(case, Blunderer(case))
    assert not ok, moves


def test_medium_avoids_90_percent():
    missed = []
    for c in CASES:
        ok, moves = check(c, MediumBot(seed=1))
        if not ok:
            missed.append((c["id"], moves))
    assert len(missed) <= 0.1 * len(CASES), missed


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_hard_avoids_every_blunder(case):
    ok, moves = check(case, HardBot(seed=1, iterations=24))
    assert ok, moves
