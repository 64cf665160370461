"""Moves are frozen values with a text form that round-trips.

>>> parse_move("take 7S 7H; new 8S 9S TS").text()
'take 7S 7H; new 8S 9S TS'
>>> parse_move("meld new 7S 7H 7D; add m3 JS") == Meld((NewMeld((44, 31, 18)), AddTo(3, (48,))))
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .cards import kind_text, parse_kind
from .errors import InvalidMove


def _cards(kinds) -> str:
    return " ".join(kind_text(k) for k in kinds)


@dataclass(frozen=True)
class NewMeld:
    cards: tuple[int, ...]

    def text(self) -> str:
        return f"new {_cards(self.cards)}"


@dataclass(frozen=True)
class AddTo:
    meld: int
    cards: tuple[int, ...]

    def text(self) -> str:
        return f"add m{self.meld} {_cards(self.cards)}"


Part = Union[NewMeld, AddTo]


def _parts_text(parts) -> str:
    return "; ".join(p.text() for p in parts)


@dataclass(frozen=True)
class Draw:
    def text(self) -> str:
        return "draw"


@dataclass(frozen=True)
class TakePile:
    """Take the pile: ``cards`` from hand join the top card as a new group; ``parts`` are other
    melds laid from the hand in the same action (an opening)."""
    cards: tuple[int, ...]
    parts: tuple[Part, ...] = ()

    def text(self) -> str:
        s = f"take {_cards(self.cards)}"
        return s + ("; " + _parts_text(self.parts) if self.parts else "")


@dataclass(frozen=True)
class TakePileOnto:
    """Take the whole (unfrozen) pile by laying its top card on an own meld (``crawford``)."""
    meld: int

    def text(self) -> str:
        return f"take m{self.meld}"


@dataclass(frozen=True)
class TakeTop:
    """Take only the top card onto an own sequence (``samba``, ``dutch``)."""
    meld: int

    def text(self) -> str:
        return f"top m{self.meld}"


@dataclass(frozen=True)
class Meld:
    parts: tuple[Part, ...]

    def text(self) -> str:
        return "meld " + _parts_text(self.parts)


@dataclass(frozen=True)
class Merge:
    a: int
    b: int

    def text(self) -> str:
        return f"merge m{self.a} m{self.b}"


@dataclass(frozen=True)
class Discard:
    card: int

    def text(self) -> str:
        return f"discard {kind_text(self.card)}"


@dataclass(frozen=True)
class Pass:
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class LayRedThree:
    card: int

    def text(self) -> str:
        return f"red3 {kind_text(self.card)}"


@dataclass(frozen=True)
class Ask:
    """Ask the partner "may I go out?" with the complete going-out action proposed."""
    parts: tuple[Part, ...]
    discard: int | None

    def text(self) -> str:
        bits = [p.text() for p in self.parts]
        if self.discard is not None:
            bits.append(f"discard {kind_text(self.discard)}")
        return "ask " + "; ".join(bits) if bits else "ask"


@dataclass(frozen=True)
class Answer:
    yes: bool

    def text(self) -> str:
        return "answer yes" if self.yes else "answer no"


@dataclass(frozen=True)
class EndDeal:
    """With the stock empty, take nothing: the deal ends."""
    def text(self) -> str:
        return "end"


@dataclass(frozen=True)
class NextDeal:
    def text(self) -> str:
        return "next"


Move = Union[Draw, TakePile, TakePileOnto, TakeTop, Meld, Merge, Discard, Pass, LayRedThree,
             Ask, Answer, EndDeal, NextDeal]


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


def parse_move(text: str) -> Move:
    """Parse a move's text form (see docs/formats.md); raises InvalidMove when malformed."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidMove(f"empty move {text!r}")
    if len(text) > 2000:
        raise InvalidMove("move text too long")
    segs = [s.split() for s in text.split(";")]
    if any(not s for s in segs):
        raise InvalidMove(f"empty part in move {text!r}")
    first, rest = segs[0], segs[1:]
    head, args = first[0].lower(), first[1:]
    simple = {"draw": Draw, "pass": Pass, "end": EndDeal, "next": NextDeal}
    if head in simple:
        if args or rest:
            raise InvalidMove(f"{head!r} takes no arguments: {text!r}")
        return simple[head]()
    if head in ("discard", "d", "red3", "top", "merge", "answer") and rest:
        raise InvalidMove(f"{head!r} is a single action: {text!r}")
    if head in ("discard", "d") and len(args) == 1:
        return Discard(_kinds(args, text)[0])
    if head == "red3" and len(args) == 1:
        return LayRedThree(_kinds(args, text)[0])
    if head == "top" and len(args) == 1:
        return TakeTop(_meld_id(args[0], text))
    if head == "merge" and len(args) == 2:
        return Merge(_meld_id(args[0], text), _meld_id(args[1], text))
    if head == "answer" and len(args) == 1 and args[0].lower() in ("yes", "no"):
        return Answer(args[0].lower() == "yes")
    if head == "take" and args:
        if len(args) == 1 and args[0][:1].lower() == "m" and not rest:
            return TakePileOnto(_meld_id(args[0], text))
        return TakePile(_kinds(args, text), tuple(_part(s, text) for s in rest))
    if head == "meld" and args:
        return Meld(tuple(_part(s, text) for s in [args] + rest))
    if head == "ask":
        segs2 = ([args] if args else []) + rest
        discard = None
        if segs2 and segs2[-1][0].lower() in ("discard", "d"):
            if len(segs2[-1]) != 2:
                raise InvalidMove(f"expected 'discard <card>' in move {text!r}")
            discard = _kinds(segs2[-1][1:], text)[0]
            segs2 = segs2[:-1]
        return Ask(tuple(_part(s, text) for s in segs2), discard)
    raise InvalidMove(f"unknown move {text!r}")
