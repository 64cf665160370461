"""Mid-game positions of the largest kinds the rules produce, as saved games (the table's
localStorage save) and scenarios: 6-player crawford, samba 4 and samba 2, dutch 6, with 20+
cards in the viewer's hand and 10+ melds per side. Built with the engine's own bridge, so every
position is one the engine accepts (and the save carries the engine's check).

    python e2e/positions.py           # prints each position's name, hand size and meld counts
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from py_engine.bridge import Bridge  # noqa: E402

SUITS = "SHDC"
RANKS = "456789TJQKA"


def _pool():
    """Natural cards (4..A), black threes and wild cards of three decks: kind -> copies left."""
    pool = {r + s: 3 for r in RANKS for s in SUITS}
    pool.update({"3S": 3, "3C": 3, "2S": 3, "2H": 3, "2D": 3, "2C": 3, "JK": 6})
    return pool


def _takes(pool, cards):
    for c in cards:
        if pool.get(c, 0) <= 0:
            return False
    for c in cards:
        pool[c] -= 1
    return True


def _melds(pool, sides: int, per_side: int, sequences: bool):
    """per_side melds for each side: three-card sequences where the rules allow them (one suit,
    consecutive ranks), else groups of three naturals of one rank; drawn from `pool`."""
    out = [[] for _ in range(sides)]
    seq_starts = [(s, i) for s in SUITS for i in (0, 3, 6)]
    k = 0
    for side in range(sides):
        while len(out[side]) < per_side:
            if sequences and k < len(seq_starts) * 3:
                suit, i = seq_starts[k % len(seq_starts)]
                cards = [RANKS[i + j] + suit for j in range(3)]
                k += 1
            else:
                r = RANKS[(side * per_side + len(out[side]) + k) % len(RANKS)]
                cards = [r + s for s in SUITS if pool.get(r + s, 0) > 0][:3]
                k += 1
                if len(cards) < 3:
                    if k > 500:
                        raise ValueError("not enough cards for the melds")
                    continue
            if _takes(pool, cards):
                out[side].append(cards)
    return out


def _hand(pool, n: int, start: int = 0):
    """n cards: two wild cards and a black three, then naturals spread over many ranks (so the
    hand has many groups); naturals run short only in the biggest tables."""
    hand = []
    for c in ("2C", "JK", "3S"):
        if _takes(pool, [c]):
            hand.append(c)
    i = start
    for _ in range(len(RANKS) * 4 * 2):
        if len(hand) >= n:
            break
        c = RANKS[i % len(RANKS)] + SUITS[(i // len(RANKS)) % 4]
        if _takes(pool, [c]):
            hand.append(c)
        i += 1
    if len(hand) < n:
        raise ValueError(f"not enough cards for a hand of {n}")
    return hand


def _filler(pool, n: int):
    """n cards for a computer's hand, wild cards and black threes first (naturals are short)."""
    out = []
    for c in ["3C", "3S", "2S", "2H", "2D", "JK"] * 6 + [r + s for r in RANKS for s in SUITS]:
        if len(out) >= n:
            break
        if _takes(pool, [c]):
            out.append(c)
    return out


def scenario(
    rules: str, players: int, hand_size: int, melds_per_side: int, phase: str, others: int = 5
) -> dict:
    sides = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[players] if rules != "crawford" else players // 2
    if rules == "dutch":
        sides = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[players]
    pool = _pool()
    melds = _melds(pool, sides, melds_per_side, sequences=True)
    pile = ["9C", "5D", "KH"]
    if not _takes(pool, pile):
        raise ValueError("pile cards used up")
    hands = [_hand(pool, hand_size)]
    for _ in range(1, players):
        hands.append(_filler(pool, others))
    return {
        "rules": rules,
        "players": players,
        "seed": 5,
        "dealer": players - 1,
        "current": 0,
        "phase": phase,
        "deal": 3,
        "scores": [1200] + [900] * (sides - 1),
        "hands": hands,
        "pile": pile,
        "melds": melds,
    }


# name -> (rules, players, hand size, melds per side, phase)
POSITIONS = {
    "crawford6-draw": ("crawford", 6, 24, 10, "draw"),
    "crawford6-meld": ("crawford", 6, 24, 10, "meld"),
    "samba4-meld": ("samba", 4, 22, 12, "meld"),
    "samba2-draw": ("samba", 2, 24, 12, "draw"),
    "dutch6-meld": ("dutch", 6, 21, 10, "meld"),
}

