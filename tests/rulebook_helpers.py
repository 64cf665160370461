"""Helpers for the rulebook tests: build positions from short scenario descriptions."""

from __future__ import annotations

import pytest

from py_engine import IllegalMove
from py_engine.cards import deck_ids, id_text, kind_text, parse_kind
from py_engine.record import load_scenario

FILLERS = [
    ["8C", "TD", "5S"],
    ["6C", "JD", "AH"],
    ["4D", "TC", "7S"],
    ["5D", "8S", "JC"],
    ["4C", "6S", "9S"],
    ["7D", "QC", "AC"],
]


# The opening minimum by the side's score (docs/rules.md section 7): (score, minimum).
OPENING_BANDS = [
    (-1000, 15),
    (-5, 15),
    (0, 50),
    (1495, 50),
    (1500, 90),
    (2995, 90),
    (3000, 120),
    (6995, 120),
    (7000, 150),
    (12000, 150),
    (20000, 150),
]


def pos(rules="samba", players=2, hands=None, stock_top=None, **kw):
    """A position: hands default to harmless filler, the current seat's first. ``stock_top``
    puts those cards on top of the stock (first drawn first), the rest of the deck below."""
    n = players
    hands = list(hands or [])
    hands = [h if h is not None else FILLERS[i] for i, h in enumerate(hands)] + FILLERS[
        len(hands) : n
    ]
    sc = {"rules": rules, "players": players, "hands": hands, "dealer": n - 1, **kw}
    if stock_top is not None:
        rest = [id_text(c) for c in deck_ids()]
        placed = [c for h in hands for c in h] + list(kw.get("pile", [])) + list(stock_top)
        placed += [c for side in kw.get("melds", []) for m in side for c in m]
        placed += [c for side in kw.get("red_threes", []) for c in side]
        for c in placed:
            rest.remove(parse_kind_text(c))
        sc["stock"] = list(stock_top) + rest
    return load_scenario(sc)


def ready_to_ask() -> dict:
    """``pos`` arguments: samba for four, seat 0 to meld holding 9S KS, its side with two
    canastas (the requirement met) and three nines: it may ask to go out."""
    return dict(
        players=4,
        hands=[["9S", "KS"]],
        phase="meld",
        melds=[
            [
                ["9C", "9D", "9H"],
                ["QC"] * 3 + ["QD"] * 3 + ["QH"],
                ["4H", "5H", "6H", "7H", "8H", "9H", "TH"],
            ],
            [],
        ],
    )


def parse_kind_text(c):
    return kind_text(parse_kind(c))


def refused(game, move, code):
    """Assert ``move`` is refused with ``code`` and changes nothing."""
    from py_engine.record import state_to_json

    before = state_to_json(game)
    with pytest.raises(IllegalMove) as e:
        game.play(move)
    assert e.value.code == code, (e.value.code, str(e.value))
    assert state_to_json(game) == before
    assert not game.can(__import__("py_engine").parse_move(move))


def rest_of_deck(*used):
    """The deck's cards (as text) minus ``used``: (red threes, the others)."""
    rest = [id_text(c) for c in deck_ids()]
    for c in used:
        rest.remove(parse_kind_text(c))
    return [c for c in rest if c in ("3H", "3D")], [c for c in rest if c not in ("3H", "3D")]
