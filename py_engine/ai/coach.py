"""The coach: which of one seat's decisions in a game record cost the most, and what was better.

``review(record, seat)`` replays the record (docs/formats.md; one that starts from a scenario
too) and, at each decision of ``seat`` (a move of its in a deal's live phases: the draw or take,
each meld step, the discard, asking, answering, going out), weighs the move played against
``hard``'s candidates from that seat's observation only (``Observation.for_seat``: what a bot
gets, never the hidden hands):

- the moves: ``hard``'s shortlist (``HardBot.candidates`` of ``medium``'s ranking), its exact
  going-out line where it has one (``endgame.best_going_out``), and the move played;
- ``samples`` determinizations of the observation (``hard.worlds``), the same for every move (common
  random numbers); in each, every move is played and ``hard``'s rollout goes on from it
  (``HardBot.rollout``: ``medium`` at every seat for a round, the rest of the own turn by
  ``medium`` itself) and the outcome is scored from the seat's side (``rollout.evaluate`` with
  the leaf estimate), as ``hard`` scores its own search, with ``GAME`` points more or less where
  the sample ends the game won or lost (``value``);
- the best move found is the one with the highest mean; the **cost** of the move played is the
  mean of the paired differences (best minus played) with the interval
  ``mean ± t · sd / √n`` (``t``: ``Z`` widened for few samples, as ``hard``'s bound);
- the mark: ``"blunder"`` when the cost is at least ``BLUNDER`` points, ``"mistake"`` at least
  ``MISTAKE``, in both cases only with the interval's lower end above zero; else ``None``.

The work is a number of samples, never a time (``samples_for``): the verdicts depend only on the
record, the seat, the budget and the seed. A decision whose outcome is settled (from
``MIN_SAMPLES`` on, every fourth sample, no move's upper bound on its gain over the move played
reaches ``MISTAKE``) stops sampling early: it cannot be marked. Decisions with a single
legal move (a forced draw) are listed with ``"forced": true`` and not searched.

Each entry carries the better move's reasons (``explain.reasons_of``), the blunders of the suite
the move played commits (``explain.warnings_of``) and, where marked, ``why.search_gain``
(the expected gain in points): codes and facts (``explain.CODES``), worded by the page.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import IllegalMove, InvalidMove, ScenarioError
from ..legal import legal_moves
from ..moves import Move, parse_move
from ..observation import Observation
from ..record import replay
from ..state import Game
from ..views import view_for
from .determinize import laid_red_threes
from .endgame import best_going_out
from .explain import explain
from .hard import HardBot, HardConfig
from .rollout import evaluate

# A mistake costs at least what ``hard`` needs to see to play another move than ``medium``'s
# (``HardConfig.min_gain``), in points of expected deal score (the seat's side's margin over
# the best other side); a blunder at least 300 (four times that)
MISTAKE = HardConfig.min_gain
BLUNDER = 300.0
# A game won (lost) in a sample counts this much on top of the deal's points (``value``: the
# blunder judge's scale, ``judge.outcome``): the deal's points alone cannot see that going out
# hands the game to the opponents
GAME = 1000.0
Z = 1.96  # the interval's normal quantile (95 %), widened for few samples (``_t``)
MIN_SAMPLES = 16  # samples before a decision may be called settled
# ``--budget`` seconds per decision buy this many samples each (``samples_for``): below what
# CPython does here in the middle of a samba 4 deal (400-800 a second with three candidates);
# Pyodide runs the engine about 1.9 times slower (docs/ai.md, "The coach")
SAMPLES_PER_SECOND = 200
DEFAULT_BUDGET = 0.5  # seconds per decision (100 samples)
MAX_BUDGET = 60.0
# The bridge's step: at most this many samples (tens of milliseconds in the browser), so that the
# worker answers a player's request soon (``Review.step``)
STEP_SAMPLES = 20
LIVE = ("draw", "meld", "answer")


class CoachError(ValueError):
    """A record, seat, deal, budget or seed the coach cannot review (the message says why)."""


def samples_for(budget: float) -> int:
    """The samples a budget of ``budget`` seconds per decision buys (``SAMPLES_PER_SECOND``),
    at least ``MIN_SAMPLES``; ``CoachError`` for a budget that is not a positive number."""
    if (
        isinstance(budget, bool)
        or not isinstance(budget, (int, float))
        or not math.isfinite(budget)
        or budget <= 0
    ):
        raise CoachError(f"the budget must be a positive number of seconds, not {budget!r}")
    if budget > MAX_BUDGET:
        raise CoachError(f"the budget is at most {MAX_BUDGET:g} seconds per decision")
    return max(MIN_SAMPLES, int(round(budget * SAMPLES_PER_SECOND)))


def _t(n: int) -> float:
    """``Z`` widened for ``n`` samples (Cornish-Fisher, as ``HardBot._t``)."""
    return Z + (Z**3 + Z) / (4 * (n - 1)) if n > 1 else Z


def _paired(xs: list[float], base: list[float]) -> tuple[float, float]:
    """Mean of ``xs - base`` and the half-width of its interval."""
    n = len(xs)
    d = [a - b for a, b in zip(xs, base)]
    mean = sum(d) / n
    if n < 2:
        return mean, math.inf
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    return mean, _t(n) * sd / math.sqrt(n)


def mark_of(cost: float, lower: float) -> str | None:
    if lower <= 0:
        return None
    if cost >= BLUNDER:
        return "blunder"
    if cost >= MISTAKE:
        return "mistake"
    return None


def moves_to_weigh(obs: Observation, legal: list[Move], played: Move, bot: HardBot) -> list[Move]:
    """``hard``'s candidates at this position (its exact going-out line first where it has
    one), then the move played if it is not among them."""
    ranked = bot.medium.ranking(obs, legal)
    cands = bot.candidates(obs, ranked)
    if bot.endgame:
        exact = best_going_out(obs, legal, bot.medium)
        if exact is not None and exact not in cands:
            cands = [exact, *cands]
    # ``hard`` searches one move where medium's first is clear (going out, a meld). Where the
    # side may go out, the coach also weighs medium's best move of each other kind, so that
    # going out (or the meld that leads to it) is weighed against the discard that plays on.
    # Not otherwise: a meld step is played on by ``medium``, whose own discard would then be
    # weighed against the better player's
    if obs.requirement_met[obs.my_side]:
        kinds = {m.verb for m in cands}
        for _, m in ranked:
            kind = m.verb
            if kind not in kinds:
                kinds.add(kind)
                cands = [*cands, m]
    if played not in cands:
        cands = [*cands, played]
    return cands


def assess(
    obs: Observation, legal: list[Move], played: Move, samples: int, seed: int = 0
) -> dict[str, Any]:
    """The verdict on ``played`` (one of ``legal``, the legal moves of the seat observing
    ``obs``) with at most ``samples`` samples: the module doc's entry (moves named by their
    texts), without the record's index."""
    w = Weighing(obs, legal, played, samples, seed)
    w.run()
    return w.entry()


