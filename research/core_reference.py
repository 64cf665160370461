"""The legal-move generator's parts as they were before the incremental core (kept to compare
the faster code with, move for move: ``tests/test_core_reference.py``)."""

from __future__ import annotations

import itertools as _itertools
from itertools import compress

import py_engine.candidates as _candidates
import py_engine.cards as _cards
from py_engine.candidates import (
    _NATURAL_COUNTS,
    NATURALS_BY_RANK,
    rule_shape,
    sequence_windows,
    wild_kinds,
)
from py_engine.cards import IS_BLACK3, RANK_OF, SUIT_OF
from py_engine.legal import _BLACK3_KINDS
from py_engine.melds import BLACK3, GROUP, SEQUENCE, WILD
from py_engine.moves import NewMeld


def candidate_shapes(counts, game):
    """``candidates.candidate_shapes`` as it was (no cache): (part, type, size, wild cards)."""
    shape = rule_shape(game.rules)[1]
    max_wilds, per_wild, min_naturals, exceed, sequences, smax, wild_melds, wild_max = shape
    out = []
    wilds = wild_kinds(counts)
    max_w = min(len(wilds), max_wilds)
    runs: list[list[int]] = [[], [], [], []]
    by_rank: dict[int, list[int]] = {}
    for k in compress(NATURALS_BY_RANK, _NATURAL_COUNTS(counts)):
        rank = RANK_OF[k]
        nat_r = by_rank.get(rank)
        if nat_r is None:
            nat_r = by_rank[rank] = []
        nat_r += [k] * counts[k]
        runs[SUIT_OF[k]].append(rank)
    for nat in by_rank.values():
        n = len(nat)
        for w in range(0, max_w + 1):
            if n + w < 3 or n < per_wild * w or n < min_naturals:
                continue
            if exceed and n <= w:
                continue
            out.append((NewMeld.of_sorted(tuple(nat) + tuple(wilds[:w])), GROUP, n + w, w))
    if sequences:
        for suit in range(4):
            ranks = runs[suit]
            if len(ranks) < 3:
                continue
            for w in sequence_windows(ranks, smax):
                out.append(
                    (NewMeld.of_sorted(tuple(suit * 13 + x - 2 for x in w)), SEQUENCE, len(w), 0)
                )
    b3 = [k for k in _BLACK3_KINDS for _ in range(counts[k])]
    if len(b3) >= 3:
        out.append((NewMeld(tuple(b3)), BLACK3, len(b3), 0))
    if wild_melds and len(wilds) >= 3:
        ws = wilds[:wild_max]
        out.append((NewMeld(tuple(ws)), WILD, len(ws), len(ws)))
    return tuple(out)


__all__ = ["candidate_shapes", "IS_BLACK3"]


def addition_targets(game, counts=None, side=None):
    """``legal.addition_targets`` as it was: every fitting kind of every meld checked alike."""
    from py_engine.cards import IS_WILD, counts_of
    from py_engine.legal import ActingSide, fitting_kinds
    from py_engine.melds import addition_problem, finished_kind

    if game.phase != "meld":
        return {}
    side = side or ActingSide(game)
    if not side.melds:
        return {}
    if counts is None:
        counts = counts_of(game.hand_kinds(side.seat))
    r = game.rules
    found = []
    left = side.cards - 1
    for i, m in enumerate(side.melds):
        n, mtype = len(m.cards), m.type
        for k in fitting_kinds(m):
            if counts[k] and addition_problem(m, (k,), r) is None:
                after = finished_kind(mtype, n + 1, m.wilds + IS_WILD[k], r)
                if side.end_ok(left, side.met_after(after, m.finished(r)), mtype == BLACK3):
                    found.append((k, i, m.id))
    found.sort()
    out: dict[int, list[int]] = {}
    for k, _, mid in found:
        out.setdefault(k, []).append(mid)
    return out


def opening_combos_reference(counts, needed, game, limit=_candidates.MAX_OPENINGS):
    """Sets of new melds (tuples of parts) from ``counts`` worth at least ``needed``: each
    candidate worth it alone, pairs of the twelve most valuable, and a greedy fill from each of
    those twelve (most valuable first)."""
    if needed <= 0:
        return [()]
    cands = sorted(_candidates.meld_candidates(counts, game), key=_candidates._value, reverse=True)
    cands = [c for c in cands if not all(_cards.IS_BLACK3[k] for k in c.cards)]
    vals = [_candidates._value(c) for c in cands]
    needs = []  # per candidate, the cards of each kind it takes
    for c in cands:
        need: dict[int, int] = {}
        for k in c.cards:
            need[k] = need.get(k, 0) + 1
        needs.append(need)
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
    for i, j in _itertools.combinations(range(top), 2):
        if vals[i] + vals[j] >= needed:
            ni, nj = needs[i], needs[j]
            if all(n + nj.get(k, 0) <= counts[k] for k, n in ni.items()) and all(
                n <= counts[k] for k, n in nj.items() if k not in ni
            ):
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
            if j != i and all(left[k] >= n for k, n in needs[j].items()):
                combo.append(c)
                total += vals[j]
                for k, n in needs[j].items():
                    left[k] -= n
        if total >= needed:
            add(combo)
        if len(found) >= limit:
            break
    return found[:limit]
