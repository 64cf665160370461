"""``Info.from_observation`` (what a bot reads of its seat's observation) digests the same facts
as ``Info(view)`` (of its seat's JSON view), on many positions of every table: every field,
every derived figure ``medium`` and ``explain`` read, and ``medium``'s score of every legal move."""

from __future__ import annotations

import pytest
from conftest import ALL_TABLES, random_positions

from py_engine.ai import make_bot
from py_engine.ai.info import Info
from py_engine.ai.medium import MediumBot
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.views import view_for


def facts(info: Info) -> tuple:
    sides = range(len(info.melds))
    return (
        info.seat,
        info.n,
        info.side,
        list(info.side_of),
        info.hand,
        info.pile,
        [list(side) for side in info.melds],
        info.my_melds,
        info.opened,
        info.req,
        list(info.canastas),
        info.can_out,
        info.partners,
        info.next,
        info.next_side,
        info.rules,
        list(info.hand_sizes),
        info.stock,
        info.phase,
        info.deal,
        list(info.scores or ()),
        info.target,
        info.red_threes,
        info.own_rank,
        info.held_wilds,
        list(info.seen_rank),
        info.unseen_total,
        info._read_next_log(),
        info._discard_facts(),
        [info.table_estimate(s) for s in sides],
        [info.table_score(s) for s in sides],
        info.lead(),
        info.fit_value(),
        info.out_game(),
        info.opponents_can_out(),
        info.threatened(2.5, 2),
        sorted(m.text() for m in info.legal),
    )


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_info_of_the_observation_is_info_of_the_view(rules, players):
    bot = MediumBot()
    compared = scored = 0
    for g in random_positions(rules, players, seed=17, every=3, deals=2):
        if g.phase == "game_over":
            continue
        for seat in range(g.players):
            mine = g.phase in ("draw", "meld", "answer") and seat == g.current
            moves = legal_moves(g) if mine else []
            a = Info(view_for(g, seat, with_legal=mine))
            b = Info.from_observation(Observation.for_seat(g, seat), moves)
            assert facts(a) == facts(b), (rules, players, g.version, seat)
            compared += 1
            for m in moves:
                assert bot.move_score(a, m) == bot.move_score(b, m), m.text()
                scored += 1
    assert compared > 100 and scored > 100


def _by_view(level: str, seed: int, view: dict) -> str:
    """The move ``level`` plays reading the seat's JSON view instead of its observation (the
    view's ``Info`` and its listed moves), as its text."""
    import random

    from py_engine.ai.info import legal_texts, view_moves
    from py_engine.ai.simple import EasyBot

    if level == "random":
        return random.Random(seed).choice(legal_texts(view))
    if level == "medium":
        return MediumBot(seed=seed).rank_moves(view)[0][1]
    bot = EasyBot(seed=seed)
    moves = view_moves(view)
    if [m.text() for m in moves] == ["next"]:
        return "next"
    if "answer yes" in [m.text() for m in moves]:
        return "answer yes"
    info = Info(dict(view, log=list(view["log"])[-bot.log_memory :]))
    bot._forget(info)
    rng = random.Random(f"easy:{seed}:{view['version']}:{view['seat']}")
    return bot._pick(info, rng, moves)[1]


@pytest.mark.parametrize("rules,players", ALL_TABLES)
@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_a_bot_decides_on_the_observation_as_on_the_view(level, rules, players):
    """``decide(observation, legal moves)`` plays the move the same level plays reading the
    seat's JSON view (``Info`` of the view, its listing; the same seeds: ``random`` draws from
    the same list in the same order)."""
    decided = 0
    for g in random_positions(rules, players, seed=23, every=2, deals=1):
        if g.phase not in ("draw", "meld", "answer"):
            continue
        seat = g.current
        by_view = _by_view(level, seat, view_for(g, seat))
        move = make_bot(level, seed=seat).decide(Observation.for_seat(g, seat), legal_moves(g))
        assert move.text() == by_view, (rules, players, g.version)
        decided += 1
    assert decided > 20


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_a_rollouts_info_is_info_of_the_view(rules, players):
    """A rollout's ``Info`` of its game (``rollout._rollout_info``: no scores, no legal moves)
    digests what ``Info`` of the seat's view does, and ``medium`` scores every legal move alike
    on both."""
    from py_engine.ai.rollout import _rollout_info

    bot = MediumBot()
    cache: dict = {}
    compared = 0
    for g in random_positions(rules, players, seed=29, every=3, deals=2):
        if g.phase not in ("draw", "meld", "answer"):
            continue
        seat = g.current
        a = Info(view_for(g, seat))
        b = _rollout_info(g, seat, cache)
        a.scores = a.target = None  # (a rollout's Info reads no game totals)
        for m in legal_moves(g):
            assert bot.move_score(a, m) == bot.move_score(b, m), m.text()
        fa, fb = facts(a), facts(b)
        assert sorted(fa[4]) == sorted(fb[4])  # (a rollout's hand is in the game's order)
        # (so the discards' facts list a suit's ranks in another order)
        assert [sorted(x) for x in fa[28][0]] == [sorted(x) for x in fb[28][0]]
        assert fa[28][1:] == fb[28][1:]
        # (and ``fit_value`` lets the first wild cards in hand fill the room)
        assert a.fit_value(sorted(a.hand)) == b.fit_value(sorted(b.hand))
        skip = (4, 28, 32, len(fa) - 1)  # (no legal moves in a rollout's Info)
        assert [x for i, x in enumerate(fa) if i not in skip] == [
            x for i, x in enumerate(fb) if i not in skip
        ], (rules, players, g.version)
        compared += 1
    assert compared > 20


def test_bot_move_asks_decide_and_scores_of_a_subclass_are_ranked():
    """``act.bot_move`` asks the bot's ``decide``; a ``medium`` whose scores are its own (here:
    ``move_score`` overridden, the same values) is ranked in full (``rank``) rather than with
    the discard ceiling's shortcut, and plays the same moves."""
    from py_engine.ai.act import bot_move
    from py_engine.state import Game

    class Own(MediumBot):
        def decide(self, obs, legal):
            raise LookupError("asked")

    class OwnScore(MediumBot):
        def move_score(self, info, move):
            return super().move_score(info, move)

    assert MediumBot()._plain() and not OwnScore()._plain()
    g = Game.new("samba", 4, seed=3)
    with pytest.raises(LookupError):
        bot_move(Own(), g, g.current)
    assert (
        bot_move(MediumBot(), g, g.current).text()
        == MediumBot().rank_moves(view_for(g, g.current))[0][1]
    )
    compared = 0
    for g in random_positions("samba", 4, seed=31, every=2, deals=1):
        if g.phase in ("draw", "meld", "answer"):
            assert bot_move(OwnScore(), g, g.current) == bot_move(MediumBot(), g, g.current)
            compared += 1
    assert compared > 20
