"""Moves: frozen values with a canonical text form that round-trips, declared once each.

Every move type carries its ``verb`` (the first word of its text), its ``action`` (the name of
the state's ``verify_<action>`` check and ``apply_<action>`` effect), its parser and its text.
``MOVE_TYPES`` is the registry; ``parse_move`` reads any move's text through it.

Cards inside a meld part (and the pair of a pile take) are kept in display order, so two moves
that do the same thing are equal whatever order their cards were named in:

>>> parse_move("take 7S 7H; new 8S 9S TS").text()
'take 7H 7S; new 8S 9S TS'
>>> parse_move("meld new 7S 7H 7D; add m3 JS") == parse_move("meld new 7D 7H 7S; add m3 JS")
True
>>> parse_move("d 10h")
Discard(card=34)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from .cards import KIND_TEXT, N_KINDS, SORT_INDEX, kind_text, parse_kind
from .errors import InvalidMove

MAX_MOVE_TEXT = 2000
# The texts of the one-card moves, made once per kind.
_DISCARD_TEXTS = ["discard " + t for t in KIND_TEXT]
_RED3_TEXTS = ["red3 " + t for t in KIND_TEXT]


def canonical_cards(kinds: Sequence[int]) -> tuple[int, ...]:
    """Card kinds in the one order a move's text shows them (display order)."""
    if len(kinds) < 2:
        return tuple(kinds)
    return tuple(sorted(kinds, key=SORT_INDEX.__getitem__))


def _cards(kinds: Iterable[int]) -> str:
    return " ".join([KIND_TEXT[k] for k in kinds])


# Meld parts ---------------------------------------------------------------------------------
# The multi-card moves keep their text once made (``_text``: no part of the value, its equality,
# hash or repr).
@dataclass(frozen=True, slots=True)
class NewMeld:
    """A new meld laid from the hand."""

    cards: tuple[int, ...]
    _text: str = field(default="", init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canonical_cards(self.cards))

    @classmethod
    def of_sorted(cls, cards: tuple[int, ...]) -> NewMeld:
        """A part from cards already in display order (the generator builds them so)."""
        part = object.__new__(cls)
        object.__setattr__(part, "cards", cards)
        object.__setattr__(part, "_text", "")
        return part

    def text(self) -> str:
        t = self._text
        if not t:
            t = f"new {_cards(self.cards)}"
            object.__setattr__(self, "_text", t)
        return t


@dataclass(frozen=True, slots=True)
class AddTo:
    """Cards from the hand added to one of the side's melds."""

    meld: int
    cards: tuple[int, ...]
    _text: str = field(default="", init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canonical_cards(self.cards))

    def text(self) -> str:
        t = self._text
        if not t:
            t = f"add m{self.meld} {_cards(self.cards)}"
            object.__setattr__(self, "_text", t)
        return t


Part = NewMeld | AddTo


def _parts_text(parts: Iterable[Part]) -> str:
    return "; ".join(p.text() for p in parts)


# Parsing helpers ----------------------------------------------------------------------------
def _kinds(tokens: list[str], text: str) -> tuple[int, ...]:
    try:
        return tuple(parse_kind(t) for t in tokens)
    except ValueError as e:
        raise InvalidMove(f"{e} in move {text!r}") from None


def _meld_id(token: str, text: str) -> int:
    if len(token) < 2 or token[0].lower() != "m" or not token[1:].isdigit():
        raise InvalidMove(f"expected a meld id like m3, got {token!r} in move {text!r}")
    return int(token[1:])


def _part(tokens: list[str], text: str) -> Part:
    if not tokens:
        raise InvalidMove(f"empty part in move {text!r}")
    head = tokens[0].lower()
    if head == "new" and len(tokens) > 1:
        return NewMeld(_kinds(tokens[1:], text))
    if head == "add" and len(tokens) > 2:
        return AddTo(_meld_id(tokens[1], text), _kinds(tokens[2:], text))
    raise InvalidMove(f"expected 'new <cards>' or 'add m<id> <cards>' in move {text!r}")


