"""Per-deal seeds (play between browsers derives each deal's shuffle from every player)."""

import random

import pytest

from py_engine.errors import ScenarioError
from py_engine.record import game_record, replay
from py_engine.simulate import random_move
from py_engine.state import Game


def _finish_deal(g, rng):
    while g.phase not in ("deal_over", "game_over"):
        g.play(random_move(g, rng))


def test_deal_seed_decides_the_shuffle_not_the_game_seed():
    a = Game.new("samba", 4, seed=3, deal_seeds={1: "abc"})
    b = Game.new("samba", 4, seed=4, deal_seeds={1: "abc"})
    c = Game.new("samba", 4, seed=3)
    assert a.hands == b.hands
    assert a.hands != c.hands


def test_deal_seeds_travel_in_the_record_and_replay():
    g = Game.new("samba", 4, seed=3, deal_seeds={1: "abc"})
    _finish_deal(g, random.Random(1))
    g.deal_seeds[2] = "xyz"
    g.play("next")
    rec = game_record(g)
    assert rec["deal_seeds"] == {"1": "abc", "2": "xyz"}
    assert replay(rec).hands == g.hands
    rec["deal_seeds"]["2"] = "other"
    assert replay(rec).hands != g.hands


@pytest.mark.parametrize("seeds", [{0: "a"}, {1: 5}, {"1": "a"}, {1: ""}, [1], {True: "a"}])
def test_bad_deal_seeds_are_refused(seeds):
    with pytest.raises(ValueError):
        Game.new("samba", 4, seed=1, deal_seeds=seeds)


@pytest.mark.parametrize("seeds", [{"x": "a"}, ["a"], {"1": 7}])
def test_bad_deal_seeds_in_a_record_are_refused(seeds):
    rec = game_record(Game.new("samba", 4, seed=1))
    rec["deal_seeds"] = seeds
    with pytest.raises(ScenarioError):
        replay(rec)
