"""``hard``: information-set Monte Carlo on top of ``medium``.

A decision (``decide(observation, legal moves) -> Move``): at each real decision (more than one
sensible move), ``medium`` ranks the legal moves (with the last-turn habit, ``lastturn.py``) and
a shortlist of the best few is kept. Then, until the budget ends, the bot samples a
determinization of its seat's observation (``determinize.py``: the unseen cards dealt at random, cards seen
picked up with the pile put back where they went), plays each shortlisted move in it and lets
the ``medium`` policy play every seat for a number of turns (or to the end of the deal). Each
outcome is scored from the bot's side: the deal score if the deal ended, else an estimate
(``evaluate``: by default the leaf estimate fitted on finished deals, ``leaf.py``). All
candidates share each sample (common random numbers). The move with the mean gain over
``medium``'s own choice wins, but only when that gain is clear (its paired lower bound,
``mean - confidence * standard error``, is above zero); otherwise ``medium``'s choice stands.

Budget: ``budget`` seconds or ``iterations`` samples. With ``iterations`` and a fixed seed the
choice is reproducible: it depends on the observation only. Without either, the budget scales to the
machine (``auto_budget``): ``base`` seconds (``DEFAULT_BUDGET``) times how much slower than the
reference machine a fixed probe runs here (``machine_factor``), at most ``cap`` seconds
(``DEFAULT_CAP``). A time budget is a deadline for the whole ``decide`` (on the wall clock; with
``clock="cpu"`` on the process's CPU time, for measurements on a busy machine): the ranking,
the shortlist, the samples and the final check all count, and a sample still running at the
deadline is abandoned (its values are dropped, so the comparison stays paired).
"""

from __future__ import annotations

import gc
import random
import time
from dataclasses import dataclass, fields, replace

from ..legal import legal_moves
from ..moves import Answer, Ask, Discard, Draw, Move
from ..moves import Meld as MeldMove
from ..observation import Observation
from ..state import Game
from .determinize import Determinizer, laid_red_threes
from .endgame import best_going_out
from .explain import warnings_of
from .info import Info
from .lastturn import LastTurnMedium
from .medium import MediumBot
from .rollout import evaluate, fast_meld_move, rollout_move
from .weights import LEAF_WEIGHTS

DEFAULT_BUDGET = 0.75  # seconds per decision on the reference machine (docs/ai.md)
DEFAULT_CAP = 1.3  # never more than this per decision, however slow the machine
# (under the 1.5 s goal with room for the view, JSON and worker)
# ``machine_factor``'s probe takes about this long (seconds) on the reference machine: above the
# 15-23 ms it took in Pyodide (under Node) on the project's 2-core machine (docs/ai.md) before
# the rollouts got faster; with one ``Determinizer`` per search and rollouts on the game's own
# state the same probe runs in 0.62 of that time (CPython, old and new side by side), so the
# reference is 0.030 s x 0.62.
PROBE_REF = 0.019
PROBE_EVERY = 20.0  # seconds between probes (the last three are kept, their median used)
_probes: list[float] = []
_probe_at = [float("-inf")]


# The clocks a time budget can run on: ``wall`` (what players get: the budget is the time they
# wait) or ``cpu``, this process's CPU time, which the machine's other jobs do not eat into (a
# measurement on a busy machine then plays as a quiet one would; docs/ai.md, "Runs on a cluster").
CLOCKS = {"wall": "perf_counter", "cpu": "process_time"}  # (functions of ``time``)


class _Overrun(Exception):
    """A sample still running at the deadline (``HardBot.rollout``)."""


def _probe_once() -> float:
    """Seconds for a fixed piece of ``hard``'s own work: one determinization and one rollout
    of a fixed samba 4 position with fixed seeds (the same work on every machine)."""
    g = Game.new("samba", 4, seed=1)
    g.play(Draw())
    seat = g.current
    obs = Observation.for_seat(g, seat)
    discard = next(m for m in legal_moves(g) if type(m) is Discard)
    bot = HardBot(seed=0, iterations=1)
    t = time.perf_counter()
    world = Determinizer(obs).sample(random.Random(1))
    w = world.copy(log=True)
    w.play(discard)
    bot.rollout(w, seat, random.Random(2))
    return time.perf_counter() - t


