"""Legal-move queries: every draw, pile and discard choice, and the meld candidates a player
interface or a bot needs (not every subset: ``Game.can`` answers any proposed meld)."""
from __future__ import annotations

from itertools import combinations

from .cards import (IS_BLACK3, IS_NATURAL, IS_RED3, IS_WILD, N_KINDS, RANK_OF, SUIT_OF,
                    VALUE_OF_KIND, card_sort_key, counts_of, kind_of_rank_suit)
from .melds import GROUP, SEQUENCE
from .moves import (AddTo, Answer, Ask, Discard, Draw, EndDeal, LayRedThree, Merge, Move,
                    NewMeld, NextDeal, Pass, TakePile, TakePileOnto, TakeTop)
from .moves import Meld as MeldMove
from .state import Game

MAX_OPENINGS = 24


def wild_kinds(counts: list[int]) -> list[int]:
    """Wild kinds in hand, cheapest first (twos before jokers)."""
    out = []
    for k in sorted((k for k in range(N_KINDS) if IS_WILD[k]), key=VALUE_OF_KIND.__getitem__):
        out += [k] * counts[k]
    return out


def meld_candidates(counts: list[int], game: Game) -> list[NewMeld]:
    """New melds that can be made from a hand (as kind counts): full groups, groups with one or
    two wild cards, every sequence window of 3 to 7, black threes, wild melds."""
    r = game.rules
    out: list[NewMeld] = []
    wilds = wild_kinds(counts)
    by_rank: dict[int, list[int]] = {}
    for k in range(N_KINDS):
        if counts[k] and IS_NATURAL[k]:
            by_rank.setdefault(RANK_OF[k], []).extend([k] * counts[k])
    for rank, nat in sorted(by_rank.items()):
        n = len(nat)
        for w in range(0, min(len(wilds), r.group_max_wilds) + 1):
            if n + w < 3 or n < r.group_naturals_per_wild * w or n < r.group_min_naturals:
                continue
            if r.group_naturals_exceed_wilds and n <= w:
                continue
            out.append(NewMeld(tuple(nat) + tuple(wilds[:w])))
    if r.sequences:
        for suit in range(4):
            ranks = [rk for rk in range(4, 15) if counts[kind_of_rank_suit(rk, suit)]]
            run: list[int] = []
            for rk in ranks + [99]:
                if run and rk == run[-1] + 1:
                    run.append(rk)
                    continue
                for i in range(len(run)):
                    for j in range(i + 3, min(len(run), i + r.sequence_max) + 1):
                        out.append(NewMeld(tuple(kind_of_rank_suit(x, suit) for x in run[i:j])))
                run = [rk]
    b3 = [k for k in range(N_KINDS) if IS_BLACK3[k] for _ in range(counts[k])]
    if len(b3) >= 3:
        out.append(NewMeld(tuple(b3)))
    if r.wild_melds and len(wilds) >= 3:
        out.append(NewMeld(tuple(wilds[:r.wild_meld_max])))
    return out


def _fits(counts: list[int], kinds) -> bool:
    need = counts_of(kinds)
    return all(need[k] <= counts[k] for k in set(kinds))


def _value(part) -> int:
    return sum(VALUE_OF_KIND[k] for k in part.cards)


def opening_combos(counts: list[int], needed: int, game: Game, limit: int = MAX_OPENINGS):
    """Sets of new melds (tuples of parts) from ``counts`` worth at least ``needed``."""
    cands = sorted(meld_candidates(counts, game), key=_value, reverse=True)
    cands = [c for c in cands if not all(IS_BLACK3[k] for k in c.cards)]
    found: list[tuple] = []
    seen = set()

    def add(combo):
        key = tuple(sorted(p.cards for p in combo))
        if key not in seen:
            seen.add(key)
            found.append(tuple(combo))
    if needed <= 0:
        return [()]
    for c in cands:
        if _value(c) >= needed:
            add((c,))
    top = cands[:12]
    for a, b in combinations(top, 2):
        if _value(a) + _value(b) >= needed and _fits(counts, a.cards + b.cards):
            add((a, b))
    for start in top:   # greedy fill
        combo, used = [start], list(start.cards)
        for c in cands:
            if sum(map(_value, combo)) >= needed:
                break
            if c is not start and _fits(counts, used + list(c.cards)):
                combo.append(c)
                used += c.cards
        if sum(map(_value, combo)) >= needed:
            add(combo)
        if len(found) >= limit:
            break
    return found[:limit]


def _quick_fit(game: Game, meld, k: int) -> bool:
    """Cheap pre-filter: could kind ``k`` possibly join ``meld``?"""
    if meld.type == GROUP:
        return IS_WILD[k] or RANK_OF[k] == meld.rank
    if meld.type == SEQUENCE:
        if IS_WILD[k] or not IS_NATURAL[k] or SUIT_OF[k] != meld.suit:
            return False
        lo, hi = _ends(meld)
        return RANK_OF[k] in (lo - 1, hi + 1)
    return IS_BLACK3[k] if meld.type == "black3" else IS_WILD[k]


