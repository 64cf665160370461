"""Move text round trip (docs/formats.md "Moves"): parse_move(m.text()) == m for every legal
move of many random positions; malformed texts raise InvalidMove."""

from __future__ import annotations

import pytest
from conftest import ALL_TABLES, random_positions

from py_engine.cards import parse_kind
from py_engine.errors import InvalidMove
from py_engine.legal import legal_moves
from py_engine.moves import (
    AddTo,
    Answer,
    Ask,
    Discard,
    Draw,
    EndDeal,
    LayRedThree,
    Meld,
    Merge,
    NewMeld,
    NextDeal,
    Pass,
    TakePile,
    TakePileOnto,
    TakeTop,
    parse_move,
)


def K(*texts):
    return tuple(parse_kind(t) for t in texts)


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_every_legal_move_round_trips(rules, players):
    kinds_seen = set()
    checked = 0
    for seed in (1, 2):
        for game in random_positions(rules, players, seed, every=3, deals=2):
            for m in legal_moves(game):
                text = m.text()
                assert parse_move(text) == m, text
                # the text form is canonical: text of the parse is the same text
                assert parse_move(text).text() == text
                # and case does not matter
                assert parse_move(text.upper()) == m, text
                kinds_seen.add(type(m).__name__)
                checked += 1
    assert checked > 200
    assert {"Draw", "Discard", "Meld", "NextDeal"} <= kinds_seen


ALL_FORMS = [
    (Draw(), "draw"),
    (TakePile(K("7S", "7H")), "take 7H 7S"),
    (TakePile(K("7S", "7H", "7D", "2C")), "take 7D 7H 7S 2C"),
    (
        TakePile(K("7S", "7H"), (NewMeld(K("8S", "9S", "TS")), NewMeld(K("KD", "KC", "KH")))),
        "take 7H 7S; new 8S 9S TS; new KC KD KH",
    ),
    (TakePile(K("7S", "7H"), (AddTo(2, K("JS")),)), "take 7H 7S; add m2 JS"),
    (TakePileOnto(4), "take m4"),
    (TakeTop(3), "top m3"),
    (
        Meld((NewMeld(K("7S", "7H", "7D")), AddTo(3, K("JS", "2C")))),
        "meld new 7D 7H 7S; add m3 JS 2C",
    ),
    (Merge(1, 4), "merge m1 m4"),
    (Discard(parse_kind("7S")), "discard 7S"),
    (Pass(), "pass"),
    (LayRedThree(parse_kind("3H")), "red3 3H"),
    (Ask((NewMeld(K("8S", "9S", "TS")),), parse_kind("4C")), "ask new 8S 9S TS; discard 4C"),
    (Ask((AddTo(2, K("JK")),), None), "ask add m2 JK"),
    (Ask((), parse_kind("4C")), "ask discard 4C"),
    (Answer(True), "answer yes"),
    (Answer(False), "answer no"),
    (EndDeal(), "end"),
    (NextDeal(), "next"),
]


@pytest.mark.parametrize("move,text", ALL_FORMS, ids=[t for _, t in ALL_FORMS])
def test_text_forms_of_formats_doc(move, text):
    assert move.text() == text
    assert parse_move(text) == move


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("d 7S", "discard 7S"),
        ("D 7s", "discard 7S"),
        ("discard 10H", "discard TH"),
        ("MELD new 7s 7h 7d", "meld new 7D 7H 7S"),
        ("take 7s 7h;new 8s 9s ts", "take 7H 7S; new 8S 9S TS"),
        ("  draw  ", "draw"),
        ("answer YES", "answer yes"),
        ("top M3", "top m3"),
        ("discard joker", "discard JK"),
        ("ask new 8S 9S TS; d 4C", "ask new 8S 9S TS; discard 4C"),
    ],
)
def test_aliases_become_canonical(text, canonical):
    assert parse_move(text).text() == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "take",
        "discard",
        "discard 1Z",
        "discard 7S 8S",
        "meld",
        "meld new",
        "meld add m3",
        "meld add 3 7S",
        "merge m1",
        "merge m1 m2 m3",
        "merge 1 2",
        "answer maybe",
        "answer",
        "draw 7S",
        "pass now",
        "next 2",
        "end deal",
        "top",
        "top 3",
        "top m",
        "top mx",
        "red3",
        "red3 ZZ",
        "fly 7S",
        "meld new 7S 7H 7D;",
        "meld new 7S;; new 8S",
        "draw; draw",
        "discard 7S; discard 8S",
        "take 7S 7H; fold",
        "ask new 7S 7H 7D; discard",
        "ask discard 4C 5C",
        "meld new 7S 7H 7Q",
        "x" * 2001,
    ],
)
def test_malformed_text_raises_invalid_move(text):
    with pytest.raises(InvalidMove) as e:
        parse_move(text)
    assert isinstance(e.value, ValueError)
    assert e.value.code == "bad_move_text"
    assert str(e.value)


@pytest.mark.parametrize("value", [None, 7, ["draw"], {"op": "draw"}])
def test_non_text_raises_invalid_move(value):
    with pytest.raises(InvalidMove):
        parse_move(value)


def test_malformed_message_quotes_the_input():
    with pytest.raises(InvalidMove) as e:
        parse_move("discard 1Z")
    assert "1Z" in str(e.value)
    with pytest.raises(InvalidMove) as e:
        parse_move("answer maybe")
    assert "answer maybe" in str(e.value)


def test_moves_are_frozen_and_hashable():
    m = parse_move("meld new 7S 7H 7D; add m3 JS")
    assert hash(m) == hash(parse_move("meld new 7S 7H 7D; add m3 JS"))
    with pytest.raises(AttributeError):  # dataclasses.FrozenInstanceError
        m.parts = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    "a,b",
    [
        ("meld new 8S 8H 2C", "meld new 2C 8H 8S"),
        ("take 7S 7H", "take 7H 7S"),
        ("take 7S 7H 2D; new 9S TS 8S", "take 2D 7H 7S; new 8S 9S TS"),
        ("ask add m2 JS 2C; discard 4C", "ask add m2 2C JS; d 4C"),
        ("meld new 7S 7H 7D; add m3 JS 2C", "meld new 7D 7S 7H; add m3 2C JS"),
    ],
)
def test_card_order_inside_a_part_does_not_matter(a, b):
    assert parse_move(a) == parse_move(b)
    assert hash(parse_move(a)) == hash(parse_move(b))
    assert parse_move(a).text() == parse_move(b).text()


def test_part_order_matters():
    # parts are laid in order (meld ids are given in that order)
    assert parse_move("meld new 7S 7H 7D; new 8S 9S TS") != parse_move(
        "meld new 8S 9S TS; new 7S 7H 7D"
    )


def test_every_move_type_is_registered_once_with_its_check_and_effect():
    from py_engine import actions
    from py_engine.moves import MOVE_TYPES

    assert len(MOVE_TYPES) == len(set(MOVE_TYPES)) == 13
    for cls in MOVE_TYPES:
        assert callable(getattr(actions, "verify_" + cls.action)), cls
        assert callable(getattr(actions, "apply_" + cls.action)), cls
