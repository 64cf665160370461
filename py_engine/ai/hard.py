"""``hard``: information-set Monte Carlo on top of ``medium``.

At each real decision (more than one sensible move), ``medium`` ranks the legal moves (with the
last-turn habit, ``lastturn.py``) and a shortlist of the best few is kept. Then, until the budget ends, the bot samples a
determinization of its view (``determinize.py``: the unseen cards dealt at random, cards seen
picked up with the pile put back where they went), plays each shortlisted move in it and lets
the ``medium`` policy play every seat for a number of turns (or to the end of the deal). Each
outcome is scored from the bot's side: the deal score if the deal ended, else an estimate
(``evaluate``: by default the leaf estimate fitted on finished deals, ``leaf.py``). All
candidates share each sample (common random numbers). The move with the mean gain over
``medium``'s own choice wins, but only when that gain is clear (its paired lower bound,
``mean - confidence * standard error``, is above zero); otherwise ``medium``'s choice stands.

Budget: ``budget`` seconds or ``iterations`` samples. With ``iterations`` and a fixed seed the
choice is reproducible: it depends on the view only. Without either, the budget scales to the
machine (``auto_budget``): ``base`` seconds (``DEFAULT_BUDGET``) times how much slower than the
reference machine a fixed probe runs here (``machine_factor``), at most ``cap`` seconds
(``DEFAULT_CAP``). A time budget is a deadline for the whole ``choose`` (on the wall clock; with
``clock="cpu"`` on the process's CPU time, for measurements on a busy machine): the ranking,
the shortlist, the samples and the final check all count, and a sample still running at the
deadline is abandoned (its values are dropped, so the comparison stays paired).
"""
from __future__ import annotations

import gc
import random
import time

from ..cards import (IS_BLACK3, IS_NATURAL, IS_RED3, IS_WILD, KIND_OF_ID, KIND_TEXT, RANK_OF,
                     SUIT_OF, VALUE_OF_KIND, counts_of, kind_text)
from ..legal import ActingSide, first_natural_new_meld, legal_moves, single_addition
from ..melds import GROUP, SEQUENCE, cards_needed
from ..moves import Discard
from ..moves import Meld as MeldMove
from ..scoring import score_side, side_canastas
from ..state import Game
from ..views import meld_view, view_for
from .determinize import Determinizer, laid_red_threes
from .endgame import best_going_out
from .inference import Avoided, PairRich
from .lastturn import LastTurnMedium
from .leaf import predict
from .info import EntryFacts, Info, entry_facts_of, fold_next_facts
from .medium import MediumBot
from .weights import LEAF_WEIGHTS

DEFAULT_BUDGET = 0.75    # seconds per decision on the reference machine (docs/ai.md)
DEFAULT_CAP = 1.3        # never more than this per decision, however slow the machine
                         # (under the 1.5 s goal with room for the view, JSON and worker)
# ``machine_factor``'s probe takes about this long (seconds) on the reference machine: above the
# 15-23 ms it took in Pyodide (under Node) on the project's 2-core machine (docs/ai.md) before
# the rollouts got faster; with one ``Determinizer`` per search and rollouts on the game's own
# state the same probe runs in 0.62 of that time (CPython, old and new side by side), so the
# reference is 0.030 s x 0.62.
PROBE_REF = 0.019
PROBE_EVERY = 20.0       # seconds between probes (the last three are kept, their median used)
_probes: list[float] = []
_probe_at = [float("-inf")]


# The clocks a time budget can run on: ``wall`` (what players get: the budget is the time they
# wait) or ``cpu``, this process's CPU time, which the machine's other jobs do not eat into (a
# measurement on a busy machine then plays as a quiet one would: docs/ai.md, "Session 9").
CLOCKS = {"wall": "perf_counter", "cpu": "process_time"}     # (functions of ``time``)


class _Overrun(Exception):
    """A sample still running at the deadline (``HardBot.rollout``)."""