# Late in a deal, a hand of a usual size: for the layout checks of screens with room to spare.
LATE = {"samba4-late": ("samba", 4, 7, 9, "meld")}


def two_player(rules: str, phase: str, deal: int, hands, pile, melds=None, **extra) -> dict:
    """A two-player scenario on seed 3, the viewer (seat 0) to play, seat 1 the dealer."""
    sc = {
        "rules": rules,
        "players": 2,
        "seed": 3,
        "current": 0,
        "dealer": 1,
        "phase": phase,
        "deal": deal,
        **extra,
        "hands": hands,
        "pile": pile,
    }
    if melds is not None:
        sc["melds"] = melds
    return sc


def going_out(rules: str, deal: int, own: list, theirs: list, **extra) -> dict:
    """The viewer goes out by discarding 5C, its side's melds ``own`` (two canastas among them),
    the other side's ``theirs``."""
    hands = [["5C"], ["9H", "9D", "QS", "8C"]]
    return two_player(rules, "meld", deal, hands, ["6D", "7C"], [own, theirs], **extra)


# Game ends (for the statistics): samba, 2 players, deal 4, the viewer goes out by discarding
# 5C. "win": the viewer's side reaches the target and wins (a samba and a natural canasta);
# "loss": the viewer wins the deal, but the other side, at 9,990, passes the target with more.
GAME_ENDS = {
    "samba2-win": {"scores": [9500, 2000], "theirs": [["4S", "5S", "6S"]]},
    "samba2-loss": {"scores": [0, 9990], "theirs": [["KC", "KD", "KH", "KS", "KC", "KD", "KH"]]},
}


# Small positions for the wording checks: a pile blocked by a black three (the viewer's side
# opened, no canasta); a side not yet opened that can open by taking the pile with 7H 7D.
SMALL = {
    "samba2-blocked": two_player(
        "samba",
        "draw",
        2,
        [["9H", "9D", "KS", "QS", "8C", "5H"], ["4C", "6D", "TS", "JS", "AD"]],
        ["5D", "3S"],
        [[["JC", "JD", "JH"]], []],
    ),
    # Classic Canasta (no sequences): the viewer goes out by discarding 5C (two canastas down).
    "canasta2-out": going_out(
        "canasta",
        2,
        [
            ["KC", "KD", "KH", "KS", "KC", "KD", "KH"],
            ["AC", "AD", "AH", "AS", "AC", "AD", "2C"],
            ["JC", "JD", "JH"],
        ],
        [["4S", "4D", "4H"]],
    ),
    "samba2-open": two_player(
        "samba",
        "draw",
        1,
        [
            ["7H", "7D", "8S", "8H", "8D", "KS", "KH", "KD", "QS", "4C"],
            ["4D", "6D", "TS", "JS", "AD"],
        ],
        ["5D", "7C"],
    ),
}


def game_end_scenario(name: str) -> dict:
    end = GAME_ENDS[name]
    own = [
        ["4H", "5H", "6H", "7H", "8H", "9H", "TH"],
        ["AC", "AD", "AH", "AS", "AC", "AD", "AH"],
        ["JC", "JD", "JH"],
    ]
    return going_out("samba", 4, own, end["theirs"], scores=end["scores"])


def _ask(bridge, req):
    res = json.loads(bridge.handle(json.dumps(req)))
    if not res.get("ok"):
        raise ValueError(f"{req.get('op')}: {res.get('error')}")
    return res


def position(name: str) -> dict:
    """{scenario, seats, save, view} for one position (save: the localStorage value)."""
    if name in GAME_ENDS or name in SMALL:
        sc = game_end_scenario(name) if name in GAME_ENDS else SMALL[name]
        players = 2
    else:
        rules, players, hand, per_side, phase = POSITIONS[name] if name in POSITIONS else LATE[name]
        sc = scenario(rules, players, hand, per_side, phase)
    seats = ["human"] + ["random"] * (players - 1)
    b = Bridge()
    view = _ask(b, {"op": "scenario", "scenario": sc, "seats": seats})["view"]
    rec = _ask(b, {"op": "record"})["record"]
    save = json.dumps({"format": "samba-save/1", "saved_at": "2026-01-01T00:00:00Z", "record": rec})
    return {"scenario": sc, "seats": seats, "save": save, "view": view}


if __name__ == "__main__":
    for n in POSITIONS:
        p = position(n)
        v = p["view"]
        print(n, "hand", len(v["hand"]), "melds", [len(s) for s in v["melds"]], "phase", v["phase"])
