"""``view_for(game, seat)``: the page's JSON view of what that seat may know (docs/bridge.md).

A view is the seat's observation (``Observation.for_seat``: the values the bots read) written
as JSON (``view_json``), plus the seat's legal moves (``legal_view``, from ``legal_moves``).
Nothing of the game reaches a view but through these two, so the checks that the observation
holds only the seat's knowledge (tests/test_no_leak.py, tests/test_fairness.py) hold for it.

What does not change from one view to the next is written once and reused: a card's
``{"id", "c"}`` object, a meld's JSON while the observation keeps its ``MeldSeen`` and a log
entry's while it keeps its ``LogSeen`` (the same object: the observation layer keeps those per
game), kept per game by this module (``_CACHES``). Treat a view as read-only: parts of it are
shared between views.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import is_
from typing import Any

from .cards import KIND_TEXT, RANK_CHARS, SUIT_CHARS, id_text
from .legal import legal_moves
from .moves import (
    AddTo,
    Ask,
    Discard,
    Draw,
    EndDeal,
    LayRedThree,
    Meld,
    Merge,
    Move,
    Part,
    TakePile,
    TakePileOnto,
    TakeTop,
)
from .observation import (
    HAND_ORDER,
    LOG_KEYS_AS_CARD,
    LOG_KEYS_AS_CARDS,
    LOG_LAST,
    LogSeen,
    MeldSeen,
    Observation,
    log_seen,
)
from .observation import seat_log as seen_log
from .rules import RuleSet
from .state import Game, PerGame

JSON = dict[str, Any]  # a JSON object of a view

# What this module writes once per game (``_CACHES.of(game)``): kept here, keyed by the game object,
# and gone with it (a copy of a game is another key).
_CACHES = PerGame()


# One read-only card object per physical card.
CARD_VIEWS = [{"id": c, "c": id_text(c)} for c in range(162)]


_SCALARS = frozenset((str, int, float, bool, type(None)))


def card_ids(obj: object) -> set[int]:
    """Every physical card id shown anywhere in a view or message: its ``{"id", "c"}`` objects
    (the no-leak checks compare these with the hidden cards). A loop over a stack that holds
    only containers: a soak run checks the view at every move."""
    out: set[int] = set()
    stack: list[object] = [obj]
    pop, push = stack.pop, stack.append
    while stack:
        o = pop()
        items: Iterable[object]
        if isinstance(o, dict):
            if len(o) == 2 and "id" in o and "c" in o and isinstance(o["id"], int):
                out.add(o["id"])
            items = o.values()
        elif isinstance(o, list):
            items = o
        else:
            continue
        for v in items:
            if type(v) not in _SCALARS:
                push(v)
    return out


def card(c: int) -> JSON:
    return CARD_VIEWS[c]


def sorted_hand(ids: list[int]) -> list[int]:
    return sorted(ids, key=HAND_ORDER.__getitem__)


def meld_json(m: MeldSeen) -> JSON:
    """An observed meld in JSON (docs/bridge.md "melds")."""
    n = len(m.cards)
    return {
        "id": m.id,
        "type": m.type,
        "rank": RANK_CHARS[m.rank - 2] if m.rank >= 2 else None,
        "suit": SUIT_CHARS[m.suit] if m.suit >= 0 else None,
        "cards": [CARD_VIEWS[c] for c in m.cards],
        "size": n,
        "naturals": n - m.wilds,
        "wilds": m.wilds,
        "canasta": m.canasta or ("black_threes" if m.type == "black3" else None),
        "needs": m.needs,
        "closed": m.closed,
        "value": m.value,
        "bonus": m.bonus,
    }


def log_json(e: LogSeen) -> JSON:
    """One log entry as the observing seat saw it, in JSON: the move's text, its kind and its
    public facts (cards as texts), plus the cards only that seat saw (its own draws)."""
    out: JSON = {"i": e.i, "deal": e.deal, "seat": e.seat, "text": e.text, "kind": e.kind}
    for key, value in e.public.items():
        if key in LOG_KEYS_AS_CARD:
            out[key] = KIND_TEXT[value]
        elif key in LOG_KEYS_AS_CARDS:
            out[key] = [KIND_TEXT[k] for k in value]
        elif key == "parts":
            out[key] = [
                {"cards": [KIND_TEXT[k] for k in p["cards"]], "meld": p["meld"], "new": p["new"]}
                for p in value
            ]
        else:
            out[key] = value
    if e.own_cards:
        out["cards"] = [KIND_TEXT[k] for k in e.own_cards]
    return out


def log_entry(e: Mapping[str, Any], seat: int, game: Game, i: int) -> JSON:
    """Entry ``i`` of ``game``'s log, ``e``, as ``seat`` saw it, in JSON."""
    return log_json(log_seen(e, seat, game, i))


