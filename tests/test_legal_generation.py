"""The legal-move generator against the rules' own checks: in many random positions, the moves
generated from the hand's counts are exactly the candidates that ``Game.can`` accepts."""

from __future__ import annotations

import random

import pytest
from conftest import ALL_TABLES, random_positions

from py_engine.candidates import meld_candidates
from py_engine.cards import IS_RED3, card_sort_key, counts_of
from py_engine.legal import ActingSide, legal_moves, meld_move_at, meld_moves
from py_engine.moves import AddTo, Discard, Draw, EndDeal, LayRedThree, Meld, TakePileOnto, TakeTop
from py_engine.state import Game


def reference(game):
    """Every candidate of the generated kinds, kept when the state's verify accepts it."""
    seat, side = game.current, game.side_of(game.current)
    kinds = game.hand_kinds(seat)
    distinct = sorted(set(kinds), key=card_sort_key)
    out = {"red3": [m for m in (LayRedThree(k) for k in distinct if IS_RED3[k]) if game.can(m)]}
    if game.phase == "draw":
        out["draw"] = [m for m in (Draw(), EndDeal()) if game.can(m)]
        out["onto"] = [
            mv
            for m in game.melds[side]
            for mv in (TakeTop(m.id), TakePileOnto(m.id))
            if game.can(mv)
        ]
    elif game.phase == "meld":
        out["discard"] = [m for m in (Discard(k) for k in distinct) if game.can(m)]
        if game.opened(side):
            out["new"] = [
                Meld((p,)) for p in meld_candidates(counts_of(kinds), game) if game.can(Meld((p,)))
            ]
            out["add"] = [
                Meld((AddTo(m.id, (k,)),))
                for k in sorted(set(kinds))
                for m in game.melds[side]
                if game.can(Meld((AddTo(m.id, (k,)),)))
            ]
    return out


def generated(game, moves):
    side = game.side_of(game.current)
    out = {"red3": [m for m in moves if isinstance(m, LayRedThree)]}
    if game.phase == "draw":
        out["draw"] = [m for m in moves if isinstance(m, (Draw, EndDeal))]
        out["onto"] = [m for m in moves if isinstance(m, (TakeTop, TakePileOnto))]
    elif game.phase == "meld":
        out["discard"] = [m for m in moves if isinstance(m, Discard)]
        if game.opened(side):
            melds = [m for m in moves if isinstance(m, Meld)]
            out["new"] = [m for m in melds if not isinstance(m.parts[0], AddTo)]
            out["add"] = [m for m in melds if isinstance(m.parts[0], AddTo)]
    return out


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_generated_moves_are_the_verified_candidates(rules, players):
    checked = 0
    for seed in (3, 4):
        for game in random_positions(rules, players, seed, every=2, deals=2):
            if game.phase not in ("draw", "meld"):
                continue
            moves = legal_moves(game)
            assert all(game.can(m) for m in moves)
            assert generated(game, moves) == reference(game)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_has_meld_move_says_whether_meld_moves_has_any(rules, players):
    from py_engine.legal import has_meld_move, meld_moves

    seen = set()
    for game in random_positions(rules, players, 5, every=2, deals=2):
        if game.phase == "meld":
            got = has_meld_move(game)
            assert got == bool(meld_moves(game))
            seen.add(got)
    assert seen == {True, False}


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_opening_check_agrees_with_verify(rules, players):
    """``meld_moves`` keeps the openings ``opening_ok`` accepts: exactly those ``Game.can``
    accepts, for every combination ``opening_combos`` proposes."""
    from py_engine.candidates import opening_combos
    from py_engine.legal import opening_ok

    seen = set()
    for game in random_positions(rules, players, 6, every=1, deals=2):
        side = game.side_of(game.current)
        if game.phase != "meld" or game.opened(side):
            continue
        counts = counts_of(game.hand_kinds(game.current))
        for combo in opening_combos(counts, game.minimum(side), game):
            ok = game.can(Meld(tuple(combo)))
            assert opening_ok(game, combo) == ok, combo
            seen.add(ok)
    assert True in seen


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_plain_pile_takes_from_counts_are_the_verified_ones(rules, players):
    """An opened side's pile takes without melds are accepted from counts (``PlainTakes``):
    exactly the takes ``Game.can`` accepts among the same candidates."""
    from py_engine.legal import pile_takes

    compared = takes = 0
    for seed in (6, 7):
        for game in random_positions(rules, players, seed, every=1, deals=2):
            if game.phase != "draw" or not game.opened(game.side_of(game.current)):
                continue
            got = pile_takes(game)
            assert got == pile_takes(game, checked=True)
            assert all(game.can(m) for m in got)
            compared += 1
            takes += len(got)
    assert compared > 20 and takes > 0


