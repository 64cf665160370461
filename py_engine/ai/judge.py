"""Blunder positions (``tests/blunders/*.json``): loading them, checking a bot, judging them.

A case is a JSON object::

    {"id": "known-pair-jacks-s4", "kind": "known_pair",
     "reason": "why a club player calls the move a blunder", "source": "where it comes from",
     "scenario": {...},            # docs/formats.md, loaded with record.load_scenario
     "stock_top": ["4C", "9D"],    # optional: the stock's first cards (the rest follows, shuffled
                                   # with the scenario's seed), so that draws in "before" are known
     "before": ["take JD JH", "discard 5C", "draw"],   # optional: moves played first (the log
                                   # then shows them, e.g. a pile taken by the next opponent)
     "blunders": ["discard JC", "discard J*"],   # the moves that are blunders ...
     "good": ["discard 3C", "discard JK"],       # ... or: every move but these is a blunder
     "after": {"not_out": true,                  # going out (or asking to) is the blunder
               "not_held": ["3H", "3D"]}}        # these cards still in hand after the turn

A pattern ending in ``*`` matches every move text starting with what precedes it (a case names
moves by their texts, docs/formats.md; a ``Move`` is matched by its text). The position is the
one after ``before``; the bot to test plays the seat to act, from its observation only
(``act.bot_move``), until its turn ends (an answer: that one move), and none of its moves may be
a blunder.

Judging (where the reason alone is not clear-cut) plays each move in many determinizations of
the seat's observation and lets ``medium`` play every seat to the end of the deal (common random
numbers), and compares the mean outcome of the blunder with that of the best good move::

    python -m py_engine.ai.judge tests/blunders --samples 200 [--id ID]

The outcome is the deal-score margin of the seat's side over the best other side, or, when the
scenario's game totals make the deal decide the game (a side can reach the target), the game
result: +1 000 won, −1 000 lost, 0 otherwise (a draw or the game goes on).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import sys

from ..cards import KIND_OF_ID, deck_ids, kind_text, parse_kind
from ..legal import legal_moves
from ..moves import Move
from ..observation import Observation
from ..record import load_scenario
from ..rules import get_rules
from ..state import Game
from .act import bot_move
from .determinize import determinize, laid_red_threes
from .explain import goes_out as explain_goes_out
from .hard import HardBot
from .info import Info, listed
from .levels import make_bot
from .medium import MediumBot


def load_cases(path: str) -> list[dict]:
    """Every case of a JSON file (a list of cases or one case) or of every ``*.json`` in a
    folder, in file order."""
    files = sorted(glob.glob(os.path.join(path, "*.json"))) if os.path.isdir(path) else [path]
    out = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            data = json.load(fh)
        for c in data if isinstance(data, list) else [data]:
            out.append({**c, "file": os.path.basename(f)})
    return out


def _full_stock(sc: dict, top: list[str]) -> list[str]:
    rules = get_rules(sc.get("rules", "samba"))
    pool: dict[int, int] = {}
    for c in deck_ids(rules.decks, rules.jokers):
        pool[KIND_OF_ID[c]] = pool.get(KIND_OF_ID[c], 0) + 1
    placed = [t for h in sc.get("hands", []) for t in h] + list(sc.get("pile", []))
    placed += [t for side in sc.get("melds", []) for m in side for t in m]
    placed += [t for side in sc.get("red_threes", []) for t in side] + list(top)
    for t in placed:
        pool[parse_kind(t)] -= 1
    rest = sorted(kind_text(k) for k, n in pool.items() for _ in range(n))
    random.Random(f"stock:{sc.get('seed', 0)}").shuffle(rest)
    return list(top) + rest


def position(case: dict) -> Game:
    """The case's game, at the decision to judge."""
    sc = dict(case["scenario"])
    if "stock_top" in case:
        sc["stock"] = _full_stock(sc, case["stock_top"])
    g = load_scenario(sc)
    for mv in case.get("before", []):
        g.play(mv)
    return g


