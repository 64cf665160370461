"""The view says what a side still lacks to go out (issue 36.3): how many more canastas, and
whether one of them must be a samba/escalera (Bolivia); nothing lacks exactly when
requirement_met says the side may go out."""

from __future__ import annotations

import json

import pytest

from py_engine.bridge import Bridge


def view(rules: str, melds_mine: list[list[str]]) -> dict:
    b = Bridge()
    sc = {
        "rules": rules,
        "players": 2,
        "phase": "draw",
        "current": 0,
        "hands": [["4D", "5H", "9S"], ["4C", "5C", "6C"]],
        "pile": ["5D", "8C"],
        "melds": [melds_mine, []],
    }
    r = json.loads(
        b.handle(json.dumps({"op": "scenario", "scenario": sc, "seats": ["human", "human"]}))
    )
    assert r["ok"], r
    return r["view"]


GROUP = lambda rank: [rank + s for s in "CDHSCDH"]  # noqa: E731 - seven natural cards
ESCALERA = ["4S", "5S", "6S", "7S", "8S", "9S", "TS"]


@pytest.mark.parametrize(
    "rules, melds, canastas, sequence",
    [
        ("bolivia", [GROUP("K"), GROUP("Q"), GROUP("J")], 0, True),  # 3 canastas, no escalera
        ("bolivia", [GROUP("K"), ESCALERA], 0, False),  # met
        ("bolivia", [GROUP("K")], 1, True),  # one more, an escalera
        ("bolivia", [], 2, True),
        ("samba", [GROUP("K")], 1, False),  # no sequence condition
        ("samba", [GROUP("K"), GROUP("Q")], 0, False),
    ],
)
def test_what_a_side_lacks_to_go_out(rules, melds, canastas, sequence):
    v = view(rules, melds)
    side = v["my_side"]
    assert v["requirement_missing"][side] == {"canastas": canastas, "sequence": sequence}
    assert v["requirement_met"][side] == (canastas == 0 and not sequence)
    assert v["requirement_missing"][1 - side]["canastas"] == v["requirement"]
