"""The JSON bridge (docs/bridge.md): requests and responses are JSON text; errors have stable
codes; a refused request changes nothing; the view never shows another seat's hand."""

from __future__ import annotations

import json

import pytest
from test_no_leak import collect_ids

from py_engine.bridge import Bridge


def call(bridge: Bridge, req) -> dict:
    text = req if isinstance(req, str) else json.dumps(req)
    out = bridge.handle(text)
    assert isinstance(out, str)
    return json.loads(out)


def new(seats=("human", "random"), rules="samba", players=2, seed=1, **kw) -> tuple[Bridge, dict]:
    b = Bridge()
    r = call(
        b,
        {
            "op": "new_game",
            "rules": rules,
            "players": players,
            "seed": seed,
            "seats": list(seats),
            **kw,
        },
    )
    assert r["ok"], r
    return b, r


def view(b: Bridge) -> dict:
    r = call(b, {"op": "view"})
    assert r["ok"]
    return r["view"]


def assert_no_hidden(b: Bridge, v: dict) -> None:
    g = b.game
    seat = v["seat"]
    hidden = set(g.stock) | {c for s, h in enumerate(g.hands) if s != seat for c in h}
    assert not set(collect_ids(v)) & hidden
    assert sorted(c["id"] for c in v["hand"]) == sorted(g.hands[seat])


def err(r: dict) -> str:
    assert r["ok"] is False, r
    assert r["error"]["message"]
    return r["error"]["code"]


def test_new_game_response():
    b, r = new(seeds := ("human", "random"))
    assert r["version"] == 0
    v = r["view"]
    assert v["seat"] == 0 and v["players"] == 2 and v["seats"] == list(seeds)
    assert len(v["hand"]) == 15 and v["hand_sizes"] == [15, 15]
    assert v["rules"]["name"] == "samba"
    assert_no_hidden(b, v)


def test_no_game_yet():
    b = Bridge()
    assert err(call(b, {"op": "view"})) == "no_game"
    assert err(call(b, {"op": "move", "move": "draw"})) == "no_game"


def test_move_advances_version_and_phase():
    b, r = new()
    assert r["view"]["current"] == 0
    r2 = call(b, {"op": "move", "move": "DRAW", "version": 0})
    assert r2["ok"] and r2["version"] == 1 and r2["move"] == "draw"
    assert r2["view"]["phase"] == "meld" and len(r2["view"]["hand"]) == 17
    assert_no_hidden(b, r2["view"])


def test_illegal_move_gives_reason_and_changes_nothing():
    b, _ = new()
    before = view(b)
    r = call(b, {"op": "move", "move": "pass", "version": 0})
    assert err(r) == "wrong_phase"
    assert view(b) == before


def test_check_is_a_dry_run():
    b, _ = new()
    before = view(b)
    r = call(b, {"op": "check", "move": "draw"})
    assert r["ok"] and r["legal"] is True and r["code"] is None
    r = call(b, {"op": "check", "move": "discard 7S"})
    assert r["ok"] and r["legal"] is False and r["code"] == "wrong_phase"
    assert view(b) == before
    r = call(b, {"op": "check", "move": "fly"})
    assert err(r) == "bad_move_text"


def test_check_reports_opening_count():
    b = Bridge()
    sc = {
        "players": 2,
        "seed": 2,
        "current": 0,
        "phase": "meld",
        "hands": [["7S", "7H", "7D", "KD", "4C"], ["9H", "9D", "AS"]],
        "pile": ["5D"],
    }
    r = call(b, {"op": "scenario", "scenario": sc, "seats": ["human", "random"]})
    assert r["ok"], r
    r = call(b, {"op": "check", "move": "meld new 7S 7H 7D"})
    assert r["legal"] is False and r["code"] == "opening_too_low"
    assert r["opening_points"] == 15 and r["minimum"] == 50


