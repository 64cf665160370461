"""``research/floor.py``: its replays play the recorded decisions to the recorded ends, and a replay
that leaves the record is caught (so a floor is the same games' cost)."""

from __future__ import annotations

import pytest

from research import floor


@pytest.mark.parametrize("workload", sorted(floor.FLOORS))
def test_replays_reach_the_recorded_ends(workload):
    assert floor.FLOORS[workload](1, "record") == 0
    assert floor.FLOORS[workload](1, "replay") > 20


def test_medium_replays_without_views_too():
    assert floor.medium_floor(1, "replay-play") == floor.medium_floor(1, "replay") > 20


def test_a_replay_that_leaves_the_record_is_caught(monkeypatch):
    real = floor._replay
    monkeypatch.setattr(floor, "_replay", lambda g, moves: real(g, moves[:-1]))
    with pytest.raises(AssertionError, match="left the recorded game"):
        floor.random_floor(1, "replay")
    with pytest.raises(AssertionError, match="scored otherwise"):
        floor.hard_floor(1, "replay")


def test_the_floors_replay_the_workloads_own_games():
    # (tools/engine_workload.py's games: the floor counts what the benchmark's workload plays)
    ew = floor.engine_workload
    assert floor.random_floor(2, "replay") == ew.random_play(2, "samba", 4)["moves"]
    assert floor.medium_floor(2, "replay") == ew.medium_deals(2, "samba", 4)["moves"]
