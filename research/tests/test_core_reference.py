"""The incremental core's faster parts against the code they replaced (``core_reference.py``):
the same answers, in the same order, on random positions of every table and on random hands."""

from __future__ import annotations

import random

import pytest
from conftest import ALL_TABLES, random_positions

from py_engine.candidates import candidate_shapes
from py_engine.cards import N_KINDS, counts_of
from py_engine.state import Game
from research import core_reference


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_candidate_shapes_are_the_reference_ones(rules, players):
    seen = 0
    for game in random_positions(rules, players, seed=41, every=3, deals=2):
        for seat in range(game.players):
            counts = counts_of(game.hand_kinds(seat))
            assert candidate_shapes(counts, game) == core_reference.candidate_shapes(counts, game)
            seen += 1
    assert seen > 50


@pytest.mark.parametrize("rules", ["samba", "bolivia", "canasta", "crawford"])
def test_candidate_shapes_on_random_hands(rules):
    game = Game.new(rules, 4, seed=1)
    rng = random.Random(5)
    for _ in range(400):
        counts = [0] * N_KINDS
        for _ in range(rng.randrange(0, 30)):
            counts[rng.randrange(N_KINDS)] += 1
        counts = [min(c, 3) for c in counts]
        got = candidate_shapes(counts, game)
        assert got == core_reference.candidate_shapes(counts, game)
        # the groups' and sequences' parts are kept (by rank and suit), not made again (asked
        # twice more: the first call may have emptied the bounded cache when it was full)
        again, third = candidate_shapes(counts, game), candidate_shapes(counts, game)
        assert all(x[0] is y[0] for x, y in zip(third, again) if x[1] in ("group", "sequence"))


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_addition_targets_are_the_reference_ones(rules, players):
    from py_engine.legal import addition_targets

    seen = 0
    for game in random_positions(rules, players, seed=43, every=2, deals=2):
        got = addition_targets(game)
        assert got == core_reference.addition_targets(game)
        assert list(got) == list(core_reference.addition_targets(game))  # kind order
        seen += bool(got)
    assert seen > 3


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_opening_combos_are_the_reference_ones(rules, players):
    from py_engine.candidates import opening_combos

    seen = 0
    for game in random_positions(rules, players, seed=47, every=2, deals=2):
        side = game.side_of(game.current)
        counts = counts_of(game.hand_kinds(game.current))
        for needed in (game.minimum(side), 50, 120):
            got = opening_combos(counts, needed, game)
            assert got == core_reference.opening_combos_reference(counts, needed, game)
            seen += len(got) > 1
    assert seen > 5


@pytest.mark.parametrize("rules,players", [("samba", 4), ("canasta", 4), ("bolivia", 2)])
def test_kept_meld_views_are_the_fresh_ones(rules, players):
    """``views._melds_json`` keeps each side's meld views and canasta counts while its meld list is
    unchanged: every view equals one made with nothing kept."""
    from py_engine import views
    from py_engine.views import view_for

    changed = 0
    last = None
    for game in random_positions(rules, players, seed=53, every=1, deals=2):
        kept = view_for(game, game.current)
        saved = views._CACHES.pop(game)
        fresh = view_for(game, game.current)
        views._CACHES[game] = saved
        assert kept["melds"] == fresh["melds"] and kept["canastas"] == fresh["canastas"]
        assert kept["requirement_met"] == fresh["requirement_met"]
        changed += kept["melds"] != last
        last = kept["melds"]
    assert changed > 10
