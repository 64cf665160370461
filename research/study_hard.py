"""``hard`` with the settings only studies use (never offered to players): ``StudyHard``.

The product's ``hard`` takes ``HardConfig`` (``py_engine/ai/hard.py``); ``StudyConfig`` adds
the options that studies measured and the product leaves off:

- ``mode="draw"``: search the draw phase (and answers) only (docs/journal/2026-12-05-ai-sessions.md: measured no better);
- ``hold=True``: also search "meld now, or keep the cards and discard ``medium``'s discard";
- ``leaf="hand"``: the hand-set leaf estimate instead of the fitted one (``leaf.py``);
- ``infer=True``: sampled hands agree with the piles the other players drew past, the cards
  they discarded and the melds their finished turns would have made (``inference.Avoided``);
- ``rich=beta``: the other seats' sampled hands as rich in natural pairs as kept hands are
  (``inference.PairRich``). ``infer`` and ``rich`` were measured worse than neither
  (docs/journal/2026-12-05-ai-sessions.md, "Session 7").

``StudyHard(seed, **options)`` takes every ``HardConfig`` and ``StudyConfig`` field.

    >>> StudyHard(seed=1, hold=True, leaf="hand").leaf_weights
    {}
    >>> StudyHard(seed=1, mode="discard")
    Traceback (most recent call last):
    ...
    ValueError: unknown mode 'discard' (one of all, draw)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from py_engine.ai.determinize import laid_red_threes
from py_engine.ai.hard import HardBot, HardConfig
from py_engine.moves import Discard, Move
from py_engine.moves import Meld as MeldMove
from py_engine.observation import Observation
from py_engine.state import Game
from research.inference import Avoided, PairRich

MODES = ("all", "draw")
LEAVES = ("fitted", "hand")


@dataclass(frozen=True)
class StudyConfig(HardConfig):
    mode: str = "all"
    hold: bool = False
    leaf: str = "fitted"
    infer: bool = False
    rich: float = 0.0


class ModelledWorlds:
    """A decision's worlds with the models of the other hands applied to each sample:
    ``Avoided`` (``infer``) and ``PairRich`` (``rich``), after the red threes are laid."""

    def __init__(self, inner, obs: Observation, infer: bool, rich: float):
        self.inner = inner
        self.seat = obs.seat
        self.avoided = Avoided(obs) if infer else None
        self.rich = PairRich(obs, rich) if rich else None

    def sample(self, rng: random.Random) -> Game:
        world = self.inner.sample(rng)
        laid_red_threes(world, self.seat)
        tag = rng.random()
        if self.avoided is not None:
            self.avoided.apply(world, random.Random(f"{tag}:p"))
        if self.rich is not None:
            self.rich.apply(world, random.Random(f"{tag}:q"))
        return world


class StudyHard(HardBot):
    level = "hard_study"
    CONFIG = StudyConfig

    def __init__(self, seed: int = 0, config: HardConfig | None = None, **options):
        super().__init__(seed, config, **options)
        cfg = self.config
        assert isinstance(cfg, StudyConfig), "StudyHard takes a StudyConfig"
        if cfg.mode not in MODES:
            raise ValueError(f"unknown mode {cfg.mode!r} (one of {', '.join(MODES)})")
        if cfg.leaf not in LEAVES:
            raise ValueError(f"unknown leaf {cfg.leaf!r} (one of {', '.join(LEAVES)})")
        self.mode, self.hold, self.leaf = cfg.mode, cfg.hold, cfg.leaf
        self.infer, self.rich = cfg.infer, cfg.rich
        if cfg.leaf == "hand":
            self.leaf_weights = {}

    def candidates(self, obs: Observation, ranked: list[tuple[float, Move]]) -> list[Move]:
        if obs.phase in ("draw", "meld", "answer"):
            best, top = ranked[0]
            if self.mode == "draw" and obs.phase == "meld":
                return [top]  # search the draw phase (and answers) only
            if self.hold and type(top) is MeldMove and 0 < best < 900 and len(obs.hand) > 3:
                # melding now, or keeping the cards and discarding medium's discard
                disc = [m for s, m in ranked if type(m) is Discard]
                return [top] + disc[:1]
        return super().candidates(obs, ranked)

    def worlds(self, obs: Observation):
        inner = super().worlds(obs)
        if self.infer or self.rich:
            return ModelledWorlds(inner, obs, self.infer, self.rich)
        return inner
