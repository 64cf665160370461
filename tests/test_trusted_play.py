"""``Game.play`` trusts the moves the legal-move generator made at the very same position (the
same moves, equal values, at the game's same version: ``Game.generation``) and builds their
plans without checking them again; every other move is verified as before. Whatever changes a
game but ``play`` gives it a new version (or works on a copy, which drops the record)."""

from __future__ import annotations

import pytest
from conftest import ALL_TABLES, random_positions

from py_engine.errors import IllegalMove
from py_engine.legal import legal_moves
from py_engine.melds import classify, shape_of
from py_engine.moves import Meld, NewMeld, parse_move
from py_engine.state import Game


def plan_facts(plan):
    if plan is None:
        return None
    return (
        plan.hand,
        [m.to_json() for m in plan.melds],
        [m.wilds for m in plan.melds],
        plan.next_id,
        plan.laid,
        plan.red3,
    )


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_trusted_plans_are_the_verified_plans(rules, players):
    """For every generated move the generator vouches for, the plan ``play`` would use is the
    plan ``verify`` makes."""
    trusted = 0
    for game in random_positions(rules, players, 11, every=2, deals=2):
        if game.phase not in ("draw", "meld"):
            continue
        for move in legal_moves(game):
            plan = game.trusted_plan(move)
            if plan is False:
                continue
            assert plan_facts(plan) == plan_facts(game.verify(move)), move.text()
            trusted += 1
    assert trusted > 50


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_shape_of_is_classify_on_generated_melds(rules, players):
    seen = 0
    for game in random_positions(rules, players, 12, every=3, deals=2):
        if game.phase != "meld":
            continue
        for move in legal_moves(game):
            if type(move) is Meld:
                for part in move.parts:
                    if type(part) is NewMeld:
                        assert shape_of(part.cards) == classify(list(part.cards), game.rules)
                        seen += 1
    assert seen > 20


def _meld_position(rules="samba", players=4, seed=5, opened=False):
    """A game in the meld phase with the moves generated just now, some of them meld moves
    (with ``opened``, on a side that has melds)."""
    for game in random_positions(rules, players, seed, every=1, deals=3):
        if game.phase == "meld" and (not opened or game.melds[game.side_of(game.current)]):
            moves = legal_moves(game)
            melds = [m for m in moves if type(m) is Meld]
            if melds:
                return game, melds
    raise AssertionError("no meld position")


def _count_verify(monkeypatch):
    calls = []
    real = Game.verify

    def counting(self, move):
        calls.append(move)
        return real(self, move)

    monkeypatch.setattr(Game, "verify", counting)
    return calls


def test_a_generated_move_is_played_without_a_second_check(monkeypatch):
    game, melds = _meld_position()
    calls = _count_verify(monkeypatch)
    record = game.play(melds[0])
    assert calls == []
    assert record["move"] == melds[0].text() and record["kind"] == "meld"


def test_an_equal_move_from_elsewhere_is_trusted(monkeypatch):
    """Moves are values: an equal move made elsewhere (parsed from a listed text, built by
    hand) finds the generated move's record, with the plan ``verify`` makes."""
    game, melds = _meld_position()
    fresh = Meld(tuple(melds[0].parts))  # equal, but not the generated object
    assert fresh == melds[0] and fresh is not melds[0]
    assert plan_facts(game.trusted_plan(fresh)) == plan_facts(game.verify(fresh))
    calls = _count_verify(monkeypatch)
    game.play(fresh)
    assert calls == []


def test_a_move_not_generated_is_verified(monkeypatch):
    """A legal move the generator did not list (two parts in one meld action) is checked."""
    for game in random_positions("samba", 4, 5, every=1, deals=3):
        if game.phase != "meld" or not game.melds[game.side_of(game.current)]:
            continue
        singles = [m for m in legal_moves(game) if type(m) is Meld]
        for a in singles:
            for b in singles:
                both = Meld(a.parts + b.parts)
                if both in game.generation() or not game.can(both):
                    continue
                assert game.trusted_plan(both) is False
                calls = _count_verify(monkeypatch)
                game.play(both)
                assert calls == [both]
                return
    pytest.fail("no two-part meld move found")


def test_a_changed_hand_is_not_trusted():
    """A test changes the hand after the moves were generated and gives the game a new version
    (``_changed_by_hand``): the generated move is checked again, and refused."""
    game, melds = _meld_position()
    move = melds[0]
    seat = game.current
    laid = list(move.parts[0].cards)
    game.hands[seat] = [c for c in game.hands[seat] if c not in _ids_of(game, seat, laid)]
    assert move in game.generation()  # (the record knows nothing of the change)
    _changed_by_hand(game)
    assert game.trusted_plan(move) is False
    with pytest.raises(IllegalMove):
        game.play(move)


def test_a_changed_meld_or_pile_is_not_trusted():
    game, melds = _meld_position(opened=True)
    side = game.side_of(game.current)
    assert game.trusted_plan(melds[0]) is not False
    changed = game.melds[side][0].copy()  # the same meld, another object
    game.melds[side][0] = changed
    _changed_by_hand(game)
    assert game.trusted_plan(melds[0]) is False
    game, melds = _meld_position(opened=True)
    game.melds[side][0].cards.append(game.stock.pop())  # a card more, changed in place
    _changed_by_hand(game)
    assert game.trusted_plan(melds[0]) is False
    game, melds = _meld_position(opened=True)
    game.pile.append(game.stock.pop())
    _changed_by_hand(game)
    assert game.trusted_plan(melds[0]) is False
    game, melds = _meld_position(opened=True)
    game.turn.refused = True
    _changed_by_hand(game)
    assert game.trusted_plan(melds[0]) is False
    game, melds = _meld_position(opened=True)
    game.next_meld_id += 1
    _changed_by_hand(game)
    assert game.trusted_plan(melds[0]) is False


def test_a_copy_does_not_trust_the_original_generation(monkeypatch):
    game, melds = _meld_position()
    other = game.copy(log=True)
    assert other.trusted_plan(melds[0]) is False
    calls = _count_verify(monkeypatch)
    other.play(melds[0])
    assert calls == [melds[0]]


def test_a_played_text_is_the_generated_move(monkeypatch):
    """A bot's chosen text parses to a move equal to the generated one, so the text path is
    trusted too."""
    from py_engine.views import view_for

    game, _ = _meld_position()
    view = view_for(game, game.current)
    text = "meld " + view["legal"]["melds"][0]
    calls = _count_verify(monkeypatch)
    move = parse_move(text)
    assert game.trusted_plan(move) is not False
    game.play(text)
    assert calls == []


def _changed_by_hand(game):
    """What code that changes a game other than by ``play`` does: a new version."""
    game.version += 1


def _ids_of(game, seat, kinds):
    from py_engine.cards import KIND_OF_ID

    out = []
    hand = list(game.hands[seat])
    for k in kinds:
        for c in hand:
            if KIND_OF_ID[c] == k and c not in out:
                out.append(c)
                break
    return out
