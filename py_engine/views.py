"""``view_for(game, seat)``: everything that seat may know, nothing more (JSON-ready).

Views are rebuilt for every decision, so what does not change is built once and reused: a card's
``{"id", "c"}`` object, a meld's view (kept by this module until cards join it) and each seat's
rendering of the log (extended as the log grows). Treat a view as read-only: parts of it are
shared between views.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from .cards import KIND_TEXT, RANK_CHARS, SUIT_CHARS, id_text
from .legal import legal_moves
from .melds import TableMeld, cards_needed, finished_bonus, finished_kind, is_closed, meld_value
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
from .observation import HAND_ORDER
from .rules import RuleSet
from .scoring import side_canastas
from .state import Game

JSON = dict[str, Any]  # a JSON object of a view

# What this module renders once per game (``_cache_of``): kept here, keyed by the game object,
# and gone with it (a copy of a game is another key).
_CACHES: WeakKeyDictionary[Game, dict[Any, Any]] = WeakKeyDictionary()


def _cache_of(game: Game) -> dict[Any, Any]:
    cache = _CACHES.get(game)
    if cache is None:
        cache = _CACHES[game] = {}
    return cache


# One read-only card object per physical card.
CARD_VIEWS = [{"id": c, "c": id_text(c)} for c in range(162)]
_LOG_KEYS_AS_CARD = ("card",)
_LOG_KEYS_AS_CARDS = ("laid", "with")


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


def meld_view(m: TableMeld, rules: RuleSet, kept: dict[int, tuple[list[int], JSON]]) -> JSON:
    """A meld's view, kept in ``kept`` (meld id -> (its cards when made, the view)) while the
    meld with that id holds the same cards: a meld only grows, and a new deal's meld that
    reuses an id holds other cards."""
    got = kept.get(m.id)
    if got is not None and got[0] == m.cards:
        view: JSON = got[1]
        return view
    w = m.wilds
    n = len(m.cards)
    done = finished_kind(m.type, n, w, rules)
    v = {
        "id": m.id,
        "type": m.type,
        "rank": RANK_CHARS[m.rank - 2] if m.rank >= 2 else None,
        "suit": SUIT_CHARS[m.suit] if m.suit >= 0 else None,
        "cards": [CARD_VIEWS[c] for c in m.cards],
        "size": n,
        "naturals": n - w,
        "wilds": w,
        "canasta": done or ("black_threes" if m.type == "black3" else None),
        "needs": cards_needed(m.type, n, rules),
        "closed": is_closed(m.type, n, rules),
        "value": meld_value(m),
        "bonus": finished_bonus(done, rules),
    }
    kept[m.id] = (list(m.cards), v)
    return v


def log_entry(e: dict[str, Any], seat: int, game: Game, i: int) -> JSON:
    """One log entry as ``seat`` may see it: the move's text, its kind and its public facts
    (cards as texts), plus the cards only that seat saw (its own draws)."""
    text = e["move"]
    kind = e.get("kind", text.split(" ")[0])
    if kind == "ask" and (e["seat"] is None or game.side_of(e["seat"]) != game.side_of(seat)):
        text = "ask"  # the proposed action is between partners
    out: JSON = {"i": i, "deal": e["deal"], "seat": e["seat"], "text": text, "kind": kind}
    for key, value in e["public"].items():
        if key in _LOG_KEYS_AS_CARD:
            out[key] = id_text(value)
        elif key in _LOG_KEYS_AS_CARDS:
            out[key] = [id_text(c) for c in value]
        elif key == "parts":
            out[key] = [
                {"cards": [id_text(c) for c in p["cards"]], "meld": p["meld"], "new": p["new"]}
                for p in value
            ]
        else:
            out[key] = value
    if e["seat"] == seat and e["private"].get("cards"):
        out["cards"] = [id_text(c) for c in e["private"]["cards"]]
    return out


def seat_log(
    game: Game, seat: int, last: int = 60, cache: dict[Any, Any] | None = None
) -> list[JSON]:
    """The last ``last`` log entries as ``seat`` sees them (rendered once per seat and kept; an
    entry that every seat sees alike, neither an ask nor one with cards only ``seat`` saw, is
    rendered once for all seats and shared)."""
    if cache is None:
        cache = _cache_of(game)
    key = ("log", seat)
    log = game.log
    got = cache.get(key)
    if got is None or got[0] is not log:
        got = cache[key] = (log, list[JSON]())
    out: list[JSON] = got[1]
    if len(out) < len(log):
        pub = cache.get("log_public")
        if pub is None or pub[0] is not log:
            pub = cache["log_public"] = (log, {})
        shared: dict[int, JSON] = pub[1]
        for i in range(len(out), len(log)):
            e = log[i]
            if (e["seat"] == seat and e["private"].get("cards")) or e.get("kind", "ask") == "ask":
                out.append(log_entry(e, seat, game, i))
                continue
            v = shared.get(i)
            if v is None:
                v = shared[i] = log_entry(e, seat, game, i)
            out.append(v)
    return out[-last:]


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


def _rules_view(game: Game, cache: dict[Any, Any]) -> JSON:
    v: JSON | None = cache.get("rules")
    if v is None:
        r = game.rules
        v = cache["rules"] = {
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
            "draw_count": r.draw_count(game.players),
            "going_out_bonus": r.going_out_bonus,
        }
    return v


def _sides(
    game: Game, cache: dict[Any, Any]
) -> tuple[list[list[JSON]], list[tuple[int, int]], list[JSON]]:
    """Each side's meld views, ``side_canastas`` and ``requirement_missing``, kept while the
    side's meld list is the same list of the same length (every action that changes a side's
    melds gives it a new list, and a meld that changes is a new object: ``Plan``)."""
    kept = cache.get("sides")
    if kept is None or len(kept) != len(game.melds):
        kept = cache["sides"] = [None] * len(game.melds)
    r = game.rules
    views: list[list[JSON]] = []
    counts: list[tuple[int, int]] = []
    missing: list[JSON] = []
    for i, side in enumerate(game.melds):
        got = kept[i]
        if got is None or got[0] is not side or got[1] != len(side):
            c = side_canastas(side, r)
            by_id = cache.get("melds")
            if by_id is None:
                by_id = cache["melds"] = {}
            got = kept[i] = (
                side,
                len(side),
                [_meld_view_kept(m, r, by_id) for m in side],
                c,
                game.requirement_missing(*c),
            )
        views.append(got[2])
        counts.append(got[3])
        missing.append(got[4])
    return views, counts, missing


def _meld_view_kept(m: TableMeld, rules: RuleSet, kept: dict[int, tuple[list[int], JSON]]) -> JSON:
    """``meld_view(m)``, kept in ``kept`` (meld id -> (its cards when made, the view))."""
    got = kept.get(m.id)
    if got is not None and got[0] == m.cards:
        return got[1]
    view = meld_view(m, rules, {})
    kept[m.id] = (list(m.cards), view)
    return view


def view_for(game: Game, seat: int, with_legal: bool = True) -> JSON:
    """What ``seat`` may know. Other hands are counts, the stock a count."""
    r = game.rules
    pile_ids = game.pile
    top = pile_ids[-1] if pile_ids else None
    n_sides = game.n_sides
    pile = {
        "size": len(pile_ids),
        "top": CARD_VIEWS[top] if top is not None else None,
        "blocked": game.pile_blocked(),
        "frozen": game.pile_frozen(game.side_of(seat)) if r.pile_freezes else False,
        "cards": list(map(CARD_VIEWS.__getitem__, pile_ids)),
    }
    cache = _cache_of(game)
    meld_views, counts, missing = _sides(game, cache)
    met = [game.requirement_met_counts(*c) for c in counts]
    my_side = seat % n_sides
    seats = cache.get("seats")
    if seats is None:
        seats = cache["seats"] = (
            [game.seats_of(s) for s in range(n_sides)],
            [game.side_of(s) for s in range(game.players)],
        )
    legal = legal_view(game, seat, met[my_side], counts[my_side]) if with_legal else None
    return {
        "version": game.version,
        "rules": _rules_view(game, cache),
        "players": game.players,
        "seat": seat,
        "sides": seats[0],
        "side_of": seats[1],
        "my_side": my_side,
        "deal": game.deal_no,
        "dealer": game.dealer,
        "target": game.target,
        "phase": game.phase,
        "current": game.current if game.phase not in ("deal_over", "game_over") else None,
        "hand": list(
            map(CARD_VIEWS.__getitem__, sorted(game.hands[seat], key=HAND_ORDER.__getitem__))
        ),
        "hand_sizes": [len(h) for h in game.hands],
        "stock": len(game.stock),
        "pile": pile,
        "melds": meld_views,
        "red_threes": [list(map(CARD_VIEWS.__getitem__, side)) for side in game.red3],
        "scores": list(game.scores),
        "opened": [bool(side) for side in game.melds],
        "minimum": [game.minimum(s) for s in range(n_sides)],
        "canastas": [c[0] for c in counts],
        "requirement": r.canastas_needed(game.players),
        "requirement_met": met,
        "requirement_missing": missing,
        "turn": {
            "asked": game.turn.asked,
            "refused": game.turn.refused,
            "pending": game.turn.pending
            if game.turn.asker >= 0 and game.side_of(game.turn.asker) == game.side_of(seat)
            else None,
            "asker": game.turn.asker,
        },
        "legal": legal,
        "log": seat_log(game, seat, cache=cache),
        "deal_result": game.deal_result,
        "history": [list(h) for h in game.history],
        "breakdowns": game.breakdowns,
        "result": game.result,
    }