def _log_json(entries: tuple[LogSeen, ...], seat: int, cache: dict[Any, Any]) -> list[JSON]:
    """``entries`` (log entries as ``seat`` saw them, consecutive) in JSON, each entry written
    once while the observation layer keeps its ``LogSeen``; an entry every seat sees alike
    (neither an ask nor one with cards only ``seat`` saw: the observation layer shares those) is
    written once for all seats and shared. The entries the seat's last call also had, the same
    objects, keep their JSON from it."""
    key = ("log", seat)
    got = cache.get(key)
    out: list[JSON]
    start = 0
    if got is not None:
        before: tuple[LogSeen, ...] = got[0]
        if before is entries:
            return list(got[1])
        if before and entries:
            p = entries[0].i - before[0].i
            if 0 <= p < len(before):
                n = len(before) - p
                if all(map(is_, before[p:], entries[:n])):
                    out = got[1][p:]
                    start = n
    if start == 0:
        out = []
    if start < len(entries):
        shared: dict[int, tuple[LogSeen, JSON]] | None = cache.get("log_shared")
        if shared is None:
            shared = cache["log_shared"] = {}
        own: dict[int, tuple[LogSeen, JSON]] | None = cache.get(("log_own", seat))
        if own is None:
            own = cache[("log_own", seat)] = {}
        for e in entries[start:]:
            kept = own if e.own_cards is not None or e.kind == "ask" else shared
            k = kept.get(e.i)
            if k is None or k[0] is not e:
                k = kept[e.i] = (e, log_json(e))
            out.append(k[1])
    cache[key] = (entries, out)
    return list(out)


def seat_log(game: Game, seat: int, last: int = LOG_LAST) -> list[JSON]:
    """The last ``last`` log entries as ``seat`` saw them (``observation.seat_log``), in JSON."""
    return _log_json(seen_log(game, seat, last), seat, _CACHES.of(game))


def move_targets(moves: Sequence[Move], texts: list[str] | None = None) -> JSON:
    """What clicking each thing can do: for every hand card (by its text), every meld of the
    side (by id), the pile and the stock, the indices in ``all`` of the legal moves it belongs to
    (a card the move lays, discards or names; a meld it adds to, takes onto or merges; the pile
    it takes; the stock it draws from)."""
    if texts is None:
        texts = [m.text() for m in moves]
    targets: JSON = _listing(moves, texts)["targets"]
    return targets


def _meld_facts(m: Meld) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, int] | None]:
    """What ``_listing`` reads of a meld move: the card texts it lays, part by part (each
    part's kinds once), the ids of the melds it adds to, and for a single card added to one
    meld, (that card's text, the meld's id)."""
    card_texts: list[str] = []
    meld_ids: list[str] = []
    for p in m.parts:
        ks = p.cards
        if len(ks) == 1:
            card_texts.append(KIND_TEXT[ks[0]])
        else:
            card_texts.extend(KIND_TEXT[k] for k in dict.fromkeys(ks))
        if type(p) is AddTo:
            meld_ids.append(str(p.meld))
    add = None
    if len(m.parts) == 1:
        p = m.parts[0]
        if type(p) is AddTo and len(p.cards) == 1:
            add = (KIND_TEXT[p.cards[0]], p.meld)
    return tuple(card_texts), tuple(meld_ids), add


def _card_of(cards: dict[str, list[int]], i: int, kinds: Sequence[int]) -> None:
    """Move ``i`` names the cards ``kinds``."""
    if len(kinds) == 1:
        cards.setdefault(KIND_TEXT[kinds[0]], []).append(i)
        return
    for k in dict.fromkeys(kinds):
        cards.setdefault(KIND_TEXT[k], []).append(i)


def _parts_of(
    cards: dict[str, list[int]], melds: dict[str, list[int]], i: int, parts: Sequence[Part]
) -> None:
    """Move ``i`` lays the meld parts ``parts``."""
    for p in parts:
        _card_of(cards, i, p.cards)
        if type(p) is AddTo:
            melds.setdefault(str(p.meld), []).append(i)