def test_stale_version_changes_nothing():
    b, _ = new()
    call(b, {"op": "move", "move": "draw", "version": 0})
    before = view(b)
    r = call(b, {"op": "move", "move": f"discard {before['hand'][0]['c']}", "version": 0})
    assert err(r) == "stale_version"
    assert r["error"]["detail"]["version"] == 1
    assert view(b) == before
    assert err(call(b, {"op": "bot", "version": 0})) == "stale_version"
    assert view(b) == before


def test_bot_plays_for_computer_seats_only():
    b, r = new(seats=("random", "human"))
    assert r["view"]["seat"] == 1  # the human is the viewer
    g = b.game
    assert g.current == 0
    assert err(call(b, {"op": "move", "move": "draw", "version": 0})) == "not_your_turn"
    version = 0
    while b.game.current == 0 and b.game.phase in ("draw", "meld"):
        r = call(b, {"op": "bot", "version": version})
        assert r["ok"], r
        assert r["seat"] == 0 and isinstance(r["move"], str)
        assert r["version"] == version + 1
        version = r["version"]
        assert r["view"]["seat"] == 1
        assert_no_hidden(b, r["view"])
    assert err(call(b, {"op": "bot", "version": version})) == "not_your_turn"


def test_views_never_show_other_hands_over_a_deal():
    b, r = new(seats=("human", "random", "random", "random"), players=4, seed=3)
    version = r["version"]
    for _ in range(400):
        g = b.game
        if g.phase in ("deal_over", "game_over"):
            break
        if b.seats[g.current] == "human":
            legal = r["view"]["legal"]
            text = (legal["moves"] or ["meld " + legal["melds"][0]])[0]
            r = call(b, {"op": "move", "move": text, "version": version})
        else:
            r = call(b, {"op": "bot", "version": version})
        assert r["ok"], r
        version = r["version"]
        assert_no_hidden(b, r["view"])
    assert version > 20


def test_record_and_load_round_trip():
    b, _ = new(seats=("human", "random"), seed=9)
    call(b, {"op": "move", "move": "draw", "version": 0})
    hand = view(b)["hand"]
    call(b, {"op": "move", "move": f"discard {hand[-1]['c']}", "version": 1})
    version = 2
    while b.game.current == 1:
        version = call(b, {"op": "bot", "version": version})["version"]
    rec = call(b, {"op": "record"})
    assert rec["ok"] and rec["record"]["format"] == "samba-record/1"
    assert rec["record"]["seats"] == ["human", "random"]
    b2 = Bridge()
    r = call(b2, {"op": "load", "record": json.loads(json.dumps(rec["record"]))})
    assert r["ok"], r
    assert r["view"] == view(b)
    assert r["version"] == version


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda rec: rec["moves"].__setitem__(0, "pass"),
        lambda rec: rec.update(format="other"),
        lambda rec: rec.update(moves="draw"),
        lambda rec: rec.update(players=5),
        lambda rec: rec.update(seats=["human"]),
        lambda rec: rec.update(seats=["human", "wizard"]),
    ],
)
def test_corrupt_record_is_refused_and_game_kept(corrupt):
    b, _ = new(seed=5)
    call(b, {"op": "move", "move": "draw", "version": 0})
    rec = call(b, {"op": "record"})["record"]
    before = view(b)
    corrupt(rec)
    r = call(b, {"op": "load", "record": rec})
    assert err(r) == "bad_record"
    assert view(b) == before
    assert b.seats == ["human", "random"]


@pytest.mark.parametrize("record", [None, 5, "x", [1, 2], {}])
def test_garbage_record_is_refused(record):
    b, _ = new()
    before = view(b)
    assert err(call(b, {"op": "load", "record": record})) == "bad_record"
    assert view(b) == before


@pytest.mark.parametrize(
    "options,needle",
    [
        ({"rules": "samba", "players": 5}, "players"),
        ({"rules": "crawford", "players": 3}, "players"),
        ({"rules": "samba", "players": 2, "target": 1234}, "target"),
        ({"rules": "bridge", "players": 4}, "bridge"),
        ({"rules": "samba", "players": 2, "seed": "abc"}, "seed"),
        ({"rules": "samba", "players": 2, "seats": ["human"]}, "seats"),
        ({"rules": "samba", "players": 2, "seats": ["human", "wizard"]}, "seats"),
    ],
)
def test_bad_options_are_refused_and_game_kept(options, needle):
    b, _ = new(seed=4)
    before = view(b)
    game = b.game
    req = {"op": "new_game", "seats": ["human"] * options.get("players", 2), **options}
    r = call(b, req)
    assert err(r) == "bad_option"
    assert needle in r["error"]["message"]
    assert b.game is game and view(b) == before