class Weighing:
    """``assess`` in parts: ``run(k)`` draws up to ``k`` more samples (all that are left by
    default), ``done`` says when no more are needed, ``entry()`` gives the verdict. The samples
    and the early stop are the same however the work is cut up."""

    def __init__(
        self, obs: Observation, legal: list[Move], played: Move, samples: int, seed: int = 0
    ):
        self.obs, self.legal, self.played = obs, legal, played
        self.samples, self.seed = samples, seed
        self.forced = len(legal) <= 1
        self.cands = [played]
        self.settled = False
        if not self.forced:
            self.bot = HardBot(seed=seed, iterations=samples)
            self.cands = moves_to_weigh(obs, legal, played, self.bot)
            self.weights = self.bot.leaf_weights.get(obs.rules.name)
            self.worlds = self.bot.worlds(obs) if len(self.cands) > 1 else None
        self.values: list[list[float]] = [[] for _ in self.cands]
        self.p = self.cands.index(played)

    @property
    def n(self) -> int:
        return len(self.values[0])

    @property
    def done(self) -> bool:
        return self.forced or len(self.cands) <= 1 or self.settled or self.n >= self.samples

    def run(self, k: int | None = None) -> None:
        obs, cands, values, p = self.obs, self.cands, self.values, self.p
        me, side = obs.seat, obs.my_side
        key = f"coach:{self.seed}:{obs.version}:{me}"
        todo = self.samples if k is None else k
        while todo > 0 and not self.done:
            assert self.worlds is not None
            world = self.worlds.sample(random.Random(f"{key}:{self.n}"))
            laid_red_threes(world, me)
            for i, mv in enumerate(cands):
                g = world.copy(log=True)
                g.play(mv)
                self.bot.rollout(g, me)
                values[i].append(value(g, side, self.weights))
            todo -= 1
            n = self.n
            if n >= MIN_SAMPLES and n % 4 == 0 and _settled(values, p):
                self.settled = True

    def entry(self) -> dict[str, Any]:
        obs, legal, played, cands, values, p, n = (
            self.obs,
            self.legal,
            self.played,
            self.cands,
            self.values,
            self.p,
            self.n,
        )
        entry: dict[str, Any] = {
            "move": played.text(),
            "best": played.text(),
            "cost": 0.0,
            "interval": [0.0, 0.0],
            "mark": None,
            "samples": n,
        }
        if self.forced:
            return {**entry, "forced": True, "reasons": [], "warnings": []}
        explained = explain(obs, legal, played)
        entry["warnings"] = explained["warnings"]
        if n == 0:
            entry["reasons"] = []
            return entry
        means = [sum(v) / n for v in values]
        b = max(range(len(cands)), key=lambda i: (means[i], i == p))
        entry["means"] = {m.text(): round(x, 1) for m, x in zip(cands, means)}
        if b == p:
            entry["reasons"] = explained["reasons"]
            return entry
        cost, half = _paired(values[b], values[p])
        lo, hi = cost - half, cost + half
        mark = mark_of(cost, lo)
        reasons = explain(obs, legal, cands[b])["reasons"]
        if mark is not None:
            reasons = [*reasons, {"key": "why.search_gain", "points": int(round(cost))}]
        entry.update(
            best=cands[b].text(),
            cost=round(cost, 1),
            interval=[round(lo, 1), round(hi, 1) if math.isfinite(hi) else None],
            mark=mark,
            reasons=reasons,
        )
        return entry