def _ends(meld) -> tuple[int, int]:
    from .cards import KIND_OF_ID
    return RANK_OF[KIND_OF_ID[meld.cards[0]]], RANK_OF[KIND_OF_ID[meld.cards[-1]]]


def addition_targets(game: Game) -> dict[int, list[int]]:
    """For each kind in the current player's hand, the meld ids it may join alone, now."""
    seat, side = game.current, game.side_of(game.current)
    out: dict[int, list[int]] = {}
    if game.phase != "meld":
        return out
    for k in sorted(set(game.hand_kinds(seat))):
        for m in game.melds[side]:
            if _quick_fit(game, m, k) and game.can(MeldMove((AddTo(m.id, (k,)),))):
                out.setdefault(k, []).append(m.id)
    return out


def pile_takes(game: Game) -> list[Move]:
    """Every distinct way to take the pile with a pair (and, when opening, the melds it needs)."""
    if not game.pile or game.pile_blocked():
        return []
    seat, side = game.current, game.side_of(game.current)
    top = game.top_kind()
    counts = counts_of(game.hand_kinds(seat))
    nat = [k for k in range(N_KINDS) if IS_NATURAL[k] and RANK_OF[k] == RANK_OF[top]
           for _ in range(counts[k])]
    wilds = wild_kinds(counts)
    pairs = sorted({tuple(sorted(p)) for p in combinations(nat, 2)})
    out: list[Move] = []
    shapes = [list(p) for p in pairs]
    if len(nat) > 2:
        shapes.append(nat)
    if game.rules.take_pile_natural_and_wild and wilds:
        shapes += [[k, wilds[0]] for k in sorted(set(nat))]
    for shape in shapes:
        for w in range(0, min(len(wilds), game.rules.group_max_wilds) + 1):
            cards = tuple(shape) + tuple(wilds[:w])
            if w and len(cards) == len(shape):
                continue
            move = TakePile(cards)
            if game.can(move):
                out.append(move)
            elif not game.opened(side) and w == 0:
                rest = list(counts)
                for k in cards:
                    rest[k] -= 1
                have = sum(VALUE_OF_KIND[k] for k in cards) + VALUE_OF_KIND[top]
                for combo in opening_combos(rest, game.minimum(side) - have, game, limit=6):
                    m2 = TakePile(cards, combo)
                    if game.can(m2):
                        out.append(m2)
                        break
    return out


def legal_moves(game: Game) -> list[Move]:
    """The legal moves of the seat to act (meld candidates as single actions or openings)."""
    ph = game.phase
    if ph == "game_over":
        return []
    if ph == "deal_over":
        return [NextDeal()]
    if ph == "answer":
        return [Answer(True), Answer(False)]
    seat, side = game.current, game.side_of(game.current)
    out: list[Move] = []
    kinds = game.hand_kinds(seat)
    distinct = sorted(set(kinds), key=card_sort_key)
    if not game.rules.red_threes_automatic:
        out += [m for m in (LayRedThree(k) for k in distinct if IS_RED3[k]) if game.can(m)]
    if ph == "draw":
        for m in (Draw(), EndDeal()):
            if game.can(m):
                out.append(m)
        if game.pile and not game.pile_blocked():
            for m in game.melds[side]:
                for mv in (TakeTop(m.id), TakePileOnto(m.id)):
                    if game.can(mv):
                        out.append(mv)
            out += pile_takes(game)
        return out
    # meld phase
    out += [m for m in meld_moves(game)]
    for a, b in combinations([m for m in game.melds[side] if m.type == GROUP], 2):
        if a.rank == b.rank and game.can(Merge(a.id, b.id)):
            out.append(Merge(a.id, b.id))
    out += [m for m in (Discard(k) for k in distinct) if game.can(m)]
    if game.can(Pass()):
        out.append(Pass())
    out += ask_moves(game)
    return out


def ask_moves(game: Game) -> list[Ask]:
    """Simple going-out actions to ask the partner about: the last card discarded, or one
    card added to a meld and the other discarded."""
    seat = game.current
    if not game.partners(seat) or game.turn.asked or not game.requirement_met(
            game.side_of(seat)):
        return []
    kinds = game.hand_kinds(seat)
    cands: list[Ask] = []
    if len(kinds) == 1:
        cands.append(Ask((), kinds[0]))
    elif len(kinds) == 2:
        targets = addition_targets(game)
        for a, d in ((kinds[0], kinds[1]), (kinds[1], kinds[0])):
            for mid in targets.get(a, [])[:1]:
                cands.append(Ask((AddTo(mid, (a,)),), d))
    return [a for a in cands if game.can(a)]


def meld_moves(game: Game) -> list[MeldMove]:
    seat, side = game.current, game.side_of(game.current)
    counts = counts_of(game.hand_kinds(seat))
    out: list[MeldMove] = []
    if not game.opened(side):
        for combo in opening_combos(counts, game.minimum(side), game):
            mv = MeldMove(tuple(combo))
            if game.can(mv):
                out.append(mv)
        return out
    for part in meld_candidates(counts, game):
        mv = MeldMove((part,))
        if game.can(mv):
            out.append(mv)
    for k, ids in addition_targets(game).items():
        for mid in ids:
            out.append(MeldMove((AddTo(mid, (k,)),)))
    return out