def _listing(moves: Sequence[Move], texts: list[str]) -> JSON:
    """The legal view's lists, in one pass over the legal moves: the texts of the moves that are
    not meld moves (``moves``), the meld moves' texts without their verb (``melds``), the
    discards' cards, the pile takes, card -> meld ids it may join alone now (``adds``, from the
    single-card additions) and ``move_targets`` (with ``red3``, ``discard`` and ``take_top``: the
    moves that lay a red three, discard a card (not an ask with a discard) and take the pile's top
    card alone onto a meld (not the whole pile), so the page need not tell them by their text)."""
    each: Sequence[Any] = moves  # (each move's fields, found by its type)
    cards: dict[str, list[int]] = {}
    melds: dict[str, list[int]] = {}
    pile: list[int] = []
    stock: list[int] = []
    red3: list[int] = []
    discards: list[int] = []
    top: list[int] = []
    simple: list[str] = []
    meld_texts: list[str] = []
    discard: list[str] = []
    takes: list[str] = []
    adds: dict[str, list[int]] = {}
    card_list = cards.setdefault
    meld_list = melds.setdefault
    for i, m in enumerate(each):
        t = type(m)
        if t is Meld:
            card_texts, meld_ids, add = _meld_facts(m)
            meld_texts.append(texts[i][5:])
            if add is not None:
                adds.setdefault(add[0], []).append(add[1])
                card_list(card_texts[0], []).append(i)
                meld_list(meld_ids[0], []).append(i)
                continue
            for ct in card_texts:
                card_list(ct, []).append(i)
            for ms in meld_ids:
                meld_list(ms, []).append(i)
            continue
        simple.append(texts[i])
        if t is Discard:
            ct = KIND_TEXT[m.card]  # (the text without its verb)
            discard.append(ct)
            discards.append(i)
            card_list(ct, []).append(i)
        elif t is LayRedThree:
            cards.setdefault(KIND_TEXT[m.card], []).append(i)
            red3.append(i)
        elif t is TakePile:
            takes.append(texts[i])
            pile.append(i)
            _card_of(cards, i, m.cards)
            _parts_of(cards, melds, i, m.parts)
        elif t is TakeTop or t is TakePileOnto:
            pile.append(i)
            melds.setdefault(str(m.meld), []).append(i)
            if t is TakeTop:
                top.append(i)
        elif t is Merge:
            for mid in (m.a, m.b):
                melds.setdefault(str(mid), []).append(i)
        elif t is Ask:
            _parts_of(cards, melds, i, m.parts)
            if m.discard is not None:
                _card_of(cards, i, (m.discard,))
        elif t is Draw or t is EndDeal:
            stock.append(i)
    return {
        "moves": simple,
        "discard": discard,
        "adds": adds,
        "melds": meld_texts,
        "takes": takes,
        "targets": {
            "all": texts,
            "cards": cards,
            "melds": melds,
            "pile": pile,
            "stock": stock,
            "red3": red3,
            "discard": discards,
            "take_top": top,
        },
    }


def legal_view(
    game: Game, seat: int, met: bool | None = None, canastas: tuple[int, int] | None = None
) -> JSON | None:
    """The legal part of ``seat``'s view (``met``: whether the seat's side meets its going-out
    requirement, ``canastas``: its ``side_canastas``, when the caller knows): the documented
    dict (docs/bridge.md), its lists made from the engine's legal moves in one pass."""
    if game.current != seat or game.phase in ("game_over",):
        if game.phase == "deal_over":
            return {
                "moves": ["next"],
                "discard": [],
                "adds": {},
                "melds": [],
                "takes": [],
                "can_ask": False,
                "targets": {
                    "all": ["next"],
                    "cards": {},
                    "melds": {},
                    "pile": [],
                    "stock": [],
                    "red3": [],
                    "discard": [],
                    "take_top": [],
                },
            }
        return None
    moves = legal_moves(game, canastas)
    got = _listing(moves, [m.text() for m in moves])
    can_ask = game.ask_problem(seat) is None and (
        game.requirement_met(game.side_of(seat)) if met is None else met
    )
    return {
        "moves": got["moves"],
        "discard": got["discard"],
        "adds": got["adds"],
        "melds": got["melds"],
        "takes": got["takes"],
        "can_ask": can_ask,
        "targets": got["targets"],
    }


def rules_json(r: RuleSet, players: int) -> JSON:
    """The rule facts the page reads (docs/bridge.md "rules")."""
    return {
        "name": r.name,
        "title": r.title,
        "sequences": r.sequences,
        "take_top_card": r.take_top_card,
        "pass_with_one": r.pass_with_one,
        "red_threes_by_choice": not r.red_threes_automatic,
        "pile_can_freeze": r.pile_freezes,
        "canasta_size": r.canasta_size,
        "sequence_max": r.sequence_max,
        "take_pile_onto_meld": r.take_pile_onto_meld,
        "draw_count": r.draw_count(players),
        "going_out_bonus": r.going_out_bonus,
    }