def machine_factor(now: float | None = None) -> float:
    """How many times slower than the reference machine this one runs ``hard``'s work now
    (the median of the last three probes, one every ``PROBE_EVERY`` seconds)."""
    now = time.perf_counter() if now is None else now
    if now - _probe_at[0] >= PROBE_EVERY or not _probes:
        if not _probes:
            _probe_once()  # the first run warms caches up: not counted
        _probes.append(_probe_once())
        del _probes[:-3]
        _probe_at[0] = time.perf_counter()
    return sorted(_probes)[len(_probes) // 2] / PROBE_REF


def auto_budget(
    base: float = DEFAULT_BUDGET, cap: float = DEFAULT_CAP, factor: float | None = None
) -> float:
    """``base`` seconds scaled to the machine: ``base`` here or faster, up to ``cap`` slower."""
    f = machine_factor() if factor is None else factor
    return min(cap, base * max(1.0, f))


def _paired(xs: list[float], base: list[float]) -> tuple[float, float]:
    """Mean and sample standard deviation of the paired differences ``xs - base`` (the
    deviation infinite for a single pair)."""
    n = len(xs)
    d = [a - b for a, b in zip(xs, base)]
    mean = sum(d) / n
    sd = (sum((x - mean) ** 2 for x in d) / (n - 1)) ** 0.5 if n > 1 else float("inf")
    return mean, sd


def _signs(xs: list[float], base: list[float], eps: float = 0.5) -> tuple[int, int]:
    """In how many samples ``xs`` beat ``base`` and lost to it by more than ``eps``."""
    won = sum(1 for a, b in zip(xs, base) if a - b > eps)
    lost = sum(1 for a, b in zip(xs, base) if b - a > eps)
    return won, lost


@dataclass(frozen=True)
class HardConfig:
    """The settings of ``hard`` that the product uses (players' ``hard``, the hint, the
    blunder-suite judge, the tournament's budget and clock, and the tests that show what each
    feature does). Studies configure more in ``research/`` (a subclass of this and of
    ``HardBot``)."""

    # None: scaled to the machine at each decision (``auto_budget(base, cap)``)
    budget: float | None = None
    iterations: int | None = None
    base: float = DEFAULT_BUDGET
    cap: float = DEFAULT_CAP
    # what a time budget runs on (``CLOCKS``)
    clock: str = "wall"
    shortlist: int = 3
    rounds: float = 1.0
    confidence: float = 1.5
    min_samples: int = 12
    # overrule medium only for a mean sampled gain of at least this many points, and stop
    # sampling once no candidate's upper bound reaches it (the decision is settled)
    min_gain: float = 75.0
    # the rollouts' meld phases by the cheap stand-in (``fast_meld_move``)
    fast: bool = True
    # True: the rest of the searching seat's own turn is played by ``medium`` itself in the
    # rollouts, never by the cheap meld stand-in (``rollout.fast_meld_move``)
    own_turn: bool = True
    # True: a turn that ``medium`` would go out in (or ask to) is played exactly: the
    # going-out line with the best own-side deal score (``endgame.best_going_out``)
    endgame: bool = True
    # True: the own moves are ranked with the last-turn habit (``lastturn.LastTurnMedium``:
    # lay everything and shed high cards when an opponent is about to go out); the
    # rollouts' players stay ``medium``
    last_turn: bool = True
    # True: ``medium``'s discard is never replaced by another discard (the draw phase, melds
    # against a discard, asking and answering are still searched); a study option, off in the
    # product (research/hard_losses.py measures it)
    keep_discard: bool = False
    # the last-turn habit's ``LastTurnMedium.CARDS`` (an opponent that can go out holding at
    # most this many cards); a study option, the product's is the class's
    last_turn_cards: int = LastTurnMedium.CARDS
    # search only once the stock holds at most this many cards (earlier, ``medium``'s move, with
    # the habits above, stands); None: from the first move, as the product does
    search_stock: int | None = None


class HardBot:
    level = "hard"
    CONFIG: type[HardConfig] = HardConfig

    def __init__(self, seed: int = 0, config: HardConfig | None = None, **options):
        """``config`` (default ``CONFIG()``) with ``options`` (its fields) replaced."""
        self.seed = seed
        cfg = config if config is not None else self.CONFIG()
        if options:
            unknown = sorted(set(options) - {f.name for f in fields(cfg)})
            if unknown:
                raise TypeError(
                    f"hard has no setting {', '.join(map(repr, unknown))}; one of "
                    f"{', '.join(f.name for f in fields(cfg))}"
                )
            cfg = replace(cfg, **options)
        self.config = cfg
        if cfg.clock not in CLOCKS:
            raise ValueError(f"unknown clock {cfg.clock!r} (one of {', '.join(CLOCKS)})")
        self.clock_name = cfg.clock
        self.clock = getattr(time, CLOCKS[cfg.clock])
        self.budget = cfg.budget
        self.auto = cfg.budget is None and cfg.iterations is None
        self.base, self.cap = cfg.base, cfg.cap
        self.iterations = cfg.iterations
        self.shortlist = cfg.shortlist
        self.rounds = cfg.rounds
        self.confidence = cfg.confidence
        self.min_samples = cfg.min_samples
        self.fast = cfg.fast
        self.own_turn = cfg.own_turn
        self.min_gain = cfg.min_gain
        self.endgame = cfg.endgame
        self.last_turn = cfg.last_turn
        # the leaf estimate's weights per rule set (``leaf.py``; a rule set without any: the
        # hand-set estimate, ``rollout.evaluate``)
        self.leaf_weights: dict = LEAF_WEIGHTS
        habit: type[LastTurnMedium] = LastTurnMedium
        if cfg.last_turn_cards != LastTurnMedium.CARDS:

            class Habit(LastTurnMedium):
                CARDS = cfg.last_turn_cards

            habit = Habit
        self.medium = habit(seed=seed) if cfg.last_turn else MediumBot(seed=seed)
        self._policy = MediumBot()  # the rollouts' players (``rollout``)
        self.last_stats: dict = {}
        self._deadline: float | None = None  # set while a time-budgeted search runs
        self._melds_seen: dict = {}

    def decide(self, obs: Observation, legal: list[Move]) -> Move:
        """The seat's move from its observation and its legal moves (``Move`` objects)."""
        self.clock = getattr(time, CLOCKS[self.clock_name])  # (read now: tests replace it)
        t0 = self.clock()
        self.last_stats = {}
        ranked = self.medium.ranking(obs, legal)
        if not ranked:
            raise ValueError("no legal move")
        if self.endgame:
            budget = self.time_budget()
            exact = best_going_out(
                obs,
                legal,
                self.medium,
                None if budget is None else t0 + budget / 2,
                clock=self.clock,
            )
            if exact is not None:
                self.last_stats = {"samples": 0, "gains": {}, "endgame": exact}
                return exact
        cands = self.candidates(obs, ranked)
        limit = self.config.search_stock
        if len(cands) <= 1 or (limit is not None and obs.stock > limit):
            return ranked[0][1]
        return self.search(obs, legal, cands, t0)

    def searched(self, obs: Observation, legal: list[Move]) -> list[Move]:
        """``candidates`` of ``medium``'s ranking of the legal moves (what ``decide`` searches
        when it searches: more than one)."""
        return self.candidates(obs, self.medium.ranking(obs, legal))

    def time_budget(self) -> float | None:
        """This decision's seconds (``None``: ``iterations`` only)."""
        return auto_budget(self.base, self.cap) if self.auto else self.budget

    def candidates(self, obs: Observation, ranked: list[tuple[float, Move]]) -> list[Move]:
        """The moves worth searching, in ``medium``'s order."""
        if obs.phase not in ("draw", "meld", "answer"):
            return [ranked[0][1]]
        best, top = ranked[0]
        t = type(top)
        if best >= 900 and not (t is Discard or t is Ask or t is Answer):
            return [top]  # laying a red three, going out with melds: no question
        if t is MeldMove and best > 0:
            return [top]  # melding order: medium's
        out = [m for s, m in ranked if s > best - 400][: self.shortlist]
        if self.config.keep_discard and t is Discard:
            out = [top] + [m for m in out[1:] if type(m) is not Discard]
        return out

    def search(
        self, obs: Observation, legal: list[Move], cands: list[Move], t0: float | None = None
    ) -> Move:
        """The shortlist's best move on evidence; ``t0``: when the decision started (its
        ranking counts against the budget; default now)."""
        self.clock = getattr(time, CLOCKS[self.clock_name])
        t0 = self.clock() if t0 is None else t0
        # The samples make many short-lived objects and no reference cycles: the cyclic
        # garbage collector only costs time here (it runs again when the search ends).
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._search(obs, legal, cands, t0)
        finally:
            self._deadline = None
            if was_enabled:
                gc.enable()

    def _search(self, obs: Observation, legal: list[Move], cands: list[Move], t0: float) -> Move:
        me = obs.seat
        side = obs.my_side
        values: list[list[float]] = [[] for _ in cands]
        n = 0
        budget = self.time_budget()
        t_end = t0 + budget if budget is not None else None
        self._deadline = t_end
        t_start = self.clock()
        weights = self.leaf_weights.get(obs.rules.name)
        base = random.Random(f"hard:{self.seed}:{obs.version}:{obs.seat}").random()
        worlds = self.worlds(obs)
        self._melds_seen = {}  # the rollouts' meld observations (``rollout._rollout_info``)
        overrun = False
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            now = self.clock()
            if t_end is not None and (
                now >= t_end or (n > 0 and now + (now - t_start) / n > t_end)
            ):
                break  # the next sample would overrun the deadline
            if (
                t_end is not None
                and n > 0
                and now - t_start > (t_end - t_start) / 3
                and n * (t_end - t_start) / (now - t_start) < self.min_samples
            ):
                break  # a slow (or loaded) machine: too few samples to overrule medium
                # anyway, so play its move now rather than spend the budget
            sample_seed = f"{base}:{n}"
            world = worlds.sample(random.Random(sample_seed))
            laid_red_threes(world, me)
            row = []
            try:
                for mv in cands:
                    g = world.copy(log=True)
                    g.play(mv)
                    self.rollout(g, me)
                    row.append(evaluate(g, side, None, weights))
            except _Overrun:
                overrun = True
                break  # the deadline came during this sample: drop it
            for i, x in enumerate(row):
                values[i].append(x)
            n += 1
            if (
                self.min_gain > 0
                and n >= self.min_samples
                and n % 4 == 0
                and self._settled(values, n)
            ):
                break
        if n == 0:
            self.last_stats = {
                "samples": 0,
                "gains": {},
                "means": {},
                "budget": budget,
                "overrun": overrun,
            }
            return cands[0]
        # Paired differences against medium's choice (cands[0]): switch only on evidence.
        best, best_gain = 0, 0.0
        gains = {}
        signs = {}
        for i in range(1, len(cands)):
            signs[cands[i]] = _signs(values[i], values[0])
            mean, sd = _paired(values[i], values[0])
            t = self._t(n)  # few samples widen the bound, so they rarely overrule
            lower = mean - t * sd / n**0.5
            gains[cands[i]] = (round(mean, 1), round(lower, 1))
            if (
                n >= self.min_samples
                and lower > 0
                and mean > best_gain
                and mean >= self.min_gain
                and self.allowed(obs, legal, cands[i], cands[0])
            ):
                best, best_gain = i, mean
        self.last_stats = {
            "samples": n,
            "gains": gains,
            "signs": signs,
            "budget": budget,
            "overrun": overrun,
            "means": {m: sum(values[i]) / n for i, m in enumerate(cands)},
        }
        return cands[best]

    def _t(self, n: int) -> float:
        """Student's quantile for ``n - 1`` degrees of freedom at the normal quantile
        ``confidence`` (Cornish-Fisher): with few samples the bound widens."""
        z = self.confidence
        return z + (z**3 + z) / (4 * (n - 1)) if n > 1 else z

    def _settled(self, values: list[list[float]], n: int) -> bool:
        """No candidate's paired upper bound on its gain over medium's choice reaches
        ``min_gain``: more samples would not overrule medium."""
        t = self._t(n)
        for vals in values[1:]:
            mean, sd = _paired(vals, values[0])
            if mean + t * sd / n**0.5 >= self.min_gain:
                return False
        return True

    def worlds(self, obs: Observation) -> Determinizer:
        """The sampler of this decision's worlds: ``Determinizer(obs)``, the seat's observation
        only (a study may substitute another: research/pi_check.py's open hands,
        research/study_hard.py's models of the other hands)."""
        return Determinizer(obs)

    def allowed(self, obs: Observation, legal: list[Move], move: Move, medium_move: Move) -> bool:
        """The search may play ``move`` instead of ``medium``'s choice only if it commits no
        blunder of the suite (``explain.warnings_of``) that ``medium``'s choice does not."""
        info = Info.from_observation(obs, legal)
        mine = {w["key"] for w in warnings_of(info, medium_move, self.medium)}
        return all(w["key"] in mine for w in warnings_of(info, move, self.medium))

    def rollout(self, g: Game, me: int, rng: random.Random | None = None) -> None:
        """Play ``g`` on for ``rounds`` rounds of turns by ``medium`` (its cheap meld phase where
        ``fast``). ``rng``: unused (``medium`` draws nothing, so one player serves every
        rollout; kept for the callers that pass one)."""
        policy = self._policy
        turns = 0
        limit = max(1, int(round(self.rounds * g.players)))
        last = g.current
        steps = 0
        cache: dict = {"seen": self._melds_seen}
        deadline = self._deadline
        clock = self.clock
        while g.phase in ("draw", "meld", "answer") and steps < 400:
            if deadline is not None and clock() > deadline:
                raise _Overrun  # the decision's deadline (``_search``)
            if g.phase == "draw" and g.current != last:
                turns += 1
                last = g.current
                if turns >= limit:
                    break
            cheap = self.fast and not (self.own_turn and turns == 0 and g.current == me)
            move = fast_meld_move(g, policy, cache) if cheap else None
            if move is None:
                move = rollout_move(g, policy, cache)
                if move is None:
                    break  # a dead end of the sampled game: evaluate it as it stands
            g.play(move)
            steps += 1
