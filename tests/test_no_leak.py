"""No view leaks: over random games and every seat, ``view_for(game, seat)``
never contains a card that seat cannot know: no card of another seat's hand or of the stock
appears anywhere in the view; the own hand is exact; other hands and the stock are counts;
the log's private draw details reach only their owner."""

from __future__ import annotations

import json
import random

import pytest
from conftest import ALL_TABLES

from py_engine.simulate import random_move
from py_engine.state import Game
from py_engine.views import view_for

# keys under which a bare int (or list of ints) would be a physical card id
CARDISH_KEYS = {
    "card",
    "cards",
    "hand",
    "drawn",
    "ids",
    "replaced_by",
    "private",
    "stock_cards",
    "top",
}


def collect_ids(node, key=None, out=None, path="view"):
    """Every physical card id in a view: {"id": n, "c": ...} objects anywhere, and ints (or
    lists of ints) under card-ish keys."""
    if out is None:
        out = {}
    if isinstance(node, dict):
        if "c" in node and "id" in node:
            out.setdefault(node["id"], path)
        elif "id" in node:
            # the only other objects with an id are melds
            assert "type" in node and "cards" in node, f"unexpected id object at {path}: {node}"
        for k, v in node.items():
            collect_ids(v, k, out, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            collect_ids(v, key, out, f"{path}[{i}]")
    elif isinstance(node, int) and not isinstance(node, bool) and key in CARDISH_KEYS:
        out.setdefault(node, path)
    return out


def check_view(game: Game, seat: int) -> None:
    view = view_for(game, seat)
    view = json.loads(json.dumps(view))  # JSON only: no Python objects inside
    hidden = set(game.stock)
    for s in range(game.players):
        if s != seat:
            hidden |= set(game.hands[s])
    ids = collect_ids(view)
    leaked = {c: p for c, p in ids.items() if c in hidden}
    assert not leaked, f"seat {seat} sees hidden cards: {leaked}"
    visible = set(game.hands[seat]) | set(game.pile)
    visible |= {c for side in game.melds for m in side for c in m.cards}
    visible |= {c for side in game.red3 for c in side}
    assert set(ids) <= visible
    # own hand exact, others as counts, the stock as a count
    assert sorted(c["id"] for c in view["hand"]) == sorted(game.hands[seat])
    assert view["hand_sizes"] == [len(h) for h in game.hands]
    assert view["stock"] == len(game.stock) and isinstance(view["stock"], int)
    assert [c["id"] for c in view["pile"]["cards"]] == game.pile
    # private log details only for their owner
    for e in view["log"]:
        if e.get("seat") != seat:
            assert "cards" not in e, f"seat {seat} sees another seat's private log: {e}"
            assert "private" not in e
    # legal moves only for the seat to act
    if game.phase in ("draw", "meld", "answer") and game.current != seat:
        assert view["legal"] is None
    # a pending question goes only to the asker's side
    if game.turn.pending and game.side_of(game.turn.asker) != game.side_of(seat):
        assert view["turn"]["pending"] is None
        assert all(e["text"] == "ask" for e in view["log"] if e["text"].startswith("ask"))


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_no_view_leaks_in_random_games(rules, players):
    game = Game.new(rules, players, 2500, seed=31)
    rng = random.Random(31)
    n = 0
    deals = 0
    while game.phase != "game_over" and deals < 1:
        if n % 3 == 0 or game.phase in ("deal_over", "answer"):
            for seat in range(players):
                check_view(game, seat)
        if game.phase == "deal_over":
            deals += 1
        game.play(random_move(game, rng))
        n += 1
    for seat in range(players):
        check_view(game, seat)
    assert n > 50


def test_checker_catches_a_leak():
    """The leak check must be able to fail: a view with another seat's card in it."""
    game = Game.new("samba", 4, seed=2)
    view = view_for(game, 0)
    other = game.hands[1][0]
    view["log"].append({"seat": 1, "text": "draw", "cards": [other]})
    ids = collect_ids(view)
    assert other in ids
    view2 = view_for(game, 0)
    view2["hand"].append({"id": game.stock[-1], "c": "??"})
    assert game.stock[-1] in collect_ids(view2)


def test_own_draw_details_shown_to_owner_only():
    game = Game.new("samba", 2, seed=5)
    seat = game.current
    stock_top = game.stock[-2:]
    game.play("draw")
    mine = view_for(game, seat)["log"][-1]
    theirs = view_for(game, 1 - seat)["log"][-1]
    assert mine["text"] == theirs["text"] == "draw"
    assert len(mine.get("cards", [])) == 2
    assert "cards" not in theirs
    assert sorted(mine["cards"]) == sorted(
        __import__("py_engine.cards", fromlist=["id_text"]).id_text(c) for c in stock_top
    )


def test_card_ids_finds_card_objects_at_any_depth():
    """``card_ids`` (the soak's and the netplay tests' leak check) finds every ``{"id", "c"}``
    object in dicts and lists at any depth, and nothing else."""
    from py_engine.views import card_ids

    message = {
        "a": [{"id": 5, "c": "5H"}, ({"id": 6, "c": "6H"},)],
        "b": {"x": {"y": [[{"c": "7H", "id": 7}], "8H", 9]}},
        "not_a_card": {"id": "5", "c": "x"},
        "extra_key": {"id": 8, "c": "8H", "z": 1},
    }
    assert card_ids(message) == {5, 7}
    assert card_ids([{"id": 0, "c": "3C"}] * 3 + [[]]) == {0}
    assert card_ids("5H") == set()
