"""``spread.py``: long runs keep their results in order wherever they run, show their progress on
stderr, and refuse a cluster they cannot use before any deal is played (Ray itself:
tests/test_ray.py)."""

from __future__ import annotations

import io
import sys

import pytest
from conftest import run_cli

import py_engine.ai.tournament as tournament_mod
from py_engine import spread


def _square(x: int) -> int:
    return x * x


def test_progress_lines_say_done_rate_and_time_left():
    now = [0.0]
    out = io.StringIO()
    bar = spread.Progress("tournament", 40, stream=out, every=10.0, clock=lambda: now[0])
    for t in (2.0, 4.0, 12.0):  # one line once 10 s have passed, not before
        now[0] = t
        bar.step()
    assert out.getvalue().splitlines() == ["tournament: 3/40 deals, 0.25/s, about 2 min 28 s left"]
    now[0] = 80.0
    bar.step(37)
    assert out.getvalue().splitlines()[-1] == "tournament: 40/40 deals, 0.50/s, done in 1 min 20 s"


def test_run_keeps_the_order_and_counts_each_item_once(capsys):
    assert spread.run(_square, [3, 1, 2]) == [9, 1, 4]
    assert spread.run(_square, [3, 1, 2], progress="squares", sizes=[5, 5, 2]) == [9, 1, 4]
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].startswith("squares: 12/12 deals,") and "done in" in lines[-1]


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide has no processes")
def test_run_on_processes_gives_the_same_list(capsys):
    assert spread.run(_square, list(range(7)), jobs=2, progress="squares") == [
        x * x for x in range(7)
    ]
    assert "squares: 7/7 deals" in capsys.readouterr().err


@pytest.mark.parametrize(
    "jobs,ray,needle",
    [(0, None, "--jobs"), (2, "auto", "do not go together"), (1, " ", "needs an address")],
)
def test_options_that_cannot_be_used_are_refused(jobs, ray, needle):
    with pytest.raises(spread.SpreadError, match=needle):
        spread.run(_square, [1], jobs=jobs, ray=ray)


def test_ray_missing_is_a_clear_error_before_any_deal(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    monkeypatch.setattr(tournament_mod, "play_deal", lambda *a, **k: pytest.fail("played"))
    code, res = run_cli("tournament --a medium --b easy --deals 2 --ray auto")
    assert code == 2
    assert res["ok"] is False and "pip install" in res["error"] and "Ray" in res["error"]
    code, res = run_cli("soak --deals 2 --ray auto")
    assert code == 2 and "not installed" in res["error"]


def test_tournament_prints_progress_on_stderr_and_json_on_stdout(capsys):
    code, res = run_cli(
        "tournament --rules samba --players 2 --a easy --b random --deals 2 --seed 3"
    )
    assert code == 0
    assert res["deals"] == 2 and res["ray"] is None
    err = capsys.readouterr().err
    assert "tournament: 2/2 deals" in err and "done in" in err


def test_soak_on_processes_finds_what_one_process_finds(capsys, monkeypatch):
    import py_engine.soak as soak_mod

    monkeypatch.setattr(soak_mod, "SOAK_BLOCK", 3)  # (the processes are forked: they see it)
    soak = soak_mod.soak
    deals = 5  # two blocks, the second a short one
    one = soak("samba", 2, deals, seed=4, bots=["easy"], check_every=7)
    two = soak(
        "samba",
        2,
        deals,
        seed=4,
        bots=["easy"],
        check_every=7,
        jobs=1 if sys.platform == "emscripten" else 2,
        progress=True,
    )
    for r in (one, two):
        del r["seconds"], r["deals_per_second"]
    assert one == two and one["deals"] == deals and one["violations"] == 0
    assert one["by_players"] == {"random": (deals + 1) // 2, "easy": deals // 2}
    assert f"soak: {deals}/{deals} deals" in capsys.readouterr().err
