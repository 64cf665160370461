"""Why `hard`'s losses against `medium` are larger than its wins (issue 39, part 4).

    python -m research.hard_losses collect --rules samba --players 4 --deals 60 --seed 20600 \\
        --budget 0.75 --clock cpu --out losses.jsonl [--first 0] [--a KEY=V,...]
    python -m research.hard_losses report losses.jsonl [losses2.jsonl ...] [--big 500]
    python -m research.hard_losses compare variant.jsonl shipped.jsonl

``collect`` plays the duplicate deals of ``python -m py_engine tournament --a hard --b medium``
(the same deal seeds, bot seeds, budget and clock: deal ``i`` of ``--seed S`` is the tournament's
deal ``i``) and writes one JSON line per duplicate deal: its margin (``hard`` minus ``medium``,
summed over the two plays) and, per play, the deal's end (who went out, the stock left), each
side's score broken down (melds, bonuses, red threes, going out, cards in hand, penalties; the
``hard`` sides' minus the ``medium`` sides' as the tournament counts the margin), canastas and
sambas, cards left in hand, the moves, and every decision where ``hard`` played another move than
``medium`` would have (an override): its kind (``endgame``: the exact going-out turn;
``last_turn``: the last-turn habit's ranking; ``searched``: the search's, with its sampled mean
gain, paired lower bound and samples), the kind of move (``hard_overrides.KINDS``), the stock
left. ``--a`` plays a ``StudyHard`` configuration instead of the shipped ``hard``
(``research/hard_variants.py``'s settings). TUNING seeds only: 9000-9099 are refused unless
``--measure`` is given, for the one check of a configuration chosen on tuning seeds.

Both plays of a duplicate deal are the same game until ``hard`` first plays another move than
``medium`` (``medium`` draws nothing; the cards are the same); every deal that is not tied was
therefore turned by at least one override, and the first one (``divergence``) is where the two
plays part.

``report`` prints the margins of the deals each side won (sizes, sums), the score components of
won, lost and big (``--big`` points) lost deals, who went out, and the deals by the kind of
their first divergence. ``compare`` pairs two collections (``--a`` variants, or the shipped
``hard``) on the deals both played: each one's result against ``medium``, the spread of its
margins and the paired difference.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable

from py_engine.ai.act import bot_move
from py_engine.ai.medium import MediumBot
from py_engine.ai.tournament import a_sides_of, margin
from py_engine.moves import Move
from py_engine.observation import Observation
from py_engine.rules import get_rules
from py_engine.scoring import side_canastas
from py_engine.state import Game
from research.hard_overrides import move_kind, read_jsonl, refuse_reserved
from research.hard_variants import configuration
from research.options import study_commands
from research.study_hard import StudyHard

COMPONENTS = ("melds", "bonuses", "red_threes", "going_out", "hands", "penalty")
BINS = (30, 200, 500, 1000)  # margin sizes: up to 30, 200, 500, 1000 and beyond
# where in its play a deal's first divergence came (the share of the play's moves before it)
WHEN = (("first half", 0.5), ("50-80 %", 0.8), ("last fifth", 1.01))


class LoggingHard(StudyHard):
    """``hard`` (or a ``StudyHard`` configuration) that notes each of its overrides of
    ``medium``: the same choices (the notes are taken after ``decide``, outside its budget)."""

    def __init__(self, seed: int = 0, **options):
        super().__init__(seed, **options)
        self.plain = MediumBot(seed=seed)
        self.notes: list[dict] = []
        self.index = 0  # the move's index in the deal (set by the caller)
        self.stock = 0

    def decide(self, obs: Observation, legal: list[Move]) -> Move:
        move = super().decide(obs, legal)
        stats = self.last_stats
        med = self.plain.decide(obs, legal)
        if move != med:
            if "endgame" in stats:
                kind = "endgame"
            elif move == self.medium.ranking(obs, legal)[0][1]:
                kind = "last_turn"
            else:
                kind = "searched"
            mean, lower = stats.get("gains", {}).get(move, (None, None))
            self.notes.append(
                {
                    "index": self.index,
                    "seat": obs.seat,
                    "kind": kind,
                    "move_kind": move_kind(obs, med.text(), move.text()),
                    "move": move.text(),
                    "medium": med.text(),
                    "gain": mean,
                    "lower": lower,
                    "samples": stats.get("samples", 0),
                    "stock": self.stock,
                }
            )
        return move


def play(
    rules: str,
    players: int,
    deal_seed: int,
    hard_sides: list[int],
    bot_seed: int,
    budget: float,
    clock: str,
    settings: dict,
) -> dict:
    """One play of a deal, ``hard`` on ``hard_sides`` (as ``tournament.play_deal`` plays it)."""
    g = Game.new(rules, players, seed=deal_seed)
    n_sides = g.n_sides
    bots: list = []
    for s in range(players):
        seed = bot_seed * 1009 + s
        if s % n_sides in hard_sides:
            bots.append(LoggingHard(seed, **{"budget": budget, "clock": clock, **settings}))
        else:
            bots.append(MediumBot(seed=seed))
    moves: list[str] = []
    while g.phase not in ("deal_over", "game_over"):
        seat = g.current
        bot = bots[seat]
        if isinstance(bot, LoggingHard):
            bot.index, bot.stock = len(moves), len(g.stock)
        mv = bot_move(bot, g, seat)
        g.play(mv)
        moves.append(mv.text())
        if len(moves) > 5000:
            raise RuntimeError(f"deal {deal_seed} did not end")
    res = g.deal_result
    sides = res["sides"]
    out = res["went_out"]
    r = get_rules(rules)
    canastas = [side_canastas(g.melds[s], r) for s in range(n_sides)]
    cards = [sum(len(g.hands[p]) for p in g.seats_of(s)) for s in range(n_sides)]
    notes = sorted(
        (n for b in bots if isinstance(b, LoggingHard) for n in b.notes), key=lambda n: n["index"]
    )
    return {
        "hard_sides": hard_sides,
        "scores": list(g.history[-1]),
        "margin": margin(g.history[-1], hard_sides),
        "components": {c: margin([sd[c] for sd in sides], hard_sides) for c in COMPONENTS},
        "reason": res["reason"],
        "went_out": None if out is None else ("hard" if g.side_of(out) in hard_sides else "medium"),
        "stock_left": len(g.stock),
        "moves_played": len(moves),
        "canastas": margin([c[0] for c in canastas], hard_sides),
        "sambas": margin([c[1] for c in canastas], hard_sides),
        "cards_left": margin(cards, hard_sides),
        "hard_cards_left": sum(cards[s] for s in hard_sides) / len(hard_sides),
        "medium_cards_left": sum(cards[s] for s in range(n_sides) if s not in hard_sides)
        / (n_sides - len(hard_sides)),
        "overrides": notes,
        "moves": moves,
    }


def divergence(plays: list[dict]) -> dict | None:
    """The override at which the two plays of a deal part (None: they never do)."""
    a, b = plays[0]["moves"], plays[1]["moves"]
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
    if k is None:
        return None
    for p, pl in enumerate(plays):
        for n in pl["overrides"]:
            if n["index"] == k:
                return {"play": p, **n}
    raise ValueError(f"the plays part at move {k} without an override of hard's")


def duplicate(
    rules: str, players: int, seed: int, i: int, budget: float, clock: str, settings: dict
) -> dict:
    """Deal ``i`` of ``--seed`` played twice, seats swapped (``tournament.duplicate_deal``)."""
    n_sides = get_rules(rules).n_sides(players)
    deal_seed = seed * 100_003 + i
    plays = [
        play(
            rules,
            players,
            deal_seed,
            a_sides_of(n_sides, swap),
            seed * 7 + i * 2 + swap,
            budget,
            clock,
            settings,
        )
        for swap in (False, True)
    ]
    return {
        "rules": rules,
        "players": players,
        "seed": seed,
        "deal": i,
        "deal_seed": deal_seed,
        "settings": settings,
        "margin": sum(p["margin"] for p in plays),
        "divergence": divergence(plays),
        "plays": plays,
    }


# The report ------------------------------------------------------------------------------------


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal)."""
    n = len(xs)
    if n == 0:
        return (0.0, 0.0)
    m = sum(xs) / n
    if n < 2:
        return (m, float("inf"))
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return (m, 1.96 * sd / math.sqrt(n))


