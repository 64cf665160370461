"""Legal-move queries: every draw, pile and discard choice, and the meld candidates a player
interface or a bot needs (not every subset: ``Game.can`` answers any proposed meld).

The common moves (single new melds and single-card additions on an opened side, discards) are
generated from the hand's kind counts and checked with the same rule functions the state's
``verify_*`` checks use (``melds.addition_problem``, ``Game.end_of_action_problem``); the rarer
ones (openings, pile takes, merges, asks) are proposed and then verified. A test compares the
generated moves with verifying every candidate."""
from __future__ import annotations

from itertools import combinations

from .cards import (IS_BLACK3, IS_NATURAL, IS_RED3, IS_WILD, KIND_OF_ID, N_KINDS, RANK_OF,
                    SUIT_OF, VALUE_OF_KIND, card_sort_key, counts_of, kind_of_rank_suit)
from .melds import BLACK3, GROUP, SEQUENCE, WILD, TableMeld, addition_problem, finished_kind
from .moves import (AddTo, Answer, Ask, Discard, Draw, EndDeal, LayRedThree, Meld, Merge, Move,
                    NewMeld, NextDeal, Pass, TakePile, TakePileOnto, TakeTop)
from .scoring import side_canastas
from .state import Game

MAX_OPENINGS = 24
_WILD_KINDS = sorted((k for k in range(N_KINDS) if IS_WILD[k]), key=VALUE_OF_KIND.__getitem__)
_NATURAL_KINDS = [k for k in range(N_KINDS) if IS_NATURAL[k]]
_BLACK3_KINDS = [k for k in range(N_KINDS) if IS_BLACK3[k]]
_WILD_IDS = sorted(k for k in range(N_KINDS) if IS_WILD[k])


def fitting_kinds(meld: TableMeld) -> list[int]:
    """The kinds that could join ``meld`` alone (a necessary condition, not the rules' check):
    its rank or a wild card for a group, the kinds just below and above a sequence."""
    t = meld.type
    if t == GROUP:
        return [kind_of_rank_suit(meld.rank, s) for s in range(4)] + _WILD_IDS
    if t == SEQUENCE:
        lo = RANK_OF[KIND_OF_ID[meld.cards[0]]]
        hi = RANK_OF[KIND_OF_ID[meld.cards[-1]]]
        return [kind_of_rank_suit(r, meld.suit) for r in (lo - 1, hi + 1) if 4 <= r <= 14]
    return _BLACK3_KINDS if t == BLACK3 else _WILD_IDS


def wild_kinds(counts: list[int]) -> list[int]:
    """Wild kinds in hand, cheapest first (twos before jokers)."""
    out: list[int] = []
    for k in _WILD_KINDS:
        if counts[k]:
            out += [k] * counts[k]
    return out


def meld_candidates(counts: list[int], game: Game) -> list[NewMeld]:
    """New melds that can be made from a hand (as kind counts): full groups, groups with one or
    two wild cards, every sequence window of 3 to 7, black threes, wild melds."""
    r = game.rules
    out: list[NewMeld] = []
    wilds = wild_kinds(counts)
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for k in _NATURAL_KINDS:
        n = counts[k]
        if n:
            by_rank.setdefault(RANK_OF[k], []).extend([k] * n)
            by_suit.setdefault(SUIT_OF[k], []).append(RANK_OF[k])
    max_w = min(len(wilds), r.group_max_wilds)
    for rank in sorted(by_rank):
        nat = by_rank[rank]
        n = len(nat)
        for w in range(0, max_w + 1):
            if n + w < 3 or n < r.group_naturals_per_wild * w or n < r.group_min_naturals:
                continue
            if r.group_naturals_exceed_wilds and n <= w:
                continue
            out.append(NewMeld.of_sorted(tuple(nat) + tuple(wilds[:w])))
    if r.sequences:
        smax = r.sequence_max
        for suit in sorted(by_suit):
            ranks = sorted(by_suit[suit])
            if len(ranks) < 3:
                continue
            run: list[int] = []
            for rk in ranks + [99]:
                if run and rk == run[-1] + 1:
                    run.append(rk)
                    continue
                for i in range(len(run) - 2):
                    for j in range(i + 3, min(len(run), i + smax) + 1):
                        out.append(NewMeld.of_sorted(tuple(kind_of_rank_suit(x, suit) for x in run[i:j])))
                run = [rk]
    b3 = [k for k in _BLACK3_KINDS for _ in range(counts[k])]
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


