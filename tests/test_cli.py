"""The command line (issue 2 item 6), run in-process: ``py_engine.cli.main(argv, out)``."""

from __future__ import annotations

import io
import json
import random

import pytest
from conftest import play_random

from py_engine.cli import main
from py_engine.record import game_record
from py_engine.state import Game


def run(argv) -> tuple[int, dict]:
    out = io.StringIO()
    rc = main(argv, out=out)
    return rc, json.loads(out.getvalue())


@pytest.mark.parametrize("rules,players", [("samba", 2), ("dutch", 4), ("crawford", 4)])
def test_simulate_small_run(rules, players):
    rc, res = run(
        ["simulate", "--rules", rules, "--players", str(players), "--games", "1", "--seed", "3"]
    )
    assert rc == 0
    assert res["violations"] == 0 and res["violation_examples"] == []
    assert res["games"] == 1 and res["finished"] == 1
    assert res["deals"] >= 1 and res["moves"] > res["deals"]
    assert sum(res["wins"].values()) + res["draws"] == 1
    for key in ("seconds", "deals_per_second"):
        assert key in res


def test_simulate_is_deterministic_per_seed():
    a = run(["simulate", "--rules", "samba", "--players", "3", "--games", "1", "--seed", "7"])[1]
    b = run(["simulate", "--rules", "samba", "--players", "3", "--games", "1", "--seed", "7"])[1]
    for key in ("deals", "moves", "wins", "draws"):
        assert a[key] == b[key]


def test_simulate_unknown_rules_is_an_error():
    with pytest.raises(ValueError, match="unknown rule set"):
        main(["simulate", "--rules", "bridge", "--games", "1"], out=io.StringIO())


SCENARIO = {
    "rules": "samba",
    "players": 2,
    "seed": 4,
    "hands": [["7S", "7H", "KD", "KC", "4C"], ["9H", "9D", "AS"]],
    "pile": ["5D", "8C", "7D"],
}


def _write(tmp_path, obj, name="sc.json"):
    p = tmp_path / name
    p.write_text(json.dumps(obj) if not isinstance(obj, str) else obj, encoding="utf-8")
    return str(p)


def test_check_legal_move_prints_view(tmp_path):
    rc, res = run(["check", "--scenario", _write(tmp_path, SCENARIO), "--move", "draw"])
    assert rc == 0
    assert res["ok"] is True and res["legal"] is True
    view = res["view"]
    # default dealer is the last seat, so seat 0 acts; it drew two onto its five cards
    assert view["seat"] == 0 and view["phase"] == "meld"
    assert len(view["hand"]) == view["hand_sizes"][0] == 7
    assert view["stock"] == 162 - 5 - 3 - 3 - 2


def test_check_illegal_move_gives_reason(tmp_path):
    sc = dict(SCENARIO, current=0)
    rc, res = run(["check", "--scenario", _write(tmp_path, sc), "--move", "take 7S 7H"])
    assert rc == 0
    assert res["legal"] is False
    assert res["reason"] == "opening_too_low"  # 7+7+7 = 15 points, the minimum is 50
    assert "minimum" in res["message"]


def test_check_blocked_pile(tmp_path):
    sc = dict(SCENARIO, current=0, pile=["5D", "7D", "3S"])
    rc, res = run(["check", "--scenario", _write(tmp_path, sc), "--move", "take 7S 7H"])
    assert res["legal"] is False and res["reason"] == "pile_blocked"


def test_check_bad_move_text(tmp_path):
    rc, res = run(["check", "--scenario", _write(tmp_path, SCENARIO), "--move", "fly 7S"])
    assert res["legal"] is False and res["reason"] == "bad_move_text"
    assert "fly 7S" in res["message"]


def test_check_bad_scenario_is_named(tmp_path):
    sc = dict(SCENARIO, hands=[["7S", "ZZ"], ["9H"]])
    rc, res = run(["check", "--scenario", _write(tmp_path, sc), "--move", "draw"])
    assert res["ok"] is False and res["error"] == "bad_scenario"
    assert "malformed card 'ZZ'" in res["message"] and "hand 0" in res["message"]


def test_check_unreadable_scenario_file(tmp_path):
    path = _write(tmp_path, "{not json")
    with pytest.raises(SystemExit) as e:
        main(["check", "--scenario", path, "--move", "draw"], out=io.StringIO())
    assert "cannot read" in str(e.value.code) and path in str(e.value.code)
    with pytest.raises(SystemExit) as e:
        main(
            ["check", "--scenario", str(tmp_path / "missing.json"), "--move", "draw"],
            out=io.StringIO(),
        )
    assert "cannot read" in str(e.value.code)


def test_replay_prints_final_scores(tmp_path):
    game = Game.new("samba", 2, 2500, seed=12)
    play_random(game, random.Random(12), until=("game_over",))
    rc, res = run(["replay", _write(tmp_path, game_record(game), "rec.json")])
    assert rc == 0 and res["ok"] is True
    assert res["scores"] == game.scores
    assert res["moves"] == len(game.moves) and res["deals"] == game.deal_no
    assert res["phase"] == "game_over" and res["result"] == game.result


def test_replay_bad_record_fails_clearly(tmp_path):
    game = Game.new("samba", 2, seed=12)
    play_random(game, random.Random(12))
    rec = game_record(game)
    rec["moves"][5] = "merge m7 m8"
    rc, res = run(["replay", _write(tmp_path, rec, "rec.json")])
    assert rc == 1 and res["ok"] is False
    assert "move 6" in res["error"]