def _probe_once() -> float:
    """Seconds for a fixed piece of ``hard``'s own work: one determinization and one rollout
    of a fixed samba 4 position with fixed seeds (the same work on every machine)."""
    g = Game.new("samba", 4, seed=1)
    g.play("draw")
    view = view_for(g, g.current)
    bot = HardBot(seed=0, iterations=1)
    t = time.perf_counter()
    world = Determinizer(view).sample(random.Random(1))
    w = world.copy(log=True)
    w.play("discard " + view["legal"]["discard"][0])
    bot.rollout(w, view["seat"], random.Random(2))
    return time.perf_counter() - t


def machine_factor(now: float | None = None) -> float:
    """How many times slower than the reference machine this one runs ``hard``'s work now
    (the median of the last three probes, one every ``PROBE_EVERY`` seconds)."""
    now = time.perf_counter() if now is None else now
    if now - _probe_at[0] >= PROBE_EVERY or not _probes:
        if not _probes:
            _probe_once()         # the first run warms caches up: not counted
        _probes.append(_probe_once())
        del _probes[:-3]
        _probe_at[0] = time.perf_counter()
    return sorted(_probes)[len(_probes) // 2] / PROBE_REF


def auto_budget(base: float = DEFAULT_BUDGET, cap: float = DEFAULT_CAP,
                factor: float | None = None) -> float:
    """``base`` seconds scaled to the machine: ``base`` here or faster, up to ``cap`` slower."""
    f = machine_factor() if factor is None else factor
    return min(cap, base * max(1.0, f))


def evaluate(game: Game, side: int, skip: int | None = None,
             weights: list[float] | None = None) -> float:
    """Own side's estimated deal score minus the best other side's (or the real deal scores).

    ``skip``: a seat whose hand is left out of the estimate (the searching player's own hand,
    the same for every discard it compares but for the one card)."""
    sc: list[float]
    if game.phase in ("deal_over", "game_over") and game.history:
        sc = list(game.history[-1])
    elif weights is not None:
        sc = [predict(game, s, weights) for s in range(game.n_sides)]
    else:
        sc = [_estimate(game, s, skip) for s in range(game.n_sides)]
    others = [v for s, v in enumerate(sc) if s != side]
    return sc[side] - (max(others) if others else 0)


def evaluate_side(game: Game, side: int) -> float:
    """The hand-set estimate of one side's deal score (before the fitted leaf estimate)."""
    return _estimate(game, side)


def _estimate(game: Game, side: int, skip: int | None = None) -> float:
    r = game.rules
    seats = [s for s in game.seats_of(side) if s != skip]
    base = score_side(r, game.players, game.melds[side], game.red3[side],
                      [game.hands[s] for s in seats], False)["total"]
    # Progress: melds close to a canasta or samba, and cards in hand while the stock lasts.
    prog = 0.0
    for m in game.melds[side]:
        need = cards_needed(m.type, len(m.cards), r)
        if need:
            prog += {1: 120, 2: 60, 3: 25}.get(need, 0) * (3 if m.type == "sequence" else 1)
    f = min(1.0, len(game.stock) / 80)
    for s in seats:
        for c in game.hands[s]:
            k = KIND_OF_ID[c]
            prog += f * (VALUE_OF_KIND[k] + (25 if IS_WILD[k] else 6))
    return base + prog


def rollout_view(g: Game, seat: int, cache: dict | None = None) -> dict:
    """What ``medium`` reads of a sampled game's view, with the legal moves listed once.

    With ``cache`` (one dict per rollout), meld views and log entries are built once and reused
    (a meld's view changes only when cards join it); without it, ``view_for`` is used."""
    if cache is None:
        v = view_for(g, seat, with_legal=False)
    else:
        v = _fast_view(g, seat, cache)
    if g.phase == "deal_over":
        v["legal"] = {"moves": ["next"], "melds": [], "discard": []}
        return v
    moves = legal_moves(g)
    v["legal"] = {"moves": [m.text() for m in moves if not isinstance(m, MeldMove)],
                  "melds": [m.text()[5:] for m in moves if isinstance(m, MeldMove)],
                  "discard": [kind_text(m.card) for m in moves if isinstance(m, Discard)]}
    return v


def _fast_view(g: Game, seat: int, cache: dict, cards: bool = True) -> dict:
    """The part of a view ``medium`` reads, from a rollout's game; without ``cards``, no hand,
    pile or red-three card lists (``_rollout_info`` passes the kinds to ``Info`` itself, and
    ``medium`` counts the red threes only)."""
    r = g.rules
    st = cache.get("static")
    if st is None:
        st = cache["static"] = {
            "rules": {"name": r.name, "take_top_card": r.take_top_card,
                      "red_threes_by_choice": not r.red_threes_automatic,
                      "canasta_size": r.canasta_size, "sequence_max": r.sequence_max,
                      "take_pile_onto_meld": r.take_pile_onto_meld},
            "side_of": [g.side_of(s) for s in range(g.players)],
            "requirement": r.canastas_needed(g.players), "log": [],
            "log_from": max(0, len(g.log) - 60)}
    # (a meld keeps its view until cards join it, and an action that changes a meld changes a
    # copy: each meld object's own view is the one to show)
    melds = [[m.view or meld_view(m, r) for m in side] for side in g.melds]
    # The log's last 60 entries (``log[i]`` renders ``g.log[log_from + i]``), each entry's view
    # made once for every rollout that copies it (``_log_entry``)
    log = st["log"]
    glog = g.log
    for i in range(st["log_from"] + len(log), len(glog)):
        e = glog[i]
        got = _LOG_VIEWS.get(id(e))
        log.append(got[1] if got is not None and got[0] is e else _log_entry(e))
    v = {
        "version": g.version, "rules": st["rules"], "players": g.players, "seat": seat,
        "side_of": st["side_of"], "my_side": g.side_of(seat), "deal": g.deal_no,
        "phase": g.phase,
        "hand_sizes": [len(h) for h in g.hands], "stock": len(g.stock),
        "melds": melds,
        "opened": [bool(side) for side in g.melds],
        "canastas": [side_canastas(m, r)[0] for m in g.melds],
        "requirement": st["requirement"], "log": log[-60:],
    }
    if cards:
        v["hand"] = [{"id": c} for c in g.hands[seat]]
        v["pile"] = {"cards": [{"id": c} for c in g.pile], "size": len(g.pile)}
        v["red_threes"] = [[{"id": c} for c in side] for side in g.red3]
    else:
        v["pile"] = {"size": len(g.pile)}
        v["red_threes"] = g.red3
    return v


_LOG_VIEWS: dict[int, tuple[dict, dict]] = {}


def _log_entry(e: dict) -> dict:
    """What ``medium`` reads of one log entry (the deal, the seat, the text, a pile taken), made
    once per entry object and kept with it (a bounded cache: log entries are read-only, and the
    samples of a search all copy the game's log)."""
    v = {"deal": e["deal"], "seat": e["seat"], "text": e["move"],
         **({"pile": e["public"]["pile"]} if "pile" in e["public"] else {})}
    if len(_LOG_VIEWS) >= 8192:
        _LOG_VIEWS.clear()
    _LOG_VIEWS[id(e)] = (e, v)
    return v


def _rollout_info(g: Game, seat: int, cache: dict) -> Info:
    """``Info(rollout_view(g, seat, cache))`` without building the card lists: the same
    digest, from the game's own lists (a test compares the two)."""
    kinds, ranks = _pile_facts(g, cache)
    return Info(_fast_view(g, seat, cache, cards=False),
                hand=list(map(KIND_OF_ID.__getitem__, g.hands[seat])), pile=kinds,
                pile_ranks=ranks)


def _pile_facts(g: Game, cache: dict) -> tuple[list[int], list[int]]:
    """The pile's kinds and its natural cards of each rank, kept in the rollout's ``cache`` from
    one decision to the next while the pile only grows (new lists each time: read-only)."""
    pile = g.pile
    got = cache.get("pile")
    if got is not None:
        ids, kinds, ranks = got
        n = len(ids)
        if len(pile) >= n and pile[:n] == ids:
            if len(pile) == n:
                return kinds, ranks
            new = list(map(KIND_OF_ID.__getitem__, pile[n:]))
            kinds = kinds + new
            ranks = list(ranks)
            for k in new:
                if IS_NATURAL[k]:
                    ranks[RANK_OF[k]] += 1
            cache["pile"] = (list(pile), kinds, ranks)
            return kinds, ranks
    kinds = list(map(KIND_OF_ID.__getitem__, pile))
    ranks = [0] * 15
    for k in kinds:
        if IS_NATURAL[k]:
            ranks[RANK_OF[k]] += 1
    cache["pile"] = (list(pile), kinds, ranks)
    return kinds, ranks


def rollout_move(g: Game, policy: MediumBot, cache: dict):
    """The move ``policy`` chooses on ``rollout_view(g, g.current, cache)`` (a ``Move``), or
    None where there is none."""
    moves = legal_moves(g)
    if len(moves) <= 1:
        return moves[0] if moves else None      # (a draw, mostly: nothing to weigh)
    if g.phase == "draw":       # scored from a few counts, without an ``Info``
        seat = g.current
        sizes = {m.id: len(m.cards) for m in g.melds[g.side_of(seat)]}
        n_hand, n_pile, smax = len(g.hands[seat]), len(g.pile), g.rules.sequence_max
        best = None
        for mv in moves:
            sc = policy.draw_move_score(mv, n_hand, n_pile, sizes, smax)
            if sc is None:
                break
            t = mv.text()
            if best is None or sc > best[0] or (sc == best[0] and t < best[1]):
                best = (sc, t, mv)
        else:
            assert best is not None
            return best[2]
    return policy.best_move(_rollout_info(g, g.current, cache), moves)


def fast_meld_phase(g: Game, policy: MediumBot, cache: dict) -> str | None:
    """A cheap stand-in for ``medium`` in a rollout's meld phase, working on the sampled game.

    While the side has opened but cannot go out yet (no going-out question, no asking), it adds
    naturals to its side's melds, lays new natural melds (never going below two cards in hand)
    and then discards ``medium``'s discard; ``None`` where ``medium`` itself should decide."""
    move = _fast_meld_move(g, policy, cache)
    return None if move is None else move.text()


# The natural kinds of each rank, suits in order, and the natural kind of a rank and suit (or
# None), for ranks 0..15 (a sequence's neighbours may lie off the ends).
_NATURALS_OF_RANK = [[k for k in range(len(IS_NATURAL)) if IS_NATURAL[k] and RANK_OF[k] == r]
                     for r in range(16)]
_NATURAL_OF = [[next((k for k in _NATURALS_OF_RANK[r] if SUIT_OF[k] == s), None)
                for s in range(4)] for r in range(16)]


def _fast_meld_move(g: Game, policy: MediumBot, cache: dict):
    """``fast_meld_phase``'s move as a ``Move``."""
    if g.phase != "meld" or g.turn.pending or g.turn.asked:
        return None
    seat = g.current
    side = g.side_of(seat)
    melds = g.melds[side]
    if not melds:
        return None
    hand = g.hand_kinds(seat)
    n = len(hand)
    if n <= 3:
        return None
    acting = ActingSide(g)
    if g.requirement_met_counts(acting.finished, acting.sequences):
        return None
    counts = counts_of(hand)
    distinct = sorted(set(hand))        # the kinds in hand, in kind order
    keep_pile = len(g.pile) >= policy.w["keep_pair_pile"]
    own = [0] * 15      # natural cards of each rank in hand
    for k in distinct:
        if IS_NATURAL[k]:
            own[RANK_OF[k]] += counts[k]
    # The natural kinds in hand that may join a meld alone, each with those melds in the side's
    # order: a group's rank (kept back while the pair may take a rich pile), a sequence's suit
    # at the ranks just below and above it (``legal.quick_fit``); tried kind by kind.
    fit: dict[int, list] = {}
    rules = g.rules
    for m in melds:
        t = m.type
        if t == GROUP:
            r = m.rank
            if own[r] == 2 and keep_pile and cards_needed(GROUP, len(m.cards), rules) != 1:
                continue
            for k in _NATURALS_OF_RANK[r]:
                if counts[k]:
                    got = fit.get(k)
                    if got is None:
                        fit[k] = [m]
                    else:
                        got.append(m)
        elif t == SEQUENCE:
            su = m.suit
            for r in (RANK_OF[KIND_OF_ID[m.cards[0]]] - 1, RANK_OF[KIND_OF_ID[m.cards[-1]]] + 1):
                nk = _NATURAL_OF[r][su]
                if nk is not None and counts[nk]:
                    got = fit.get(nk)
                    if got is None:
                        fit[nk] = [m]
                    else:
                        got.append(m)
    if fit:
        for k in sorted(fit):
            for m in fit[k]:
                mv = single_addition(g, acting, m, k)
                if mv is not None:
                    return mv
    # natural melds only: groups without wild cards and sequences (never threes), the first
    # of ``candidate_shapes`` that keeps two cards in hand and is legal
    mv = first_natural_new_meld(g, acting, counts, n - 2, own)
    if mv is not None:
        return mv
    kind = best_discard(g, seat, policy, hand, distinct, own, cache)
    return None if kind is None else Discard(kind)


def best_discard(g: Game, seat: int, policy: MediumBot, hand: list[int], distinct: list[int],
                 own: list[int], cache: dict) -> int | None:
    """The kind ``max`` of (``policy.discard_scores(_rollout_info(g, seat, cache), distinct)``,
    text, kind) picks (the best score, a tie to the higher card text), worked out from the
    game's own lists and without scoring every kind: ``hand`` is the seat's kinds, ``distinct``
    ``sorted(set(hand))``, ``own`` its natural cards per rank (with more than one card in hand).

    With more than three cards in the meld phase any card may be discarded but a red three
    where the rules keep them (``Game.verify_discard``); None if none may. A natural card's
    score has a bound (``MediumBot.natural_discard_bound``): the kinds are scored in the order
    of their bounds (the other kinds' scores are exact), and the rest is skipped once the best so
    far beats the next bound. A test compares it with ``discard_scores``."""
    n_pile = len(g.pile)
    red_ok = g.rules.red_three_discardable
    best = None
    bounded = policy.discard_ceiling_holds()
    bound = policy.natural_discard_bound
    naturals = []
    for k in distinct:
        if IS_NATURAL[k]:
            naturals.append((bound(k, own[RANK_OF[k]]), KIND_TEXT[k], k))
        elif red_ok or not IS_RED3[k]:      # (red threes, wild cards, black threes: exact)
            x = (policy.special_discard_score(k, n_pile), KIND_TEXT[k], k)
            if best is None or x > best:
                best = x
    if not naturals:
        return None if best is None else best[2]
    naturals.sort(reverse=True)
    score = None
    for top in naturals:
        if bounded and best is not None and best > top:
            break       # (this kind and every later one score below the best)
        if score is None:
            score = policy.natural_discard_scorer(own, *_discard_facts(g, seat, hand, own, cache))
        k = top[2]
        x = (score(k), top[1], k)
        if best is None or x > best:
            best = x
    assert best is not None
    return best[2]


def _discard_facts(g: Game, seat: int, hand: list[int], own: list[int], cache: dict) -> tuple:
    """What ``MediumBot.natural_discard_scorer`` reads besides the hand's rank counts: of
    ``Info(_rollout_info(g, seat, cache))``, its ``_discard_facts``, ``seen_rank``, the next
    player's cards, ``unseen_total`` and ``_read_next_log`` (the same values), from the game's
    own lists."""
    rules = g.rules
    by_suit: list[list[int]] = [[], [], [], []]
    for x in set(hand):
        if IS_NATURAL[x]:
            by_suit[SUIT_OF[x]].append(RANK_OF[x])
    kinds, pile_ranks = _pile_facts(g, cache)
    seen = list(pile_ranks)
    for r in range(15):
        seen[r] += own[r]
    side = g.side_of(seat)
    csize = rules.canasta_size
    groups = [0] * 15
    for i, melds in enumerate(g.melds):
        for m in melds:
            t = m.type
            if t == GROUP:
                r = m.rank if m.rank >= 2 else 0
                seen[r] += len(m.cards) - m.wilds
                if i == side and len(m.cards) < csize:
                    groups[r] += 1
            elif t == SEQUENCE:
                for c in m.cards:
                    seen[RANK_OF[KIND_OF_ID[c]]] += 1
    pile_gain = 20 + 5 * (len(kinds) + 1) + sum(map(VALUE_OF_KIND.__getitem__, kinds))
    onto = rules.take_pile_onto_meld
    nxt = (seat + 1) % g.players
    smax = rules.sequence_max
    feeds = []      # (suit, low - 1, high + 1, samba next) or (-1, rank, 0, False)
    for m in g.melds[g.side_of(nxt)]:
        t = m.type
        n = len(m.cards)
        if t == SEQUENCE and n < smax:
            ranks = [RANK_OF[KIND_OF_ID[c]] for c in m.cards]
            feeds.append((m.suit, min(ranks) - 1, max(ranks) + 1, n + 1 >= smax))
        elif onto and t == GROUP and n < csize:
            feeds.append((-1, m.rank if m.rank >= 2 else 0, 0, False))
    hands = g.hands
    unseen = max(1, len(g.stock) + sum(len(h) for s, h in enumerate(hands) if s != seat))
    return (by_suit, groups, pile_gain, onto, feeds, seen, len(hands[nxt]), unseen,
            _next_log(g, nxt))


def _next_log(g: Game, nxt: int) -> tuple[set[int], set[int], list[int]]:
    """``Info._read_next_log`` of a rollout's view (its log: the game's last 60 entries)."""
    deal = g.deal_no
    facts = []
    for e in g.log[-60:]:
        if e["seat"] != nxt or e["deal"] != deal:
            continue
        got = _ENGINE_FACTS.get(id(e))
        if got is not None and got[0] is e:
            facts.append(got[1])
        else:
            f = entry_facts_of(e["move"], e["public"].get("pile"))
            if len(_ENGINE_FACTS) >= 8192:
                _ENGINE_FACTS.clear()
            _ENGINE_FACTS[id(e)] = (e, f)
            facts.append(f)
    return fold_next_facts(facts)


# An engine log entry's ``info.entry_facts_of`` (by the entry's id, the entry kept with them:
# log entries are read-only and the samples of a search all copy the game's log).
_ENGINE_FACTS: dict[int, tuple[dict, EntryFacts | None]] = {}


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


class HardBot:
    level = "hard"

    def __init__(self, seed: int = 0, budget: float | None = None, iterations: int | None = None,
                 shortlist: int = 3, rounds: float = 1.0, confidence: float = 1.5,
                 min_samples: int = 12, mode: str = "all", fast: bool = True, leaf: str = "fitted",
                 hold: bool = False, base: float = DEFAULT_BUDGET, cap: float = DEFAULT_CAP,
                 own_turn: bool = True, min_gain: float = 75.0, infer: bool = False,
                 rich: float = 0.0, endgame: bool = True, last_turn: bool = True,
                 clock: str = "wall", **kw):
        self.seed = seed
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock {clock!r} (one of {', '.join(CLOCKS)})")
        self.clock_name = clock
        self.clock = getattr(time, CLOCKS[clock])
        # None: scaled to the machine at each decision (``auto_budget(base, cap)``)
        self.budget = budget
        self.auto = budget is None and iterations is None
        self.base, self.cap = base, cap
        self.iterations = iterations
        self.shortlist = shortlist
        self.rounds = rounds
        self.confidence = confidence
        self.min_samples = min_samples
        self.mode = mode
        self.fast = fast
        self.leaf = leaf
        self.hold = hold
        # True: the rest of the searching seat's own turn is played by ``medium`` itself in the
        # rollouts, never by the cheap meld stand-in (``fast_meld_phase``)
        self.own_turn = own_turn
        # overrule medium only for a mean sampled gain of at least this many points, and stop
        # sampling once no candidate's upper bound reaches it (the decision is settled)
        self.min_gain = min_gain
        # True: sampled hands agree with the piles the other players drew past, the cards they
        # discarded and the melds their finished turns would have made (``inference.Avoided``)
        self.infer = infer
        # > 0: the other seats' sampled hands as rich in natural pairs as kept hands are
        # (``inference.PairRich`` with this ``beta``)
        self.rich = rich
        # True: a turn that ``medium`` would go out in (or ask to) is played exactly: the
        # going-out line with the best own-side deal score (``endgame.best_going_out``)
        self.endgame = endgame
        # True: the own moves are ranked with the last-turn habit (``lastturn.LastTurnMedium``:
        # lay everything and shed high cards when an opponent is about to go out); the
        # rollouts' players stay ``medium``
        self.last_turn = last_turn
        self.medium = LastTurnMedium(seed=seed) if last_turn else MediumBot(seed=seed)
        self._policy = MediumBot()      # the rollouts' players (``rollout``)
        self.last_stats: dict = {}
        self._deadline: float | None = None     # set while a time-budgeted search runs

    def choose(self, view: dict) -> str:
        self.clock = getattr(time, CLOCKS[self.clock_name])    # (read now: tests replace it)
        t0 = self.clock()
        self.last_stats = {}
        ranked = self.medium.rank_moves(view)
        if not ranked:
            raise ValueError("no legal move in this view")
        if self.endgame:
            budget = self.time_budget()
            exact = best_going_out(view, self.medium,
                                   None if budget is None else t0 + budget / 2, clock=self.clock)
            if exact is not None:
                self.last_stats = {"samples": 0, "gains": {}, "endgame": exact}
                return exact
        cands = self.candidates(view, ranked)
        if len(cands) <= 1:
            return ranked[0][1]
        return self.search(view, cands, dict((m, sc) for sc, m in ranked), t0)

    def time_budget(self) -> float | None:
        """This decision's seconds (``None``: ``iterations`` only)."""
        return auto_budget(self.base, self.cap) if self.auto else self.budget

    def candidates(self, view: dict, ranked: list[tuple[float, str]]) -> list[str]:
        """The moves worth searching, in ``medium``'s order."""
        if view["phase"] not in ("draw", "meld", "answer"):
            return [ranked[0][1]]
        best, top = ranked[0]
        if self.mode == "discard":
            if not top.startswith("discard") or len(view["hand"]) <= 1:
                return [top]
            return [m for s, m in ranked if m.startswith("discard")][: self.shortlist]
        if self.mode == "draw" and view["phase"] == "meld":
            return [top]          # search the draw phase (and answers) only
        if best >= 900 and not top.startswith(("discard", "ask", "answer")):
            return [top]          # laying a red three, going out with melds: no question
        if top.startswith("meld") and best > 0:
            if self.hold and best < 900 and len(view["hand"]) > 3:
                # melding now, or keeping the cards and discarding medium's discard
                disc = [m for s, m in ranked if m.startswith("discard")]
                return [top] + disc[:1]
            return [top]          # melding order: medium's
        out = [m for s, m in ranked if s > best - 400][: self.shortlist]
        return out

    def search(self, view: dict, cands: list[str], prior: dict | None = None,
               t0: float | None = None) -> str:
        """The shortlist's best move on evidence; ``t0``: when the decision started (its
        ranking counts against the budget; default now)."""
        self.clock = getattr(time, CLOCKS[self.clock_name])
        t0 = self.clock() if t0 is None else t0
        # The samples make many short-lived objects and no reference cycles: the cyclic
        # garbage collector only costs time here (it runs again when the search ends).
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._search(view, cands, prior, t0)
        finally:
            self._deadline = None
            if was_enabled:
                gc.enable()

    def _search(self, view: dict, cands: list[str], prior: dict | None, t0: float) -> str:
        me = view["seat"]
        side = view["my_side"]
        values: list[list[float]] = [[] for _ in cands]
        n = 0
        budget = self.time_budget()
        t_end = t0 + budget if budget is not None else None
        self._deadline = t_end
        t_start = self.clock()
        weights = LEAF_WEIGHTS.get(view["rules"]["name"]) if self.leaf == "fitted" else None
        base = random.Random(f"hard:{self.seed}:{view['version']}:{view['seat']}").random()
        worlds = self.worlds(view)
        avoided = Avoided(view) if self.infer else None
        rich = PairRich(view, self.rich) if self.rich else None
        overrun = False
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            now = self.clock()
            if t_end is not None and (
                    now >= t_end or (n > 0 and now + (now - t_start) / n > t_end)):
                break     # the next sample would overrun the deadline
            if t_end is not None and n > 0 and now - t_start > (t_end - t_start) / 3 \
                    and n * (t_end - t_start) / (now - t_start) < self.min_samples:
                break     # a slow (or loaded) machine: too few samples to overrule medium
                          # anyway, so play its move now rather than spend the budget
            sample_seed = f"{base}:{n}"
            world = worlds.sample(random.Random(sample_seed))
            laid_red_threes(world, me, view)
            if avoided is not None:
                avoided.apply(world, random.Random(sample_seed + ":p"))
            if rich is not None:
                rich.apply(world, random.Random(sample_seed + ":q"))
            row = []
            try:
                for mv in cands:
                    g = world.copy(log=True)
                    g.play(mv)
                    self.rollout(g, me)
                    row.append(evaluate(g, side, me if self.mode == "discard" else None,
                                        weights))
            except _Overrun:
                overrun = True
                break     # the deadline came during this sample: drop it
            for i, x in enumerate(row):
                values[i].append(x)
            n += 1
            if self.min_gain > 0 and self.mode != "discard" and n >= self.min_samples \
                    and n % 4 == 0 and self._settled(values, n):
                break
        if n == 0:
            self.last_stats = {"samples": 0, "gains": {}, "means": {}, "budget": budget,
                               "overrun": overrun}
            return cands[0]
        # Paired differences against medium's choice (cands[0]): switch only on evidence.
        best, best_gain = 0, 0.0
        gains = {}
        signs = {}
        for i in range(1, len(cands)):
            signs[cands[i]] = _signs(values[i], values[0])
            mean, sd = _paired(values[i], values[0])
            t = self._t(n)      # few samples widen the bound, so they rarely overrule
            lower = mean - t * sd / n ** 0.5
            gains[cands[i]] = (round(mean, 1), round(lower, 1))
            if self.mode == "discard" and prior is not None:
                # medium's own preference plus the sampled correction (cautiously bounded)
                if n < self.min_samples:
                    continue
                gain = prior[cands[i]] - prior[cands[0]] + max(lower, min(mean, 0.0))
                if gain > best_gain:
                    best, best_gain = i, gain
            elif n >= self.min_samples and lower > 0 and mean > best_gain \
                    and mean >= self.min_gain and self.allowed(view, cands[i], cands[0]):
                best, best_gain = i, mean
        self.last_stats = {"samples": n, "gains": gains, "signs": signs, "budget": budget,
                           "overrun": overrun,
                           "means": {m: sum(values[i]) / n for i, m in enumerate(cands)}}
        return cands[best]

    def _t(self, n: int) -> float:
        """Student's quantile for ``n - 1`` degrees of freedom at the normal quantile
        ``confidence`` (Cornish-Fisher): with few samples the bound widens."""
        z = self.confidence
        return z + (z ** 3 + z) / (4 * (n - 1)) if n > 1 else z

    def _settled(self, values: list[list[float]], n: int) -> bool:
        """No candidate's paired upper bound on its gain over medium's choice reaches
        ``min_gain``: more samples would not overrule medium."""
        t = self._t(n)
        for vals in values[1:]:
            mean, sd = _paired(vals, values[0])
            if mean + t * sd / n ** 0.5 >= self.min_gain:
                return False
        return True

    def worlds(self, view: dict) -> Determinizer:
        """The sampler of this decision's worlds: ``Determinizer(view)``, the seat's view only
        (a study may substitute another, e.g. tools/pi_check.py's open hands)."""
        return Determinizer(view)

    def allowed(self, view: dict, move: str, medium_move: str) -> bool:
        """The search may play ``move`` instead of ``medium``'s choice only if it commits no
        blunder of the suite (``explain.warnings_of``) that ``medium``'s choice does not."""
        from .explain import warnings_of
        info = Info(view)
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
        cache: dict = {}
        deadline = self._deadline
        clock = self.clock
        g.played_only()     # (only this loop plays it: generated moves are trusted by version)
        while g.phase in ("draw", "meld", "answer") and steps < 400:
            if deadline is not None and clock() > deadline:
                raise _Overrun      # the decision's deadline (``_search``)
            if g.phase == "draw" and g.current != last:
                turns += 1
                last = g.current
                if turns >= limit:
                    break
            cheap = self.fast and not (self.own_turn and turns == 0 and g.current == me)
            move = _fast_meld_move(g, policy, cache) if cheap else None
            if move is None:
                move = rollout_move(g, policy, cache)
                if move is None:
                    break       # a dead end of the sampled game: evaluate it as it stands
            g.play(move)
            steps += 1
