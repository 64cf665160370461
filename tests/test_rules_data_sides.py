"""The rules data names who plays with whom (issue 36.8: the new-game dialog marks the player's
partners): each preset's sides at each player count are the engine's own sides."""

from __future__ import annotations

from py_engine.rules import PRESETS
from py_engine.rulesdoc import rules_data
from py_engine.state import Game


def test_the_rules_data_sides_are_the_games():
    data = {p["name"]: dict((n, sides) for n, sides in p["sides"]) for p in rules_data()["presets"]}
    for name, rs in PRESETS.items():
        assert sorted(data[name]) == sorted(rs.players_allowed), name
        for players in rs.players_allowed:
            g = Game.new(name, players=players, seed=1)
            assert data[name][players] == [list(g.seats_of(s)) for s in range(g.n_sides)], (
                name,
                players,
            )
    assert data["samba"][4] == [[0, 2], [1, 3]]
    assert data["samba"][2] == [[0], [1]]