@pytest.mark.parametrize("under", [[], ["8C"], ["8C", "9C"], ["8C", "9C", "TD"]])
def test_plain_pile_take_keeps_enough_cards(under):
    """The edge random play rarely reaches: a pair taking a short pile leaves too few cards
    (an opened side in samba keeps two until it may go out)."""
    from py_engine.cards import IDS_OF_KIND, parse_kind
    from py_engine.legal import pile_takes
    from py_engine.melds import GROUP, TableMeld
    from py_engine.moves import TakePile

    def ids(texts, copy=0):
        return [IDS_OF_KIND[parse_kind(t)][copy] for t in texts]

    game = Game.from_position(
        "samba",
        4,
        hands=[ids(["7S", "7H"]), ids(["4C"] * 1), ids(["5C"]), ids(["6C"])],
        stock=ids(["KC", "KD", "KH"]),
        pile=ids(under) + ids(["7D"]),
        melds=[[TableMeld(1, GROUP, 9, -1, ids(["9S", "9H", "9D"], 1))], []],
        red3=[[], []],
    )
    got = pile_takes(game)
    assert got == pile_takes(game, checked=True)
    assert (TakePile((parse_kind("7S"), parse_kind("7H"))) in got) == (len(under) >= 2)


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_meld_move_at_picks_what_choice_picks_from_the_whole_list(rules, players):
    """``meld_move_at`` makes only the move a pick from ``meld_moves`` would take: the same
    move, the same random draws, and the move is trusted by ``play`` as a listed one is."""
    checked = 0
    for game in random_positions(rules, players, 5, every=1, deals=2):
        side = game.side_of(game.current)
        if game.phase != "meld" or not game.opened(side):
            continue
        counts = counts_of(game.hand_kinds(game.current))
        whole = meld_moves(game)
        if not whole:
            continue
        for seed in range(3):
            a, b = random.Random(seed), random.Random(seed)
            got = meld_move_at(game, ActingSide(game), counts, a.choice)
            assert got == b.choice(whole)
            assert a.random() == b.random()  # (as many draws on both)
            assert game.trusted_plan(got) is not False
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_random_move_picks_what_a_pick_from_the_whole_listing_picks(rules, players):
    """``simulate.random_move`` lists a costly kind (the meld moves, the pile takes) only when it
    draws that kind, yet picks what drawing a kind and then a move from the whole of
    ``legal_moves`` picks, with the same random draws: positions where it takes the pile and
    where it draws though it could take the pile are both among those checked."""
    from py_engine.simulate import random_move

    took = passed_by = 0
    for game in random_positions(rules, players, 6, every=1, deals=2):
        if game.phase not in ("draw", "meld", "answer"):
            continue
        kinds: dict[str, list] = {}
        for m in legal_moves(game):
            kinds.setdefault(type(m).__name__, []).append(m)
        for seed in range(3):
            a, b = random.Random(seed), random.Random(seed)
            got = random_move(game, a)
            want = b.choice(kinds[b.choice(sorted(kinds))])
            assert got == want
            assert a.random() == b.random()  # (as many draws on both)
            if "TakePile" in kinds:
                took += type(got).__name__ == "TakePile"
                passed_by += type(got).__name__ != "TakePile"
    assert took >= 1 and passed_by >= 1


def test_group_candidates_are_the_groups_the_rules_allow():
    """``candidate_shapes`` offers a group of naturals and wild cards exactly when
    ``melds.group_counts_ok`` allows it, under each preset and under rules whose groups need four
    naturals (a rank held fewer times is skipped: ``candidates._fewest_group_naturals``)."""
    from dataclasses import replace
    from types import SimpleNamespace

    from py_engine.candidates import candidate_shapes
    from py_engine.cards import N_KINDS, kind_of_rank_suit
    from py_engine.melds import GROUP, group_counts_ok
    from py_engine.rules import PRESETS, SAMBA

    tables = list(PRESETS.values()) + [replace(SAMBA, name="four_naturals", group_min_naturals=4)]
    for r in tables:
        game = SimpleNamespace(rules=r)
        for n in range(1, 6):
            for wilds in range(3):
                counts = [0] * N_KINDS
                for i in range(n):  # sevens, suit by suit
                    counts[kind_of_rank_suit(7, i % 4)] += 1
                counts[kind_of_rank_suit(2, 0)] = wilds
                got = sorted(
                    (size, w) for _, t, size, w in candidate_shapes(counts, game) if t == GROUP
                )
                want = [
                    (n + w, w)
                    for w in range(min(wilds, r.group_max_wilds) + 1)
                    if group_counts_ok(n, w, r)
                ]
                assert got == want, (r.name, n, wilds)
