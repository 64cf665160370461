"""``medium``'s fast ranking, asked through the seat's observation, gives exactly the reference
ranking (research/medium_reference.py, the code as it was before it was made faster, reading the
seat's JSON view on its own): the same scores, in the same order, for every legal move of
hundreds of self-play positions in every rule set, and the same scores under ``easy``'s habits
and memory (``EasyBot.perceive``)."""

from __future__ import annotations

import pytest

import research.medium_reference as ref
from py_engine.ai.act import bot_move
from py_engine.ai.info import Info
from py_engine.ai.medium import MediumBot
from py_engine.ai.simple import EasyBot
from py_engine.legal import legal_moves
from py_engine.moves import parse_move
from py_engine.observation import Observation
from py_engine.state import Game
from py_engine.views import view_for

TABLES = [
    ("samba", 4),
    ("samba", 2),
    ("dutch", 4),
    ("dutch", 3),
    ("crawford", 6),
    ("bolivia", 4),
    ("canasta", 4),
    ("canasta", 2),
]


def _ranked(bot: MediumBot, g: Game, seat: int) -> list[tuple[float, str]]:
    """``bot``'s ranking of the seat's legal moves from its observation, with their texts (as
    the reference names them)."""
    return [(sc, m.text()) for sc, m in bot.ranking(Observation.for_seat(g, seat), legal_moves(g))]


def _ref_perceive(view: dict, easy: EasyBot) -> ref.Info:
    """``EasyBot.perceive`` done with the reference ``Info``."""
    seen = dict(view)
    seen["log"] = list(view.get("log", []))[-easy.log_memory :]
    info = ref.Info(seen)
    for k in info.pile[: -easy.pile_memory]:
        if k != 52 and k % 13 + 2 >= 4:
            info.seen_rank[k % 13 + 2] -= 1
    return info


@pytest.mark.parametrize("rules,players", TABLES)
def test_fast_medium_ranks_like_the_reference(rules, players):
    positions = 0
    for deal_seed in (11, 12):
        g = Game.new(rules, players, seed=deal_seed)
        fast = [MediumBot(seed=s) for s in range(players)]
        slow = [ref.MediumBot(seed=s) for s in range(players)]
        easy = EasyBot(seed=5)
        slow_easy = ref.MediumBot(seed=5, weights=EasyBot.HABITS)
        steps = 0
        while g.phase in ("draw", "meld", "answer") and steps < 300:
            seat = g.current
            view = view_for(g, seat)
            want = slow[seat].rank_moves(view)
            assert _ranked(fast[seat], g, seat) == want, (rules, players, deal_seed, steps)
            assert bot_move(fast[seat], g, seat).text() == slow[seat].choose(view)
            if len(want) > 1:
                obs, legal = Observation.for_seat(g, seat), legal_moves(g)
                info, ref_info = easy.perceive(obs, legal), _ref_perceive(view, easy)
                for m in ref.legal_texts(view):
                    mine = easy.judge.move_score(info, parse_move(m))
                    assert mine == slow_easy.score(ref_info, m), m
                positions += 1
            g.play(want[0][1])
            steps += 1
    assert positions >= 40


def test_the_reference_comparison_can_fail():
    """A changed weight changes some ranking: the comparison above sees such differences."""
    g = Game.new("samba", 4, seed=11)
    changed = 0
    for _ in range(120):
        if g.phase not in ("draw", "meld", "answer"):
            break
        view = view_for(g, g.current)
        want = ref.MediumBot().rank_moves(view)
        changed += _ranked(MediumBot(weights={"danger": 0.0}), g, g.current) != want
        assert isinstance(Info.from_observation(Observation.for_seat(g, g.current)).hand, list)
        g.play(want[0][1])
    assert changed > 0
