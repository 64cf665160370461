"""Move-count fixtures: positions with the exact number of legal moves of each kind
(the count is worked out by hand in each fixture's comment)."""

from __future__ import annotations

from collections import Counter

import pytest
from rulebook_helpers import pos, ready_to_ask

from py_engine.legal import legal_moves

FIXTURES = [
    # Draw phase, side opened. Draw: 1. Pile 8C 9H, top 9H: pairs 9C9D, 9C9S, 9D9S and all
    # three naturals: 4 takes. The top card fits no sequence (4H-6H): 0.
    (
        "samba_draw",
        dict(hands=[["9C", "9D", "9S", "KS"]], pile=["8C", "9H"], melds=[[["4H", "5H", "6H"]], []]),
        {"Draw": 1, "TakePile": 4},
    ),
    # Meld phase, side opened with K K K. Discards: 9C 9D KS 2C (4). New melds: 9C 9C 9D (keeps
    # KS 2C); 9C 9C 9D 2C would keep one card: illegal. Additions: KS and 2C onto the kings.
    (
        "samba_meld",
        dict(
            hands=[["9C", "9C", "9D", "KS", "2C"]], phase="meld", melds=[[["KC", "KD", "KH"]], []]
        ),
        {"Discard": 4, "Meld": 3},
    ),
    # Dutch, draw phase with a red three in hand: lay it (1) or draw (1); the pile top 8D has
    # no pair in hand.
    (
        "dutch_red3",
        dict(rules="dutch", players=4, hands=[["3H", "9C", "KS"]], pile=["8D"]),
        {"LayRedThree": 1, "Draw": 1},
    ),
    # Top card onto either of two sequences: 7H fits 4H-6H and 8H-TH, not the group. Draw 1.
    (
        "samba_top",
        dict(
            hands=[["9C", "QD", "KS"]],
            pile=["7H"],
            melds=[[["4H", "5H", "6H"], ["8H", "9H", "TH"], ["QC", "QS", "QH"]], []],
        ),
        {"Draw": 1, "TakeTop": 2},
    ),
    # Unopened side in the meld phase: the only opening reaching 50 from this hand is
    # K K K + Q Q Q (60); each alone is 30. Discards: KS KD KH QS QD QH 4C (7).
    (
        "samba_opening",
        dict(hands=[["KS", "KD", "KH", "QS", "QD", "QH", "4C", "4C"]], phase="meld"),
        {"Meld": 1, "Discard": 7},
    ),
    # Partnership, requirement met, one card left after an addition: ask (2 ways: add 9S,
    # discard KS... KS has no target) -> only "add 9S to the nines, discard KS"; discards 2;
    # additions 1 (9S onto the nines).
    (
        "samba_ask",
        ready_to_ask(),
        {"Discard": 2, "Meld": 1, "Ask": 1},
    ),
]


@pytest.mark.parametrize("name,sc,expected", FIXTURES, ids=[f[0] for f in FIXTURES])
def test_move_counts(name, sc, expected):
    kw = dict(sc)
    rules, players = kw.pop("rules", "samba"), kw.pop("players", 2)
    g = pos(rules, players, **kw)
    moves = legal_moves(g)
    got = Counter(type(m).__name__ for m in moves)
    assert dict(got) == expected, "\n".join(m.text() for m in moves)
    assert len({m.text() for m in moves}) == len(moves)  # no duplicates