def value(g: Game, side: int, weights: list[float] | None) -> float:
    """A sample's outcome for ``side``: ``hard``'s (``rollout.evaluate``), and ``GAME`` points
    more (or less) where the sample ended the game won (or lost) by the side."""
    v = evaluate(g, side, None, weights)
    if g.phase == "game_over" and g.result is not None and g.result["winner"] is not None:
        v += GAME if g.result["winner"] == side else -GAME
    return v


def _settled(values: list[list[float]], p: int) -> bool:
    """No move's upper bound on its gain over the move played reaches ``MISTAKE``."""
    for i, vals in enumerate(values):
        if i != p:
            mean, half = _paired(vals, values[p])
            if mean + half >= MISTAKE:
                return False
    return True


def load(record: Any) -> Game:
    """The record's game after its last move (``record.replay``: every move checked);
    ``CoachError`` for a record that is not one or holds a move that is not legal."""
    try:
        return replay(record)
    except ScenarioError as e:
        raise CoachError(str(e)) from None


def decisions(
    record: dict, seat: int, deal: int | None = None
) -> Iterator[tuple[int, dict, Observation, list[Move], Move]]:
    """(index in the record's moves, the seat's JSON view before it (for the page, which words
    the moves from it), its observation, its legal moves, the move as played, one of them) for
    each move of ``seat`` in a deal's live phases (of deal number ``deal`` only, if given), in
    order (the record must have passed ``load``)."""
    g = replay(record, upto=0)
    for i, text in enumerate(record["moves"]):
        mine = g.current == seat and g.phase in LIVE and (deal is None or g.deal_no == deal)
        obs = Observation.for_seat(g, seat) if mine else None
        view = view_for(g, seat) if mine else {}
        legal = list(legal_moves(g)) if mine else []
        try:
            move = parse_move(text)  # (a record names its moves by their texts)
            g.play(move)
        except (IllegalMove, InvalidMove) as e:  # (``load`` checked it)
            raise CoachError(f"move {i + 1} ({text!r}) is not legal: {e}") from None
        if obs is not None:
            played = next((m for m in legal if m == move), move)
            yield i, view, obs, legal, played


