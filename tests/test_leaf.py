"""``hard``'s fitted leaf estimate: features, shipped weights (fitted by research/fit_leaf.py)."""

from __future__ import annotations

import random

import pytest

from py_engine.ai.act import bot_move
from py_engine.ai.hard import HardBot
from py_engine.ai.leaf import NAMES, features, predict
from py_engine.ai.rollout import evaluate
from py_engine.ai.weights import LEAF_WEIGHTS
from py_engine.legal import legal_moves
from py_engine.record import load_scenario
from py_engine.rules import PRESETS
from py_engine.state import Game


def test_weights_for_every_preset_match_the_features():
    assert set(PRESETS) <= set(LEAF_WEIGHTS)
    for name, w in LEAF_WEIGHTS.items():
        assert len(w) == len(NAMES), name
        assert w[0] == 0.0  # the constant cancels between sides
        assert w[NAMES.index("table")] > 0, name  # points on the table are worth something


@pytest.mark.parametrize(
    "rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6), ("samba", 3)]
)
def test_features_describe_every_side(rules, players):
    g = Game.new(rules, players, seed=3)
    for s in range(g.n_sides):
        x = features(g, s)
        assert len(x) == len(NAMES)
        assert x[NAMES.index("hand_cards")] == sum(len(g.hands[p]) for p in g.seats_of(s))
        # nothing melded yet: only red threes laid at the deal count (negative, unopened)
        assert x[NAMES.index("table")] <= 0
        assert (x[NAMES.index("table")] == 0) == (not g.red3[s])


def _scenario(melds0):
    return load_scenario(
        {
            "rules": "samba",
            "players": 4,
            "current": 0,
            "phase": "draw",
            "hands": [["4C", "9S"], ["4D", "5C", "KD"], ["9H", "9D"], ["AS", "QS"]],
            "melds": [melds0, []],
            "pile": ["5D", "8C"],
        }
    )


def test_a_canasta_on_the_table_raises_the_estimate():
    w = LEAF_WEIGHTS["samba"]
    small = _scenario([["KS", "KS", "KH"]])
    canasta = _scenario([["KS", "KS", "KH", "KH", "KD", "KC", "KC"]])
    assert predict(canasta, 0, w) > predict(small, 0, w)
    assert evaluate(canasta, 0, weights=w) > evaluate(small, 0, weights=w)


def test_hard_with_the_fitted_leaf_plays_legally_and_reproducibly():
    game = Game.new("samba", 4, seed=8)
    movers = [HardBot(seed=s, iterations=1, rounds=0.5) for s in range(4)]
    seen = 0
    for step in range(24):
        seat = game.current
        if step % 3 == 0:
            a = bot_move(HardBot(seed=4, iterations=2, fast=True), game, seat)
            b = bot_move(HardBot(seed=4, iterations=2, fast=True), game, seat)
            assert a == b and a in legal_moves(game)
            seen += 1
        game.play(bot_move(movers[seat], game, seat))
    assert seen


def _reference_features(game: Game, side: int) -> list[float]:
    """``features`` as it was written first (card by card through the kind tables, the table
    score with the meld bonuses looked up by kind lists): the faster one must give the same
    numbers."""
    from py_engine.cards import IS_NATURAL, IS_RED3, IS_WILD, KIND_OF_ID, RANK_OF, VALUE_OF_KIND
    from py_engine.melds import bonus_of, cards_needed, value_of
    from py_engine.scoring import side_canastas

    r = game.rules
    seats = game.seats_of(side)
    melds = game.melds[side]
    red_n = len(game.red3[side])
    table = sum(value_of(m.kinds()) + bonus_of(m.type, m.kinds(), r) for m in melds)
    if red_n:
        from py_engine.scoring import red_threes_score, requirement_met

        positive = (
            requirement_met(melds, r, game.players)
            if r.red_three_penalty_if == "unmet"
            else bool(melds)
        )
        table += red_threes_score(red_n, r, positive)
    hands = [game.hands[s] for s in seats]
    f = min(1.0, len(game.stock) / 80)
    hand_value = sum(VALUE_OF_KIND[KIND_OF_ID[c]] for h in hands for c in h)
    hand_cards = sum(len(h) for h in hands)
    canastas = side_canastas(melds, r)[0]
    met = 1.0 if canastas >= r.canastas_needed(game.players) else 0.0
    near = [0, 0, 0, 0]
    seq5 = seq6 = 0
    for m in melds:
        if m.type == "sequence":
            seq5 += len(m.cards) == 5
            seq6 += len(m.cards) == 6
            continue
        need = cards_needed(m.type, len(m.cards), r)
        if 1 <= need <= 3:
            near[need] += 1
    wilds = pairs = red3_held = 0
    for h in hands:
        counts: dict[int, int] = {}
        for c in h:
            k = KIND_OF_ID[c]
            if IS_WILD[k]:
                wilds += 1
            elif IS_NATURAL[k]:
                counts[RANK_OF[k]] = counts.get(RANK_OF[k], 0) + 1
            if IS_RED3[k]:
                red3_held += 1
        pairs += sum(1 for v in counts.values() if v >= 2)
    pile = len(game.pile)
    min_hand = min(len(h) for h in hands) if hands else 0
    to_move = 1.0 if game.side_of(game.current) == side else 0.0
    nears = near[1] + near[2] + near[3] + seq5 + seq6
    return [
        1.0,
        table,
        hand_value,
        hand_value * f,
        hand_cards,
        hand_cards * f,
        canastas,
        met,
        met * f,
        1.0 if melds else 0.0,
        near[1],
        near[2],
        near[3],
        seq5,
        seq6,
        nears * f,
        wilds,
        wilds * f,
        min(pairs, 4) * pile / 10,
        min(pairs, 4),
        min(min_hand, 8),
        met * max(0, 6 - min_hand),
        to_move,
        red3_held,
    ]


@pytest.mark.parametrize(
    "rules,players",
    [("samba", 4), ("samba", 2), ("dutch", 4), ("crawford", 6), ("bolivia", 3), ("canasta", 4)],
)
def test_features_match_the_reference_through_whole_deals(rules, players):
    from py_engine.melds import bonus_of, meld_bonus, meld_value, value_of
    from py_engine.simulate import random_move

    rng = random.Random(7)
    checked = melds_seen = 0
    for seed in range(3):
        g = Game.new(rules, players, seed=seed)
        while g.phase in ("draw", "meld", "answer"):
            for s in range(g.n_sides):
                assert features(g, s) == _reference_features(g, s)
                checked += 1
                for m in g.melds[s]:
                    assert meld_value(m) == value_of(m.kinds())
                    assert meld_bonus(m, g.rules) == bonus_of(m.type, m.kinds(), g.rules)
                    melds_seen += 1
            g.play(random_move(g, rng))
    assert checked > 200 and melds_seen > 100
