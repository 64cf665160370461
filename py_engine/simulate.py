"""Random self-play with invariant checks, and the engine benchmark."""

from __future__ import annotations

import random
import time
from typing import Any

from .cards import counts_of, deck_ids
from .legal import ActingSide, has_meld_move, iter_pile_takes, meld_move_at, meld_moves, other_moves
from .rules import get_rules
from .state import Game

PARTS = ("melds", "bonuses", "red_threes", "going_out", "hands", "penalty")


def random_move(game: Game, rng: random.Random):
    """A random legal move: first a kind of move, then one of that kind (uniformly, among the
    kinds ``legal_moves`` has). A kind that is costly to list is listed only when drawn: the
    meld moves (and then only the one drawn is made, ``legal.meld_move_at``) and the pile
    takes (until then, only the first is looked for)."""
    kinds: dict[str, list] = {}
    meld_phase = game.phase == "meld"
    acting = ActingSide(game) if meld_phase and game.melds[game.current % game.n_sides] else None
    last, same = None, []
    for m in other_moves(game, acting, takes=False):
        t = type(m)
        if t is not last:  # (moves of one type come together: one look-up per run)
            last, same = t, kinds.setdefault(t.__name__, [])
        same.append(m)
    takes = iter_pile_takes(game) if game.phase == "draw" else None
    first_take = next(takes, None) if takes is not None else None
    if first_take is not None:
        kinds["TakePile"] = []
    melds = counts = None
    if meld_phase and acting is None:
        melds = meld_moves(game)  # (has_meld_move would list them all anyway)
        if melds:
            kinds["Meld"] = melds
    elif meld_phase:
        counts = counts_of(game.hand_kinds(game.current))
        if has_meld_move(game, acting, counts):
            kinds["Meld"] = []
    if not kinds:
        raise AssertionError(f"no legal move in phase {game.phase}")
    kind = rng.choice(sorted(kinds))
    if kind == "Meld" and not melds:
        assert acting is not None and counts is not None
        return meld_move_at(game, acting, counts, rng.choice)
    if kind == "TakePile":
        assert takes is not None
        return rng.choice([first_take, *takes])
    return rng.choice(kinds[kind])


def invariant_violations(game: Game) -> list[str]:
    out = []
    if sorted(game.all_card_ids()) != sorted(deck_ids(game.rules.decks, game.rules.jokers)):
        out.append(f"cards do not add up to the deck (deal {game.deal_no})")
    if game.deal_result and game.phase in ("deal_over", "game_over"):
        for i, s in enumerate(game.deal_result["sides"]):
            if sum(s[p] for p in PARTS) != s["total"]:
                out.append(f"side {i}: deal score is not the sum of its parts")
    if sum(map(sum, game.history)) != sum(game.scores) and not game.scenario:
        out.append("game totals are not the sum of the deals")
    return out


def simulate(
    rules: str, players: int, games: int, seed: int, check: bool = True, chooser=None
) -> dict:
    rng = random.Random(seed)
    get_rules(rules)
    stats: dict[str, Any] = {
        "rules": rules,
        "players": players,
        "games": games,
        "finished": 0,
        "deals": 0,
        "moves": 0,
        "draws": 0,
        "wins": {},
        "violations": 0,
        "violation_examples": [],
    }
    t0 = time.perf_counter()
    for gi in range(games):
        game = Game.new(rules, players, seed=seed * 100_003 + gi)
        while game.phase != "game_over":
            move = (chooser or random_move)(game, rng)
            game.play(move)
            stats["moves"] += 1
            if check:
                bad = invariant_violations(game)
                if bad:
                    stats["violations"] += len(bad)
                    stats["violation_examples"] = (stats["violation_examples"] + bad)[:5]
        stats["deals"] += game.deal_no
        stats["finished"] += 1
        res = game.result
        assert res is not None
        if res["draw"]:
            stats["draws"] += 1
        else:
            key = f"side{res['winner']}"
            stats["wins"][key] = stats["wins"].get(key, 0) + 1
    secs = time.perf_counter() - t0
    stats["seconds"] = round(secs, 3)
    stats["deals_per_second"] = round(stats["deals"] / secs, 2) if secs else None
    return stats


def bench(seconds_per_set: float = 3.0, seed: int = 1) -> dict:
    """Random-play throughput (deals per second) per rule set, without invariant checks."""
    out = {}
    for rules, players in (("samba", 4), ("samba", 2), ("dutch", 4), ("crawford", 6)):
        rng = random.Random(seed)
        deals = moves = 0
        t0 = time.perf_counter()
        gi = 0
        while time.perf_counter() - t0 < seconds_per_set:
            game = Game.new(rules, players, seed=seed + gi)
            gi += 1
            while game.phase == "draw" or game.phase in ("meld", "answer"):
                game.play(random_move(game, rng))
                moves += 1
            deals += 1
        secs = time.perf_counter() - t0
        out[f"{rules}/{players}"] = {
            "deals": deals,
            "moves": moves,
            "seconds": round(secs, 2),
            "deals_per_second": round(deals / secs, 1),
            "moves_per_second": round(moves / secs),
        }
    return out