@pytest.mark.parametrize(
    "request_text,code",
    [
        ("not json", "bad_request"),
        ("", "bad_request"),
        ("[]", "bad_request"),
        ("42", "bad_request"),
        ('{"move": "draw"}', "bad_request"),
        ('{"op": 5}', "bad_request"),
        ('{"op": "fly"}', "unknown_op"),
        ('{"op": "handle"}', "unknown_op"),
        ('{"op": "move", "version": 0}', "bad_request"),
        ('{"op": "move", "move": 5, "version": 0}', "bad_request"),
        ('{"op": "move", "move": "fly 7S", "version": 0}', "bad_move_text"),
        ('{"op": "move", "move": "discard 1Z", "version": 0}', "bad_move_text"),
        ('{"op": "check"}', "bad_request"),
    ],
)
def test_garbage_requests(request_text, code):
    b, _ = new()
    before = view(b)
    assert err(call(b, request_text)) == code
    assert view(b) == before


def test_bad_scenario_is_refused_and_game_kept():
    b, _ = new()
    before = view(b)
    r = call(b, {"op": "scenario", "scenario": {"players": 2, "hands": [["ZZ"], ["7S"]]}})
    assert err(r) == "bad_scenario"
    assert "ZZ" in r["error"]["message"]
    assert view(b) == before


def test_reason_codes_are_listed():
    b = Bridge()
    r = call(b, {"op": "reasons"})
    assert "pile_blocked" in r["reasons"] and "stale_version" in r["bridge_codes"]


# hints (docs/bridge.md "Hints") ------------------------------------------------------------


def _hint_table(case_id="feed-seq5-s4"):
    """A bridge at a blunder-suite position where ``hard`` searches, seat 0 a human to act."""
    import os

    from py_engine.ai.judge import load_cases, position
    from py_engine.session import Session

    case = [
        c
        for c in load_cases(os.path.join(os.path.dirname(__file__), "blunders"))
        if c["id"] == case_id
    ][0]
    g = position(case)
    b = Bridge()
    b.session = Session(g, ["human"] + ["medium"] * (g.players - 1))
    assert b.viewer() == g.current == 0
    return b


def _state(b: Bridge) -> dict:
    from py_engine.record import state_to_json

    return state_to_json(b.game)


def test_hint_reply_asks_hard_and_says_why():
    from py_engine.ai.explain import CODES

    b = _hint_table()
    before = _state(b)
    legal = view(b)["legal"]
    r = call(b, {"op": "hint"})
    assert r["ok"], r
    assert set(r) == {"ok", "move", "level", "reasons", "warnings", "samples", "version"}
    assert isinstance(r["samples"], int) and r["samples"] >= 0
    assert r["level"] == "hard" and r["version"] == b.game.version
    assert r["move"] in legal["moves"] or r["move"][5:] in legal["melds"]
    assert r["reasons"] and isinstance(r["warnings"], list)
    for e in r["reasons"] + r["warnings"]:
        assert set(e) - {"key"} == set(CODES[e["key"]]), e
    assert _state(b) == before  # a hint changes nothing
    assert call(b, {"op": "hint", "version": b.game.version}) == r  # same position, same hint
    r2 = call(b, {"op": "hint", "level": "medium"})
    assert r2["ok"] and r2["level"] == "medium"
    assert call(b, {"op": "hint", "level": None}) == r  # null: the default level