def quick_fit(meld: TableMeld, k: int) -> bool:
    """Cheap pre-filter: could kind ``k`` possibly join ``meld``?"""
    t = meld.type
    if t == GROUP:
        return IS_WILD[k] or RANK_OF[k] == meld.rank
    if t == SEQUENCE:
        if not IS_NATURAL[k] or SUIT_OF[k] != meld.suit:
            return False
        r = RANK_OF[k]
        return (r == RANK_OF[KIND_OF_ID[meld.cards[0]]] - 1
                or r == RANK_OF[KIND_OF_ID[meld.cards[-1]]] + 1)
    return IS_BLACK3[k] if t == BLACK3 else IS_WILD[k]


class ActingSide:
    """What the generator needs of the acting side, worked out once per query."""

    __slots__ = ("game", "seat", "side", "melds", "finished", "sequences", "cards")

    def __init__(self, game: Game):
        self.game = game
        self.seat = game.current
        self.side = game.side_of(game.current)
        self.melds = game.melds[self.side]
        self.finished, self.sequences = side_canastas(self.melds, game.rules)
        self.cards = len(game.hands[self.seat])

    def met_after(self, gained: str | None, lost: str | None = None) -> bool:
        """Is the requirement met once a meld becomes ``gained`` (a finished kind or None) and
        one stops being ``lost``?"""
        f = self.finished + (gained is not None) - (lost is not None)
        s = self.sequences + (gained == "samba") - (lost == "samba")
        return self.game.requirement_met_counts(f, s)

    def new_meld_ok(self, part: NewMeld) -> bool:
        """One new meld laid by an opened side (``part`` is a valid meld by construction)."""
        ks = part.cards
        r = self.game.rules
        if IS_BLACK3[ks[0]]:
            mtype, gained = BLACK3, None
        else:
            naturals = [k for k in ks if not IS_WILD[k]]
            if not naturals:
                mtype = WILD
            elif all(RANK_OF[k] == RANK_OF[naturals[0]] for k in naturals):
                mtype = GROUP
            else:
                mtype = SEQUENCE
            gained = finished_kind(mtype, len(ks), len(ks) - len(naturals), r)
        return self.game.end_of_action_problem(self.cards - len(ks), self.met_after(gained),
                                               mtype == BLACK3) is None

    def addition_ok(self, meld: TableMeld, k: int) -> bool:
        """One card of kind ``k`` added to ``meld`` (an opened side's own)."""
        r = self.game.rules
        if addition_problem(meld, (k,), r) is not None:
            return False
        before = meld.finished(r)
        after = finished_kind(meld.type, len(meld.cards) + 1, meld.wilds + IS_WILD[k], r)
        return self.game.end_of_action_problem(self.cards - 1, self.met_after(after, before),
                                               meld.type == BLACK3) is None


def addition_targets(game: Game, counts: list[int] | None = None,
                     side: ActingSide | None = None) -> dict[int, list[int]]:
    """For each kind in the current player's hand (in kind order), the meld ids it may join
    alone, now (in the side's meld order)."""
    if game.phase != "meld":
        return {}
    side = side or ActingSide(game)
    if not side.melds:
        return {}
    if counts is None:
        counts = counts_of(game.hand_kinds(side.seat))
    found = []
    for i, m in enumerate(side.melds):
        for k in fitting_kinds(m):
            if counts[k] and side.addition_ok(m, k):
                found.append((k, i, m.id))
    found.sort()
    out: dict[int, list[int]] = {}
    for k, _, mid in found:
        out.setdefault(k, []).append(mid)
    return out


def pile_takes(game: Game) -> list[Move]:
    """Every distinct way to take the pile with a pair (and, when opening, the melds it needs)."""
    if not game.pile or game.pile_blocked():
        return []
    seat, side = game.current, game.side_of(game.current)
    top = game.top_kind()
    assert top is not None
    counts = counts_of(game.hand_kinds(seat))
    top_rank = RANK_OF[top]
    nat = [k for k in range(N_KINDS) if IS_NATURAL[k] and RANK_OF[k] == top_rank
           for _ in range(counts[k])]
    wilds = wild_kinds(counts)
    natural_and_wild = game.rules.take_pile_natural_and_wild and wilds
    if len(nat) < 2 and not (natural_and_wild and nat):
        return []
    pairs = sorted({tuple(sorted(p)) for p in combinations(nat, 2)})
    out: list[Move] = []
    shapes = [list(p) for p in pairs]
    if len(nat) > 2:
        shapes.append(nat)
    if natural_and_wild:
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


