"""``tools/engine_workload.py``: the benchmark's workloads do the work they report, and
``hard-setup`` (what an instruction count of ``hard`` subtracts) is ``hard`` without its
searches."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_TOOLS = Path(__file__).resolve().parent.parent / "tools"
_spec = importlib.util.spec_from_file_location("engine_workload", _TOOLS / "engine_workload.py")
ew = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ew)


def test_hard_setup_finds_the_same_positions_and_searches_none():
    setup = ew.WORKLOADS["hard-setup"](2, "samba", 4)
    full = ew.WORKLOADS["hard"](2, "samba", 4)
    assert setup == {"samples": 0, "positions": 2, "seconds": 0.0}
    assert full["positions"] == 2
    assert full["samples"] > 0 and full["samples"] % 12 == 0  # 12 samples at each search
    assert full["seconds"] > 0


def test_random_play_reports_the_moves_it_played():
    a = ew.WORKLOADS["random"](2, "samba", 4)
    b = ew.WORKLOADS["random"](2, "samba", 4)
    assert a["deals"] == 2 and a["moves"] > 40
    assert a["moves"] == b["moves"]  # the same seeded games
