"""The soak run: many deals played by random and computer players with every invariant checked.

    python -m py_engine soak --rules samba --players 4 --deals 1000 [--seed 1] [--bots easy,medium]
        [--jobs N | --ray auto|HOST:PORT]

Each game alternates the players: all ``random``, then each level of ``--bots`` in turn. After
every move it checks: the 162 (or 108) cards are all accounted for exactly once, every legal move
of the position is accepted by the rules' own check and its text parses back to the same move,
the view of the seat to act shows no card hidden from it, a deal's score is the sum of its parts
and the game totals the sum of the deals, and every game ends. It stops after ``--deals`` deals and
prints deals per second and the violations found (with the first few examples).
"""

from __future__ import annotations

import random
import time
from typing import Any

from . import spread
from .ai import LEVELS, make_bot
from .ai.act import bot_move
from .legal import legal_moves
from .moves import parse_move
from .rules import PRESETS, Options, get_rules
from .simulate import invariant_violations, random_move
from .state import Game
from .views import card_ids, view_for

MAX_MOVES_PER_DEAL = 5000


def position_violations(game: Game, seat: int) -> list[str]:
    """Legal moves that the rules refuse or whose text does not round-trip, and hidden cards
    in ``seat``'s view."""
    bad = []
    for m in legal_moves(game):
        if not game.can(m):
            bad.append(f"generated move {m.text()!r} is refused by the rules")
        if parse_move(m.text()) != m:
            bad.append(f"move text {m.text()!r} does not parse back to the move")
    hidden = set(game.stock) | {c for s, h in enumerate(game.hands) if s != seat for c in h}
    leaked = card_ids(view_for(game, seat)) & hidden
    if leaked:
        bad.append(f"seat {seat}'s view shows hidden cards {sorted(leaked)[:5]}")
    return bad


def check_options(rules: str, players: int | None, deals: int, bots: list[str]) -> tuple[str, int]:
    """Raise ValueError with a clear message for options a soak run cannot use."""
    rs = get_rules(rules)
    p = Options.make(rs, players).players
    if not isinstance(deals, int) or isinstance(deals, bool) or not 1 <= deals <= 10_000_000:
        raise ValueError(f"--deals must be a whole number from 1 to 10,000,000, not {deals!r}")
    for b in bots:
        if b not in LEVELS:
            raise ValueError(
                f"unknown computer level {b!r} in --bots; choose from {', '.join(LEVELS)}"
            )
    return rs.name, p


def _play_deal(
    game: Game, seats, rng: random.Random, check_every: int, stats: dict, gi: int
) -> int:
    """Play one deal to its end, checking the invariants; returns the violations found."""
    found = 0
    moves = 0
    while game.phase in ("draw", "meld", "answer"):
        seat = game.current
        bad = invariant_violations(game)
        if moves % check_every == 0:
            bad += position_violations(game, seat)
        bot = seats[seat]
        move = random_move(game, rng) if bot is None else bot_move(bot, game, seat)
        game.play(move)
        moves += 1
        stats["moves"] += 1
        if moves > MAX_MOVES_PER_DEAL:
            bad.append(f"a deal did not end after {MAX_MOVES_PER_DEAL} moves")
        if bad:
            found += len(bad)
            stats["examples"] = (stats["examples"] + [f"game {gi}: {b}" for b in bad])[:10]
        if moves > MAX_MOVES_PER_DEAL:
            break
    bad = invariant_violations(game)
    if bad:
        found += len(bad)
        stats["examples"] = (stats["examples"] + [f"game {gi}: {b}" for b in bad])[:10]
    return found


SOAK_BLOCK = 50  # deals per unit of work (a run of any size is cut the same way)


def soak(
    rules: str = "samba",
    players: int | None = None,
    deals: int = 100,
    seed: int = 1,
    bots: tuple[str, ...] | list[str] = ("easy", "medium"),
    check_every: int = 1,
    jobs: int = 1,
    ray: str | None = None,
    progress: bool = False,
) -> dict:
    """``deals`` deals in blocks of ``SOAK_BLOCK``, each block its own games from seeds of its
    own (``_block``): the same figures whether the blocks are played here, in ``jobs``
    processes or on the Ray cluster ``ray`` (``spread.run``). ``progress``: a line on stderr
    as blocks finish."""
    name, n = check_options(rules, players, deals, list(bots))
    if not isinstance(check_every, int) or check_every < 1:
        raise ValueError(f"--check-every must be a whole number of at least 1, not {check_every!r}")
    spread.check(jobs, ray)
    players_cycle = ["random"] + list(bots)
    stats: dict[str, Any] = {"rules": name, "players": n, **_no_deals(players_cycle)}
    t0 = time.perf_counter()
    blocks = [
        (name, n, seed, b, min(SOAK_BLOCK, deals - b * SOAK_BLOCK), players_cycle, check_every)
        for b in range((deals + SOAK_BLOCK - 1) // SOAK_BLOCK)
    ]
    for part in spread.run(
        _block, blocks, jobs, ray, "soak" if progress else None, [blk[4] for blk in blocks]
    ):
        for k in ("deals", "games", "moves", "violations"):
            stats[k] += part[k]
        stats["examples"] = (stats["examples"] + part["examples"])[:10]
        for kind, c in part["by_players"].items():
            stats["by_players"][kind] += c
    secs = time.perf_counter() - t0
    stats["seconds"] = round(secs, 2)
    stats["deals_per_second"] = round(stats["deals"] / secs, 2) if secs else None
    stats["offered_rule_sets"] = list(PRESETS)
    return stats


def _no_deals(players_cycle: list[str]) -> dict[str, Any]:
    """A soak's counts before its first deal (a run's, a block's), ``by_players`` for each kind
    of player in the cycle."""
    return {
        "deals": 0,
        "games": 0,
        "moves": 0,
        "violations": 0,
        "examples": [],
        "by_players": {p: 0 for p in players_cycle},
    }


def _block(args: tuple) -> dict:
    """Block ``b`` of a soak run: ``count`` deals from deal ``b * SOAK_BLOCK`` on, in games of
    their own (block 0's games are those of the first soak runs: game ``gi`` from seed
    ``seed * 1_000_003 + gi``), each deal played by one kind of player in turn."""
    name, n, seed, b, count, players_cycle, check_every = args
    stats = _no_deals(players_cycle)
    first = b * SOAK_BLOCK
    gi = b * 100_000
    while stats["deals"] < count:
        game = Game.new(name, n, seed=seed * 1_000_003 + gi)
        rng = random.Random(gi)
        gi += 1
        stats["games"] += 1
        while stats["deals"] < count:
            # each deal is played by one kind of player, in turn
            kind = players_cycle[(first + stats["deals"]) % len(players_cycle)]
            seats = [
                None if kind == "random" else make_bot(kind, seed=gi * 31 + s) for s in range(n)
            ]
            stats["violations"] += _play_deal(game, seats, rng, check_every, stats, gi)
            stats["deals"] += 1
            stats["by_players"][kind] += 1
            if game.phase == "game_over":
                break
            game.play("next")
    return stats
