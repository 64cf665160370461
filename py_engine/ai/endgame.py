"""The going-out turn played exactly (``hard``).

When ``medium``'s own play of the rest of this turn goes out (or asks the partner to), the
deal's score for the own side depends only on what the seat lays before it goes: its melds and
its last discard. The partner's hand, the other sides' hands and the stock are the same in
every line of the turn, so one determinization of the seat's observation ranks the lines exactly.
``best_going_out`` searches every line of the turn that goes out the way ``medium``'s does
(going out, or asking to), with the positions reached by several orders of the same melds
looked up once, and returns the first move of the line with the best own-side deal score when
it beats ``medium``'s line.

``medium`` chooses its going-out melds one by one by their scores and, among moves of equal
score, by their text: in ``medium`` self-play the line it takes can leave a canasta bonus on the
table (measured in docs/journal/2026-12-05-ai-sessions.md).
"""

from __future__ import annotations

import random
import time

from ..cards import KIND_OF_ID
from ..legal import legal_moves
from ..moves import Answer, Ask, Discard, Merge, Move, Part
from ..moves import Meld as MeldMove
from ..observation import Observation
from ..state import Game
from ..turn import ask_problem
from .act import bot_move
from .determinize import determinize, laid_red_threes
from .info import Info
from .medium import MediumBot

MAX_HAND = 10  # larger hands do not go out this turn often enough to be worth the search
MAX_NODES = 600  # positions searched at most (a few hundred milliseconds in CPython)

_ENDED = ("deal_over", "game_over")
_YES = Answer(True)


def best_going_out(
    obs: Observation,
    legal: list[Move],
    policy: MediumBot,
    deadline: float | None = None,
    max_nodes: int = MAX_NODES,
    clock=time.perf_counter,
) -> Move | None:
    """The first move of this turn's best going-out line, when it scores more for the own side
    than ``policy``'s own line; None when ``policy`` does not go out (nor ask to) this turn,
    or its line is already the best found. ``obs``: the seat's observation, ``legal`` its legal
    moves. When ``policy`` asks the partner, so does the answer: the best line proposed as the
    question (or the best of the listed questions). ``deadline``: a time of ``clock`` (default
    ``time.perf_counter``) after which the search stops (what it found so far counts)."""
    if obs.phase != "meld" or len(obs.hand) > MAX_HAND:
        return None
    side, me = obs.my_side, obs.seat
    info = Info.from_observation(obs, legal)
    if obs.canastas[side] < obs.requirement or not policy.want_out(info):
        return None
    g = determinize(obs, random.Random(f"endgame:{obs.version}:{me}"))
    laid_red_threes(g, me)
    base = _policy_line(g, me, side, policy)
    if base is None:
        return None
    value, asks, line = base
    best = _Search(me, side, deadline, max_nodes, clock).best(g)
    blind = not asks and _ask_first(obs, policy)
    if not asks and not blind:
        return best[1][0] if best is not None and best[0] > value else None
    # The question carries the whole going-out action: the best line as one, else the best
    # question the legal listing offers. Where ``policy`` would go out without asking while
    # the partner holds many cards, its own line becomes a question too, and a question is
    # asked even when it scores no more than going out blind would (the partner knows its
    # hand: ``MediumBot.answer_score``).
    options: list[Move | None] = [m for m in legal_moves(g) if type(m) is Ask]
    if blind:
        options.insert(0, as_question(line))
        value = float("-inf")
    if best is not None:
        options.insert(0, as_question(best[1]))
    top: tuple[float, Move] | None = None
    for q in options:
        if q is None:
            continue  # (a line with a move no question can carry)
        h = g.copy(log=True)
        try:
            h.play(q)
        except ValueError:
            continue  # (a line whose later melds name a meld it made itself)
        v = _end_value(h, side)
        if v is not None and (top is None or v > top[0]):
            top = (v, q)
    return top[1] if top is not None and top[0] > value else None


def as_question(line: list[Move]) -> Ask | None:
    """A going-out line (meld moves, then the last discard or a meld that empties the hand) as
    the question that proposes it: melds adding 2H to m8, then discarding the joker, as the
    question ``ask add m8 2H; discard JK``; None for a line with another kind of move."""
    parts: list[Part] = []
    discard = None
    for i, m in enumerate(line):
        if type(m) is MeldMove:
            parts += m.parts
        elif type(m) is Discard and i == len(line) - 1:
            discard = m.card
        else:
            return None
    return Ask(tuple(parts), discard)


