"""A leaf estimate for ``hard``'s rollouts, fitted on finished deals.

``features(game, side)`` describes one side of a (sampled, fully known) game at any point of a
deal; ``predict(game, side, weights)`` is a linear estimate of the side's final deal score from
those features. The weights are data (``weights.LEAF_WEIGHTS``, one list per rule set), fitted
by ``python -m research.fit_leaf`` on positions of ``medium`` self-play whose deals were then
played to the end (the command is in ``weights.py``).
"""

from __future__ import annotations

from ..cards import IS_NATURAL, IS_RED3, IS_WILD, KIND_OF_ID, RANK_OF, VALUE_OF_KIND
from ..melds import cards_needed
from ..scoring import score_side, side_canastas
from ..state import Game

NAMES = (
    "one",
    "table",
    "hand_value",
    "hand_value_f",
    "hand_cards",
    "hand_cards_f",
    "canastas",
    "met",
    "met_f",
    "opened",
    "near1",
    "near2",
    "near3",
    "seq5",
    "seq6",
    "near_f",
    "wilds",
    "wilds_f",
    "pairs_pile",
    "pairs",
    "min_hand",
    "min_hand_met",
    "to_move",
    "red3_held",
)


# Per physical card: its points, and what ``features`` counts of it in a hand (a natural's
# rank, 0 for other cards; wild; red three).
_VALUE_OF_ID = [VALUE_OF_KIND[KIND_OF_ID[c]] for c in range(162)]
_NATURAL_RANK_OF_ID = [
    RANK_OF[KIND_OF_ID[c]] if IS_NATURAL[KIND_OF_ID[c]] else 0 for c in range(162)
]
_IS_WILD_ID = [IS_WILD[KIND_OF_ID[c]] for c in range(162)]
_IS_RED3_ID = [IS_RED3[KIND_OF_ID[c]] for c in range(162)]


def features(game: Game, side: int) -> list[float]:
    r = game.rules
    seats = game.seats_of(side)
    melds = game.melds[side]
    table = score_side(r, game.players, melds, game.red3[side], [], False)["total"]
    hands = [game.hands[s] for s in seats]
    f = min(1.0, len(game.stock) / 80)
    hand_value = 0
    hand_cards = 0
    for h in hands:
        hand_value += sum(map(_VALUE_OF_ID.__getitem__, h))
        hand_cards += len(h)
    canastas = side_canastas(melds, r)[0]
    met = 1.0 if canastas >= game.canastas_needed else 0.0
    near = [0, 0, 0, 0]
    seq5 = seq6 = 0
    for m in melds:
        if m.type == "sequence":
            n = len(m.cards)
            seq5 += n == 5
            seq6 += n == 6
            continue
        need = cards_needed(m.type, len(m.cards), r)
        if 1 <= need <= 3:
            near[need] += 1
    wilds = pairs = 0
    red3_held = 0
    for h in hands:
        counts = [0] * 15
        for c in h:
            rank = _NATURAL_RANK_OF_ID[c]
            if rank:
                counts[rank] += 1
        wilds += sum(map(_IS_WILD_ID.__getitem__, h))
        red3_held += sum(map(_IS_RED3_ID.__getitem__, h))
        for v in counts:
            if v >= 2:
                pairs += 1
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


def predict(game: Game, side: int, weights: list[float]) -> float:
    return sum(w * x for w, x in zip(weights, features(game, side)))
