"""The coach (issue 39, part 2): ``py_engine.ai.coach`` and ``python -m py_engine coach``."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from py_engine.ai import coach
from py_engine.ai.act import bot_move
from py_engine.ai.levels import make_bot
from py_engine.cli import main
from py_engine.record import RECORD_FORMAT, game_record
from py_engine.state import Game

ROOT = Path(__file__).resolve().parent.parent
FAST = 0.08  # seconds per decision: 16 samples, the least the coach takes

# tests/blunders/last_samba_card.json's first case: AD is the last card that makes the
# opponents' 6-card diamond sequence a samba; discarding it hands them the samba.
LAST_CARD = {
    "rules": "samba",
    "players": 4,
    "seed": 7,
    "current": 0,
    "phase": "meld",
    "hands": [
        ["AD", "7D", "KH", "QS", "9H", "6D", "5S"],
        ["4C", "6D", "7S", "TD", "KC", "5H", "9S", "QH"],
        ["8C", "JD", "AS", "4H", "6S", "TS", "KH", "5C"],
        ["9D", "QC", "8H", "JS", "4C", "6D", "7S", "TD"],
    ],
    "melds": [[["AD", "AD", "AS"]], [["8D", "9D", "TD", "JD", "QD", "KD"]]],
    "pile": ["7D", "7D", "5C", "9S"],
}


def scenario_record(moves: list[str], scenario: dict = LAST_CARD) -> dict:
    return {"format": RECORD_FORMAT, "scenario": scenario, "moves": moves}


def selfplay_record(seed: int = 5, level: str = "easy") -> dict:
    g = Game.new("samba", 4, seed=seed)
    bots = [make_bot(level, seed=s) for s in range(4)]
    while g.phase in ("draw", "meld", "answer"):
        g.play(bot_move(bots[g.current], g, g.current))
    return game_record(g)


def test_a_planted_blunder_is_marked_with_the_better_move_and_its_reasons():
    r = coach.review(scenario_record(["discard AD"]), 0, budget=0.5)
    (e,) = r["decisions"]
    assert (e["index"], e["move"], e["mark"]) == (0, "discard AD", "blunder")
    assert e["best"] == "meld add m1 AD"
    lo, hi = e["interval"]
    assert lo <= e["cost"] <= hi and lo >= coach.MISTAKE
    keys = [x["key"] for x in e["reasons"]]
    assert "why.adds_to_meld" in keys
    assert {"key": "why.search_gain", "points": round(e["cost"])} in e["reasons"]
    assert r["summary"] == [{"deal": 1, "decisions": 1, "mistake": 0, "blunder": 1}]


def test_the_good_move_in_the_same_spot_is_not_marked():
    r = coach.review(scenario_record(["meld add m1 AD"]), 0, budget=0.5)
    (e,) = r["decisions"]
    assert e["mark"] is None and e["best"] == "meld add m1 AD" and e["cost"] == 0
    assert r["summary"][0]["blunder"] == r["summary"][0]["mistake"] == 0


def test_the_verdict_reads_the_seats_view_only():
    # seats 1 and 3 swap hands: seat 0 sees the same, so the coach says the same
    other = copy.deepcopy(LAST_CARD)
    other["hands"][1], other["hands"][3] = other["hands"][3], other["hands"][1]
    a = coach.review(scenario_record(["discard AD"]), 0, budget=FAST)
    b = coach.review(scenario_record(["discard AD"], other), 0, budget=FAST)
    assert a == b


def test_review_is_deterministic_for_a_record_and_seed_and_lists_only_the_seats_moves():
    rec = selfplay_record()
    a = coach.review(rec, 1, budget=FAST, seed=3)
    b = coach.review(rec, 1, budget=FAST, seed=3)
    assert a == b
    g = Game.new("samba", 4, seed=rec["seed"])
    mine = []
    for i, m in enumerate(rec["moves"]):
        if g.current == 1 and g.phase in coach.LIVE:
            mine.append(i)
        g.play(m)
    assert [e["index"] for e in a["decisions"]] == mine
    assert [e["move"] for e in a["decisions"]] == [rec["moves"][i] for i in mine]
    assert any(e.get("forced") for e in a["decisions"])  # a draw without a choice
    assert any(e["samples"] >= 16 for e in a["decisions"])
    total = sum(d["decisions"] for d in a["summary"])
    assert total == len(mine)
    marks = [e["mark"] for e in a["decisions"]]
    assert sum(d["mistake"] for d in a["summary"]) == marks.count("mistake")
    assert sum(d["blunder"] for d in a["summary"]) == marks.count("blunder")


@pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide")
def test_the_same_verdicts_in_other_processes_whatever_their_string_hashing(tmp_path):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(selfplay_record(seed=8)))
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        cmd = [sys.executable, "-m", "py_engine", "coach", str(path), "--seat", "2"]
        outs.append(
            subprocess.run(
                [*cmd, "--budget", "0.2"],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
    assert outs[0] == outs[1] and json.loads(outs[0])["decisions"]


def test_the_budget_is_a_number_of_samples_not_a_time():
    assert coach.samples_for(0.5) == 0.5 * coach.SAMPLES_PER_SECOND
    assert coach.samples_for(0.001) == coach.MIN_SAMPLES
    for bad in (0, -1, float("nan"), float("inf"), "1", True, coach.MAX_BUDGET * 2):
        with pytest.raises(coach.CoachError):
            coach.samples_for(bad)


def cli(argv, capsys) -> tuple[int, str, str]:
    out = io.StringIO()
    rc = main(["coach", *argv], out=out)
    return rc, out.getvalue(), capsys.readouterr().err


def test_cli_prints_one_entry_per_decision(tmp_path, capsys):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(scenario_record(["discard AD"])))
    rc, out, err = cli([str(path), "--seat", "0", "--budget", "0.3"], capsys)
    assert rc == 0 and err == ""
    res = json.loads(out)
    assert res["samples"] == coach.samples_for(0.3)
    (e,) = res["decisions"]
    for key in ("index", "move", "best", "cost", "interval", "mark", "reasons"):
        assert key in e
    assert e["mark"] == "blunder"


@pytest.mark.parametrize(
    "content,args,message",
    [
        ("{not json", ["--seat", "0"], "cannot read the record"),
        (json.dumps({"format": "other", "moves": []}), ["--seat", "0"], "not a game record"),
        (json.dumps(scenario_record(["discard ZZ"])), ["--seat", "0"], "move 1"),
        (json.dumps(scenario_record(["discard 4C"])), ["--seat", "0"], "not legal"),
        (json.dumps(scenario_record(["discard AD"])), ["--seat", "4"], "seat must be"),
        (json.dumps(scenario_record(["discard AD"])), ["--seat", "-1"], "seat must be"),
        (json.dumps(scenario_record(["discard AD"])), ["--seat", "x"], "seat must be"),
        (json.dumps(scenario_record(["discard AD"])), ["--seat", "0", "--budget", "0"], "budget"),
        (json.dumps(scenario_record(["discard AD"])), ["--seat", "0", "--budget", "-2"], "budget"),
        (json.dumps(scenario_record(["discard AD"])), ["--seat", "0", "--budget", "nan"], "budget"),
        (json.dumps(scenario_record(["discard AD"])), ["--seat", "0", "--budget", "x"], "budget"),
    ],
)
def test_cli_refuses_bad_input_with_exit_code_2_and_no_verdicts(
    tmp_path, capsys, content, args, message
):
    path = tmp_path / "rec.json"
    path.write_text(content)
    rc, out, err = cli([str(path), *args], capsys)
    assert rc == 2
    assert out == ""
    assert message in err and err.startswith("coach: ")


def test_cli_refuses_a_missing_file(tmp_path, capsys):
    rc, out, err = cli([str(tmp_path / "none.json"), "--seat", "0"], capsys)
    assert (rc, out) == (2, "") and "cannot read the record" in err


# The bridge: the review in steps (docs/bridge.md, "The coach") ---------------------------------
def ask(b, **req) -> dict:
    return json.loads(b.handle(json.dumps(req)))


def loaded_bridge():
    from py_engine.bridge import Bridge

    b = Bridge()
    rec = {**selfplay_record(), "seats": ["human", "easy", "easy", "easy"]}
    assert ask(b, op="load", record=rec)["ok"]
    return b, rec


def test_bridge_reviews_a_finished_deal_in_small_steps_as_the_command_does():
    b, rec = loaded_bridge()
    r = ask(b, op="coach", action="start", budget=0.3)
    assert r["ok"] and r["coach"]["done"] == 0 and r["coach"]["seat"] == 0
    total = r["coach"]["total"]
    assert total > 5 and not r["coach"]["finished"]
    entries, steps, done = [], 0, 0
    while not r["coach"]["finished"]:
        r = ask(b, op="coach", action="step", samples=7)
        assert r["ok"] and r["coach"]["done"] in (done, done + 1)
        done = r["coach"]["done"]
        steps += 1
        if r["entry"] is not None:
            entries.append(r["entry"])
            assert r["entry"]["samples"] <= 60
        # a player's request between steps is answered and changes nothing of the review
        assert ask(b, op="view")["ok"]
    assert done == total and steps > total  # some decisions took several steps
    assert r["result"]["decisions"] == entries
    assert r["result"] == coach.review(rec, 0, budget=0.3)
    # done: a further step is refused
    assert ask(b, op="coach", action="step")["error"]["code"] == "bad_request"


def test_bridge_review_can_be_stopped():
    b, _ = loaded_bridge()
    ask(b, op="coach", action="start", budget=FAST)
    ask(b, op="coach", action="step")
    r = ask(b, op="coach", action="stop")
    assert r["ok"] and r["coach"]["stopped"] and r["coach"]["done"] == 1
    assert ask(b, op="coach", action="step")["error"]["code"] == "bad_request"


@pytest.mark.parametrize(
    "req,code",
    [
        ({"action": "start", "seat": 4}, "bad_option"),
        ({"action": "start", "budget": 0}, "bad_option"),
        ({"action": "start", "budget": "1"}, "bad_option"),
        ({"action": "start", "deal": 2}, "bad_option"),
        ({"action": "start", "deal": 0}, "bad_option"),
        ({"action": "start", "seed": "x"}, "bad_option"),
        ({"action": "go"}, "bad_request"),
        ({"action": "step", "samples": 0}, "bad_option"),
        ({"action": "step"}, "bad_request"),
    ],
)
def test_bridge_refuses_bad_coach_requests(req, code):
    b, _ = loaded_bridge()
    if req["action"] == "step" and "samples" in req:
        assert ask(b, op="coach", action="start", budget=FAST)["ok"]
        r = ask(b, op="coach", **req)
        assert not r["ok"] and r["error"]["code"] == code
        assert b.review is not None and b.review.done == 0  # the review goes on
        return
    r = ask(b, op="coach", **req)
    assert not r["ok"] and r["error"]["code"] == code
    assert b.review is None


def test_bridge_reviews_only_a_finished_deal():
    from py_engine.bridge import Bridge

    b = Bridge()
    assert ask(b, op="coach", action="start")["error"]["code"] == "no_game"
    ask(b, op="new_game", rules="samba", players=4, seed=1, seats=["human"] + ["easy"] * 3)
    assert ask(b, op="coach", action="start")["error"]["code"] == "not_your_turn"
    assert ask(b, op="coach", action="start", deal=1)["error"]["code"] == "not_your_turn"


# The blunder suite (tools/coach_checks.py blunders): what the coach says of each labelled line
def _checks():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "coach_checks", ROOT / "tools" / "coach_checks.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_coach_marks_the_suites_blunder_lines_and_leaves_its_good_lines():
    from py_engine.ai.judge import load_cases

    checks = _checks()
    rows = [
        checks.case_verdicts(c, coach.samples_for(0.5))
        for c in load_cases(str(ROOT / "tests" / "blunders"))
    ]
    bad = [r["blunder_line"] for r in rows if "blunder_line" in r]
    good = [r["good_line"] for r in rows if "good_line" in r]
    assert len(bad) == len(good) == len(rows) == 45
    missed = [r["id"] for r in rows if r["blunder_line"]["mark"] is None]
    assert len(missed) <= 4, missed  # 41 of 45 marked at 100 samples (docs/ai.md)
    assert not [r["id"] for r in rows if r["good_line"]["mark"] is not None]
