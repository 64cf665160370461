"""The bridge under garbage: thousands of seeded random requests (every op, every parameter it
reads, values of every JSON type, and near-misses of valid values) never raise, always answer
with a JSON object, and a refused request changes nothing (the game, its seats and any lesson).

The page, a saved game and an embedding page all reach the engine through this one door, so
"bad input gets a clear error and changes nothing" is checked here once for all of them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from py_engine.bridge import Bridge

OPS = [
    "new_game",
    "view",
    "move",
    "check",
    "bot",
    "hint",
    "record",
    "load",
    "scenario",
    "deal_review",
    "lesson",
    "lesson_check",
    "rules_data",
    "reasons",
]
PARAMS = [
    "rules",
    "players",
    "target",
    "seed",
    "seats",
    "move",
    "version",
    "level",
    "record",
    "scenario",
    "lesson",
]

ATOMS = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    4,
    6,
    7,
    2**31,
    -(2**63),
    10**30,
    0.5,
    float("1e308"),
    "",
    "samba",
    "dutch",
    "crawford",
    "canasta",
    "human",
    "easy",
    "medium",
    "hard",
    "random",
    "draw",
    "discard 7S",
    "discard JK",
    "take 7S 7H",
    "meld new 7S 7H 7D",
    "top m1",
    "take m1",
    "merge m1 m2",
    "answer yes",
    "ask new 7S 7H 7D; discard 4C",
    "next",
    "end",
    "pass",
    "red3 3H",
    "m1",
    "7S",
    "x" * 300,
    "ünïcødé ♠",
    "\u0000",
    "1e9",
    "NaN",
]


def garbage(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 2 or r < 0.6:
        return rng.choice(ATOMS)
    if r < 0.8:
        return [garbage(rng, depth + 1) for _ in range(rng.randrange(0, 5))]
    keys = PARAMS + [
        "players",
        "hands",
        "pile",
        "melds",
        "moves",
        "check",
        "format",
        "steps",
        "id",
        "title",
        "phase",
        "current",
        "stock",
        "scores",
        "deal",
        "dealer",
    ]
    return {rng.choice(keys): garbage(rng, depth + 1) for _ in range(rng.randrange(0, 5))}


def request(rng: random.Random, bridge: Bridge):
    """A random request; half the time close to a valid one (real op, real params)."""
    op = rng.choice(OPS) if rng.random() < 0.9 else garbage(rng)
    req = {"op": op}
    for p in rng.sample(PARAMS, rng.randrange(0, 5)):
        req[p] = garbage(rng)
    if bridge.game is not None and rng.random() < 0.3:
        req["version"] = bridge.game.version
    if rng.random() < 0.05:
        return rng.choice(["", "{", "[]", "null", "7", json.dumps(garbage(rng)), '{"op": '])
    return json.dumps(req)


def snapshot(bridge: Bridge) -> str:
    g = bridge.game
    if g is None:
        return "no game"
    record = json.loads(Bridge.handle(bridge, '{"op": "record"}'))["record"]
    return json.dumps(
        [
            record,
            bridge.seats,
            sorted(bridge.bots),
            bridge.lesson,
            bridge.lesson_step,
            g.version,
            g.phase,
        ],
        sort_keys=True,
        default=str,
    )


def new_game(bridge: Bridge, seed: int) -> None:
    """A four-player game of the seed's rule set, seat 0 a human and the others ``easy``."""
    bridge.handle(
        json.dumps(
            {
                "op": "new_game",
                "rules": ["samba", "dutch", "crawford"][seed % 3],
                "players": 4,
                "seed": seed,
                "seats": ["human"] + ["easy"] * 3,
            }
        )
    )


