"""``ai.endgame``: the going-out turn played exactly (``hard``)."""

from __future__ import annotations

from py_engine.ai.act import bot_move
from py_engine.ai.endgame import as_question, best_going_out
from py_engine.ai.hard import HardBot
from py_engine.ai.medium import MediumBot
from py_engine.legal import legal_moves
from py_engine.moves import Move, parse_move
from py_engine.observation import Observation
from py_engine.state import Game


def _medium_selfplay(rules: str, players: int, seed: int, moves: int) -> Game:
    g = Game.new(rules, players, seed=seed)
    med = MediumBot(seed=1)
    for _ in range(moves):
        g.play(bot_move(med, g, g.current))
    return g


def _best(g: Game, seat: int, med: MediumBot) -> Move | None:
    return best_going_out(Observation.for_seat(g, seat), legal_moves(g), med)


def _finish_turn(g: Game, seat: int, chooser) -> float:
    """Play the seat's rest of the turn with ``chooser(game)`` (a question answered yes) and
    return the seat's side's deal score; the turn must end the deal."""
    side = g.side_of(seat)
    while g.phase not in ("deal_over", "game_over"):
        if g.phase == "answer":
            g.play("answer yes")
            continue
        assert g.current == seat and g.phase == "meld", "the line did not go out"
        g.play(chooser(g))
    return g.history[-1][side]


def test_the_going_out_layout_that_scores_most_is_played():
    # samba 2: medium lays its last wild cards on whichever meld its scores tie on; the exact
    # line completes canastas with them (the other hands do not matter: the same in every line)
    g = _medium_selfplay("samba", 2, 20506, 165)
    seat = g.current
    med = MediumBot(seed=1)
    mv = _best(g, seat, med)
    assert mv is not None and mv != bot_move(med, g, seat)
    exact = _finish_turn(
        g.copy(log=True), seat, lambda h: _best(h, seat, med) or bot_move(med, h, seat)
    )
    medium = _finish_turn(g.copy(log=True), seat, lambda h: bot_move(med, h, seat))
    assert exact > medium


def test_a_question_proposes_the_best_line():
    # samba 4: medium asks to lay 2H and discard the joker; the question that lays both scores
    # 350 more if the partner says yes
    g = _medium_selfplay("samba", 4, 20416, 69)
    seat = g.current
    med = MediumBot(seed=1)
    mine = bot_move(med, g, seat)
    assert mine.text() == "ask add m6 2H; discard JK"
    mv = _best(g, seat, med)
    assert mv is not None and mv.verb == "ask"
    side = g.side_of(seat)
    scores = {}
    for m in (mv, mine):
        h = g.copy(log=True)
        h.play(m)
        h.play("answer yes")
        scores[m] = h.history[-1][side]
    assert scores[mv] - scores[mine] == 350
    # hard plays it; without the exact endgame it asks medium's question
    assert bot_move(HardBot(seed=1, iterations=4), g, seat) == mv
    assert bot_move(HardBot(seed=1, iterations=4, endgame=False), g, seat) != mv


def test_no_answer_where_medium_does_not_go_out():
    g = Game.new("samba", 4, seed=20416)
    med = MediumBot(seed=1)
    for _ in range(12):
        assert _best(g, g.current, med) is None  # early in the deal: nobody goes out
        g.play(bot_move(med, g, g.current))


def test_as_question():
    line = [parse_move("meld add m8 2H"), parse_move("discard JK")]
    assert as_question(line) == parse_move("ask add m8 2H; discard JK")
    line = [parse_move("meld add m6 2H"), parse_move("meld add m8 JK")]
    assert as_question(line) == parse_move("ask add m6 2H; add m8 JK")
    assert as_question(line).text() == "ask add m6 2H; add m8 JK"  # type: ignore[union-attr]
    # a line with a move no question carries (a red three laid)
    assert as_question([parse_move("red3 3H"), parse_move("discard JK")]) is None
