"""``medium`` leaves the discards unscored where another move beats them all for certain
(``MediumBot.discard_ceiling``): the bound must hold for every discard, and the choice must stay
``rank_moves``' first move."""

from __future__ import annotations

import pytest

from py_engine.ai.act import bot_move
from py_engine.ai.info import Info
from py_engine.ai.medium import MediumBot
from py_engine.ai.simple import EasyBot
from py_engine.cards import KIND_BY_TEXT
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.state import Game
from py_engine.views import view_for


def _positions(rules: str, players: int, seed: int, deals: int = 2):
    """Meld-phase positions with more than one discard, from ``medium`` self-play: (the seat's
    view, its observation, its legal moves)."""
    for d in range(deals):
        g = Game.new(rules, players, seed=seed + d)
        bots = [MediumBot(seed=s) for s in range(players)]
        while g.phase in ("draw", "meld", "answer"):
            view = view_for(g, g.current)
            if len(view["legal"]["discard"]) > 1:
                yield view, Observation.for_seat(g, g.current), legal_moves(g)
            g.play(bot_move(bots[g.current], g, g.current))


def _gap(bot: MediumBot, view: dict) -> tuple[float | None, float]:
    """(the ceiling, the highest discard score ``rank_moves`` gives)."""
    kinds = [KIND_BY_TEXT[t] for t in view["legal"]["discard"]]
    ceiling = bot.discard_ceiling(Info(view), kinds)
    top = max(sc for sc, m in bot.rank_moves(view) if m.startswith("discard "))
    return ceiling, top


@pytest.mark.parametrize(
    "rules,players",
    [("samba", 4), ("dutch", 4), ("crawford", 6), ("samba", 2), ("bolivia", 4), ("canasta", 4)],
)
def test_no_discard_scores_above_the_ceiling(rules, players):
    bot = MediumBot(seed=1)
    shortcut = full = 0
    for view, obs, legal in _positions(rules, players, 40):
        ceiling, top = _gap(bot, view)
        ranked = bot.rank_moves(view)
        if ceiling is not None:
            assert top <= ceiling, (view["version"], top, ceiling)
            if ranked[0][0] > ceiling:
                shortcut += 1
            else:
                full += 1
        assert bot.decide(obs, legal).text() == ranked[0][1]
    assert shortcut > 10 and full > 10  # both ways are taken


def test_easy_habits_keep_the_bound():
    """``easy`` judges with other weights (none negative where the bound needs it)."""
    bot = EasyBot(seed=0).judge
    n = 0
    for view, _, _ in _positions("samba", 4, 70, deals=1):
        ceiling, top = _gap(bot, view)
        assert ceiling is not None and top <= ceiling
        n += 1
    assert n > 20


def test_no_ceiling_with_negative_weights():
    """A weight that may make a discard's score higher gives no bound, and then every move is
    scored: the choice is still ``rank_moves``' first."""
    bot = MediumBot(seed=0, weights={"pair": -30.0})
    positions = list(_positions("samba", 4, 50, deals=1))
    assert positions
    for view, obs, legal in positions:
        kinds = [KIND_BY_TEXT[t] for t in view["legal"]["discard"]]
        assert bot.discard_ceiling(Info(view), kinds) is None
        assert bot.decide(obs, legal).text() == bot.rank_moves(view)[0][1]


def test_the_bound_is_checked():
    """The bound is close: some discard scores within 20 of it, so a ceiling lower by that much
    would fail the first test."""
    bot = MediumBot(seed=1)
    assert any(
        ceiling is not None and top > ceiling - 20
        for ceiling, top in (_gap(bot, v) for v, _, _ in _positions("samba", 4, 40))
    )
