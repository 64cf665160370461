"""``tests/blunders/make_cases.py`` still writes the case files the suite reads: its cases, as
JSON, are the files' (it had broken unseen once, when the bots' interface changed), and every
case's blunder and good lines are among the position's legal moves."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from py_engine.ai.judge import position, split_moves
from py_engine.legal import legal_moves

HERE = Path(__file__).parent / "blunders"


def made_cases() -> dict[str, list[dict]]:
    spec = importlib.util.spec_from_file_location("make_cases", HERE / "make_cases.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.build()
    return mod.CASES


def test_the_script_writes_the_files_the_suite_reads():
    made = made_cases()
    on_disk = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in HERE.glob("*.json")}
    assert sorted(made) == sorted(on_disk)
    for kind, cases in made.items():
        assert json.loads(json.dumps(cases, ensure_ascii=False)) == on_disk[kind], kind
        for c in cases:
            bad, good = split_moves(c, legal_moves(position(c)))
            assert good and (bad or c.get("after")), c["id"]