def _match(move: str, pats: list[str]) -> bool:
    return any(move.startswith(p[:-1]) if p.endswith("*") else move == p for p in pats)


def is_blunder(case: dict, move: str) -> bool:
    if "good" in case:
        return not _match(move, case["good"])
    return _match(move, case.get("blunders", []))


def split_moves(case: dict, legal: list[Move]) -> tuple[list[Move], list[Move]]:
    """(blunders, good moves) among the legal moves, each in the order a view lists them
    (``info.listed``)."""
    moves = listed(legal)
    bad = [m for m in moves if is_blunder(case, m.text())]
    return bad, [m for m in moves if m not in bad]


def goes_out(info: Info, move: Move) -> bool:
    """The move goes out, asks to, or leaves one card when the side may go out (the discard
    that must follow goes out); ``info``: the seat's (``Info.from_observation``)."""
    return explain_goes_out(info, move)


def turn_blunder(case: dict, info: Info, move: Move) -> bool:
    """The move is one of the case's blunders, or (``after.not_out``) it goes out."""
    if is_blunder(case, move.text()):
        return True
    return bool(case.get("after", {}).get("not_out")) and goes_out(info, move)


def seat_info(g: Game, seat: int) -> Info:
    """``Info`` of the seat's observation and its legal moves (the seat to act)."""
    return Info.from_observation(Observation.for_seat(g, seat), legal_moves(g))


def held_blunder(case: dict, g: Game, seat: int) -> bool:
    """``after.not_held``: a listed card is still in the seat's hand when its turn is over."""
    kinds = {parse_kind(t) for t in case.get("after", {}).get("not_held", [])}
    return any(KIND_OF_ID[c] in kinds for c in g.hands[seat])


def check(case: dict, bot) -> tuple[bool, str]:
    """(the bot avoided the blunder, its moves): the bot plays the seat to act until its turn
    ends (or, answering, for the answer); no move of it may be a blunder, and the case's
    ``after`` conditions must hold when the turn is over."""
    g = position(case)
    seat, phase = g.current, g.phase
    played: list[str] = []
    while g.current == seat and g.phase in ("draw", "meld", "answer") and len(played) < 12:
        info = seat_info(g, seat)
        move = bot_move(bot, g, seat)
        played.append(move.text())
        if turn_blunder(case, info, move):
            return False, "; ".join(played)
        g.play(move)
        if phase == "answer":
            break
    if held_blunder(case, g, seat):
        return False, "; ".join(played) + " (still held)"
    return True, "; ".join(played)


def decides_game(obs: Observation) -> bool:
    return bool(obs.scores) and any(s + 2500 >= obs.target for s in obs.scores)


def outcome(g: Game, side: int, by_game: bool) -> float:
    """The side's deal-score margin over the best other side, or (``by_game``) the game result
    once the deal is scored: +1000 won, -1000 lost, 0 a draw or the game goes on."""
    sc = g.history[-1] if g.history else [0] * g.n_sides
    if by_game:
        tot = g.scores  # the game totals, this deal included once it is scored
        top = max(tot)
        if not g.history or top < g.target or tot.count(top) > 1:
            return 0.0
        return 1000.0 if tot[side] == top else -1000.0
    others = [v for s, v in enumerate(sc) if s != side]
    return sc[side] - (max(others) if others else 0)


def _turn(g: Game, seat: int, case: dict, avoid: bool | None, bot) -> None:
    """Finish the seat's turn with ``medium``'s ranking: ``avoid`` True plays its best move that
    is not a blunder, False its best blunder where there is one, None ``medium`` as it is."""
    phase = g.phase
    for _ in range(12):
        if g.current != seat or g.phase not in ("draw", "meld", "answer"):
            return
        info = seat_info(g, seat)
        ranked = [m for _, m in bot.rank(info, info.legal)]
        pick = ranked[0]
        if avoid is not None:
            pref = [m for m in ranked if turn_blunder(case, info, m) != avoid]
            pick = pref[0] if pref else ranked[0]
        g.play(pick)
        if phase == "answer":
            return


