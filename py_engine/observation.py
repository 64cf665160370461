"""``Observation.for_seat(game, seat)``: what one seat may know, as typed values.

An observation holds the table as every seat sees it (the melds, the pile's cards in order, the
red threes laid, every hand's size, the stock's size, the scores, the turn's public state), the
seat's own hand, and the log as the seat saw it (its own draws with their cards, a partner's
proposed action only between partners). Nothing else of the game: no other hand, no stock card.
It is immutable (named tuples, tuples of card ids, read-only mappings for the scoring records).
Named tuples rather than frozen dataclasses: a decision builds one, and a frozen dataclass of
this many fields costs several times as much to build.

What does not change from one observation to the next is built once and shared (each side's
melds while the side's meld list is the same list of the same length, each seat's log entries
as the log grows): this module keeps those per game (``_CACHES``, keyed by the game object and
gone with it).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import is_
from types import MappingProxyType
from typing import Any, NamedTuple

from .cards import KIND_OF_ID, SORT_INDEX
from .melds import TableMeld, cards_needed, finished_bonus, finished_kind, is_closed, meld_value
from .moves import Move, parse_move
from .rules import RuleSet
from .scoring import side_canastas
from .state import Game, PerGame

CardId = int  # a physical card, 0..161
Kind = int  # a card's kind, 0..52 (``cards.py``)
# The hand's order as the page shows it (by kind, then by card id).
HAND_ORDER = [SORT_INDEX[KIND_OF_ID[c]] * 256 + c for c in range(162)]
LOG_LAST = 60  # the log entries an observation holds (the last ones)

_CACHES = PerGame()


class MeldSeen(NamedTuple):
    """A meld on the table: its id, type (``group``, ``sequence``, ``black3``, ``wild``), rank
    (2..14 for groups, else 0), suit (0..3 for sequences, else -1), its card ids (sequences low to
    high), its wild cards, the kind of canasta it finished (or None), the cards it still needs,
    whether it is closed, its card value and its bonus."""

    id: int
    type: str
    rank: int
    suit: int
    cards: tuple[CardId, ...]
    wilds: int
    canasta: str | None
    needs: int
    closed: bool
    value: int
    bonus: int

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.wilds


def meld_seen(m: TableMeld, rules: RuleSet) -> MeldSeen:
    """The observation of a ``melds.TableMeld``."""
    n = len(m.cards)
    done = finished_kind(m.type, n, m.wilds, rules)
    return MeldSeen(
        m.id,
        m.type,
        m.rank,
        m.suit,
        tuple(m.cards),
        m.wilds,
        done,
        cards_needed(m.type, n, rules),
        is_closed(m.type, n, rules),
        meld_value(m),
        finished_bonus(done, rules),
    )


class LogSeen(NamedTuple):
    """One log entry as the observing seat saw it: its index in the game's log, the deal, the
    acting seat (None for an event of the table), the move's text (``"ask"`` alone for an ask
    between others: the proposed action is between partners), its kind, what every seat saw
    (``public``: the engine's facts, read-only, with cards named by their kinds as the moves
    name them: a card laid or thrown is public, which physical copy it was is not) and the
    kinds of the cards only this seat saw (its own draws), or None."""

    i: int
    deal: int
    seat: int | None
    text: str
    kind: str
    public: Mapping[str, Any]
    own_cards: tuple[Kind, ...] | None


class TurnSeen(NamedTuple):
    """The turn's public state: whether the player asked, whether it was refused, the asked
    action (only for the asker's side; else None: ``pending`` as the engine keeps it, its move
    text, and ``proposal``, the same as the engine's ``Move``) and the asking seat (-1: none)."""

    asked: bool
    refused: bool
    pending: Any
    asker: int
    proposal: Move | None


class Observation(NamedTuple):
    """What ``seat`` may know of a game (module doc)."""

    version: int
    rules: RuleSet
    players: int
    seat: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    my_side: int
    deal: int
    dealer: int
    target: int
    phase: str
    current: int | None
    hand: tuple[CardId, ...]  # sorted as the page shows it (``HAND_ORDER``)
    hand_sizes: tuple[int, ...]
    stock: int
    pile: tuple[CardId, ...]  # bottom to top
    pile_blocked: bool
    pile_frozen: bool
    melds: tuple[tuple[MeldSeen, ...], ...]
    red_threes: tuple[tuple[CardId, ...], ...]
    scores: tuple[int, ...]
    opened: tuple[bool, ...]
    minimum: tuple[int, ...]
    canastas: tuple[int, ...]
    canasta_counts: tuple[tuple[int, int], ...]  # each side's ``scoring.side_canastas``
    requirement: int
    requirement_met: tuple[bool, ...]
    requirement_missing: tuple[Mapping[str, Any], ...]
    turn: TurnSeen
    log: tuple[LogSeen, ...]  # the last ``LOG_LAST`` entries
    deal_result: Mapping[str, Any] | None
    history: tuple[tuple[int, ...], ...]
    breakdowns: tuple[Mapping[str, Any], ...]
    result: Mapping[str, Any] | None

    @classmethod
    def for_seat(cls, game: Game, seat: int) -> Observation:
        return observe(game, seat)

    def cards(self) -> set[CardId]:
        """Every physical card id this observation shows: the hand, the pile, the melds and the
        red threes (the log names kinds only)."""
        out = set(self.hand)
        out.update(self.pile)
        for melds in self.melds:
            for m in melds:
                out.update(m.cards)
        for reds in self.red_threes:
            out.update(reds)
        return out


# A log entry's public facts that name cards: one card, a list of cards (``parts`` too, each
# part's ``cards``); the observation names them by kind, the view by text (``views.log_json``).
LOG_KEYS_AS_CARD = ("card",)
LOG_KEYS_AS_CARDS = ("laid", "with")


def _readonly(d: dict[str, Any] | None) -> Mapping[str, Any] | None:
    return None if d is None else MappingProxyType(d)


def _public_facts(public: Mapping[str, Any]) -> Mapping[str, Any]:
    """A log entry's public facts with its physical card ids as kinds (read-only)."""
    out: dict[str, Any] = {}
    for key, value in public.items():
        if key in LOG_KEYS_AS_CARD:
            out[key] = KIND_OF_ID[value]
        elif key in LOG_KEYS_AS_CARDS:
            out[key] = tuple([KIND_OF_ID[c] for c in value])
        elif key == "parts":
            out[key] = tuple(
                [
                    MappingProxyType(
                        {
                            "cards": tuple([KIND_OF_ID[c] for c in p["cards"]]),
                            "meld": p["meld"],
                            "new": p["new"],
                        }
                    )
                    for p in value
                ]
            )
        else:
            out[key] = value
    return MappingProxyType(out)


def log_seen(e: Mapping[str, Any], seat: int, game: Game, i: int) -> LogSeen:
    """Entry ``i`` of ``game``'s log, ``e``, as ``seat`` saw it."""
    text: str = e["move"]
    kind: str = e.get("kind", text.split(" ")[0])
    if kind == "ask" and (e["seat"] is None or game.side_of(e["seat"]) != game.side_of(seat)):
        text = "ask"  # the proposed action is between partners
    own = e["private"].get("cards") if e["seat"] == seat else None
    return LogSeen(
        i,
        e["deal"],
        e["seat"],
        text,
        kind,
        _public_facts(e["public"]),
        tuple([KIND_OF_ID[c] for c in own]) if own else None,
    )


def seat_log(game: Game, seat: int, last: int = LOG_LAST) -> tuple[LogSeen, ...]:
    """The last ``last`` log entries as ``seat`` saw them (made once per seat and kept while the
    log grows; an entry every seat sees alike, neither an ask nor one with cards only ``seat``
    saw, is made once for all seats and shared)."""
    cache = _CACHES.of(game)
    key = ("log", seat)
    log = game.log
    got = cache.get(key)
    if got is None or got[0] is not log:
        got = cache[key] = (log, list[LogSeen](), None, last)
    out: list[LogSeen] = got[1]
    n = len(log)
    if len(out) == n and got[2] is not None and got[3] == last:
        seen: tuple[LogSeen, ...] = got[2]
        return seen
    if len(out) < n:
        pub = cache.get("log_public")
        if pub is None or pub[0] is not log:
            pub = cache["log_public"] = (log, {})
        shared: dict[int, LogSeen] = pub[1]
        for i in range(len(out), n):
            e = log[i]
            if (e["seat"] == seat and e["private"].get("cards")) or e.get("kind", "ask") == "ask":
                out.append(log_seen(e, seat, game, i))
                continue
            v = shared.get(i)
            if v is None:
                v = shared[i] = log_seen(e, seat, game, i)
            out.append(v)
    seen = tuple(out[-last:])
    cache[key] = (log, out, seen, last)
    return seen


class SidesSeen(NamedTuple):
    """What an observation reads of the sides' melds (``sides_seen``)."""

    melds: tuple[tuple[MeldSeen, ...], ...]
    counts: tuple[tuple[int, int], ...]
    canastas: tuple[int, ...]
    met: tuple[bool, ...]
    missing: tuple[Mapping[str, Any], ...]
    opened: tuple[bool, ...]


def sides_seen(game: Game) -> SidesSeen:
    """Each side's melds, ``side_canastas``, whether it meets its going-out requirement, what it
    misses of it, and whether it opened; kept while every side's meld list is the same list of
    the same length (every action that changes a side's melds gives it a new list, and a meld
    that changes is a new object: ``Plan``). A meld with the same id, type and cards as before
    keeps its observation."""
    cache = _CACHES.of(game)
    lists = game.melds
    lens = tuple(map(len, lists))
    got = cache.get("sides")
    if got is not None and got[1] == lens and all(map(is_, got[0], lists)):
        kept_sides: SidesSeen = got[2]
        return kept_sides
    before: dict[int, tuple[list[int], str, MeldSeen]] = {} if got is None else got[3]
    r = game.rules
    melds: list[tuple[MeldSeen, ...]] = []
    counts: list[tuple[int, int]] = []
    missing: list[Mapping[str, Any]] = []
    kept: dict[int, tuple[list[int], str, MeldSeen]] = {}
    for side in lists:
        seen = []
        for m in side:
            old = before.get(m.id)
            if old is not None and old[0] == m.cards and old[1] == m.type:
                seen.append(old[2])
                kept[m.id] = old
            else:
                v = meld_seen(m, r)
                seen.append(v)
                kept[m.id] = (list(m.cards), m.type, v)
        c = side_canastas(side, r)
        melds.append(tuple(seen))
        counts.append(c)
        missing.append(MappingProxyType(game.requirement_missing(*c)))
    out = SidesSeen(
        tuple(melds),
        tuple(counts),
        tuple([c[0] for c in counts]),
        tuple([game.requirement_met_counts(*c) for c in counts]),
        tuple(missing),
        tuple([bool(side) for side in lists]),
    )
    cache["sides"] = (list(lists), lens, out, kept)
    return out


def observe(game: Game, seat: int) -> Observation:
    """``Observation.for_seat(game, seat)``."""
    r = game.rules
    n_sides = game.n_sides
    sides = sides_seen(game)
    cache = _CACHES.of(game)
    fixed = cache.get("fixed")
    if fixed is None:
        fixed = cache["fixed"] = (
            tuple(tuple(game.seats_of(s)) for s in range(n_sides)),
            tuple(game.side_of(s) for s in range(game.players)),
            r.canastas_needed(game.players),
        )
    t = game.turn
    phase = game.phase
    my_side = seat % n_sides
    pending = t.pending
    if pending is not None and not (t.asker >= 0 and fixed[1][t.asker] == my_side):
        pending = None
    history = game.history
    return Observation(
        game.version,
        r,
        game.players,
        seat,
        fixed[0],
        fixed[1],
        my_side,
        game.deal_no,
        game.dealer,
        game.target,
        phase,
        game.current if phase != "deal_over" and phase != "game_over" else None,
        tuple(sorted(game.hands[seat], key=HAND_ORDER.__getitem__)),
        tuple(map(len, game.hands)),
        len(game.stock),
        tuple(game.pile),
        game.pile_blocked(),
        game.pile_frozen(my_side) if r.pile_freezes else False,
        sides.melds,
        tuple(map(tuple, game.red3)),
        tuple(game.scores),
        sides.opened,
        tuple(map(game.minimum, range(n_sides))),
        sides.canastas,
        sides.counts,
        fixed[2],
        sides.met,
        sides.missing,
        TurnSeen(
            t.asked, t.refused, pending, t.asker, None if pending is None else parse_move(pending)
        ),
        seat_log(game, seat),
        _readonly(game.deal_result),
        tuple(map(tuple, history)) if history else (),
        tuple(map(MappingProxyType, game.breakdowns)) if game.breakdowns else (),
        _readonly(game.result),
    )


__all__ = [
    "Observation",
    "MeldSeen",
    "LogSeen",
    "TurnSeen",
    "SidesSeen",
    "observe",
    "meld_seen",
    "log_seen",
    "seat_log",
    "sides_seen",
    "LOG_LAST",
    "LOG_KEYS_AS_CARD",
    "LOG_KEYS_AS_CARDS",
    "HAND_ORDER",
    "CardId",
    "Kind",
]
