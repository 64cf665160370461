"""Shared helpers for the engine's tests (no engine logic is re-implemented here).

``scenario(**kw)`` builds a game from the scenario format of docs/formats.md; ``play_random``
drives a game with ``simulate.random_move`` from a fixed seed; ``state_json`` is the full state
normalised through ``json`` so that two games can be compared for identity.
"""

from __future__ import annotations

import io
import json
import random

import pytest

from py_engine.record import load_scenario, state_to_json
from py_engine.simulate import random_move
from py_engine.state import Game

# (rule set, player count) for every combination docs/rules.md section 11 allows.
ALL_TABLES = [
    ("samba", 2),
    ("samba", 3),
    ("samba", 4),
    ("dutch", 2),
    ("dutch", 3),
    ("dutch", 4),
    ("dutch", 5),
    ("dutch", 6),
    ("crawford", 4),
    ("crawford", 6),
    ("bolivia", 2),
    ("bolivia", 3),
    ("bolivia", 4),
    ("bolivia", 5),
    ("bolivia", 6),
    ("canasta", 2),
    ("canasta", 3),
    ("canasta", 4),
]


def scenario(**kw) -> Game:
    """A game set up from a scenario; keyword arguments are the scenario's fields.

    >>> scenario(players=2, hands=[["7S", "7H"], ["KD", "KC"]]).players
    2
    """
    return load_scenario(dict(kw))


def run_cli(args: str) -> tuple[int, dict]:
    """``python -m py_engine ARGS`` (``args`` split at spaces): its exit code and the JSON it
    prints."""
    from py_engine.cli import main

    out = io.StringIO()
    code = main(args.split(), out=out)
    return code, json.loads(out.getvalue())


def state_json(game: Game) -> dict:
    """The full state, as it would travel through JSON."""
    return json.loads(json.dumps(state_to_json(game)))


def play_random(
    game: Game,
    rng: random.Random,
    until=("deal_over", "game_over"),
    max_moves: int = 20000,
    each=None,
):
    """Play random legal moves until the phase is one of ``until``; ``each(game, move)`` is
    called after every move. Returns the number of moves played."""
    n = 0
    while game.phase not in until:
        move = random_move(game, rng)
        game.play(move)
        n += 1
        if each is not None:
            each(game, move)
        assert n < max_moves, "a game that never ends"
    return n


def decisions(game: Game, moves: int):
    """Yield ``game`` (mutated: the caller plays one move a turn) at each seat's decision, for
    at most ``moves`` turns or until the game is over; a deal's end is passed with ``next``
    (it counts as a turn)."""
    for _ in range(moves):
        if game.phase == "game_over":
            return
        if game.phase == "deal_over":
            game.play("next")
            continue
        yield game


def random_positions(
    rules: str, players: int, seed: int, every: int = 7, target: int | None = None, deals: int = 1
):
    """Yield the game at every ``every``-th move of ``deals`` random deals and at each deal's
    end (same object, mutated: use it before the next iteration)."""
    game = Game.new(rules, players, target, seed=seed)
    rng = random.Random(seed)
    n = 0
    played = 0
    while game.phase != "game_over":
        if game.phase == "deal_over":
            yield game  # every deal's end is yielded
            played += 1
            if played >= deals:
                return
        elif n % every == 0:
            yield game
        game.play(random_move(game, rng))
        n += 1
    yield game


@pytest.fixture
def make_scenario():
    return scenario