def judge(case: dict, samples: int = 200, seed: int = 1) -> dict:
    """Mean outcome of the best line that avoids the blunder and of the best blunder.

    Lines: every legal first move, the rest of the seat's turn by ``medium`` avoiding blunders
    (after a good first move) or as it is (after a blunder); for ``after.not_out`` cases two
    lines, ``medium``'s turn avoiding going out and preferring it. Then ``medium`` plays every
    seat to the end of the deal, in the same determinizations for every line."""
    g0 = position(case)
    seat = g0.current
    obs = Observation.for_seat(g0, seat)
    side = obs.my_side
    by_game = decides_game(obs)
    med = MediumBot(seed=1)
    # (name, first move or None, avoid): see ``_turn``
    lines: list[tuple[str, Move | None, bool | None]]
    if case.get("after", {}).get("not_out"):
        lines = [("avoid going out", None, True), ("go out", None, False)]
    else:
        bad, good = split_moves(case, legal_moves(g0))
        lines = [(m.text(), m, True) for m in good] + [(m.text(), m, None) for m in bad]
    vals = {name: 0.0 for name, _, _ in lines}
    per: dict[str, list[float]] = {name: [] for name, _, _ in lines}
    player = HardBot(seed=seed, rounds=1000, fast=False)
    for i in range(samples):
        for name, first, avoid in lines:
            g = determinize(obs, random.Random(f"judge:{seed}:{i}"))
            laid_red_threes(g, seat)
            if first is not None:
                g.play(first)
            _turn(g, seat, case, avoid, med)
            player.rollout(g, seat, random.Random(f"judge:{seed}:{i}:r"))
            per[name].append(outcome(g, side, by_game))
            vals[name] += per[name][-1] / samples
    good_names = [n for n, _, a in lines if a is True]
    bad_names = [n for n, _, a in lines if a is not True]
    bg = max(good_names, key=lambda n: vals[n])
    bb = max(bad_names, key=lambda n: vals[n]) if bad_names else None
    se = None
    if bb is not None and samples > 1:
        d = [a - b for a, b in zip(per[bg], per[bb])]
        m = sum(d) / samples
        se = round((sum((x - m) ** 2 for x in d) / (samples - 1) / samples) ** 0.5, 1)
    return {
        "id": case["id"],
        "samples": samples,
        "by_game": by_game,
        "best_good": bg,
        "good_value": round(vals[bg], 1),
        "best_blunder": bb,
        "blunder_value": round(vals[bb], 1) if bb else None,
        "difference_se": se,
        "confirmed": bb is None or vals[bg] > vals[bb],
        "values": {m: round(v, 1) for m, v in sorted(vals.items(), key=lambda x: -x[1])},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m py_engine.ai.judge",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("path", nargs="?", default="tests/blunders")
    p.add_argument("--samples", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--id", action="append", default=[], help="only these cases (repeatable)")
    p.add_argument(
        "--check",
        action="append",
        default=[],
        help="instead of judging, report which cases a level (medium, hard, ...) gets right",
    )
    a = p.parse_args(argv)
    cases = [c for c in load_cases(a.path) if not a.id or c["id"] in a.id]
    if a.check:
        for level in a.check:
            ok = 0
            for c in cases:
                kw = {"iterations": 24} if level == "hard" else {}
                avoided, move = check(c, make_bot(level, seed=1, **kw))
                ok += avoided
                if not avoided:
                    print(json.dumps({"level": level, "id": c["id"], "played": move}))
            print(json.dumps({"level": level, "avoided": ok, "cases": len(cases)}))
        return 0
    for c in cases:
        print(json.dumps(judge(c, a.samples, a.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