@pytest.mark.parametrize(
    "req,code",
    [
        ({"level": "expert"}, "bad_option"),
        ({"level": 3}, "bad_option"),
        ({"level": "random"}, "bad_option"),
        ({"level": ""}, "bad_option"),
        ({"version": 99999}, "stale_version"),
        ({"version": "x"}, "stale_version"),
    ],
)
def test_bad_hint_requests_are_refused_and_change_nothing(req, code):
    b = _hint_table()
    before = _state(b)
    r = call(b, {"op": "hint", **req})
    assert err(r) == code
    assert _state(b) == before


def test_hint_refused_when_it_is_not_the_viewers_turn():
    b, r = new(seats=("human", "medium"))
    while b.game.current == 0 and b.game.phase in ("draw", "meld"):
        legal = view(b)["legal"]
        mv = "draw" if "draw" in legal["moves"] else "discard " + legal["discard"][0]
        assert call(b, {"op": "move", "move": mv})["ok"]
    assert b.game.current == 1
    before = _state(b)
    assert err(call(b, {"op": "hint"})) == "not_your_turn"
    assert _state(b) == before
    assert err(call(Bridge(), {"op": "hint"})) == "no_game"


def test_hint_sees_only_the_viewers_view(monkeypatch):
    """The hint is computed from the viewer's observation alone (no other hand, no stock) and
    its legal moves."""
    from py_engine.ai import hints
    from py_engine.legal import legal_moves
    from py_engine.observation import Observation

    b = _hint_table("known-pair-jacks-s4")
    seen = []
    real = hints.hint

    def spy(obs, legal, **kw):
        seen.append((obs, legal))
        kw = {k: x for k, x in kw.items() if k != "iterations"}
        return real(obs, legal, iterations=2, **kw)

    monkeypatch.setattr(hints, "hint", spy)
    r = call(b, {"op": "hint"})
    assert r["ok"] and len(seen) == 1
    obs, legal = seen[0]
    g = b.game
    assert obs == Observation.for_seat(g, 0) and legal == legal_moves(g)
    hidden = set(g.stock) | {c for s, h in enumerate(g.hands) if s != 0 for c in h}
    assert obs.seat == 0 and not obs.cards() & hidden
    assert sorted(obs.hand) == sorted(g.hands[0])


def _documented_hint_keys() -> dict[str, set[str]]:
    """docs/bridge.md "Hints": key -> its documented parameters."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "bridge.md").read_text("utf-8")
    section = text[text.index("\n## Hints") : text.index("\n## The view")]
    rows = re.findall(r"^\| `((?:why|warn)\.\w+)` \| ([^|]*) \|", section, re.M)
    return {k: set(re.findall(r"`(\w+)`", p)) for k, p in rows}


def test_every_reason_and_warning_key_is_documented_with_its_parameters():
    """The page renders hints from docs/bridge.md alone: every code of ``CODES`` is there with
    its parameters, and the entries ``explain`` gives over whole deals carry exactly the
    documented parameters. (The words: tests/test_hint_codes.py.)"""
    from py_engine.ai import make_bot
    from py_engine.ai.act import bot_move
    from py_engine.ai.explain import CODES, explain
    from py_engine.ai.info import listed
    from py_engine.legal import legal_moves
    from py_engine.moves import Meld
    from py_engine.observation import Observation
    from py_engine.state import Game

    doc = _documented_hint_keys()
    assert doc == {key: set(params) for key, params in CODES.items()}
    seen = set()
    for rules, players, seed in (("samba", 4, 3), ("dutch", 4, 3), ("samba", 2, 4)):
        g = Game.new(rules, players, seed=seed)
        bots = [make_bot("medium", seed=s) for s in range(players)]
        while g.phase in ("draw", "meld", "answer") and len(g.moves) < 300:
            obs, legal = Observation.for_seat(g, g.current), legal_moves(g)
            moves = listed(legal)
            others = [m for m in moves if type(m) is not Meld]
            for m in others + [m for m in moves if type(m) is Meld][:5]:
                out = explain(obs, legal, m)
                for e in out["reasons"] + out["warnings"]:
                    assert set(e) - {"key"} == doc[e["key"]], e
                    seen.add(e["key"])
            g.play(bot_move(bots[g.current], g, g.current))
    assert len(seen) >= 12
