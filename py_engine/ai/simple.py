"""The two simplest levels: ``random`` (uniform over legal moves) and ``easy`` (a beginner:
forgets the pile, misses additions, melds too early)."""

from __future__ import annotations

import random

from ..cards import IS_BLACK3, IS_WILD, RANK_OF, SUIT_OF, VALUE_OF_KIND
from ..moves import AddTo, Answer, Ask, Meld, Move, NextDeal
from ..observation import Observation
from .info import Info, listed
from .medium import MediumBot


class RandomBot:
    level = "random"

    def __init__(self, seed: int = 0, **kw):
        self.rng = random.Random(seed)

    def decide(self, obs: Observation, legal: list[Move]) -> Move:
        """A move drawn uniformly from the legal moves, in the order a view lists them
        (``info.listed``)."""
        if not legal:
            raise ValueError("no legal move")
        return self.rng.choice(listed(legal))


def usefulness(kind: int, hand: list[int]) -> float:
    """How much a card helps the hand it is in (higher: keep it)."""
    if IS_WILD[kind]:
        return 100
    if IS_BLACK3[kind]:
        return -2
    if RANK_OF[kind] == 3:
        return -10
    same = sum(1 for k in hand if not IS_WILD[k] and RANK_OF[k] == RANK_OF[kind]) - 1
    near = sum(
        1
        for k in hand
        if SUIT_OF[k] == SUIT_OF[kind]
        and not IS_WILD[k]
        and abs(RANK_OF[k] - RANK_OF[kind]) in (1, 2)
    )
    return 10 * same + 4 * near - VALUE_OF_KIND[kind] / 20


class EasyBot(RandomBot):
    """A beginner: ``medium``'s judgement with a beginner's habits, not random errors.

    - **Forgets what went into the pile**: of the pile it remembers only the top
      ``pile_memory`` cards, and of the log only the last ``log_memory`` entries (who picked up
      what, who threw away what), so it discards into pairs it has forgotten about.
    - **Misses additions**: each single card it could add to a meld is overlooked with chance
      ``miss_add`` (decided per card and turn, from its seed).
    - **Melds too early**: it lays what it can at once (no keeping a pair for the pile, wild
      cards laid freely, with a pile take too), values pairs little, does not keep cards near a
      same-suit run, goes out at the first chance and always says yes to its partner.

    Against ``medium`` it loses 85–89 % of the decided duplicate deals (README, "Figures, and the commands that give them").
    """

    level = "easy"
    pile_memory = 3
    log_memory = 4
    miss_add = 0.75
    HABITS = {
        "keep_pair_pile": 99,
        "wild_idle": 12.0,
        "wild_complete": 40.0,
        "open_wild": 0.0,
        "take_wild": 0.0,
        "pair": 15.0,
        "seq_near1": 0.0,
        "seq_near2": 0.0,
        "danger": 0.4,
        "top_danger": 8.0,
        "samba_danger": 0.0,
        "black3_per_pile": 0.3,
        "out_margin": -100_000.0,
        "answer_fit": 100_000,
        "answer_hand_value": 100_000,
        "top_samba": 10.0,
        "take_per_card": 1.0,
    }

    def __init__(self, seed: int = 0, **kw):
        super().__init__(seed)
        self.seed = seed
        self.judge = MediumBot(seed=seed, weights=self.HABITS)

    def perceive(self, obs: Observation, legal: list[Move]) -> Info:
        """What the beginner takes in of its seat's observation (``info.Info``): the last
        ``log_memory`` log entries only, and of the pile's cards the top ``pile_memory`` (it
        sees the pile's height, not what is buried in it)."""
        info = Info.from_observation(obs, legal, log=obs.log[-self.log_memory :])
        self._forget(info)
        return info

    def decide(self, obs: Observation, legal: list[Move]) -> Move:
        """The seat's move from its observation and legal moves (``Move`` objects, the
        engine's order): ``next`` and ``answer yes`` at once, else ``_pick``."""
        if not legal:
            raise ValueError("no legal move")
        moves = listed(legal)
        if len(moves) == 1 and type(moves[0]) is NextDeal:
            return moves[0]
        for m in moves:
            if type(m) is Answer and m.yes:
                return m
        info = self.perceive(obs, legal)
        rng = random.Random(f"easy:{self.seed}:{obs.version}:{obs.seat}")
        return self._pick(info, rng, moves)[2]

    def _forget(self, info: Info) -> None:
        """Of the pile, only the top ``pile_memory`` cards are remembered."""
        for k in info.pile[: -self.pile_memory]:
            if not IS_WILD[k] and RANK_OF[k] >= 4:
                info.seen_rank[RANK_OF[k]] -= 1

    def _pick(self, info: Info, rng: random.Random, moves: list[Move]) -> tuple[float, str, Move]:
        """The best of the moves (in the order a view lists them) by ``medium``'s scores with the
        beginner's habits, after overlooking some additions and every ask: (its score, its
        text, the move; a tie goes to the higher text)."""
        texts = [m.text() for m in moves]
        scored = []
        for mv, m in zip(moves, texts):
            t = type(mv)
            if (
                t is Meld
                and len(mv.parts) == 1  # type: ignore[attr-defined]
                and type(mv.parts[0]) is AddTo  # type: ignore[attr-defined]
                and rng.random() < self.miss_add
            ):
                continue  # did not see that this card goes on that meld
            if t is Ask:
                continue  # never asks: goes out when it can
            scored.append((self.judge.move_score(info, mv), m, mv))
        if not scored:
            scored = [(0.0, m, mv) for mv, m in zip(moves, texts)]
        return max(scored, key=lambda x: (x[0], x[1]))