def _fixed_json(obs: Observation, cache: dict[Any, Any]) -> tuple[JSON, list[list[int]], list[int]]:
    """The rules' JSON, the seats of each side and each seat's side, kept while the observation
    layer gives the same rules and seating."""
    got = cache.get("fixed")
    if (
        got is None
        or got[0] is not obs.rules
        or got[1] is not obs.sides
        or got[2] is not obs.side_of
    ):
        got = cache["fixed"] = (
            obs.rules,
            obs.sides,
            obs.side_of,
            (rules_json(obs.rules, obs.players), list(map(list, obs.sides)), list(obs.side_of)),
        )
    fixed: tuple[JSON, list[list[int]], list[int]] = got[3]
    return fixed


def _melds_json(obs: Observation, cache: dict[Any, Any]) -> tuple[list[list[JSON]], list[JSON]]:
    """Each side's melds and ``requirement_missing`` in JSON, kept while the observation layer
    gives the same sides (it keeps them while no side's melds change); a meld whose ``MeldSeen``
    it kept keeps its JSON."""
    got = cache.get("sides")
    if got is not None and got[0] is obs.melds and got[1] is obs.requirement_missing:
        kept_sides: tuple[list[list[JSON]], list[JSON]] = got[3]
        return kept_sides
    before: dict[int, tuple[MeldSeen, JSON]] = {} if got is None else got[2]
    kept: dict[int, tuple[MeldSeen, JSON]] = {}
    melds: list[list[JSON]] = []
    for side in obs.melds:
        views: list[JSON] = []
        for m in side:
            k = before.get(m.id)
            if k is None or k[0] is not m:
                k = (m, meld_json(m))
            kept[m.id] = k
            views.append(k[1])
        melds.append(views)
    out = (melds, [dict(m) for m in obs.requirement_missing])
    cache["sides"] = (obs.melds, obs.requirement_missing, kept, out)
    return out


def _plain(d: Mapping[str, Any] | None) -> JSON | None:
    return None if d is None else dict(d)


def view_json(
    obs: Observation, legal: JSON | None = None, cache: dict[Any, Any] | None = None
) -> JSON:
    """``obs`` in the documented JSON (docs/bridge.md), with ``legal`` (``legal_view``) as its
    legal part. ``cache`` (one dict per game: ``view_for``) keeps what is written once; each
    thing kept is checked against the observation's own values, so the view is ``obs``'s
    whatever the cache holds."""
    if cache is None:
        cache = {}
    rules, sides, side_of = _fixed_json(obs, cache)
    melds, missing = _melds_json(obs, cache)
    pile = obs.pile
    turn = obs.turn
    return {
        "version": obs.version,
        "rules": rules,
        "players": obs.players,
        "seat": obs.seat,
        "sides": sides,
        "side_of": side_of,
        "my_side": obs.my_side,
        "deal": obs.deal,
        "dealer": obs.dealer,
        "target": obs.target,
        "phase": obs.phase,
        "current": obs.current,
        "hand": list(map(CARD_VIEWS.__getitem__, obs.hand)),
        "hand_sizes": list(obs.hand_sizes),
        "stock": obs.stock,
        "pile": {
            "size": len(pile),
            "top": CARD_VIEWS[pile[-1]] if pile else None,
            "blocked": obs.pile_blocked,
            "frozen": obs.pile_frozen,
            "cards": list(map(CARD_VIEWS.__getitem__, pile)),
        },
        "melds": list(melds),
        "red_threes": [list(map(CARD_VIEWS.__getitem__, side)) for side in obs.red_threes],
        "scores": list(obs.scores),
        "opened": list(obs.opened),
        "minimum": list(obs.minimum),
        "canastas": list(obs.canastas),
        "requirement": obs.requirement,
        "requirement_met": list(obs.requirement_met),
        "requirement_missing": list(missing),
        "turn": {
            "asked": turn.asked,
            "refused": turn.refused,
            "pending": turn.pending,
            "asker": turn.asker,
        },
        "legal": legal,
        "log": _log_json(obs.log, obs.seat, cache),
        "deal_result": _plain(obs.deal_result),
        "history": list(map(list, obs.history)),
        "breakdowns": list(map(dict, obs.breakdowns)),
        "result": _plain(obs.result),
    }


def view_for(game: Game, seat: int, with_legal: bool = True) -> JSON:
    """What ``seat`` may know (``Observation.for_seat``) in JSON, with the seat's legal moves
    (``with_legal``). Other hands are counts, the stock a count."""
    obs = Observation.for_seat(game, seat)
    side = obs.my_side
    legal = (
        legal_view(game, seat, obs.requirement_met[side], obs.canasta_counts[side])
        if with_legal
        else None
    )
    return view_json(obs, legal, _CACHES.of(game))
