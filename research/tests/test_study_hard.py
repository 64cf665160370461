"""``research/study_hard.py``: ``StudyHard`` with no study setting is the product's ``hard``, and
each study setting does what it says."""

from __future__ import annotations

import pytest

from py_engine.ai.hard import HardBot
from py_engine.ai.medium import MediumBot
from py_engine.state import Game
from py_engine.views import view_for
from research.study_hard import StudyConfig, StudyHard


def _positions(seed: int, n: int):
    g = Game.new("samba", 4, seed=seed)
    bot = MediumBot(seed=1)
    out = []
    while g.phase not in ("deal_over", "game_over") and len(out) < n:
        v = view_for(g, g.current)
        out.append(v)
        g.play(bot.choose(v))
    return out


def test_with_no_study_setting_it_decides_as_the_product_does():
    searched = 0
    for v in _positions(7, 60)[::3]:
        a, b = HardBot(seed=3, iterations=6), StudyHard(seed=3, iterations=6)
        assert a.choose(v) == b.choose(v)
        assert a.last_stats.get("means") == b.last_stats.get("means")
        searched += bool(a.last_stats.get("samples"))
    assert searched


def test_hold_also_searches_keeping_the_cards_and_mode_draw_searches_no_meld_phase():
    plain = HardBot(seed=1)
    hold, draw = StudyHard(seed=1, hold=True), StudyHard(seed=1, mode="draw")
    held = 0
    for seed in range(3, 9):
        for v in _positions(seed, 200):
            ranked = plain.medium.rank_moves(v)
            best, top = ranked[0]
            c = hold.candidates(v, ranked)
            if v["phase"] == "meld":
                assert draw.candidates(v, ranked) == [top]
            if top.startswith("meld") and 0 < best < 900 and len(v["hand"]) > 3:
                assert plain.candidates(v, ranked) == [top]
                assert c[0] == top and len(c) == 2 and c[1].startswith("discard")
                held += 1
            else:
                assert c == plain.candidates(v, ranked)
    assert held


def test_leaf_hand_drops_the_fitted_weights_and_bad_settings_are_refused():
    assert StudyHard(seed=1).leaf_weights and StudyHard(seed=1, leaf="hand").leaf_weights == {}
    assert isinstance(StudyHard(seed=1).config, StudyConfig)
    with pytest.raises(ValueError, match="unknown leaf"):
        StudyHard(seed=1, leaf="deep")
    with pytest.raises(TypeError, match="no setting 'wings'"):
        StudyHard(seed=1, wings=2)
