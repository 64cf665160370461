"""The soak command: a short run finds nothing, a broken engine is caught, bad options refused."""

from __future__ import annotations

import io
import json

import pytest

import py_engine.soak as soak_mod
from py_engine.cli import main
from py_engine.moves import Discard


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 6), ("crawford", 6)])
def test_short_soak_finds_no_violation(rules, players):
    r = soak_mod.soak(rules, players, deals=3, seed=2, bots=["easy"])
    assert r["violations"] == 0, r["examples"]
    assert r["deals"] == 3 and r["moves"] > 50
    assert r["by_players"] == {"random": 2, "easy": 1}


def test_soak_catches_a_generated_move_the_rules_refuse(monkeypatch):
    real = soak_mod.legal_moves
    monkeypatch.setattr(soak_mod, "legal_moves", lambda g: real(g) + [Discard(0)])
    r = soak_mod.soak("samba", 2, deals=1, seed=1, bots=[])
    assert r["violations"] > 0
    assert any("refused by the rules" in e for e in r["examples"])


def test_soak_catches_a_leaking_view(monkeypatch):
    real = soak_mod.view_for

    def leaky(game, seat):
        v = real(game, seat)
        other = (seat + 1) % game.players
        return {**v, "extra": [{"id": c, "c": "?"} for c in game.hands[other]]}

    monkeypatch.setattr(soak_mod, "view_for", leaky)
    r = soak_mod.soak("samba", 2, deals=1, seed=1, bots=[])
    assert any("hidden cards" in e for e in r["examples"])


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--rules", "chess"], "unknown rule set"),
        (["--deals", "0"], "--deals"),
        (["--players", "5"], "players"),
        (["--bots", "genius"], "unknown computer level"),
        (["--check-every", "0"], "--check-every"),
    ],
)
def test_bad_soak_options_get_a_clear_error(args, needle):
    out = io.StringIO()
    assert main(["soak", *args], out=out) == 2
    res = json.loads(out.getvalue())
    assert res["ok"] is False and needle in res["error"]


def test_soak_cli_prints_figures():
    out = io.StringIO()
    assert (
        main(["soak", "--rules", "samba", "--players", "2", "--deals", "2", "--bots", ""], out=out)
        == 0
    )
    res = json.loads(out.getvalue())
    assert res["deals"] == 2 and res["violations"] == 0 and res["deals_per_second"] > 0
