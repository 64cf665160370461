"""``python -m py_engine``: simulate, check, replay, bench, soak, tournament, coach.

The long runs (tournament, soak) print a progress line on stderr (deals done, rate, time left)
and their result as JSON on stdout; ``--ray`` spreads their deals over a Ray cluster
(``spread.py``)."""

from __future__ import annotations

import argparse
import json
import sys

from .errors import IllegalMove, InvalidMove, ScenarioError


def _load_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"cannot read {path}: {e}") from e


def spread_options(p: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--ray``: where a command plays its deals (``spread.run``; the same
    results wherever)."""
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="play deals in this many processes (keep it at most the core count)",
    )
    p.add_argument(
        "--ray",
        metavar="ADDRESS|auto",
        default=None,
        help="play deals on a Ray cluster: its head's HOST:PORT, or 'auto' (this "
        "machine's cluster, or a local one); needs pip install '.[cluster]'",
    )


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    p = argparse.ArgumentParser(prog="python -m py_engine", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("simulate", help="random self-play with invariant checks")
    s.add_argument("--rules", default="samba")
    s.add_argument("--players", type=int, default=None)
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("check", help="is a move legal in a scenario?")
    c.add_argument("--scenario", required=True)
    c.add_argument("--move", required=True)
    r = sub.add_parser("replay", help="replay a game record and print the scores")
    r.add_argument("file")
    b = sub.add_parser("bench", help="engine throughput per rule set")
    b.add_argument("--seconds", type=float, default=3.0)
    t = sub.add_parser("tournament", help="duplicate deals between two bot levels")
    t.add_argument("--rules", default="samba")
    t.add_argument("--players", type=int, default=None)
    t.add_argument("--a", default="easy")
    t.add_argument("--b", default="random")
    t.add_argument("--deals", type=int, default=20)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--budget", type=float, default=None, help="hard: seconds per decision")
    t.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="hard: the budget in elapsed time (what players wait) or in this "
        "process's CPU time (measurements on a busy machine)",
    )
    spread_options(t)
    k = sub.add_parser(
        "soak", help="many deals by random and computer players, every invariant checked"
    )
    k.add_argument("--rules", default="samba")
    k.add_argument("--players", type=int, default=None)
    k.add_argument("--deals", type=int, default=100)
    k.add_argument("--seed", type=int, default=1)
    k.add_argument(
        "--bots",
        default="easy,medium",
        help="computer levels that play every other game (comma-separated; '' for "
        "random players only)",
    )
    k.add_argument(
        "--check-every",
        type=int,
        default=1,
        help="re-verify every legal move and the view at every N-th move (1: all)",
    )
    spread_options(k)
    co = sub.add_parser(
        "coach",
        help="weigh one seat's decisions in a game record against hard's search (JSON; "
        "docs/ai.md, 'The coach')",
    )
    co.add_argument("record", help="a game record (docs/formats.md), a scenario's too")
    co.add_argument("--seat", required=True, help="the seat to review (0 .. players - 1)")
    co.add_argument(
        "--budget",
        default=None,
        help="seconds per decision on the reference machine, turned into a fixed number of "
        "samples (deterministic; default 0.5, 100 samples)",
    )
    co.add_argument("--seed", type=int, default=0, help="the samples' seed")
    args = p.parse_args(argv)

    if args.cmd == "coach":
        return _coach(args, out)

    if args.cmd == "simulate":
        from .rules import get_rules
        from .simulate import simulate

        players = args.players or get_rules(args.rules).default_players
        result = simulate(args.rules, players, args.games, args.seed)
    elif args.cmd == "check":
        from .record import load_scenario
        from .views import view_for

        try:
            game = load_scenario(_load_json(args.scenario))
        except ScenarioError as e:
            result = {"ok": False, "error": "bad_scenario", "message": str(e)}
        else:
            seat = game.current
            try:
                game.play(args.move)
                result = {
                    "ok": True,
                    "legal": True,
                    "move": args.move,
                    "view": view_for(game, seat),
                }
            except IllegalMove as e:
                result = {"ok": True, "legal": False, "reason": e.code, "message": str(e)}
            except InvalidMove as e:
                result = {"ok": False, "legal": False, "reason": "bad_move_text", "message": str(e)}
    elif args.cmd == "replay":
        from .record import replay

        try:
            game = replay(_load_json(args.file))
        except ScenarioError as e:
            print(json.dumps({"ok": False, "error": str(e)}), file=out)
            return 1
        result = {
            "ok": True,
            "moves": len(game.moves),
            "deals": game.deal_no,
            "scores": game.scores,
            "phase": game.phase,
            "result": game.result,
        }
    elif args.cmd == "soak":
        from .soak import soak
        from .spread import SpreadError

        try:
            result = soak(
                args.rules,
                args.players,
                args.deals,
                args.seed,
                [b for b in args.bots.split(",") if b],
                args.check_every,
                jobs=args.jobs,
                ray=args.ray,
                progress=True,
            )
        except (ValueError, SpreadError) as e:
            print(json.dumps({"ok": False, "error": str(e)}), file=out)
            return 2
        print(json.dumps(result, indent=1), file=out)
        return 1 if result["violations"] else 0
    elif args.cmd == "bench":
        from .simulate import bench

        result = bench(args.seconds)
    else:
        from .ai.tournament import tournament
        from .spread import SpreadError

        try:
            result = tournament(
                args.rules,
                args.players,
                args.a,
                args.b,
                args.deals,
                args.seed,
                budget=args.budget,
                jobs=max(1, args.jobs),
                clock=args.clock,
                ray=args.ray,
                progress=True,
            )
        except (ValueError, SpreadError) as e:
            print(json.dumps({"ok": False, "error": str(e)}), file=out)
            return 2
    print(json.dumps(result, indent=1), file=out)
    return 0


def _coach(args, out) -> int:
    """``coach``: every check before the first verdict; an error goes to stderr, exit code 2."""
    from .ai.coach import DEFAULT_BUDGET, CoachError, review

    def fail(msg: str) -> int:
        print(f"coach: {msg}", file=sys.stderr)
        return 2

    try:
        with open(args.record, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError) as e:
        return fail(f"cannot read the record {args.record}: {e}")
    try:
        seat = int(args.seat)
    except ValueError:
        return fail(f"seat must be a whole number, not {args.seat!r}")
    budget: float = DEFAULT_BUDGET
    if args.budget is not None:
        try:
            budget = float(args.budget)
        except ValueError:
            return fail(f"the budget must be a positive number of seconds, not {args.budget!r}")
    try:
        result = review(record, seat, budget, args.seed)
    except CoachError as e:
        return fail(str(e))
    print(json.dumps(result, indent=1), file=out)
    return 0
