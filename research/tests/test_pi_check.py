"""``research/pi_check.py``: the open-hands study bot's worlds, and its seeds."""

from __future__ import annotations

import random

import pytest

from py_engine.ai.act import bot_move
from py_engine.ai.medium import MediumBot
from py_engine.observation import Observation
from py_engine.record import check_consistent
from py_engine.state import Game
from research import pi_check as pc


def _midgame(moves: int = 40) -> Game:
    g = Game.new("samba", 4, seed=20300)
    bot = MediumBot(seed=1)
    for _ in range(moves):
        g.play(bot_move(bot, g, g.current))
    return g


def test_open_worlds_keep_every_hand_and_only_next_keeps_the_next_one():
    g = _midgame()
    me, nxt = g.current, (g.current + 1) % 4
    w = pc.OpenWorlds(g, keep_stock=False).sample(random.Random(1))
    assert w.hands == g.hands and sorted(w.stock) == sorted(g.stock)
    assert pc.OpenWorlds(g, keep_stock=True).sample(random.Random(1)).stock == g.stock
    moved = 0
    for i in range(5):
        w = pc.OpenWorlds(g, keep_stock=False, only_next=True).sample(random.Random(i))
        assert w.hands[me] == g.hands[me] and w.hands[nxt] == g.hands[nxt]
        assert [len(h) for h in w.hands] == [len(h) for h in g.hands]
        hidden = sorted(c for s in range(4) if s not in (me, nxt) for c in w.hands[s])
        moved += hidden != sorted(c for s in range(4) if s not in (me, nxt) for c in g.hands[s])
        check_consistent(w)
    assert moved == 5
    assert g.hands == _midgame().hands  # the true game is never changed


def test_the_study_bot_searches_the_true_game_and_refuses_reserved_seeds():
    g = _midgame()
    bot = pc.OpenHard(seed=1, iterations=2)
    obs = Observation.for_seat(g, g.current)
    assert isinstance(bot.worlds(obs), pc.Determinizer)  # no game: the observation only
    bot.game = g
    assert isinstance(bot.worlds(obs), pc.OpenWorlds)
    with pytest.raises(SystemExit):
        pc.main(["--seed", "9050", "--deals", "1"])


@pytest.mark.parametrize("keep", ["pairs", "wilds"])
def test_part_of_the_next_hand_open_keeps_only_that_part(keep):
    g = _midgame(45)  # the next hand: 9 cards, one natural pair, 4 wild cards
    me, nxt = g.current, (g.current + 1) % 4
    part = pc.KEEP[keep](g.hands[nxt])
    assert 0 < len(part) < len(g.hands[nxt])  # the position tells the parts apart
    changed = 0
    for i in range(6):
        w = pc.OpenWorlds(g, keep_stock=False, only_next=True, keep=keep).sample(random.Random(i))
        assert w.hands[me] == g.hands[me] and len(w.hands[nxt]) == len(g.hands[nxt])
        assert w.hands[nxt][: len(part)] == part
        # no other card of that kind is known: the rest of the hand comes from the pool
        changed += sorted(w.hands[nxt]) != sorted(g.hands[nxt])
        check_consistent(w)
    assert changed == 6
    assert g.hands == _midgame(45).hands