def _single(verb: str, args: list[str], rest: list[list[str]], n: int, text: str) -> None:
    if rest:
        raise InvalidMove(f"{verb!r} is a single action: {text!r}")
    if len(args) != n:
        raise InvalidMove(f"{verb!r} takes {n or 'no'} argument{'s' if n != 1 else ''}: {text!r}")


# The move types -----------------------------------------------------------------------------
class Move:
    """Base of every move type: ``verb``, ``action``, ``parse`` and ``text``."""

    __slots__ = ()
    verb: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    action: ClassVar[str]

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        _single(cls.verb, args, rest, 0, text)
        return cls()

    def text(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Draw from the stock (two cards, or one when one is left)."""

    verb: ClassVar[str] = "draw"
    action: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class TakePile(Move):
    """Take the pile: ``cards`` from hand join the top card as a new group; ``parts`` are other
    melds laid from the hand in the same action (an opening)."""

    cards: tuple[int, ...]
    parts: tuple[Part, ...] = ()
    verb: ClassVar[str] = "take"
    action: ClassVar[str] = "take_pile"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", canonical_cards(self.cards))

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        if not args:
            raise InvalidMove(f"'take' needs cards or a meld id: {text!r}")
        if len(args) == 1 and args[0][:1].lower() == "m" and not rest:
            return TakePileOnto(_meld_id(args[0], text))
        return cls(_kinds(args, text), tuple(_part(s, text) for s in rest))

    def text(self) -> str:
        s = f"take {_cards(self.cards)}"
        return s + ("; " + _parts_text(self.parts) if self.parts else "")


@dataclass(frozen=True, slots=True)
class TakePileOnto(Move):
    """Take the whole (unfrozen) pile by laying its top card on an own meld (``crawford``)."""

    meld: int
    verb: ClassVar[str] = "take"  # "take m4": parsed by TakePile
    action: ClassVar[str] = "take_pile_onto"

    def text(self) -> str:
        return f"take m{self.meld}"


@dataclass(frozen=True, slots=True)
class TakeTop(Move):
    """Take only the top card onto an own sequence (``samba``, ``dutch``)."""

    meld: int
    verb: ClassVar[str] = "top"
    action: ClassVar[str] = "take_top"

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        _single(cls.verb, args, rest, 1, text)
        return cls(_meld_id(args[0], text))

    def text(self) -> str:
        return f"top m{self.meld}"


@dataclass(frozen=True, slots=True)
class Meld(Move):
    """Lay new melds and add to the side's melds, as one action."""

    parts: tuple[Part, ...]
    _text: str = field(default="", init=False, repr=False, compare=False, hash=False)
    verb: ClassVar[str] = "meld"
    action: ClassVar[str] = "meld"

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        if not args:
            raise InvalidMove(f"'meld' needs parts: {text!r}")
        return cls(tuple(_part(s, text) for s in [args] + rest))

    def text(self) -> str:
        t = self._text
        if not t:
            t = "meld " + _parts_text(self.parts)
            object.__setattr__(self, "_text", t)
        return t


@dataclass(frozen=True, slots=True)
class Merge(Move):
    """Merge two groups of one rank (``b`` joins ``a``)."""

    a: int
    b: int
    verb: ClassVar[str] = "merge"
    action: ClassVar[str] = "merge"

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        _single(cls.verb, args, rest, 2, text)
        return cls(_meld_id(args[0], text), _meld_id(args[1], text))

    def text(self) -> str:
        return f"merge m{self.a} m{self.b}"


@dataclass(frozen=True, slots=True)
class Discard(Move):
    card: int
    verb: ClassVar[str] = "discard"
    aliases: ClassVar[tuple[str, ...]] = ("d",)
    action: ClassVar[str] = "discard"

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        _single(cls.verb, args, rest, 1, text)
        return cls(_kinds(args, text)[0])

    def text(self) -> str:
        k = self.card
        return _DISCARD_TEXTS[k] if 0 <= k < N_KINDS else f"discard {kind_text(k)}"


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """(``dutch``) End the turn with one card when the side may not go out."""

    verb: ClassVar[str] = "pass"
    action: ClassVar[str] = "pass_turn"


@dataclass(frozen=True, slots=True)
class LayRedThree(Move):
    """(``dutch``) Lay a red three from the hand."""

    card: int
    verb: ClassVar[str] = "red3"
    action: ClassVar[str] = "lay_red_three"

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        _single(cls.verb, args, rest, 1, text)
        return cls(_kinds(args, text)[0])

    def text(self) -> str:
        k = self.card
        return _RED3_TEXTS[k] if 0 <= k < N_KINDS else f"red3 {kind_text(k)}"


@dataclass(frozen=True, slots=True)
class Ask(Move):
    """Ask the partner "may I go out?" with the complete going-out action proposed."""

    parts: tuple[Part, ...]
    discard: int | None
    verb: ClassVar[str] = "ask"
    action: ClassVar[str] = "ask"

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        segs = ([args] if args else []) + rest
        discard = None
        if segs and segs[-1][0].lower() in ("discard", "d"):
            if len(segs[-1]) != 2:
                raise InvalidMove(f"expected 'discard <card>' in move {text!r}")
            discard = _kinds(segs[-1][1:], text)[0]
            segs = segs[:-1]
        return cls(tuple(_part(s, text) for s in segs), discard)

    def text(self) -> str:
        bits = [p.text() for p in self.parts]
        if self.discard is not None:
            bits.append(f"discard {kind_text(self.discard)}")
        return "ask " + "; ".join(bits) if bits else "ask"


@dataclass(frozen=True, slots=True)
class Answer(Move):
    """The asked partner's binding answer."""

    yes: bool
    verb: ClassVar[str] = "answer"
    action: ClassVar[str] = "answer"

    @classmethod
    def parse(cls, args: list[str], rest: list[list[str]], text: str) -> Move:
        _single(cls.verb, args, rest, 1, text)
        if args[0].lower() not in ("yes", "no"):
            raise InvalidMove(f"expected 'answer yes' or 'answer no', got {text!r}")
        return cls(args[0].lower() == "yes")

    def text(self) -> str:
        return "answer yes" if self.yes else "answer no"


@dataclass(frozen=True, slots=True)
class EndDeal(Move):
    """With the stock empty, take nothing: the deal ends."""

    verb: ClassVar[str] = "end"
    action: ClassVar[str] = "end_deal"


@dataclass(frozen=True, slots=True)
class NextDeal(Move):
    """Start the next deal."""

    verb: ClassVar[str] = "next"
    action: ClassVar[str] = "next_deal"


# The registry: every move type, in the order the docs list them.
MOVE_TYPES: tuple[type[Move], ...] = (
    Draw,
    TakePile,
    TakePileOnto,
    TakeTop,
    Meld,
    Merge,
    Discard,
    Pass,
    LayRedThree,
    Ask,
    Answer,
    EndDeal,
    NextDeal,
)
_BY_VERB: dict[str, type[Move]] = {}
for _cls in MOVE_TYPES:
    if _cls is not TakePileOnto:  # shares TakePile's verb; TakePile.parse tells them apart
        for _verb in (_cls.verb,) + _cls.aliases:
            assert _verb not in _BY_VERB, _verb
            _BY_VERB[_verb] = _cls


def parse_move(text: str) -> Move:
    """Parse a move's text form (see docs/formats.md); raises InvalidMove when malformed."""
    if not isinstance(text, str):
        raise InvalidMove(f"empty move {text!r}")
    if not text.strip():
        raise InvalidMove(f"empty move {text!r}")
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMove("move text too long")
    segs = [s.split() for s in text.split(";")]
    if any(not s for s in segs):
        raise InvalidMove(f"empty part in move {text!r}")
    cls = _BY_VERB.get(segs[0][0].lower())
    if cls is None:
        raise InvalidMove(f"unknown move {text!r}")
    move: Move = cls.parse(segs[0][1:], segs[1:], text)
    return move
