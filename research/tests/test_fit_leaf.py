"""``research/fit_leaf.py``: the ridge fit and the command that fits ``hard``'s leaf estimate."""

from __future__ import annotations

import json
import random

from py_engine.ai.leaf import NAMES
from research import fit_leaf


def test_fit_recovers_a_known_linear_rule():
    rng = random.Random(2)
    true = [0.0, 3.0, -2.0, 0.5]
    rows = []
    for _ in range(400):
        x = [1.0] + [rng.uniform(-10, 10) for _ in range(3)]
        rows.append((x, sum(a * b for a, b in zip(true, x)) + rng.gauss(0, 0.1)))
    w = fit_leaf.fit(rows, ridge=0.0)
    for got, want in zip(w, true):
        assert abs(got - want) < 0.05


def test_fit_leaf_command_prints_weights_and_scores(capsys):
    assert fit_leaf.main(["--rules", "samba", "--players", "2", "--deals", "5", "--seed", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["positions"] > 0 and out["test_positions"] > 0
    assert set(out["weights"]) == set(NAMES)
    assert out["r2_fitted"] <= 1 and out["r2_hand_set"] <= 1
