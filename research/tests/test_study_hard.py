"""``research/study_hard.py``: ``StudyHard`` with no study setting is the product's ``hard``, and
each study setting does what it says."""

from __future__ import annotations

import pytest

from py_engine.ai.act import bot_move
from py_engine.ai.hard import HardBot
from py_engine.ai.medium import MediumBot
from py_engine.legal import legal_moves
from py_engine.moves import Discard
from py_engine.moves import Meld as MeldMove
from py_engine.observation import Observation
from py_engine.state import Game
from research.study_hard import StudyConfig, StudyHard


def _positions(seed: int, n: int):
    """(observation, legal moves) of the seat to act, along a ``medium`` deal."""
    g = Game.new("samba", 4, seed=seed)
    bot = MediumBot(seed=1)
    out = []
    while g.phase not in ("deal_over", "game_over") and len(out) < n:
        out.append((Observation.for_seat(g, g.current), list(legal_moves(g))))
        g.play(bot_move(bot, g, g.current))
    return out


def test_with_no_study_setting_it_decides_as_the_product_does():
    searched = 0
    for obs, legal in _positions(7, 60)[::3]:
        a, b = HardBot(seed=3, iterations=6), StudyHard(seed=3, iterations=6)
        assert a.decide(obs, legal) == b.decide(obs, legal)
        assert a.last_stats.get("means") == b.last_stats.get("means")
        searched += bool(a.last_stats.get("samples"))
    assert searched


def test_hold_also_searches_keeping_the_cards_and_mode_draw_searches_no_meld_phase():
    plain = HardBot(seed=1)
    hold, draw = StudyHard(seed=1, hold=True), StudyHard(seed=1, mode="draw")
    held = 0
    for seed in range(3, 9):
        for obs, legal in _positions(seed, 200):
            ranked = plain.medium.ranking(obs, legal)
            best, top = ranked[0]
            c = hold.candidates(obs, ranked)
            if obs.phase == "meld":
                assert draw.candidates(obs, ranked) == [top]
            if type(top) is MeldMove and 0 < best < 900 and len(obs.hand) > 3:
                assert plain.candidates(obs, ranked) == [top]
                assert c[0] == top and len(c) == 2 and type(c[1]) is Discard
                held += 1
            else:
                assert c == plain.candidates(obs, ranked)
    assert held


def test_leaf_hand_drops_the_fitted_weights_and_bad_settings_are_refused():
    assert StudyHard(seed=1).leaf_weights and StudyHard(seed=1, leaf="hand").leaf_weights == {}
    assert isinstance(StudyHard(seed=1).config, StudyConfig)
    with pytest.raises(ValueError, match="unknown leaf"):
        StudyHard(seed=1, leaf="deep")
    with pytest.raises(TypeError, match="no setting 'wings'"):
        StudyHard(seed=1, wings=2)
