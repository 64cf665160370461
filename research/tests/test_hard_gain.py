"""``research/hard_gain.py``: how much ``hard``'s search gains over ``medium``, per decision."""

from __future__ import annotations

import pytest

from research import hard_gain as study


def test_study_reports_oracle_and_variant_gains():
    out = study.study(
        "samba",
        4,
        deals=1,
        every=3,
        truth=2,
        variants=[{"iterations": 8, "min_samples": 1, "confidence": 0.0, "min_gain": 0.0}],
    )
    assert out["positions"] > 0
    assert sum(k["n"] for k in out["oracle"].values()) == out["positions"]
    assert all(k["mean"] >= 0 for k in out["oracle"].values())  # the best is never worse
    v = out["variants"][0]
    assert v["samples_per_decision"] > 0 and set(v["by_confidence"]) >= {"0.0", "1.5"}
    with pytest.raises(SystemExit):
        study.main(["--variant", "[1, 2]"])
