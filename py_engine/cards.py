"""Cards as small ints.

A physical card is an id 0..161 (three 52-card decks, then six jokers). Its *kind* (0..52) says
what it is: ``suit * 13 + rank_index`` for the 52 suited cards, 52 for the joker. The three
copies of a card share a kind and are interchangeable; moves name kinds, the state holds ids.

>>> parse_kind("7S"), kind_text(parse_kind("7S"))
(44, '7S')
>>> RANK_OF[parse_kind("AH")], VALUE_OF_KIND[parse_kind("JK")]
(14, 50)
"""

from __future__ import annotations

from collections.abc import Iterable

RANK_CHARS = "23456789TJQKA"  # rank 2..14
SUIT_CHARS = "CDHS"  # clubs, diamonds, hearts, spades
SUIT_SYMBOLS = "♣♦♥♠"
JOKER = 52  # the joker's kind
N_KINDS = 53
DECK_SIZE = 52


def kind_of_rank_suit(rank: int, suit: int) -> int:
    return suit * 13 + (rank - 2)


def _rank(kind: int) -> int:
    return 0 if kind == JOKER else kind % 13 + 2


def _suit(kind: int) -> int:
    return -1 if kind == JOKER else kind // 13


def _value(kind: int) -> int:
    r = _rank(kind)
    if kind == JOKER:
        return 50
    if r in (2, 14):
        return 20
    if r >= 8:
        return 10
    if r >= 4:
        return 5
    if r == 3:
        return 0 if _suit(kind) in (1, 2) else 5  # red 3: bonus only; black 3: 5
    raise AssertionError(kind)


# Tables built once, indexed by kind.
RANK_OF = [_rank(k) for k in range(N_KINDS)]
SUIT_OF = [_suit(k) for k in range(N_KINDS)]
VALUE_OF_KIND = [_value(k) for k in range(N_KINDS)]
IS_WILD = [k == JOKER or _rank(k) == 2 for k in range(N_KINDS)]
IS_RED3 = [_rank(k) == 3 and _suit(k) in (1, 2) for k in range(N_KINDS)]
IS_BLACK3 = [_rank(k) == 3 and _suit(k) in (0, 3) for k in range(N_KINDS)]
IS_NATURAL = [not IS_WILD[k] and RANK_OF[k] >= 4 for k in range(N_KINDS)]
KIND_TEXT = [
    ("JK" if k == JOKER else RANK_CHARS[_rank(k) - 2] + SUIT_CHARS[_suit(k)])
    for k in range(N_KINDS)
]


def kind_of_id(card_id: int) -> int:
    return JOKER if card_id >= 156 else card_id % 52


def deck_ids(decks: int = 3, jokers: int = 6) -> list[int]:
    """Physical ids of a deck of ``decks`` packs plus ``jokers`` jokers."""
    return list(range(decks * 52)) + list(range(156, 156 + jokers))


KIND_OF_ID = [kind_of_id(i) for i in range(162)]
# The physical ids of each kind, lowest first (a move names a kind; the lowest copy is used).
IDS_OF_KIND: list[tuple[int, ...]] = [
    tuple(i for i in range(162) if KIND_OF_ID[i] == k) for k in range(N_KINDS)
]


def kind_text(kind: int) -> str:
    return KIND_TEXT[kind]


def id_text(card_id: int) -> str:
    return KIND_TEXT[KIND_OF_ID[card_id]]


_KIND_BY_TEXT = {t: k for k, t in enumerate(KIND_TEXT)}
KIND_BY_TEXT = _KIND_BY_TEXT  # canonical card text -> kind (``parse_kind`` reads more)


def parse_kind(text: str) -> int:
    """Parse a card's text (``7S``, ``TH``, ``10H``, ``JK``); raises ValueError when malformed."""
    k = _KIND_BY_TEXT.get(text)
    if k is not None:
        return k
    t = text.strip().upper()
    if t in ("JK", "JOKER", "X", "*"):
        return JOKER
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2]
    if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
        raise ValueError(f"malformed card {text!r}")
    return kind_of_rank_suit(RANK_CHARS.index(t[0]) + 2, SUIT_CHARS.index(t[1]))


def card_sort_key(kind: int) -> tuple[int, int]:
    """Display order: wild cards last, then by rank and suit."""
    if IS_WILD[kind]:
        return (2, RANK_OF[kind] * 4 + SUIT_OF[kind] if kind != JOKER else 99)
    return (0 if RANK_OF[kind] > 3 else 1, RANK_OF[kind] * 4 + SUIT_OF[kind])


# card_sort_key as one int per kind (sorting by ``SORT_INDEX.__getitem__`` is the same order).
SORT_INDEX = [0] * N_KINDS
for _i, _k in enumerate(sorted(range(N_KINDS), key=card_sort_key)):
    SORT_INDEX[_k] = _i


def counts_of(kinds: Iterable[int]) -> list[int]:
    c = [0] * N_KINDS
    for k in kinds:
        c[k] += 1
    return c
