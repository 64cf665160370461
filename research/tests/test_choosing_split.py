"""``research/choosing_split.py``: it times the benchmark's own random games, its parts add up, and
it leaves the engine as it found it."""

from __future__ import annotations

import pytest

from py_engine import legal, simulate
from research import choosing_split as split
from tools import engine_workload


def test_its_chooser_plays_every_move_of_the_workloads_games():
    moves = []

    def choose(g, rng):
        moves.append(simulate.random_move(g, rng))
        return moves[-1]

    split.play_workload(2, "samba", 4, choose)
    assert len(moves) == engine_workload.random_play(2, "samba", 4)["moves"]


def test_the_parts_add_up_and_the_engine_is_restored():
    has, choices = simulate.has_meld_move, legal.opened_meld_choices
    spent = split.shares(2, "samba", 4)
    assert simulate.has_meld_move is has and legal.opened_meld_choices is choices
    assert spent["choosing"] > 0
    for name in ("has_meld_move", "opened_meld_choices"):
        after = spent[name + " after the seat's meld move"]
        assert 0 < after < spent[name]
    assert spent["has_meld_move"] + spent["opened_meld_choices"] < spent["choosing"]
    fixed, decisions = split.fixed_parts(2, "samba", 4)
    assert decisions > 50
    assert set(fixed) == {"ActingSide", "other_moves", "the hand's counts", "has_meld_move"}
    assert all(s > 0 for s in fixed.values())


def test_the_wrappers_are_restored_when_a_game_fails(monkeypatch):
    has, choices = simulate.has_meld_move, legal.opened_meld_choices

    def broken(game, rng):
        raise RuntimeError("a broken player")

    monkeypatch.setattr(simulate, "random_move", broken)
    with pytest.raises(RuntimeError, match="broken"):
        split.shares(1, "samba", 4)
    assert simulate.has_meld_move is has and legal.opened_meld_choices is choices


@pytest.mark.parametrize(
    "args, says",
    [
        (["--deals", "0"], "at least 1"),
        (["--rules", "nosuch"], "unknown rule set"),
        (["--players", "9"], "players"),
    ],
)
def test_a_bad_option_is_refused(capsys, args, says):
    with pytest.raises(SystemExit) as e:
        split.main(args)
    assert e.value.code == 2
    assert says in capsys.readouterr().err
