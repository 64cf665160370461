"""The engine's errors cross process boundaries intact (``multiprocessing`` pickles them)."""

from __future__ import annotations

import pickle
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from py_engine.errors import REASONS, IllegalMove, InvalidMove, ScenarioError
from py_engine.state import Game


def _refused_discard(seed: int) -> None:
    g = Game.new("samba", 4, seed=seed)
    g.play("discard 5H")  # the draw phase: refused with wrong_phase


def test_illegal_move_pickles_with_its_code_detail_and_info():
    e = IllegalMove("opening_too_low", "45 < 50", points=45, needed=50)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is IllegalMove
    assert back.code == "opening_too_low"
    assert back.detail == "45 < 50"
    assert back.info == {"points": 45, "needed": 50}
    assert str(back) == str(e) == REASONS["opening_too_low"] + ": 45 < 50"


def test_every_reason_code_round_trips():
    for code in REASONS:
        back = pickle.loads(pickle.dumps(IllegalMove(code)))
        assert (back.code, str(back), back.info) == (code, REASONS[code], {})


def test_other_errors_round_trip():
    for e in (InvalidMove("not a move: 'x'"), ScenarioError("bad field")):
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e) and back.code == e.code


def test_a_refused_move_pickles_as_it_was_raised():
    with pytest.raises(IllegalMove) as got:
        _refused_discard(5)
    back = pickle.loads(pickle.dumps(got.value))
    assert (type(back), back.code, str(back)) == (IllegalMove, "wrong_phase", str(got.value))


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide has no processes")
def test_a_worker_refused_move_arrives_as_illegal_move():
    with ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises(IllegalMove) as got:
            pool.submit(_refused_discard, 3).result()
    assert got.value.code == "wrong_phase"
    assert "phase 'draw'" in str(got.value)
