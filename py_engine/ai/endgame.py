"""The going-out turn played exactly (``hard``).

When ``medium``'s own play of the rest of this turn goes out (or asks the partner to), the
deal's score for the own side depends only on what the seat lays before it goes: its melds and
its last discard. The partner's hand, the other sides' hands and the stock are the same in
every line of the turn, so one determinization of the seat's view ranks the lines exactly.
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
from ..state import Game
from .act import bot_move
from .determinize import determinize, laid_red_threes
from .info import Info
from .medium import MediumBot

MAX_HAND = 10  # larger hands do not go out this turn often enough to be worth the search
MAX_NODES = 600  # positions searched at most (a few hundred milliseconds in CPython)

_ENDED = ("deal_over", "game_over")


def best_going_out(
    view: dict,
    policy: MediumBot,
    deadline: float | None = None,
    max_nodes: int = MAX_NODES,
    clock=time.perf_counter,
) -> str | None:
    """The first move of this turn's best going-out line, when it scores more for the own side
    than ``policy``'s own line; None when ``policy`` does not go out (nor ask to) this turn,
    or its line is already the best found. When ``policy`` asks the partner, so does the
    answer: the best line proposed as the question (or the best of the listed questions).
    ``deadline``: a time of ``clock`` (default ``time.perf_counter``) after which the search
    stops (what it found so far counts)."""
    if view["phase"] != "meld" or len(view["hand"]) > MAX_HAND:
        return None
    side, me = view["my_side"], view["seat"]
    if view["canastas"][side] < view["requirement"] or not policy.want_out(Info.of_view(view)):
        return None
    g = determinize(view, random.Random(f"endgame:{view['version']}:{me}"))
    laid_red_threes(g, me, view)
    base = _policy_line(g, me, side, policy)
    if base is None:
        return None
    value, asks, line = base
    best = _Search(me, side, deadline, max_nodes, clock).best(g)
    blind = not asks and _ask_first(view, policy)
    if not asks and not blind:
        return best[1][0] if best is not None and best[0] > value else None
    # The question carries the whole going-out action: the best line as one, else the best
    # question the legal listing offers. Where ``policy`` would go out without asking while
    # the partner holds many cards, its own line becomes a question too, and a question is
    # asked even when it scores no more than going out blind would (the partner knows its
    # hand: ``MediumBot.answer_score``).
    options = [m.text() for m in legal_moves(g) if m.text().startswith("ask")]
    if blind:
        options.insert(0, as_question(line))
        value = float("-inf")
    if best is not None:
        options.insert(0, as_question(best[1]))
    top: tuple[float, str] | None = None
    for t in options:
        h = g.copy(log=True)
        try:
            h.play(t)
        except ValueError:
            continue  # (a line whose later melds name a meld it made itself)
        v = _end_value(h, side)
        if v is not None and (top is None or v > top[0]):
            top = (v, t)
    return top[1] if top is not None and top[0] > value else None


def as_question(line: list[str]) -> str:
    """A going-out line (meld moves, then the last discard or a meld that empties the hand) as
    the question that proposes it: ``["meld add m8 2H", "discard JK"]`` -> ``"ask add m8 2H;
    discard JK"``."""
    bits = [m[len("meld ") :] if m.startswith("meld ") else m for m in line]
    return "ask " + "; ".join(bits)


def _end_value(g: Game, side: int) -> float | None:
    """The own side's deal score if the turn ended the deal; an ask is counted as answered
    "yes" (its plan is then played)."""
    if g.phase == "answer":
        g.play("answer yes")
    if g.phase in _ENDED:
        return g.history[-1][side]
    return None


def _ask_first(view: dict, policy: MediumBot) -> bool:
    """Should a going out be asked for rather than made: the partner holds more than
    ``ask_partner_cards`` cards, the turn may still ask, nothing threatens the side and going
    out does not decide the game (docs/ai.md, "Answering")."""
    info = Info.of_view(view)
    if not info.partners or not (view.get("legal") or {}).get("can_ask"):
        return False
    big = max(view["hand_sizes"][p] for p in info.partners)
    return (
        big > policy.w["ask_partner_cards"] and not policy.threatened(info) and info.out_game() == 0
    )


def _policy_line(
    g: Game, me: int, side: int, policy: MediumBot
) -> tuple[float, bool, list[str]] | None:
    """(the own side's deal score, whether it asked, its moves) of ``policy``'s rest of the
    turn, when it goes out or asks to; None otherwise."""
    h = g.copy(log=True)
    line: list[str] = []
    for _ in range(40):
        if h.phase in _ENDED or h.phase == "answer":
            asks = h.phase == "answer"
            v = _end_value(h, side)
            return None if v is None else (v, asks, line)
        if h.current != me or h.phase != "meld":
            return None  # the turn ended without going out
        move = bot_move(policy, h, me)
        line.append(move.text())
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

    def best(self, g: Game) -> tuple[float, list[str]] | None:
        """(the best own-side deal score, its line) from ``g`` on."""
        key = self._key(g)
        if key in self.memo:
            return self.memo[key]
        me = self.me
        best: tuple[float, list[str]] | None = None
        for m in legal_moves(g):
            if self._stop():
                break
            t = m.text()
            head = t.split(" ", 1)[0]
            if head in ("merge", "ask") or (head == "discard" and len(g.hands[me]) != 1):
                continue  # (a discard that keeps cards ends the turn without going out)
            self.nodes += 1
            h = g.copy(log=True)
            h.play(t)
            got: tuple[float, list[str]] | None = None
            if h.phase in _ENDED:
                got = (h.history[-1][self.side], [t])
            elif h.current == me and h.phase == "meld":
                sub = self.best(h)
                if sub is not None:
                    got = (sub[0], [t] + sub[1])
            if got is not None and (best is None or got[0] > best[0]):
                best = got
        self.memo[key] = best
        return best