@pytest.mark.parametrize("seed", range(6))
def test_random_requests_never_raise_and_refusals_change_nothing(seed):
    rng = random.Random(f"fuzz:{seed}")
    bridge = Bridge()
    if seed % 2:
        new_game(bridge, seed)
    refused = accepted = 0
    for i in range(400):
        text = request(rng, bridge)
        before = snapshot(bridge)
        try:
            out = bridge.handle(text)
        except Exception as e:  # noqa: BLE001 - any escape is the bug this test looks for
            pytest.fail(f"request {i} {text[:300]!r} raised {type(e).__name__}: {e}")
        resp = json.loads(out)
        assert isinstance(resp, dict) and isinstance(resp.get("ok"), bool), (text, out[:300])
        if resp["ok"]:
            accepted += 1
        else:
            refused += 1
            assert isinstance(resp["error"]["code"], str) and resp["error"]["message"], resp
            assert snapshot(bridge) == before, f"refused request {text[:300]!r} changed the game"
    assert refused > 100 and accepted > 20, (refused, accepted)


LESSONS = sorted((Path(__file__).resolve().parent.parent / "web" / "lessons").glob("[0-9]*.json"))


def mutate(rng: random.Random, value, rate: float = 0.15):
    """A copy of ``value`` with a few nested values replaced, dropped or duplicated."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            r = rng.random()
            if r < rate / 3:
                continue  # dropped
            out[k] = garbage(rng) if r < rate else mutate(rng, v, rate)
        if rng.random() < rate / 3:
            out[rng.choice(PARAMS)] = garbage(rng)
        return out
    if isinstance(value, list):
        out = [garbage(rng) if rng.random() < rate / 2 else mutate(rng, v, rate) for v in value]
        if out and rng.random() < rate / 2:
            out.pop(rng.randrange(len(out)))
        if out and rng.random() < rate / 2:
            out.append(rng.choice(out))
        return out
    if isinstance(value, str) and value and rng.random() < rate:
        i = rng.randrange(len(value))
        return value[:i] + rng.choice(["", "Z", "10", " ", ";", "m9", "JK"]) + value[i + 1 :]
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < rate:
        return rng.choice([value + 1, value - 1, -value, value * 1000, 0])
    return value


@pytest.mark.parametrize("seed", range(4))
def test_damaged_records_scenarios_and_lessons_are_refused_cleanly(seed):
    """Near-misses of real inputs (a saved record after some play, a lesson file, its scenario)
    with a few values changed: refused with a code and nothing changed, or accepted whole."""
    rng = random.Random(f"mutate:{seed}")
    bridge = Bridge()
    new_game(bridge, seed)
    for _ in range(40):  # some play, so the record has moves
        v = json.loads(bridge.handle('{"op": "view"}'))["view"]
        if v["phase"] in ("deal_over", "game_over"):
            break
        if bridge.seats[bridge.game.current] == "human":
            hint = json.loads(bridge.handle('{"op": "hint", "level": "easy"}'))
            bridge.handle(json.dumps({"op": "move", "move": hint["move"]}))
        else:
            bridge.handle('{"op": "bot"}')
    record = json.loads(bridge.handle('{"op": "record"}'))["record"]
    lessons = [json.loads(p.read_text(encoding="utf-8")) for p in LESSONS]
    outcomes = {True: 0, False: 0}
    for i in range(150):
        kind = rng.choice(["load", "load", "lesson", "scenario"])
        rate = rng.choice([0.005, 0.02, 0.08])
        if kind.startswith("load"):
            rec = mutate(rng, record, rate)
            if isinstance(rec, dict):
                rec.pop("check", None)  # no checksum: the replay itself must catch damage
            req = {"op": "load", "record": rec}
        elif kind == "lesson":
            req = {"op": "lesson", "lesson": mutate(rng, rng.choice(lessons), rate)}
        else:
            req = {"op": "scenario", "scenario": mutate(rng, rng.choice(lessons)["scenario"], rate)}
        text = json.dumps(req)
        before = snapshot(bridge)
        try:
            resp = json.loads(bridge.handle(text))
        except Exception as e:  # noqa: BLE001
            pytest.fail(f"{kind} #{i} raised {type(e).__name__}: {e}\n{text[:600]}")
        outcomes[resp["ok"]] += 1
        if not resp["ok"]:
            assert resp["error"]["code"] and resp["error"]["message"], resp
            assert snapshot(bridge) == before, f"refused {kind} changed the game: {text[:300]}"
        else:
            assert resp["view"]["version"] == bridge.game.version
    assert outcomes[False] > 30 and outcomes[True] > 10, outcomes
