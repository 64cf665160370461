"""The new melds a hand can make, from its kind counts: every candidate group, sequence, black
three and wild meld with its type, size and wild cards (kept per rule set, a bounded cache), and
the sets of candidates that reach an opening minimum. No position is read but the rule set:
``legal.py`` checks the candidates against the table and turns them into moves."""

from __future__ import annotations

from itertools import combinations
from operator import itemgetter

from .cards import IS_NATURAL, IS_WILD, N_KINDS, RANK_OF, SUIT_OF, VALUE_OF_KIND
from .melds import BLACK3, GROUP, SEQUENCE, WILD, group_counts_ok
from .moves import NewMeld
from .state import Game

MAX_OPENINGS = 24
_WILD_KINDS = sorted((k for k in range(N_KINDS) if IS_WILD[k]), key=VALUE_OF_KIND.__getitem__)
NATURAL_KINDS = [k for k in range(N_KINDS) if IS_NATURAL[k]]
# The natural kinds rank by rank (suits in order within a rank).
NATURALS_BY_RANK = sorted(NATURAL_KINDS, key=lambda k: (RANK_OF[k], SUIT_OF[k]))
# A hand's counts of those kinds, in that order (one call: ``compress`` then keeps the held ones).
_NATURAL_COUNTS = itemgetter(*NATURALS_BY_RANK)


def wild_kinds(counts: list[int]) -> list[int]:
    """Wild kinds in hand, cheapest first (twos before jokers)."""
    out: list[int] = []
    for k in _WILD_KINDS:
        if counts[k]:
            out += [k] * counts[k]
    return out


# The candidates found so far under each set of the rule fields new melds depend on (by value:
# rule sets that agree on them share their candidates).
_SHAPES: dict[tuple, tuple] = {}


def rule_shape(r) -> tuple:
    """The rule fields new melds depend on, and the candidates found under them so far."""
    key = (
        r.group_max_wilds,
        r.group_naturals_per_wild,
        r.group_min_naturals,
        r.group_naturals_exceed_wilds,
        r.sequences,
        r.sequence_max,
        r.wild_melds,
        r.wild_meld_max,
    )
    got = _SHAPES.get(key)
    if got is None:
        got = _SHAPES[key] = (r, key, {}, _fewest_group_naturals(r))
    return got


def _fewest_group_naturals(r) -> int:
    """The fewest natural cards any group may hold under the rules ``r`` (with as many wild
    cards as it may take): a rank held fewer times makes no group candidate."""
    return next(
        (
            n
            for n in range(1, 4)
            if any(group_counts_ok(n, w, r) for w in range(r.group_max_wilds + 1))
        ),
        4,
    )


# Which counts are held at all: a sequence candidate reads no more of a suit's counts.
_HELD = bytes(min(n, 1) for n in range(256))


def meld_candidates(counts: list[int], game: Game) -> tuple[NewMeld, ...]:
    """New melds that can be made from a hand (as kind counts): full groups, groups with one or
    two wild cards, every sequence window of 3 to 7, black threes, wild melds."""
    return tuple(c[0] for c in candidate_shapes(counts, game))


def sequence_windows(ranks: list[int], smax: int):
    """Each run of 3 to ``smax`` consecutive ranks among ``ranks`` (ascending, distinct) that a
    sequence could be laid of: run by run from the lowest, by start, shorter first."""
    run: list[int] = []
    for rk in ranks + [99]:
        if run and rk == run[-1] + 1:
            run.append(rk)
            continue
        for i in range(len(run) - 2):
            for j in range(i + 3, min(len(run), i + smax) + 1):
                yield run[i:j]
        run = [rk]


def candidate_shapes(counts: list[int], game: Game) -> tuple[tuple[NewMeld, str, int, int], ...]:
    """``meld_candidates`` with each one's type, size and wild cards. The groups of one rank
    and the sequences of one suit are kept per rule set, by the counts they read (a bounded
    cache)."""
    entry = rule_shape(game.rules)
    max_wilds, _, _, _, sequences, smax, wild_melds, wild_max = entry[1]
    c = counts
    wilds = (
        (0,) * c[0] + (13,) * c[13] + (26,) * c[26] + (39,) * c[39] + (52,) * c[52]
        if c[0] or c[13] or c[26] or c[39] or c[52]
        else ()
    )
    wkey = wilds[:max_wilds]
    parts = entry[2]
    out: list[tuple[NewMeld, str, int, int]] = []
    s0, s1, s2, s3 = c[2:13], c[15:26], c[28:39], c[41:52]
    fewest = entry[3]
    for i, t in enumerate(zip(s0, s1, s2, s3)):
        if t != _NONE4 and sum(t) >= fewest:
            gk = (i, t, wkey)
            got = parts.get(gk)
            if got is None:
                got = parts[gk] = _rank_groups(i + 4, t, wkey, game.rules)
            if got:
                out += got
    if sequences:
        for suit, s in enumerate((s0, s1, s2, s3)):
            if len(s) - s.count(0) >= 3:
                sk = (suit, bytes(s).translate(_HELD))
                got = parts.get(sk)
                if got is None:
                    got = parts[sk] = _suit_sequences(suit, s, smax)
                out += got
    n3 = c[1] + c[40]
    if n3 >= 3:
        out.append((NewMeld((1,) * c[1] + (40,) * c[40]), BLACK3, n3, 0))
    if wild_melds and len(wilds) >= 3:
        ws = wilds[:wild_max]
        out.append((NewMeld(ws), WILD, len(ws), len(ws)))
    if len(parts) >= 4096:
        parts.clear()
    return tuple(out)