def check_seat(game: Game, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise CoachError(f"seat must be a number from 0 to {game.players - 1}, not {seat!r}")
    return seat


class Review:
    """A review worked one decision at a time (``step``), so that a caller (the page's worker,
    through the bridge) can answer other requests between steps, show progress and stop.
    Everything is checked (``CoachError``) when it is made, before any decision is weighed;
    the observations are taken then, so the review does not depend on what the game does next."""

    def __init__(
        self,
        record: Any,
        seat: Any,
        budget: float = DEFAULT_BUDGET,
        seed: int = 0,
        deal: int | None = None,
    ):
        self.samples = samples_for(budget)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise CoachError(f"seed must be a whole number, not {seed!r}")
        game = load(record)
        self.seat = check_seat(game, seat)
        if deal is not None and (
            isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= game.deal_no
        ):
            raise CoachError(f"deal must be a number from 1 to {game.deal_no}, not {deal!r}")
        self.budget, self.seed, self.deal = budget, seed, deal
        self.todo = list(decisions(record, self.seat, deal))
        self.entries: list[dict] = []
        self.current: Weighing | None = None  # the decision being weighed

    @property
    def total(self) -> int:
        return len(self.todo)

    @property
    def done(self) -> int:
        return len(self.entries)

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def step(self, samples: int | None = None) -> dict | None:
        """Go on with the next decision: draw at most ``samples`` samples (default: as many as
        it takes) and return its entry once it is weighed, else None (None too when all are
        done: ``finished``). The verdicts do not depend on how the work is cut up."""
        if self.finished:
            return None
        i, _, obs, legal, played = self.todo[self.done]
        w = self.current
        if w is None:
            w = self.current = Weighing(obs, legal, played, self.samples, self.seed)
        w.run(samples)
        if not w.done:
            return None
        self.current = None
        entry = {"index": i, "deal": obs.deal, "phase": obs.phase, **w.entry()}
        self.entries.append(entry)
        return entry

    def result(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "budget": self.budget,
            "samples": self.samples,
            "seed": self.seed,
            "decisions": list(self.entries),
            "summary": summary(self.entries),
        }


def review(
    record: Any,
    seat: Any,
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The whole review (``Review``, every decision weighed): ``{"seat", "budget", "samples",
    "seed", "decisions": [entry, ...], "summary": [{"deal", "decisions", "mistake",
    "blunder"}, ...]}``. ``progress(done, total)`` is called after each decision."""
    r = Review(record, seat, budget, seed)
    while not r.finished:
        r.step()
        if progress is not None:
            progress(r.done, r.total)
    return r.result()


def summary(entries: list[dict]) -> list[dict]:
    """Per deal: the decisions weighed and how many of them are marked each way."""
    deals: dict[int, dict] = {}
    for e in entries:
        d = deals.setdefault(
            e["deal"], {"deal": e["deal"], "decisions": 0, "mistake": 0, "blunder": 0}
        )
        d["decisions"] += 1
        if e["mark"]:
            d[e["mark"]] += 1
    return [deals[k] for k in sorted(deals)]


__all__ = ["review", "Review", "assess", "samples_for", "CoachError", "MISTAKE", "BLUNDER"]
