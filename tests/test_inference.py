"""``inference.Passes``: a seat that drew past a natural top card holds no pair of its rank
when it drew (checked on medium self-play), and the sampled worlds agree with that."""
from __future__ import annotations

import random

from py_engine.ai.determinize import Determinizer
from py_engine.ai.inference import Passes, passed_ranks
from py_engine.ai.medium import MediumBot
from py_engine.cards import IS_NATURAL, KIND_OF_ID, RANK_OF
from py_engine.record import check_consistent
from py_engine.state import Game
from py_engine.views import view_for


def _count(hand, r):
    return sum(1 for c in hand if IS_NATURAL[KIND_OF_ID[c]] and RANK_OF[KIND_OF_ID[c]] == r)


def _positions(seeds, rules="samba", players=4):
    """(game, viewer, next seat, its passed rank) at every turn start of medium self-play where
    the next seat has a passed rank."""
    for seed in seeds:
        g = Game.new(rules, players, seed=seed)
        bot = MediumBot(seed=1)
        while g.phase not in ("deal_over", "game_over"):
            if g.phase == "draw":
                me = g.current
                nxt = (me + 1) % players
                r = passed_ranks(view_for(g, me))[nxt]
                if r is not None:
                    yield g, me, nxt, r
            g.play(bot.choose(view_for(g, g.current)))


def test_a_pass_is_read_at_the_draw_and_forgotten_after_a_take():
    seen = takes = 0
    for seed in range(40, 46):
        g = Game.new("samba", 4, seed=seed)
        bot = MediumBot(seed=1)
        while g.phase not in ("deal_over", "game_over"):
            s = g.current
            move = bot.choose(view_for(g, s))
            top = KIND_OF_ID[g.pile[-1]] if g.pile else None
            opened = bool(g.melds[g.side_of(s)])
            g.play(move)
            if g.phase == "deal_over" or not move.startswith(("draw", "take")):
                continue
            got = passed_ranks(view_for(g, (s + 2) % 4))[s]
            if move == "draw" and top is not None and IS_NATURAL[top] and opened:
                assert got == RANK_OF[top]
                seen += 1
            elif move.startswith("take"):
                assert got is None
                takes += 1
    assert seen > 20 and takes > 3


def test_medium_never_draws_past_a_pair_it_could_take_with():
    """The inference's premise, on medium self-play: an opened side's seat drawing past a natural
    top card held at most one natural of its rank."""
    n = 0
    for seed in range(50, 56):
        g = Game.new("samba", 4, seed=seed)
        bot = MediumBot(seed=2)
        while g.phase not in ("deal_over", "game_over"):
            s = g.current
            move = bot.choose(view_for(g, s))
            if g.phase == "draw" and move == "draw" and g.pile and g.melds[g.side_of(s)]:
                k = KIND_OF_ID[g.pile[-1]]
                if IS_NATURAL[k]:
                    assert _count(g.hands[s], RANK_OF[k]) <= 1
                    n += 1
            g.play(move)
    assert n > 20


def test_sampled_worlds_hold_the_passed_rank_as_rarely_as_the_truth():
    """Over many positions the sampled next hands hold a pair of the passed rank about as
    often as the true hands do (plain samples: about twice as often); the worlds stay
    consistent and the counts of hands and stock stay."""
    truth = plain = informed = n = 0
    for i, (g, me, nxt, r) in enumerate(_positions(range(60, 72))):
        view = view_for(g, me)
        worlds, passes = Determinizer(view), Passes(view)
        truth += _count(g.hands[nxt], r) >= 2
        for j in range(10):
            w = worlds.sample(random.Random(j))
            sizes = [len(h) for h in w.hands], len(w.stock)
            mine = list(w.hands[me])
            plain += _count(w.hands[nxt], r) >= 2
            passes.apply(w, random.Random(j + 100))
            informed += _count(w.hands[nxt], r) >= 2
            assert ([len(h) for h in w.hands], len(w.stock)) == sizes
            assert w.hands[me] == mine and sorted(mine) == sorted(g.hands[me])
            if j == 0 and i % 10 == 0:
                check_consistent(w)
        n += 10
    assert n > 1000
    assert informed < plain * 0.75
    assert abs(informed / n - truth * 10 / n) < abs(plain / n - truth * 10 / n)