_NONE4 = (0, 0, 0, 0)


def _rank_groups(rank: int, held: tuple[int, ...], wkey: tuple[int, ...], r) -> tuple:
    """The group candidates of one rank: ``held`` naturals of each suit, with none up to all of
    the cheapest wild cards ``wkey`` (as many as a group may hold), each that the rules ``r``
    allow (``group_counts_ok``)."""
    nat: tuple[int, ...] = ()
    for suit, n in enumerate(held):
        nat += (suit * 13 + rank - 2,) * n
    n = len(nat)
    return tuple(
        (NewMeld.of_sorted(nat + wkey[:w]), GROUP, n + w, w)
        for w in range(0, len(wkey) + 1)
        if group_counts_ok(n, w, r)
    )


def _suit_sequences(suit: int, held: list[int], smax: int) -> tuple:
    """The sequence candidates of one suit (``held``: its counts of ranks 4 to ace)."""
    base = suit * 13 - 2
    ranks = [4 + i for i, n in enumerate(held) if n]
    return tuple(
        (NewMeld.of_sorted(tuple(base + x for x in w)), SEQUENCE, len(w), 0)
        for w in sequence_windows(ranks, smax)
    )


def _value(part) -> int:
    return sum(VALUE_OF_KIND[k] for k in part.cards)


def opening_combos(counts: list[int], needed: int, game: Game, limit: int = MAX_OPENINGS):
    """Sets of new melds (tuples of parts) from ``counts`` worth at least ``needed``: each
    candidate worth it alone, pairs of the twelve most valuable, and a greedy fill from each of
    those twelve (most valuable first)."""
    if needed <= 0:
        return [()]
    shapes = [c for c in candidate_shapes(counts, game) if c[1] != BLACK3]
    facts = [part_facts(c[0]) for c in shapes]
    # most valuable first (a stable sort: equal values keep the candidates' order)
    order = sorted(range(len(shapes)), key=lambda i: facts[i][0], reverse=True)
    cands = [shapes[i][0] for i in order]
    vals = [facts[i][0] for i in order]
    needs = [facts[i][1] for i in order]  # per candidate, the cards of each kind it takes
    found: list[tuple] = []
    seen = set()

    def add(combo):
        key = tuple(sorted(p.cards for p in combo))
        if key not in seen:
            seen.add(key)
            found.append(tuple(combo))

    for c, v in zip(cands, vals):
        if v >= needed:
            add((c,))
    top = min(12, len(cands))
    for i, j in combinations(range(top), 2):
        if vals[i] + vals[j] >= needed:
            ni, nj = needs[i], needs[j]
            fits = True
            for k, n in ni.items():
                if n + nj.get(k, 0) > counts[k]:
                    fits = False
                    break
            if fits:
                for k, n in nj.items():
                    if k not in ni and n > counts[k]:
                        fits = False
                        break
            if fits:
                add((cands[i], cands[j]))
    for i in range(top):  # greedy fill
        start = cands[i]
        combo, total = [start], vals[i]
        left = list(counts)
        for k, n in needs[i].items():
            left[k] -= n
        for j, c in enumerate(cands):
            if total >= needed:
                break
            if j == i:
                continue
            nj = needs[j]
            for k, n in nj.items():
                if left[k] < n:
                    break
            else:
                combo.append(c)
                total += vals[j]
                for k, n in nj.items():
                    left[k] -= n
        if total >= needed:
            add(combo)
        if len(found) >= limit:
            break
    return found[:limit]


_PART_FACTS: dict[tuple[int, ...], tuple[int, dict[int, int], str, int]] = {}


def part_facts(part: NewMeld) -> tuple[int, dict[int, int], str, int]:
    """A new meld's card points, how many cards of each kind it takes, and its type and wild
    cards as ``new_meld_shape`` gives them (read-only; kept by its cards, a bounded cache)."""
    got = _PART_FACTS.get(part.cards)
    if got is None:
        need: dict[int, int] = {}
        for k in part.cards:
            need[k] = need.get(k, 0) + 1
        if len(_PART_FACTS) >= 4096:
            _PART_FACTS.clear()
        got = _PART_FACTS[part.cards] = (_value(part), need, *new_meld_shape(part.cards))
    return got


def new_meld_shape(ks) -> tuple[str, int]:
    """The type and the wild-card count of a new meld of kinds ``ks`` (a black-three meld is
    told apart by its caller): no natural card, a wild meld; naturals of one rank, a group;
    else a sequence."""
    naturals = [k for k in ks if not IS_WILD[k]]
    if not naturals:
        return WILD, len(ks)
    r0 = RANK_OF[naturals[0]]
    return (GROUP if all(RANK_OF[k] == r0 for k in naturals) else SEQUENCE), len(ks) - len(naturals)
