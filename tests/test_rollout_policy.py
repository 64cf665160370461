"""``hard``'s rollouts play ``medium`` on the sampled game's own state (``rollout_move``), without
building observations: it must choose exactly the move ``medium`` chooses on the seat's
observation."""

from __future__ import annotations

import random

import pytest
from conftest import decisions

from py_engine.ai.act import bot_move
from py_engine.ai.determinize import determinize
from py_engine.ai.medium import MediumBot
from py_engine.ai.rollout import _rollout_info, rollout_move
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.state import Game


def _check_game(g: Game, bot: MediumBot, limit: int) -> int:
    cache: dict = {}
    steps = 0
    while g.phase in ("draw", "meld", "answer") and steps < limit:
        want = bot_move(bot, g, g.current).text()
        assert bot.rank(_rollout_info(g, g.current, {}), legal_moves(g))[0][1].text() == want
        got = rollout_move(g, bot, cache)
        assert got is not None and got.text() == want, (steps, got, want)
        g.play(got)
        steps += 1
    return steps


@pytest.mark.parametrize(
    "rules,players",
    [("samba", 4), ("dutch", 4), ("crawford", 6), ("samba", 2), ("bolivia", 4), ("canasta", 4)],
)
def test_rollout_move_is_mediums_choice(rules, players):
    bot = MediumBot(seed=2)
    assert _check_game(Game.new(rules, players, seed=8), bot, 200) > 40


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6)])
def test_rollout_move_in_sampled_worlds(rules, players):
    """In determinized worlds (what rollouts really play), part way into a deal."""
    g = Game.new(rules, players, seed=9)
    bot = MediumBot(seed=4)
    worlds = 0
    for step in range(90):
        if g.phase not in ("draw", "meld", "answer"):
            break
        if step % 15 == 5:
            world = determinize(Observation.for_seat(g, g.current), random.Random(step))
            _check_game(world, MediumBot(seed=step), 30)
            worlds += 1
        g.play(bot_move(bot, g, g.current))
    assert worlds >= 4


def test_rollout_check_can_fail():
    """A policy with other weights chooses differently somewhere: the comparison sees it."""
    g = Game.new("samba", 4, seed=8)
    bot, other = MediumBot(seed=2), MediumBot(seed=2, weights={"danger": 0.0, "pair": 0.0})
    differs = 0
    for _ in range(120):
        if g.phase not in ("draw", "meld", "answer"):
            break
        want = bot_move(bot, g, g.current).text()
        differs += rollout_move(g, other, {}).text() != want
        g.play(want)
    assert differs > 0


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6)])
def test_one_determinizer_samples_like_fresh_ones(rules, players):
    """``hard`` samples many worlds from one ``Determinizer``: playing a sampled world out
    must not change the next sample (each is the world a fresh ``determinize`` deals)."""
    from py_engine.ai.determinize import Determinizer
    from py_engine.record import state_to_json

    g = Game.new(rules, players, seed=12)
    bot = MediumBot(seed=1)
    for _ in range(25):
        g.play(bot_move(bot, g, g.current))
    obs = Observation.for_seat(g, g.current)
    worlds = Determinizer(obs)
    for i in range(4):
        world = worlds.sample(random.Random(i))
        assert state_to_json(world) == state_to_json(determinize(obs, random.Random(i)))
        _check_game(world, MediumBot(seed=i), 20)  # plays it out, changing it
    assert state_to_json(worlds.sample(random.Random(0))) != state_to_json(
        worlds.sample(random.Random(1))
    )


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6)])
def test_fast_meld_phase_discards_mediums_best_discard(rules, players):
    """Where the rollouts' meld-phase stand-in discards, it discards the legal card with the
    best ``discard_score`` on the rollout's ``Info`` (ties: the higher text), as it always did."""
    from py_engine.ai.rollout import fast_meld_move
    from py_engine.cards import KIND_TEXT
    from py_engine.moves import Discard

    g = Game.new(rules, players, seed=14)
    bot = MediumBot(seed=3)
    discards = 0
    for _ in range(250):
        if g.phase not in ("draw", "meld", "answer"):
            break
        move = fast_meld_move(g, bot, {})
        got = None if move is None else move.text()
        if got is not None and got.startswith("discard"):
            info = _rollout_info(g, g.current, {})
            legal = [k for k in sorted(set(info.hand)) if g.can(Discard(k))]
            want = max(legal, key=lambda k: (bot.discard_score(info, k), KIND_TEXT[k]))
            assert got == "discard " + KIND_TEXT[want]
            discards += 1
        g.play(bot_move(bot, g, g.current))
    assert discards >= 5


@pytest.mark.parametrize(
    "rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6), ("bolivia", 4), ("canasta", 4)]
)
def test_draw_move_score_is_mediums_score(rules, players):
    """The rollouts' draw phase is scored without an ``Info`` (``draw_move_score`` from the
    game's own counts): the same score ``MediumBot.move_score`` gives each legal move from the
    seat's observation (whose counts ``Info`` reads) and from the rollout's ``Info``."""
    from py_engine.ai.info import Info
    from py_engine.legal import legal_moves

    bot = MediumBot(seed=5)
    g = Game.new(rules, players, seed=15)
    compared = 0
    seen = set()
    for _ in decisions(g, 600):
        if g.phase == "draw":
            info = _rollout_info(g, g.current, {})
            seen_info = Info.from_observation(Observation.for_seat(g, g.current), legal_moves(g))
            sizes = {m.id: len(m.cards) for m in g.melds[g.side_of(g.current)]}
            for mv in legal_moves(g):
                got = bot.draw_move_score(
                    mv, len(g.hands[g.current]), len(g.pile), sizes, g.rules.sequence_max
                )
                assert got == bot.move_score(info, mv) == bot.move_score(seen_info, mv), mv.text()
                compared += 1
                seen.add(type(mv).__name__)
        g.play(bot_move(bot, g, g.current))
    assert compared > 30 and "Draw" in seen and len(seen) >= 2
