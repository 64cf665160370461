"""Legal-move queries: every draw, pile and discard choice, and the meld moves a player
interface or a bot needs (not every subset: ``Game.can`` answers any proposed meld), made from
the new-meld candidates of ``candidates.py``.

The common moves (single new melds and single-card additions on an opened side, discards) are
generated from the hand's kind counts and checked with the same rule functions the
``actions.verify_*`` checks use (``melds.addition_problem``, ``Game.end_of_action_problem``);
the rarer ones (openings, pile takes, merges, asks) are proposed and then verified, except an
opened side's pile takes without melds, which are accepted from counts too. A test compares the
generated moves with verifying every candidate. What is generated is recorded in the position's
``Game.generation()`` (with the plan where a move was verified), so that ``Game.play`` does not
check those very moves again."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, filterfalse, repeat

from .candidates import (
    NATURAL_KINDS,
    NATURALS_BY_RANK,
    candidate_shapes,
    new_meld_shape,
    opening_combos,
    part_facts,
    rule_shape,
    sequence_windows,
    wild_kinds,
)
from .cards import (
    IS_BLACK3,
    IS_NATURAL,
    IS_RED3,
    IS_WILD,
    KIND_OF_ID,
    N_KINDS,
    RANK_OF,
    SORT_INDEX,
    SUIT_OF,
    VALUE_OF_KIND,
    counts_of,
    kind_of_rank_suit,
)
from .errors import IllegalMove
from .melds import (
    BLACK3,
    GROUP,
    SEQUENCE,
    TableMeld,
    addition_problem,
    finished_kind,
    group_counts_problem,
)
from .moves import (
    AddTo,
    Answer,
    Ask,
    Discard,
    Draw,
    EndDeal,
    LayRedThree,
    Meld,
    Merge,
    Move,
    NewMeld,
    NextDeal,
    Pass,
    TakePile,
    TakePileOnto,
    TakeTop,
)
from .scoring import side_canastas
from .state import Game
from .turn import opening_minimum_met

_BLACK3_KINDS = [k for k in range(N_KINDS) if IS_BLACK3[k]]
_WILD_IDS = sorted(k for k in range(N_KINDS) if IS_WILD[k])
# Moves are values: the argument-free ones and the discards are made once.
_DRAW, _END_DEAL, _NEXT_DEAL, _PASS = Draw(), EndDeal(), NextDeal(), Pass()
_YES, _NO = Answer(True), Answer(False)
_DISCARDS = [Discard(k) for k in range(N_KINDS)]
# A group of rank r takes a natural of its rank or a wild card.
_GROUP_FITS = [
    tuple(kind_of_rank_suit(r, s) for s in range(4)) + tuple(_WILD_IDS) if r >= 2 else ()
    for r in range(15)
]
_GROUP_NATURALS = [fits[:4] for fits in _GROUP_FITS]


def _accepts(game: Game, move: Move) -> bool:
    """``game.can(move)``, and the plan kept in the position's generation record
    (``Game.generation``): playing that very move then uses the plan instead of checking it
    again."""
    try:
        plan = game.verify(move)
    except IllegalMove:
        return False
    if plan is not None:
        game.generation()[move] = plan
    return True


def fitting_kinds(meld: TableMeld) -> list[int] | tuple[int, ...]:
    """The kinds that could join ``meld`` alone (a necessary condition, not the rules' check):
    its rank or a wild card for a group, the kinds just below and above a sequence."""
    t = meld.type
    if t == GROUP:
        return _GROUP_FITS[meld.rank]
    if t == SEQUENCE:
        lo = RANK_OF[KIND_OF_ID[meld.cards[0]]] - 1
        hi = RANK_OF[KIND_OF_ID[meld.cards[-1]]] + 1
        base = meld.suit * 13 - 2  # (``kind_of_rank_suit``)
        out = []
        if 4 <= lo <= 14:
            out.append(base + lo)
        if 4 <= hi <= 14:
            out.append(base + hi)
        return out
    return _BLACK3_KINDS if t == BLACK3 else _WILD_IDS


# Single-part meld moves are values too: one object per new meld and per (meld id, kind)
# addition, so each keeps its text once made (bounded caches). New melds are kept by their
# cards (a part's equality and hash are its cards', and a tuple's are worked out in C).
_NEW_MOVES: dict[tuple[int, ...], Meld] = {}
_ADD_MOVES: dict[tuple[int, int], Meld] = {}


def new_meld_move(part: NewMeld) -> Meld:
    """``Meld((part,))``, one shared object per part."""
    got = _NEW_MOVES.get(part.cards)
    if got is None:
        if len(_NEW_MOVES) >= 4096:
            _NEW_MOVES.clear()
        got = _NEW_MOVES[part.cards] = Meld((part,))
    return got


def add_move(meld_id: int, k: int) -> Meld:
    """``Meld((AddTo(meld_id, (k,)),))``, one shared object per meld id and kind."""
    key = (meld_id, k)
    got = _ADD_MOVES.get(key)
    if got is None:
        if len(_ADD_MOVES) >= 4096:
            _ADD_MOVES.clear()
        got = _ADD_MOVES[key] = Meld((AddTo(meld_id, (k,)),))
    return got


def quick_fit(meld: TableMeld, k: int) -> bool:
    """Cheap pre-filter: could kind ``k`` possibly join ``meld``?"""
    t = meld.type
    if t == GROUP:
        return IS_WILD[k] or RANK_OF[k] == meld.rank
    if t == SEQUENCE:
        if not IS_NATURAL[k] or SUIT_OF[k] != meld.suit:
            return False
        r = RANK_OF[k]
        return (
            r == RANK_OF[KIND_OF_ID[meld.cards[0]]] - 1
            or r == RANK_OF[KIND_OF_ID[meld.cards[-1]]] + 1
        )
    return IS_BLACK3[k] if t == BLACK3 else IS_WILD[k]


class ActingSide:
    """What the generator needs of the acting side, worked out once per query."""

    __slots__ = (
        "game",
        "seat",
        "side",
        "melds",
        "finished",
        "sequences",
        "cards",
        "needed",
        "needs_sequence",
    )

    def __init__(self, game: Game, canastas: tuple[int, int] | None = None):
        """``canastas``: ``side_canastas`` of the side's melds, when the caller has it."""
        self.game = game
        self.seat = game.current
        self.side = game.current % game.n_sides
        self.melds = game.melds[self.side]
        self.finished, self.sequences = (
            side_canastas(self.melds, game.rules) if canastas is None else canastas
        )
        self.cards = len(game.hands[self.seat])
        self.needed = game.canastas_needed
        self.needs_sequence = game.rules.go_out_needs_sequence

    def met_after(self, gained: str | None, lost: str | None = None) -> bool:
        """Is the requirement met once a meld becomes ``gained`` (a finished kind or None) and
        one stops being ``lost``? (``Game.requirement_met_counts``)"""
        if self.finished + (gained is not None) - (lost is not None) < self.needed:
            return False
        return not self.needs_sequence or (
            self.sequences + (gained == "samba") - (lost == "samba") > 0
        )

    def end_ok(self, cards_left: int, met: bool, laid_black3: bool) -> bool:
        """``Game.end_of_action_problem`` is None."""
        return self.game.end_of_action_problem(cards_left, met, laid_black3) is None

    def new_meld_ok(self, part: NewMeld) -> bool:
        """One new meld laid by an opened side (``part`` is a valid meld by construction)."""
        ks = part.cards
        if IS_BLACK3[ks[0]]:
            return self.new_shape_ok(BLACK3, len(ks), 0)
        mtype, wilds = new_meld_shape(ks)
        return self.new_shape_ok(mtype, len(ks), wilds)

    def new_shape_ok(self, mtype: str, n: int, wilds: int) -> bool:
        """``new_meld_ok`` for a new meld of type ``mtype``, ``n`` cards, ``wilds`` wild."""
        if mtype == BLACK3:
            return self.end_ok(self.cards - n, self.met_after(None), True)
        gained = finished_kind(mtype, n, wilds, self.game.rules)
        return self.end_ok(self.cards - n, self.met_after(gained), False)

    def addition_ok(self, meld: TableMeld, k: int) -> bool:
        """One card of kind ``k`` added to ``meld`` (an opened side's own)."""
        r = self.game.rules
        if addition_problem(meld, (k,), r) is not None:
            return False
        before = meld.finished(r)
        after = finished_kind(meld.type, len(meld.cards) + 1, meld.wilds + IS_WILD[k], r)
        return self.end_ok(self.cards - 1, self.met_after(after, before), meld.type == BLACK3)


def single_addition(game: Game, acting: ActingSide, meld: TableMeld, k: int) -> Meld | None:
    """The move adding one card of kind ``k`` (in hand) to ``meld`` (the side's own), if it is
    legal now (``ActingSide.addition_ok``), recorded as generated at this position."""
    if not acting.addition_ok(meld, k):
        return None
    mv = add_move(meld.id, k)
    game.generation()[mv] = None
    return mv


def single_new_meld(
    game: Game, acting: ActingSide, part: NewMeld, mtype: str, n: int, wilds: int
) -> Meld | None:
    """The move laying ``part`` (a candidate of ``candidate_shapes`` with its type, size and wild
    cards) alone, if it is legal now, recorded as generated at this position."""
    if not acting.new_shape_ok(mtype, n, wilds):
        return None
    mv = new_meld_move(part)
    game.generation()[mv] = None
    return mv


# The natural kinds of each rank, rank by rank (suits in order): (rank, kinds).
_NATURALS_OF_RANK = [
    (r, [k for k in NATURALS_BY_RANK if RANK_OF[k] == r])
    for r in sorted({RANK_OF[k] for k in NATURAL_KINDS})
]
# The natural kinds of each suit, low rank to high: kinds ``lo .. lo + len - 1`` of ranks
# ``RANK_OF[lo]`` up (checked here), so a hand's counts of them are one slice.
_NATURALS_OF_SUIT = [[k for k in NATURALS_BY_RANK if SUIT_OF[k] == s] for s in range(4)]
_NATURALS_OF_RANK_LIST = [[k for k in NATURALS_BY_RANK if RANK_OF[k] == r] for r in range(15)]
_SUIT_SLICES = [(ks[0], ks[-1] + 1, RANK_OF[ks[0]]) for ks in _NATURALS_OF_SUIT]
assert all(
    ks == list(range(lo, hi)) and [RANK_OF[k] for k in ks] == list(range(r, r + len(ks)))
    for ks, (lo, hi, r) in zip(_NATURALS_OF_SUIT, _SUIT_SLICES)
)


def natural_rank_counts(counts: list[int]) -> list[int]:
    """The natural cards of each rank (0..14) in a hand's kind counts."""
    own = [0] * 15
    for rank, kinds in _NATURALS_OF_RANK:
        for k in kinds:
            own[rank] += counts[k]
    return own


def first_natural_new_meld(
    game: Game,
    acting: ActingSide,
    counts: list[int],
    max_size: int,
    rank_counts: list[int] | None = None,
) -> Meld | None:
    """The first of ``candidate_shapes(counts, game)`` that is a group without wild cards or a
    sequence, of at most ``max_size`` cards, and legal to lay alone now, as ``single_new_meld``
    gives it; found without listing the other candidates (the same order: the groups rank by
    rank, then each suit's runs, window by window; a test compares the two). ``rank_counts``:
    ``natural_rank_counts(counts)`` when the caller has it."""
    shape = rule_shape(game.rules)[1]
    min_naturals, sequences, smax = shape[2], shape[4], shape[5]
    own = natural_rank_counts(counts) if rank_counts is None else rank_counts
    for rank in range(15) if max(own) >= 3 else ():
        n = own[rank]
        if n >= 3 and n >= min_naturals and n <= max_size and acting.new_shape_ok(GROUP, n, 0):
            nat: list[int] = []
            for k in _NATURALS_OF_RANK_LIST[rank]:
                nat += [k] * counts[k]
            return single_new_meld(game, acting, NewMeld.of_sorted(tuple(nat)), GROUP, n, 0)
    if not sequences or max_size < 3:
        return None
    for suit in range(4):
        lo, hi, r0 = _SUIT_SLICES[suit]
        held = counts[lo:hi]
        if len(held) - held.count(0) < 3:
            continue
        base = suit * 13 - 2
        ranks = [r0 + i for i, c in enumerate(held) if c]
        for w in sequence_windows(ranks, smax):
            if len(w) <= max_size and acting.new_shape_ok(SEQUENCE, len(w), 0):
                return single_new_meld(
                    game, acting, NewMeld.of_sorted(tuple(base + x for x in w)), SEQUENCE, len(w), 0
                )
    return None


def addition_targets(
    game: Game, counts: list[int] | None = None, side: ActingSide | None = None
) -> dict[int, list[int]]:
    """For each kind in the current player's hand (in kind order), the meld ids it may join
    alone, now (in the side's meld order)."""
    if game.phase != "meld":
        return {}
    side = side or ActingSide(game)
    if not side.melds:
        return {}
    if counts is None:
        counts = counts_of(game.hand_kinds(side.seat))
    out: dict[int, list[int]] = {}
    for k, _, mid in addition_pairs(game, counts, side):
        out.setdefault(k, []).append(mid)
    return out


def addition_pairs(game: Game, counts: list[int], side: ActingSide) -> list[tuple[int, int, int]]:
    """``addition_targets`` as a sorted list: (kind, the meld's place among the side's melds,
    its id), in the meld phase of a side with melds."""
    r = game.rules
    found = []
    left = side.cards - 1
    held_wilds = [k for k in _WILD_IDS if counts[k]]
    # A group's answer for one card depends only on its size, its wild cards and whether the
    # card is wild (``addition_problem``, ``finished_kind``): asked once per such question.
    group_ok: dict[tuple[int, int, bool], bool] = {}
    for i, m in enumerate(side.melds):
        n, mtype = len(m.cards), m.type
        if mtype == GROUP and m.rank >= 4:
            a, b, c, d = _GROUP_NATURALS[m.rank]
            if counts[a] or counts[b] or counts[c] or counts[d]:
                ks = [k for k in (a, b, c, d) if counts[k]]
                if held_wilds:
                    ks += held_wilds
            elif held_wilds:
                ks = held_wilds
            else:
                continue
            w = m.wilds
            for k in ks:
                wk = IS_WILD[k]
                key = (n, w, wk)
                ok = group_ok.get(key)
                if ok is None:
                    ok = group_ok[key] = addition_problem(m, (k,), r) is None and side.end_ok(
                        left,
                        side.met_after(
                            finished_kind(GROUP, n + 1, w + wk, r), finished_kind(GROUP, n, w, r)
                        ),
                        False,
                    )
                if ok:
                    found.append((k, i, m.id))
            continue
        before, known = None, False  # (what the meld is finished as: asked when a card fits)
        for k in fitting_kinds(m):
            if counts[k] and addition_problem(m, (k,), r) is None:
                if not known:
                    before, known = m.finished(r), True
                after = finished_kind(mtype, n + 1, m.wilds + IS_WILD[k], r)
                if side.end_ok(left, side.met_after(after, before), mtype == BLACK3):
                    found.append((k, i, m.id))
    found.sort()
    return found


def pile_takes(game: Game, checked: bool = False) -> list[Move]:
    """Every distinct way to take the pile with a pair (and, when opening, the melds it needs).

    An opened side's takes without melds are accepted from counts (``PlainTakes``, the
    questions ``actions.verify_take_pile`` asks); the others, or all with ``checked``, are
    verified (a test compares the two)."""
    return list(iter_pile_takes(game, checked))


def iter_pile_takes(game: Game, checked: bool = False) -> Iterator[Move]:
    """``pile_takes`` one by one, each found only when asked for (the random player asks for
    the first only, unless it takes the pile)."""
    if not game.pile or game.pile_blocked():
        return
    seat, side = game.current, game.side_of(game.current)
    top = game.top_kind()
    assert top is not None
    counts = counts_of(game.hand_kinds(seat))
    top_rank = RANK_OF[top]
    nat: list[int] = []
    for k in _GROUP_NATURALS[top_rank]:
        if counts[k]:
            nat += [k] * counts[k]
    wilds = wild_kinds(counts)
    natural_and_wild = game.rules.take_pile_natural_and_wild and wilds
    if len(nat) < 2 and not (natural_and_wild and nat):
        return
    pairs = sorted({tuple(sorted(p)) for p in combinations(nat, 2)})
    shapes = [list(p) for p in pairs]
    if len(nat) > 2:
        shapes.append(nat)
    if natural_and_wild:
        shapes += [[k, wilds[0]] for k in sorted(set(nat))]
    opened = game.opened(side)
    plain = None
    if opened and not checked and game.phase == "draw":
        plain = PlainTakes(game, counts)
    for shape in shapes:
        for w in range(0, min(len(wilds), game.rules.group_max_wilds) + 1):
            cards = tuple(shape) + tuple(wilds[:w])
            if w and len(cards) == len(shape):
                continue
            if plain is not None:
                if plain.ok(cards):
                    yield TakePile(cards)
                continue
            move = TakePile(cards)
            if _accepts(game, move):
                yield move
            elif not opened and w == 0:
                rest = list(counts)
                for k in cards:
                    rest[k] -= 1
                have = sum(VALUE_OF_KIND[k] for k in cards) + VALUE_OF_KIND[top]
                for combo in opening_combos(rest, game.minimum(side) - have, game, limit=6):
                    m2 = TakePile(cards, combo)
                    if _accepts(game, m2):
                        yield m2
                        break


class PlainTakes:
    """``actions.verify_take_pile`` for an opened side's takes without meld parts, from counts:
    the cards in hand, a natural pair (or, where the rules allow and the pile is not frozen,
    one natural and a wild card), the group's wild-card limits, and what the hand may hold
    once the pile's other cards join it (``Game.end_of_action_problem``)."""

    __slots__ = ("counts", "rules", "frozen", "acting", "after")

    def __init__(self, game: Game, counts: list[int]):
        self.counts, self.rules = counts, game.rules
        self.frozen = game.pile_frozen(game.side_of(game.current))
        self.acting = ActingSide(game)
        rest = game.pile[:-1]
        if game.rules.red_threes_automatic:
            rest = [c for c in rest if not IS_RED3[KIND_OF_ID[c]]]
        self.after = self.acting.cards + len(rest)  # before the cards laid are taken off

    def ok(self, cards: tuple[int, ...]) -> bool:
        """May the pile be taken with ``cards`` (naturals of the top card's rank, wild cards)?"""
        counts = self.counts
        for k in set(cards):
            if cards.count(k) > counts[k]:
                return False
        r = self.rules
        naturals = sum(1 for k in cards if not IS_WILD[k])
        wilds = len(cards) - naturals
        if naturals < 2 and not (
            r.take_pile_natural_and_wild and not self.frozen and naturals >= 1 and wilds >= 1
        ):
            return False
        if group_counts_problem(naturals + 1, wilds, r) is not None:
            return False
        acting = self.acting
        done = finished_kind(GROUP, len(cards) + 1, wilds, r)
        return acting.end_ok(self.after - len(cards), acting.met_after(done), False)


def _draw_moves(game: Game, side: int, takes: bool = True) -> list[Move]:
    """The draw phase's moves but the red threes laid by choice (``takes=False``: and but the
    pile takes, which come last: ``iter_pile_takes``)."""
    out: list[Move] = []
    if game.stock:
        out.append(_DRAW)
    elif game.can(_END_DEAL):
        out.append(_END_DEAL)
    if game.pile and not game.pile_blocked():
        r = game.rules
        top = KIND_OF_ID[game.pile[-1]]
        for m in game.melds[side]:
            if not quick_fit(m, top):
                continue
            if r.take_top_card and m.type == SEQUENCE:
                mv: Move = TakeTop(m.id)
                if _accepts(game, mv):
                    out.append(mv)
            if r.take_pile_onto_meld:
                mv = TakePileOnto(m.id)
                if _accepts(game, mv):
                    out.append(mv)
        if takes:
            out += pile_takes(game)
    return out


def legal_moves(game: Game, canastas: tuple[int, int] | None = None) -> list[Move]:
    """The legal moves of the seat to act (meld candidates as single actions or openings;
    ``canastas``: ``side_canastas`` of the acting side's melds, when the caller has it)."""
    if game.phase != "meld":
        return other_moves(game)
    acting = ActingSide(game, canastas) if game.melds[game.current % game.n_sides] else None
    out = other_moves(game, acting)
    n_red3 = 0
    if not game.rules.red_threes_automatic:
        for m in out:
            n_red3 += type(m) is LayRedThree
    return out[:n_red3] + list(meld_moves(game, acting)) + out[n_red3:]


def other_moves(game: Game, acting: ActingSide | None = None, takes: bool = True) -> list[Move]:
    """The legal moves of the seat to act but the meld moves (``meld_moves``), in the order
    ``legal_moves`` lists them (``acting``: the acting side's facts, when the caller has
    them; ``takes=False``: and but the pile takes, the draw phase's last moves, which
    ``iter_pile_takes`` gives)."""
    ph = game.phase
    if ph == "game_over":
        return []
    if ph == "deal_over":
        return [_NEXT_DEAL]
    if ph == "answer":
        return [_YES, _NO]
    seat = game.current
    side = seat % game.n_sides
    out: list[Move] = []
    hand = game.hands[seat]
    by_choice = not game.rules.red_threes_automatic
    if ph == "draw" and not by_choice:
        return _draw_moves(game, side, takes)  # (the kinds in hand are not needed)
    distinct = sorted(set(map(KIND_OF_ID.__getitem__, hand)), key=SORT_INDEX.__getitem__)
    if by_choice and len(hand) > 1:
        out += [LayRedThree(k) for k in distinct if IS_RED3[k]]
    if ph == "draw":
        return out + _draw_moves(game, side, takes)
    ranks: set[int] = set()
    merges = False  # (two groups of one rank: only then are the pairs listed)
    for m in game.melds[side]:
        if m.type == GROUP:
            if m.rank in ranks:
                merges = True
                break
            ranks.add(m.rank)
    if merges:
        groups = [m for m in game.melds[side] if m.type == GROUP]
        for a, b in combinations(groups, 2):
            if a.rank == b.rank:
                mv = Merge(a.id, b.id)
                if _accepts(game, mv):
                    out.append(mv)
    out += discard_moves(game, distinct)
    if game.rules.pass_with_one and game.can(_PASS):
        out.append(_PASS)
    if game._partners[seat] and not game.turn.asked:
        out += ask_moves(game, acting)
    return out


def has_meld_move(
    game: Game, acting: ActingSide | None = None, counts: list[int] | None = None
) -> bool:
    """Is any meld move legal now (``meld_moves(game)`` not empty)? Stops at the first
    (``acting``, ``counts``: the acting side's facts and the hand's kind counts, when the caller
    has them)."""
    if game.phase != "meld":
        return False
    side = game.side_of(game.current)
    if not game.opened(side):
        return bool(meld_moves(game))
    if counts is None:
        counts = counts_of(game.hand_kinds(game.current))
    if acting is None:
        acting = ActingSide(game)
    # single-card additions first: cheaper to find than new melds, and more often there
    wilds = counts[0] or counts[13] or counts[26] or counts[39] or counts[52]
    for m in acting.melds:
        if m.type == GROUP and m.rank >= 4 and not wilds:
            a, b, c, d = _GROUP_NATURALS[m.rank]
            if not (counts[a] or counts[b] or counts[c] or counts[d]):
                continue  # (nothing in hand fits it)
        for k in fitting_kinds(m):
            if counts[k] and acting.addition_ok(m, k):
                return True
    for _, t, n, w in candidate_shapes(counts, game):
        if acting.new_shape_ok(t, n, w):
            return True
    return False


def discard_moves(game: Game, distinct: list[int]) -> list[Discard]:
    """The discards of the seat to act (``distinct``: the kinds in hand, display order)."""
    if len(game.hands[game.current]) == 1 and not game.may_go_out_now():
        return []
    if game.rules.red_three_discardable:
        return list(map(_DISCARDS.__getitem__, distinct))
    return list(map(_DISCARDS.__getitem__, filterfalse(IS_RED3.__getitem__, distinct)))


def ask_moves(game: Game, acting: ActingSide | None = None) -> list[Ask]:
    """Simple going-out actions to ask the partner about: the last card discarded, or one
    card added to a meld and the other discarded (``acting``: the acting side's facts, when
    the caller has them)."""
    seat = game.current
    if game.ask_problem(seat) is not None:
        return []
    if not (
        acting.met_after(None) if acting is not None else game.requirement_met(game.side_of(seat))
    ):
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
    return [a for a in cands if _accepts(game, a)]


def opening_ok(game: Game, combo: Sequence[NewMeld]) -> bool:
    """Would ``game.can(Meld(combo))`` accept an opening that ``opening_combos`` made (new
    melds, none of black threes, that the hand holds together)? The parts are valid melds by
    construction, so what is left of ``verify_meld`` is the opening minimum and the end of the
    action (``actions._check_after``); a test compares this with ``Game.can``."""
    if not combo:
        return False
    r = game.rules
    laid = points = finished = sequences = 0
    for part in combo:
        n = len(part.cards)
        laid += n
        value, _, mtype, wilds = part_facts(part)
        points += value
        done = finished_kind(mtype, n, wilds, r)
        if done is not None:
            finished += 1
            sequences += done == "samba"
    if not opening_minimum_met(points, game.minimum(game.side_of(game.current))):
        return False
    return (
        game.end_of_action_problem(
            len(game.hands[game.current]) - laid,
            game.requirement_met_counts(finished, sequences),
            False,
        )
        is None
    )


def meld_moves(
    game: Game, acting: ActingSide | None = None, counts: list[int] | None = None
) -> list[Meld]:
    """The meld moves of the seat to act (recorded as generated at this position: ``play``
    does not check them again; ``acting``, ``counts``: the acting side's facts and the hand's
    kind counts, when the caller has them)."""
    out = _meld_moves(game, acting, counts)
    if out:
        game.generation().update(zip(out, repeat(None)))
    return out


def _meld_moves(
    game: Game, acting: ActingSide | None = None, counts: list[int] | None = None
) -> list[Meld]:
    seat = game.current
    side = seat % game.n_sides
    if counts is None:
        counts = counts_of(game.hand_kinds(seat))
    out: list[Meld] = []
    if not game.opened(side):
        for combo in opening_combos(counts, game.minimum(side), game):
            if opening_ok(game, combo):
                out.append(Meld(tuple(combo)))
        return out
    if acting is None:
        acting = ActingSide(game)
    news, adds = opened_meld_choices(game, acting, counts)
    out = list(map(new_meld_move, news))
    for k, _, mid in adds:
        out.append(add_move(mid, k))
    return out


def opened_meld_choices(
    game: Game, acting: ActingSide, counts: list[int]
) -> tuple[list[NewMeld], list[tuple[int, int, int]]]:
    """The meld moves of an opened side in the meld phase, in ``meld_moves`` order but not yet
    made: the new melds' parts, then the single-card additions (``addition_pairs``)."""
    news = [
        part for part, t, n, w in candidate_shapes(counts, game) if acting.new_shape_ok(t, n, w)
    ]
    return news, addition_pairs(game, counts, acting)


def meld_move_at(
    game: Game, acting: ActingSide, counts: list[int], pick: Callable[[range], int]
) -> Meld:
    """``pick(meld_moves(game, acting, counts))`` for an opened side with a meld move
    (``has_meld_move``), where ``pick`` reads only the list's length and one item
    (``random.Random.choice``): only that move is made and recorded as generated."""
    news, adds = opened_meld_choices(game, acting, counts)
    i = pick(range(len(news) + len(adds)))
    if i < len(news):
        mv = new_meld_move(news[i])
    else:
        k, _, mid = adds[i - len(news)]
        mv = add_move(mid, k)
    game.generation()[mv] = None
    return mv
