"""``research/hard_variants.py``: the settings it takes, the seeds it refuses, the players it
builds."""

from __future__ import annotations

import json

import pytest

from py_engine.ai.hard import HardBot, HardConfig
from py_engine.ai.tournament import Player
from research import hard_variants as hv


def test_settings_parse_to_hardbot_keywords_and_unknown_ones_are_refused():
    assert hv.configuration("rounds=0.5,shortlist=2") == {"rounds": 0.5, "shortlist": 2}
    assert hv.configuration("") == {}
    with pytest.raises(ValueError, match="no setting 'round'"):
        hv.configuration("round=0.5")
    assert hv.configuration("budget=0.375") == {"budget": 0.375}
    with pytest.raises(ValueError, match="--clock"):
        hv.configuration("clock=wall")  # both sides run on the command's clock
    with pytest.raises(ValueError):
        hv.configuration("rounds")


def test_a_variant_keeps_its_settings_and_takes_what_the_tournament_gives():
    side = hv.variant("hard_x", {"rounds": 0.25, "shortlist": 2})
    assert isinstance(side, Player) and side.name == "hard_x"
    bot = side.make(3, budget=0.2, clock="cpu")
    assert isinstance(bot, HardBot)
    assert (bot.rounds, bot.shortlist, bot.budget, bot.clock_name, bot.seed) == (
        0.25,
        2,
        0.2,
        "cpu",
        3,
    )
    shipped = HardConfig().rounds
    assert HardBot().rounds == shipped != 0.25  # the shipped default is untouched
    # A side's own budget replaces the one the tournament gives both.
    half = hv.variant("hard_y", {"budget": 0.375}).make(1, budget=0.75)
    assert half.budget == 0.375
    # study settings are the study's: the product's hard refuses them
    assert hv.variant("hard_z", {"hold": True}).make(1).hold is True
    with pytest.raises(TypeError, match="no setting 'hold'"):
        HardBot(seed=1, hold=True)


def _run(monkeypatch, capsys, argv):
    calls = []

    def fake(
        rules,
        players,
        a,
        b,
        deals,
        seed,
        budget=None,
        jobs=1,
        clock="wall",
        ray=None,
        progress=False,
    ):
        calls.append((rules, players, deals, seed, budget, jobs, clock))
        bots = [a.make(1, budget=budget), b.make(2, budget=budget)]
        return {"rounds": [bot.rounds for bot in bots]}

    monkeypatch.setattr(hv, "tournament", fake)
    rc = hv.main(argv)
    return rc, calls, json.loads(capsys.readouterr().out)


def test_both_sides_play_on_one_budget_with_their_own_settings(monkeypatch, capsys):
    rc, calls, out = _run(
        monkeypatch,
        capsys,
        ["--a", "rounds=0.5", "--deals", "3", "--seed", "787", "--budget", "0.4"],
    )
    assert rc == 0
    assert calls == [("samba", 4, 3, 787, 0.4, 1, "cpu")]
    shipped = HardConfig().rounds
    assert out["rounds"] == [0.5, shipped]  # side b is the shipped hard
    assert out["configurations"] == {"a": {"rounds": 0.5}, "b": {}}
    # Every setting is written out, so a saved result says what "shipped" meant then.
    assert out["settings"]["a"]["rounds"] == 0.5 and out["settings"]["b"]["rounds"] == shipped
    assert out["settings"]["a"]["budget"] == out["settings"]["b"]["budget"] == 0.4
    assert out["settings"]["a"]["shortlist"] == HardBot().shortlist


def test_reserved_seeds_only_with_measure(monkeypatch, capsys):
    with pytest.raises(SystemExit):
        _run(monkeypatch, capsys, ["--a", "rounds=0.5", "--seed", "9046", "--budget", "0.75"])
    assert "reserved" in capsys.readouterr().err
    rc, calls, _ = _run(
        monkeypatch,
        capsys,
        ["--a", "rounds=0.5", "--seed", "9046", "--budget", "0.75", "--measure"],
    )
    assert rc == 0 and calls[0][3] == 9046


@pytest.mark.parametrize(
    "argv",
    [
        ["--a", "nope=1", "--seed", "787", "--budget", "0.75"],
        ["--a", "rounds=0.5", "--seed", "787", "--budget", "0"],
        ["--a", "rounds=0.5", "--seed", "787", "--budget", "0.75", "--deals", "0"],
    ],
)
def test_bad_options_are_refused_before_any_deal(monkeypatch, capsys, argv):
    monkeypatch.setattr(hv, "tournament", lambda *a, **k: pytest.fail("played"))
    with pytest.raises(SystemExit) as e:
        hv.main(argv)
    assert e.value.code == 2 and capsys.readouterr().err


def test_ray_without_ray_is_refused_before_any_deal(monkeypatch, capsys):
    import sys

    import py_engine.ai.tournament as tm

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails: not installed
    monkeypatch.setattr(tm, "play_deal", lambda *a, **k: pytest.fail("played"))
    with pytest.raises(SystemExit) as e:
        hv.main(["--a", "rounds=0.5", "--seed", "787", "--budget", "0.75", "--ray", "auto"])
    assert e.value.code == 2 and "pip install" in capsys.readouterr().err
