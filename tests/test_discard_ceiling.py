"""``medium`` leaves the discards unscored where another move beats them all for certain
(``MediumBot.discard_ceiling``): the bound must hold for every discard, and the choice must stay
``rank``'s first move."""

from __future__ import annotations

import pytest

from py_engine.ai.act import bot_move
from py_engine.ai.info import Info
from py_engine.ai.medium import MediumBot
from py_engine.ai.simple import EasyBot
from py_engine.legal import legal_moves
from py_engine.moves import Discard, Move
from py_engine.observation import Observation
from py_engine.state import Game


def _positions(rules: str, players: int, seed: int, deals: int = 2):
    """Meld-phase positions with more than one discard, from ``medium`` self-play: (the seat's
    observation, its legal moves)."""
    for d in range(deals):
        g = Game.new(rules, players, seed=seed + d)
        bots = [MediumBot(seed=s) for s in range(players)]
        while g.phase in ("draw", "meld", "answer"):
            legal = legal_moves(g)
            if len(_discards(legal)) > 1:
                yield Observation.for_seat(g, g.current), legal
            g.play(bot_move(bots[g.current], g, g.current))


def _discards(legal: list[Move]) -> list[int]:
    return [m.card for m in legal if type(m) is Discard]


def _gap(bot: MediumBot, obs: Observation, legal: list[Move]) -> tuple[float | None, float]:
    """(the ceiling, the highest discard score ``rank`` gives)."""
    ceiling = bot.discard_ceiling(Info.from_observation(obs, legal), _discards(legal))
    top = max(sc for sc, m in bot.ranking(obs, legal) if type(m) is Discard)
    return ceiling, top


@pytest.mark.parametrize(
    "rules,players",
    [("samba", 4), ("dutch", 4), ("crawford", 6), ("samba", 2), ("bolivia", 4), ("canasta", 4)],
)
def test_no_discard_scores_above_the_ceiling(rules, players):
    bot = MediumBot(seed=1)
    shortcut = full = 0
    for obs, legal in _positions(rules, players, 40):
        ceiling, top = _gap(bot, obs, legal)
        ranked = bot.ranking(obs, legal)
        if ceiling is not None:
            assert top <= ceiling, (obs.version, top, ceiling)
            if ranked[0][0] > ceiling:
                shortcut += 1
            else:
                full += 1
        assert bot.decide(obs, legal) == ranked[0][1]
    assert shortcut > 10 and full > 10  # both ways are taken


def test_easy_habits_keep_the_bound():
    """``easy`` judges with other weights (none negative where the bound needs it)."""
    bot = EasyBot(seed=0).judge
    n = 0
    for obs, legal in _positions("samba", 4, 70, deals=1):
        ceiling, top = _gap(bot, obs, legal)
        assert ceiling is not None and top <= ceiling
        n += 1
    assert n > 20


def test_no_ceiling_with_negative_weights():
    """A weight that may make a discard's score higher gives no bound, and then every move is
    scored: the choice is still ``rank``'s first."""
    bot = MediumBot(seed=0, weights={"pair": -30.0})
    positions = list(_positions("samba", 4, 50, deals=1))
    assert positions
    for obs, legal in positions:
        info = Info.from_observation(obs, legal)
        assert bot.discard_ceiling(info, _discards(legal)) is None
        assert bot.decide(obs, legal) == bot.ranking(obs, legal)[0][1]


def test_the_bound_is_checked():
    """The bound is close: some discard scores within 20 of it, so a ceiling lower by that much
    would fail the first test."""
    bot = MediumBot(seed=1)
    assert any(
        ceiling is not None and top > ceiling - 20
        for ceiling, top in (_gap(bot, obs, legal) for obs, legal in _positions("samba", 4, 40))
    )