def _end_value(g: Game, side: int) -> float | None:
    """The own side's deal score if the turn ended the deal; an ask is counted as answered
    "yes" (its plan is then played)."""
    if g.phase == "answer":
        g.play(_YES)
    if g.phase in _ENDED:
        return g.history[-1][side]
    return None


def _ask_first(obs: Observation, policy: MediumBot) -> bool:
    """Should a going out be asked for rather than made: the partner holds more than
    ``ask_partner_cards`` cards, the turn may still ask, nothing threatens the side and going
    out does not decide the game (docs/ai.md, "Answering")."""
    info = Info.from_observation(obs)
    if not info.partners or not can_ask(obs):
        return False
    big = max(obs.hand_sizes[p] for p in info.partners)
    return (
        big > policy.w["ask_partner_cards"] and not policy.threatened(info) and info.out_game() == 0
    )


def can_ask(obs: Observation) -> bool:
    """May the observing seat ask its partner now (the view's ``legal.can_ask``): its turn's
    meld phase, the asking rules (``turn.ask_problem``) and its side meeting the going-out
    requirement."""
    if obs.phase != "meld" or obs.current != obs.seat:
        return False
    partner = len(obs.sides[obs.my_side]) > 1
    problem = ask_problem(obs.rules, partner, obs.turn.asked, len(obs.hand))
    return problem is None and obs.requirement_met[obs.my_side]


def _policy_line(
    g: Game, me: int, side: int, policy: MediumBot
) -> tuple[float, bool, list[Move]] | None:
    """(the own side's deal score, whether it asked, its moves) of ``policy``'s rest of the
    turn, when it goes out or asks to; None otherwise."""
    h = g.copy(log=True)
    line: list[Move] = []
    for _ in range(40):
        if h.phase in _ENDED or h.phase == "answer":
            asks = h.phase == "answer"
            v = _end_value(h, side)
            return None if v is None else (v, asks, line)
        if h.current != me or h.phase != "meld":
            return None  # the turn ended without going out
        move = bot_move(policy, h, me)
        line.append(move)
        h.play(move)
    return None


class _Search:
    """The lines of the rest of the turn that go out without asking: melds, then the last
    discard or a meld that empties the hand."""

    def __init__(
        self, me: int, side: int, deadline: float | None, max_nodes: int, clock=time.perf_counter
    ):
        self.me, self.side = me, side
        self.clock = clock
        self.deadline, self.max_nodes = deadline, max_nodes
        self.nodes = 0
        self.memo: dict = {}

    def _key(self, g: Game) -> tuple:
        return (
            tuple(sorted(KIND_OF_ID[c] for c in g.hands[self.me])),
            tuple(
                sorted(
                    (m.id, tuple(sorted(KIND_OF_ID[c] for c in m.cards)))
                    for m in g.melds[self.side]
                )
            ),
        )

    def _stop(self) -> bool:
        return self.nodes >= self.max_nodes or (
            self.deadline is not None and self.clock() > self.deadline
        )

    def best(self, g: Game) -> tuple[float, list[Move]] | None:
        """(the best own-side deal score, its line) from ``g`` on."""
        key = self._key(g)
        if key in self.memo:
            return self.memo[key]
        me = self.me
        best: tuple[float, list[Move]] | None = None
        for m in legal_moves(g):
            if self._stop():
                break
            t = type(m)
            if t is Merge or t is Ask or (t is Discard and len(g.hands[me]) != 1):
                continue  # (a discard that keeps cards ends the turn without going out)
            self.nodes += 1
            h = g.copy(log=True)
            h.play(m)
            got: tuple[float, list[Move]] | None = None
            if h.phase in _ENDED:
                got = (h.history[-1][self.side], [m])
            elif h.current == me and h.phase == "meld":
                sub = self.best(h)
                if sub is not None:
                    got = (sub[0], [m] + sub[1])
            if got is not None and (best is None or got[0] > best[0]):
                best = got
        self.memo[key] = best
        return best
