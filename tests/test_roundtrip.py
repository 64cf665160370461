"""Round trips: the full state through JSON, game records through replay, and the errors a
corrupted state or record must raise (docs/formats.md "Game records", "The full state")."""

from __future__ import annotations

import copy
import json
import random

import pytest
from conftest import ALL_TABLES, play_random, random_positions, state_json

from py_engine.errors import ScenarioError
from py_engine.record import game_record, replay, state_from_json, state_to_json
from py_engine.simulate import random_move
from py_engine.state import Game


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_state_json_loads_back_identically(rules, players):
    n = 0
    for game in random_positions(rules, players, seed=11, every=9, deals=2):
        saved = json.loads(json.dumps(state_to_json(game)))
        loaded = state_from_json(saved)
        assert state_json(loaded) == saved
        assert loaded.phase == game.phase and loaded.current == game.current
        assert loaded.hands == game.hands and loaded.stock == game.stock
        n += 1
    assert n > 10


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 5), ("crawford", 6)])
def test_loaded_state_plays_on_identically(rules, players):
    game = Game.new(rules, players, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        game.play(random_move(game, rng))
    twin = state_from_json(json.loads(json.dumps(state_to_json(game))))
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(400):
        if game.phase == "game_over":
            break
        ma, mb = random_move(game, rng_a), random_move(twin, rng_b)
        assert ma == mb
        game.play(ma)
        twin.play(mb)
    assert state_json(twin) == state_json(game)


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_record_replays_to_identical_state(rules, players):
    game = Game.new(rules, players, 2500, seed=21)
    play_random(game, random.Random(21), until=("game_over",))
    rec = json.loads(json.dumps(game_record(game)))
    assert rec["format"] == "samba-record/1"
    assert rec["moves"] == game.moves
    again = replay(rec)
    assert state_json(again) == state_json(game)
    assert again.result == game.result and again.scores == game.scores


def test_record_replay_upto_gives_the_intermediate_state():
    game = Game.new("samba", 3, seed=4)
    rng = random.Random(4)
    snapshots = {}
    for i in range(60):
        snapshots[i] = state_json(game)
        game.play(random_move(game, rng))
    rec = game_record(game)
    for i in (0, 1, 17, 59):
        assert state_json(replay(rec, upto=i)) == snapshots[i]


def test_scenario_game_record_replays():
    from conftest import scenario

    g = scenario(
        players=2,
        seed=3,
        hands=[["7S", "7H", "KD", "KC", "4C"], ["9H", "9D", "AS"]],
        pile=["5D", "8C", "7D"],
    )
    play_random(g, random.Random(3))
    rec = json.loads(json.dumps(game_record(g)))
    assert "scenario" in rec
    assert state_json(replay(rec)) == state_json(g)


# Corrupted states ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saved():
    game = Game.new("samba", 4, seed=8)
    rng = random.Random(8)
    # play until some side has a meld on the table
    while not any(game.melds) or game.phase != "draw":
        game.play(random_move(game, rng))
    return json.loads(json.dumps(state_to_json(game)))


def _corrupt(saved, fn):
    d = copy.deepcopy(saved)
    fn(d)
    return d


def _meld_side(d):
    return next(i for i, side in enumerate(d["melds"]) if side)


def test_saved_fixture_is_valid(saved):
    assert state_json(state_from_json(saved)) == saved


def test_state_card_removed(saved):
    with pytest.raises(ScenarioError, match="do not add up"):
        state_from_json(_corrupt(saved, lambda d: d["hands"][0].pop()))


def test_state_duplicate_card(saved):
    def dup(d):
        d["hands"][1][0] = d["hands"][0][0]

    with pytest.raises(ScenarioError, match="do not add up"):
        state_from_json(_corrupt(saved, dup))


def test_state_extra_card(saved):
    with pytest.raises(ScenarioError, match="do not add up"):
        state_from_json(_corrupt(saved, lambda d: d["stock"].append(d["pile"][0])))


def test_state_card_id_out_of_range(saved):
    def bad(d):
        d["hands"][0][0] = 162

    with pytest.raises(ScenarioError, match="do not add up"):
        state_from_json(_corrupt(saved, bad))


def test_state_illegal_meld(saved):
    def bad(d):
        # swap the first card of a meld with the first stock card: deck still complete
        side = _meld_side(d)
        m = d["melds"][side][0]
        m["cards"][0], d["stock"][0] = d["stock"][0], m["cards"][0]
        # make sure it is now illegal: replace by a red three id if the swap happened to fit
        red3 = 2 * 13 + 1  # 3H of deck 0
        where = [("hands", i) for i, h in enumerate(d["hands"]) if red3 in h]
        if red3 in d["stock"]:
            d["stock"][d["stock"].index(red3)] = m["cards"][0]
        elif red3 in d["pile"]:
            d["pile"][d["pile"].index(red3)] = m["cards"][0]
        elif where:
            h = d["hands"][where[0][1]]
            h[h.index(red3)] = m["cards"][0]
        else:
            for s in d["red_threes"]:
                if red3 in s:
                    s[s.index(red3)] = m["cards"][0]
        m["cards"][0] = red3

    with pytest.raises(ScenarioError, match="illegal meld"):
        state_from_json(_corrupt(saved, bad))


def test_state_empty_meld(saved):
    def bad(d):
        side = _meld_side(d)
        m = d["melds"][side][0]
        d["stock"].extend(m["cards"])
        m["cards"] = []

    with pytest.raises(ScenarioError, match="empty meld"):
        state_from_json(_corrupt(saved, bad))


@pytest.mark.parametrize(
    "mutate,needle",
    [
        (lambda d: d.update(format="samba-state/2"), "samba-state/1"),
        (lambda d: d.pop("format"), "samba-state/1"),
        (lambda d: d.update(rules="poker"), "poker"),
        (lambda d: d.update(players=5), "players"),
        (lambda d: d.update(target=1234), "target"),
        (lambda d: d.update(hands="abc"), ""),
        (lambda d: d.update(hands=7), ""),
        (lambda d: d.update(stock=None), ""),
        (lambda d: d.update(melds=[[{"cards": [1, 2, 3]}]]), ""),
        (lambda d: d.update(turn=[]), ""),
        (lambda d: d.update(turn={"bogus": 1}), ""),
        (lambda d: d.update(seed="x"), ""),
        (lambda d: d.pop("stock"), "stock"),
        (lambda d: d.update(phase="lunch"), "phase"),
        (lambda d: d.update(current=9), "current"),
        (lambda d: d.update(dealer=-1), "dealer"),
        (lambda d: d.update(hands=d["hands"][:3]), "number of hands"),
        (lambda d: d.update(scores=[0]), "scores"),
    ],
)
def test_state_garbage_raises_scenario_error(saved, mutate, needle):
    with pytest.raises(ScenarioError) as e:
        state_from_json(_corrupt(saved, mutate))
    assert needle in str(e.value)


@pytest.mark.parametrize("garbage", [None, 5, "state", [], [1, 2]])
def test_state_not_an_object(garbage):
    with pytest.raises(ScenarioError):
        state_from_json(garbage)


# Corrupted records -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def record():
    game = Game.new("dutch", 4, seed=2)
    rng = random.Random(2)
    for _ in range(50):
        game.play(random_move(game, rng))
    return json.loads(json.dumps(game_record(game)))


def test_record_bad_move_names_the_move(record):
    rec = copy.deepcopy(record)
    rec["moves"][10] = "discard JK" if "JK" not in rec["moves"][10] else "merge m90 m91"
    with pytest.raises(ScenarioError) as e:
        replay(rec)
    assert "move 11" in str(e.value)


def test_record_illegal_move_in_place(record):
    rec = copy.deepcopy(record)
    rec["moves"].insert(0, "pass")  # the first player has not drawn
    with pytest.raises(ScenarioError) as e:
        replay(rec)
    assert "move 1" in str(e.value) and "pass" in str(e.value)


def test_record_malformed_move_text(record):
    rec = copy.deepcopy(record)
    rec["moves"][3] = "fly away"
    with pytest.raises(ScenarioError, match="move 4"):
        replay(rec)


@pytest.mark.parametrize(
    "mutate,needle",
    [
        (lambda r: r.update(format="samba-state/1"), "samba-record/1"),
        (lambda r: r.pop("format"), "samba-record/1"),
        (lambda r: r.update(moves="draw"), "moves"),
        (lambda r: r.update(moves=[1, 2]), "moves"),
        (lambda r: r.update(rules="whist"), "whist"),
        (lambda r: r.update(players=9), "players"),
        (lambda r: r.update(target=1), "target"),
        (lambda r: r.update(seed="abc"), "seed"),
        (lambda r: r.update(scenario={"hands": "x"}), "hands"),
        (lambda r: r.update(scenario=[1]), "scenario"),
    ],
)
def test_record_garbage_raises_scenario_error(record, mutate, needle):
    rec = copy.deepcopy(record)
    mutate(rec)
    with pytest.raises(ScenarioError) as e:
        replay(rec)
    assert needle in str(e.value)


@pytest.mark.parametrize("garbage", [None, 5, "record", [], {"format": "samba-record/1"}])
def test_record_not_an_object(garbage):
    with pytest.raises(ScenarioError):
        replay(garbage)