def _draw_moves(game: Game, side: int) -> list[Move]:
    out: list[Move] = []
    if game.stock:
        out.append(Draw())
    elif game.can(EndDeal()):
        out.append(EndDeal())
    if game.pile and not game.pile_blocked():
        r = game.rules
        top = KIND_OF_ID[game.pile[-1]]
        for m in game.melds[side]:
            if not quick_fit(m, top):
                continue
            if r.take_top_card and m.type == SEQUENCE:
                mv: Move = TakeTop(m.id)
                if game.can(mv):
                    out.append(mv)
            if r.take_pile_onto_meld:
                mv = TakePileOnto(m.id)
                if game.can(mv):
                    out.append(mv)
        out += pile_takes(game)
    return out


def legal_moves(game: Game) -> list[Move]:
    """The legal moves of the seat to act (meld candidates as single actions or openings)."""
    if game.phase != "meld":
        return other_moves(game)
    out = other_moves(game)
    n_red3 = sum(1 for m in out if isinstance(m, LayRedThree))
    return out[:n_red3] + list(meld_moves(game)) + out[n_red3:]


def other_moves(game: Game) -> list[Move]:
    """The legal moves of the seat to act but the meld moves (``meld_moves``), in the order
    ``legal_moves`` lists them."""
    ph = game.phase
    if ph == "game_over":
        return []
    if ph == "deal_over":
        return [NextDeal()]
    if ph == "answer":
        return [Answer(True), Answer(False)]
    seat, side = game.current, game.side_of(game.current)
    out: list[Move] = []
    hand = game.hands[seat]
    distinct = sorted({KIND_OF_ID[c] for c in hand}, key=card_sort_key)
    if not game.rules.red_threes_automatic and len(hand) > 1:
        out += [LayRedThree(k) for k in distinct if IS_RED3[k]]
    if ph == "draw":
        return out + _draw_moves(game, side)
    groups = [m for m in game.melds[side] if m.type == GROUP]
    if len(groups) > 1:
        for a, b in combinations(groups, 2):
            if a.rank == b.rank and game.can(Merge(a.id, b.id)):
                out.append(Merge(a.id, b.id))
    out += discard_moves(game, distinct)
    if game.rules.pass_with_one and game.can(Pass()):
        out.append(Pass())
    if game.partners(seat) and not game.turn.asked:
        out += ask_moves(game)
    return out


def has_meld_move(game: Game) -> bool:
    """Is any meld move legal now (``meld_moves(game)`` not empty)? Stops at the first."""
    if game.phase != "meld":
        return False
    side = game.side_of(game.current)
    if not game.opened(side):
        return bool(meld_moves(game))
    counts = counts_of(game.hand_kinds(game.current))
    acting = ActingSide(game)
    if any(acting.new_meld_ok(p) for p in meld_candidates(counts, game)):
        return True
    return any(counts[k] and acting.addition_ok(m, k)
               for m in acting.melds for k in fitting_kinds(m))


def discard_moves(game: Game, distinct: list[int]) -> list[Discard]:
    """The discards of the seat to act (``distinct``: the kinds in hand, display order)."""
    if len(game.hands[game.current]) == 1 and not game.may_go_out_now():
        return []
    discardable = game.rules.red_three_discardable
    return [Discard(k) for k in distinct if discardable or not IS_RED3[k]]


def ask_moves(game: Game) -> list[Ask]:
    """Simple going-out actions to ask the partner about: the last card discarded, or one
    card added to a meld and the other discarded."""
    seat = game.current
    if game.ask_problem(seat) is not None or not game.requirement_met(game.side_of(seat)):
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


def meld_moves(game: Game) -> list[Meld]:
    seat, side = game.current, game.side_of(game.current)
    counts = counts_of(game.hand_kinds(seat))
    out: list[Meld] = []
    if not game.opened(side):
        for combo in opening_combos(counts, game.minimum(side), game):
            mv = Meld(tuple(combo))
            if game.can(mv):
                out.append(mv)
        return out
    acting = ActingSide(game)
    for part in meld_candidates(counts, game):
        if acting.new_meld_ok(part):
            out.append(Meld((part,)))
    for k, ids in addition_targets(game, counts, acting).items():
        for mid in ids:
            out.append(Meld((AddTo(mid, (k,)),)))
    return out
