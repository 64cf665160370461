"""``research/tune.py``: a duel of two weight sets gives the same result wherever it runs."""

from __future__ import annotations


def test_tune_duel_in_two_processes_gives_the_same_result():
    from py_engine.ai.weights import MEDIUM_WEIGHTS
    from research.tune import duel

    variant = {**MEDIUM_WEIGHTS, "add_natural": 0.0}
    one = duel("samba", 4, variant, MEDIUM_WEIGHTS, 4, 3)
    assert duel("samba", 4, variant, MEDIUM_WEIGHTS, 4, 3, jobs=2) == one
    assert duel("samba", 4, MEDIUM_WEIGHTS, MEDIUM_WEIGHTS, 4, 3) == (0.5, 0.0)
