"""The log's facts for a player following the table (issue 36.2): a pile take names the top card,
the hand cards laid with it and the group they made; a meld names each part's cards and the meld
they went to (new or added to). The page words them (web/js/words.js) and never reads a text."""

from __future__ import annotations

import json

from py_engine.bridge import Bridge


def call(b: Bridge, req: dict) -> dict:
    return json.loads(b.handle(json.dumps(req)))


def scenario(b: Bridge, **extra) -> dict:
    sc = {
        "rules": "samba",
        "players": 2,
        "current": 0,
        "phase": "draw",
        "scores": [0, 0],
        "hands": [
            ["7S", "7H", "9S", "9H", "9D", "KD", "KC", "2C", "4D", "5H", "AS"],
            ["4C", "5C", "6C"],
        ],
        "pile": ["5D", "8C", "QH", "7D"],
        "melds": [[], [["KH", "KS", "KD"]]],
        **extra,
    }
    r = call(b, {"op": "scenario", "scenario": sc, "seats": ["human", "human"]})
    assert r["ok"], r
    return r["view"]


def test_a_pile_take_names_the_top_card_the_pair_the_group_and_the_parts():
    b = Bridge()
    v = scenario(b)
    r = call(b, {"op": "move", "move": "take 7S 7H; new KD KC 2C", "version": v["version"]})
    assert r["ok"], r
    e = r["view"]["log"][-1]
    assert e["kind"] == "take_pile"
    assert e["card"] == "7D" and sorted(e["with"]) == ["7H", "7S"]
    group = next(m for m in r["view"]["melds"][0] if m["rank"] == "7")
    kings = next(m for m in r["view"]["melds"][0] if m["rank"] == "K")
    assert e["group"] == group["id"]
    assert [(sorted(p["cards"]), p["meld"], p["new"]) for p in e["parts"]] == [
        (["2C", "KC", "KD"], kings["id"], True)
    ]
    assert e["pile"] == ["5D", "8C", "QH", "7D"]


def test_a_meld_names_each_part_and_the_meld_it_went_to():
    b = Bridge()
    v = scenario(
        b,
        phase="meld",
        melds=[[["7S", "7H", "7D"]], [["KH", "KS", "KD"]]],
        hands=[["7C", "2C", "KD", "KC", "KS", "4D", "5H", "AS", "9S"], ["4C", "5C", "6C"]],
        scores=[0, 0],
    )
    sevens = v["melds"][0][0]["id"]
    r = call(
        b,
        {"op": "move", "move": f"meld add m{sevens} 7C 2C; new KD KC KS", "version": v["version"]},
    )
    assert r["ok"], r
    e = r["view"]["log"][-1]
    kings = next(m for m in r["view"]["melds"][0] if m["rank"] == "K")
    assert e["kind"] == "meld"
    parts = [(sorted(p["cards"]), p["meld"], p["new"]) for p in e["parts"]]
    assert parts == [(["2C", "7C"], sevens, False), (["KC", "KD", "KS"], kings["id"], True)]