def fmt(m: float, h: float) -> str:
    return f"{m:+.1f} [{m - h:+.1f}, {m + h:+.1f}]" if math.isfinite(h) else f"{m:+.1f}"


def size_bin(x: float) -> str:
    a = abs(x)
    lo = 0
    for b in BINS:
        if a <= b:
            return f"{lo}-{b}"
        lo = b
    return f">{BINS[-1]}"


def groups(deals: list[dict], big: float) -> dict[str, list[dict]]:
    return {
        "all": deals,
        "won": [d for d in deals if d["margin"] > 0],
        "lost": [d for d in deals if d["margin"] < 0],
        "tied": [d for d in deals if d["margin"] == 0],
        f"won by > {big:g}": [d for d in deals if d["margin"] > big],
        f"lost by > {big:g}": [d for d in deals if d["margin"] < -big],
    }


def summary(deals: list[dict], big: float = 500.0) -> dict:
    """The report's figures (``report`` prints them)."""
    margins = [d["margin"] for d in deals]
    won = sorted(x for x in margins if x > 0)
    lost = sorted(-x for x in margins if x < 0)

    def med(xs):
        return xs[len(xs) // 2] if xs else 0.0

    out: dict = {
        "deals": len(deals),
        "won": len(won),
        "lost": len(lost),
        "tied": len(margins) - len(won) - len(lost),
        "mean": mean_ci(margins),
        "won_mean": sum(won) / len(won) if won else 0.0,
        "won_median": med(won),
        "lost_mean": sum(lost) / len(lost) if lost else 0.0,
        "lost_median": med(lost),
        "won_sum": sum(won),
        "lost_sum": sum(lost),
    }
    bins: dict[str, list[float]] = {}
    for x in margins:
        if x:
            bins.setdefault(size_bin(x), [0, 0, 0.0, 0.0])
            row = bins[size_bin(x)]
            if x > 0:
                row[0] += 1
                row[2] += x
            else:
                row[1] += 1
                row[3] -= x
    order = [f"{lo}-{b}" for lo, b in zip((0,) + BINS, BINS)] + [f">{BINS[-1]}"]
    out["bins"] = {k: bins[k] for k in order if k in bins}
    comp = {}
    for name, ds in groups(deals, big).items():
        if not ds:
            continue
        row = {"n": len(ds)}
        for c in COMPONENTS + ("canastas", "sambas", "cards_left"):
            row[c] = sum(
                p[c] if c not in COMPONENTS else p["components"][c] for d in ds for p in d["plays"]
            ) / len(ds)
        # who went out, over the plays (two a deal)
        plays = [p for d in ds for p in d["plays"]]
        for who in ("hard", "medium", None):
            row[f"out_{who or 'none'}"] = sum(1 for p in plays if p["went_out"] == who) / len(plays)
        row["stock_left"] = sum(p["stock_left"] for p in plays) / len(plays)
        row["hard_cards_left"] = sum(p["hard_cards_left"] for p in plays) / len(plays)
        row["medium_cards_left"] = sum(p["medium_cards_left"] for p in plays) / len(plays)
        # hard's overrides per deal, by kind
        kinds: dict[str, int] = {}
        gains = []
        for p in plays:
            for n in p["overrides"]:
                key = n["kind"] if n["kind"] != "searched" else f"searched {n['move_kind']}"
                kinds[key] = kinds.get(key, 0) + 1
                if n["gain"] is not None:
                    gains.append(n["gain"])
        row["overrides"] = {k: v / len(ds) for k, v in sorted(kinds.items())}
        row["searched_gain"] = sum(gains) / len(gains) if gains else None
        comp[name] = row
    out["groups"] = comp
    # The deals by the kind of their first divergence
    by: dict[str, list[float]] = {}
    left: dict[str, list[int]] = {}
    for d in deals:
        v = d["divergence"]
        if v is None:
            key = "none (tied)"
        else:
            key = v["kind"] if v["kind"] != "searched" else f"searched {v['move_kind']}"
        by.setdefault(key, []).append(d["margin"])
        if v is not None:
            left.setdefault(key, []).append(d["plays"][v["play"]]["moves_played"] - v["index"])
    out["first"] = {
        k: {
            "n": len(xs),
            "won": sum(1 for x in xs if x > 0),
            "lost": sum(1 for x in xs if x < 0),
            "big_lost": sum(1 for x in xs if x < -big),
            "mean": mean_ci(xs),
            "moves_left": sorted(left[k])[len(left[k]) // 2] if k in left else None,
        }
        for k, xs in sorted(by.items())
    }
    # early or late: the share of the deal (its play's moves) before the first divergence
    early: dict[str, list[float]] = {}
    for d in deals:
        v = d["divergence"]
        if v is not None:
            at = v["index"] / d["plays"][v["play"]]["moves_played"]
            key = next(k for k, hi in WHEN if at < hi)
            early.setdefault(key, []).append(d["margin"])
    out["when"] = {
        k: {"n": len(early[k]), "mean": mean_ci(early[k])} for k, _ in WHEN if k in early
    }
    return out


def print_report(s: dict, big: float, stream=sys.stdout) -> None:
    w = stream.write
    w(
        f"deals {s['deals']}: hard won {s['won']}, lost {s['lost']}, tied {s['tied']}; "
        f"mean per deal {fmt(*s['mean'])}\n"
    )
    w(
        f"won deals: mean +{s['won_mean']:.1f}, median +{s['won_median']:.1f}, sum "
        f"+{s['won_sum']:.0f}; lost deals: mean -{s['lost_mean']:.1f}, median "
        f"-{s['lost_median']:.1f}, sum -{s['lost_sum']:.0f}\n\n"
    )
    w("| margin size | hard won | medium won | points hard won | points medium won |\n")
    w("|---|---|---|---|---|\n")
    for k, (a, b, pa, pb) in s["bins"].items():
        w(f"| {k} | {a} | {b} | {pa:.0f} | {pb:.0f} |\n")
    w("\nPer deal (both plays), hard's sides minus medium's:\n\n")
    cols = COMPONENTS + ("canastas", "sambas", "cards_left")
    w("| deals | n | " + " | ".join(cols) + " | hard out | medium out | nobody | stock left |\n")
    w("|---" * (len(cols) + 6) + "|\n")
    for name, row in s["groups"].items():
        w(
            f"| {name} | {row['n']} | "
            + " | ".join(f"{row[c]:+.1f}" for c in cols)
            + f" | {row['out_hard']:.2f} | {row['out_medium']:.2f} | {row['out_none']:.2f} |"
            f" {row['stock_left']:.1f} |\n"
        )
    w("\nhard's overrides per deal, by kind (and the searched ones' mean predicted gain):\n\n")
    for name, row in s["groups"].items():
        ov = ", ".join(f"{k} {v:.2f}" for k, v in row["overrides"].items())
        g = row["searched_gain"]
        w(f"- {name}: {ov}; predicted gain {'-' if g is None else f'{g:+.0f}'}\n")
    w("\nThe deals by their first divergence (the override where the two plays part):\n\n")
    w(
        f"| first divergence | deals | hard won | medium won | lost by > {big:g} | mean (95 %) "
        "| moves after it (median) |\n"
    )
    w("|---|---|---|---|---|---|---|\n")
    for k, r in s["first"].items():
        w(
            f"| {k} | {r['n']} | {r['won']} | {r['lost']} | {r['big_lost']} | "
            f"{fmt(*r['mean'])} | {'-' if r['moves_left'] is None else r['moves_left']} |\n"
        )
    w("\n")
    for k, r in s["when"].items():
        w(f"- first divergence in the {k} of its play: {r['n']} deals, mean {fmt(*r['mean'])}\n")


def compare(a: list[dict], b: list[dict]) -> dict:
    """Two configurations' deals against ``medium``, on the deals both played (the same seed
    and index): each one's won-lost-tied and mean per deal, the standard deviation of its
    margins, and the paired difference of the margins (``a`` minus ``b``)."""
    key = {(d["rules"], d["players"], d["seed"], d["deal"]): d["margin"] for d in b}
    pairs = [
        (d["margin"], key[(d["rules"], d["players"], d["seed"], d["deal"])])
        for d in a
        if (d["rules"], d["players"], d["seed"], d["deal"]) in key
    ]
    out: dict = {"deals": len(pairs)}
    for name, xs in (("a", [x for x, _ in pairs]), ("b", [y for _, y in pairs])):
        m, h = mean_ci(xs)
        out[name] = {
            "won": sum(1 for x in xs if x > 0),
            "lost": sum(1 for x in xs if x < 0),
            "tied": sum(1 for x in xs if x == 0),
            "mean": (m, h),
            "sd": h * math.sqrt(len(xs)) / 1.96 if xs else 0.0,
        }
    out["difference"] = mean_ci([x - y for x, y in pairs])
    return out


def load(paths: Iterable[str]) -> list[dict]:
    return [row for path in paths for row in read_jsonl(path)]


def main(argv: list[str] | None = None) -> int:
    p, sub, c = study_commands(__doc__)
    c.add_argument("--deals", type=int, default=20)
    c.add_argument("--first", type=int, default=0, help="the first deal's index")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--budget", type=float, default=0.75)
    c.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    c.add_argument("--a", default="", help="StudyHard settings of the hard side (key=value,...)")
    c.add_argument("--out", required=True)
    c.add_argument(
        "--measure",
        action="store_true",
        help="allow the reserved measurement seeds 9000-9099 (a final check only)",
    )
    r = sub.add_parser("report")
    r.add_argument("files", nargs="+")
    r.add_argument("--big", type=float, default=500.0)
    k = sub.add_parser("compare", help="two collections' deals against medium, paired")
    k.add_argument("a")
    k.add_argument("b")
    a = p.parse_args(argv)
    if a.cmd == "compare":
        c = compare(load([a.a]), load([a.b]))
        print(f"{c['deals']} deals played by both")
        for name in ("a", "b"):
            x = c[name]
            print(
                f"{name}: {x['won']}-{x['lost']}-{x['tied']}, mean {fmt(*x['mean'])}, "
                f"sd {x['sd']:.0f}"
            )
        print(f"a - b per deal: {fmt(*c['difference'])}")
        return 0
    if a.cmd == "report":
        deals = load(a.files)
        print_report(summary(deals, a.big), a.big)
        return 0
    refuse_reserved(p, a.seed, a.measure)
    if a.deals < 1 or a.budget <= 0 or a.first < 0:
        p.error("--deals must be at least 1, --budget above 0, --first not negative")
    try:
        settings = configuration(a.a)
    except ValueError as e:
        p.error(str(e))
    with open(a.out, "a") as f:
        for i in range(a.first, a.first + a.deals):
            d = duplicate(a.rules, a.players, a.seed, i, a.budget, a.clock, settings)
            f.write(json.dumps(d) + "\n")
            f.flush()
            print(f"deal {i}: {d['margin']:+.0f}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
