"""Scenarios (docs/formats.md) that the friends' tests set up at the host's table: the protocol's
tests in ``tests/test_netplay.py`` and the browsers' in ``e2e/test_netplay*.py`` (which import
this module: pytest puts ``tests/`` on the path)."""

from __future__ import annotations

# Two canastas laid and three sevens in hand: the host (seat 0) may go out this turn.
_MELDS = [
    [["AS", "AH", "AD", "AC", "AS", "AH", "AD"], ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]],
    [],
]

# The last cards of a deal: the host may go out if its partner (seat 2) agrees.
GOING_OUT = {
    "rules": "samba",
    "players": 4,
    "current": 0,
    "phase": "meld",
    "hands": [
        ["7S", "7H", "7D", "KC"],
        ["4C", "5C", "6C", "8D", "9D"],
        ["4D", "5D", "6D", "8C", "9C"],
        ["4H", "5H", "6H", "8H", "9H"],
    ],
    "melds": _MELDS,
    "pile": ["JS"],
}

# The host goes out and the game is over (two players: no partner to ask).
GAME_OVER_2P = {
    "rules": "samba",
    "players": 2,
    "current": 0,
    "phase": "meld",
    "scores": [9900, 0],
    "hands": [["7S", "7H", "7D", "KC"], ["4C", "5C", "6C", "8D", "9D"]],
    "melds": _MELDS,
    "pile": ["JS"],
}
