"""``ai.endgame``: the going-out turn played exactly (``hard``)."""

from __future__ import annotations

from py_engine.ai.endgame import as_question, best_going_out
from py_engine.ai.hard import HardBot
from py_engine.ai.medium import MediumBot
from py_engine.state import Game
from py_engine.views import view_for


def _medium_selfplay(rules: str, players: int, seed: int, moves: int) -> Game:
    g = Game.new(rules, players, seed=seed)
    med = MediumBot(seed=1)
    for _ in range(moves):
        g.play(med.choose(view_for(g, g.current)))
    return g


def _finish_turn(g: Game, seat: int, chooser) -> float:
    """Play the seat's rest of the turn with ``chooser(view)`` (a question answered yes) and
    return the seat's side's deal score; the turn must end the deal."""
    side = g.side_of(seat)
    while g.phase not in ("deal_over", "game_over"):
        if g.phase == "answer":
            g.play("answer yes")
            continue
        assert g.current == seat and g.phase == "meld", "the line did not go out"
        g.play(chooser(view_for(g, seat)))
    return g.history[-1][side]


def test_the_going_out_layout_that_scores_most_is_played():
    # samba 2: medium lays its last wild cards on whichever meld its scores tie on; the exact
    # line completes canastas with them (the other hands do not matter: the same in every line)
    g = _medium_selfplay("samba", 2, 20506, 165)
    seat = g.current
    view = view_for(g, seat)
    med = MediumBot(seed=1)
    mv = best_going_out(view, med)
    assert mv is not None and mv != med.choose(view)
    exact = _finish_turn(g.copy(log=True), seat, lambda v: best_going_out(v, med) or med.choose(v))
    medium = _finish_turn(g.copy(log=True), seat, med.choose)
    assert exact > medium


def test_a_question_proposes_the_best_line():
    # samba 4: medium asks to lay 2H and discard the joker; the question that lays both scores
    # 350 more if the partner says yes
    g = _medium_selfplay("samba", 4, 20416, 69)
    seat = g.current
    view = view_for(g, seat)
    med = MediumBot(seed=1)
    assert med.choose(view) == "ask add m6 2H; discard JK"
    mv = best_going_out(view, med)
    assert mv is not None and mv.startswith("ask ")
    side = g.side_of(seat)
    scores = {}
    for m in (mv, med.choose(view)):
        h = g.copy(log=True)
        h.play(m)
        h.play("answer yes")
        scores[m] = h.history[-1][side]
    assert scores[mv] - scores[med.choose(view)] == 350
    # hard plays it; without the exact endgame it asks medium's question
    assert HardBot(seed=1, iterations=4).choose(view) == mv
    assert HardBot(seed=1, iterations=4, endgame=False).choose(view) != mv


def test_no_answer_where_medium_does_not_go_out():
    g = Game.new("samba", 4, seed=20416)
    med = MediumBot(seed=1)
    for _ in range(12):
        view = view_for(g, g.current)
        assert best_going_out(view, med) is None  # early in the deal: nobody goes out
        g.play(med.choose(view))


def test_as_question():
    assert as_question(["meld add m8 2H", "discard JK"]) == "ask add m8 2H; discard JK"
    assert as_question(["meld add m6 2H", "meld add m8 JK"]) == "ask add m6 2H; add m8 JK"
