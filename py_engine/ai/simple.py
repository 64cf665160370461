"""The two simplest levels: ``random`` (uniform over legal moves) and ``easy`` (meld what it
can, discard its least useful card)."""
from __future__ import annotations

import random

from ..cards import IS_BLACK3, IS_WILD, RANK_OF, SUIT_OF, VALUE_OF_KIND, parse_kind


def legal_texts(view: dict) -> list[str]:
    legal = view.get("legal") or {}
    return list(legal.get("moves", [])) + ["meld " + p for p in legal.get("melds", [])]


class RandomBot:
    level = "random"

    def __init__(self, seed: int = 0, **kw):
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> str:
        moves = legal_texts(view)
        if not moves:
            raise ValueError("no legal move in this view")
        return self.rng.choice(moves)


def usefulness(kind: int, hand: list[int]) -> float:
    """How much a card helps the hand it is in (higher: keep it)."""
    if IS_WILD[kind]:
        return 100
    if IS_BLACK3[kind]:
        return -2
    if RANK_OF[kind] == 3:
        return -10
    same = sum(1 for k in hand if not IS_WILD[k] and RANK_OF[k] == RANK_OF[kind]) - 1
    near = sum(1 for k in hand if SUIT_OF[k] == SUIT_OF[kind] and not IS_WILD[k]
               and abs(RANK_OF[k] - RANK_OF[kind]) in (1, 2))
    return 10 * same + 4 * near - VALUE_OF_KIND[kind] / 20


class EasyBot(RandomBot):
    level = "easy"

    def choose(self, view: dict) -> str:
        legal = view.get("legal") or {}
        moves = legal.get("moves", [])
        if not moves and not legal.get("melds"):
            raise ValueError("no legal move in this view")
        for first in ("next", "answer yes"):
            if first in moves:
                return first
        if view["phase"] == "draw":
            for prefix in ("take", "top"):
                options = [m for m in moves if m.startswith(prefix)]
                if options:
                    return max(options, key=len)
            for m in ("draw", "end"):
                if m in moves:
                    return m
            red3 = [m for m in moves if m.startswith("red3")]
            return red3[0] if red3 else moves[0]
        red3 = [m for m in moves if m.startswith("red3")]
        if red3:
            return red3[0]
        melds = legal.get("melds", [])
        if melds:
            return "meld " + max(melds, key=lambda p: (len(p.split()), p))
        if "pass" in moves:
            return "pass"
        discards = legal.get("discard", [])
        if discards:
            hand = [parse_kind(c["c"]) for c in view["hand"]]
            k = min((parse_kind(d) for d in discards),
                    key=lambda k: (usefulness(k, hand), -VALUE_OF_KIND[k], k))
            from ..cards import kind_text
            return "discard " + kind_text(k)
        return self.rng.choice(moves)
