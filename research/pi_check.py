"""The perfect-information check of issue 15: does ``hard``'s search gain much more over
``medium`` when it sees every hand?

    python -m research.pi_check --rules samba --players 4 --deals 40 --seed 20100 --jobs 2 \\
        [--iterations 16] [--clairvoyant | --plain | --next] [--variant min_gain=0,own_turn=false]

Duplicate deals (as ``py_engine.ai.tournament``): side ``a`` is ``StudyHard`` with a fixed
number of samples (and ``--variant``'s keywords), side ``b`` ``medium``. By default the search's
worlds are the true game with every hand as it is and only the stock reshuffled per sample
(``--clairvoyant``: the stock kept too; ``--next``: only the next player's hand kept, the other
hidden hands dealt again with the stock, except while a going-out proposal names the asker's
cards; ``--next-pairs`` / ``--next-wilds``: of the next player's hand only its natural pairs
and triples / only its wild cards kept, the rest dealt again with the others): a CHEATING study
bot, never offered to players. ``--plain`` plays the same search on
``Determinizer(obs)``'s worlds (the shipped information), for a side-by-side figure. If even open
hands barely beat ``medium``, the gain is in the heuristic (the continuation policy), not in the
sampling. Tuning seeds only: the reserved measurement seeds 9000-9099 are refused.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from py_engine.ai.act import bot_move  # noqa: E402
from py_engine.ai.determinize import Determinizer  # noqa: E402
from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.ai.tournament import a_sides_of, margin, wilson  # noqa: E402
from py_engine.cards import IS_NATURAL, IS_WILD, KIND_OF_ID, RANK_OF  # noqa: E402
from py_engine.observation import Observation  # noqa: E402
from py_engine.rules import get_rules  # noqa: E402
from py_engine.spread import run  # noqa: E402
from py_engine.state import Game  # noqa: E402
from research.hard_overrides import parse_variant  # noqa: E402
from research.study_hard import StudyHard  # noqa: E402

RESERVED = range(9000, 9100)


def _pair_cards(hand: list[int]) -> list[int]:
    """The naturals of the ranks ``hand`` holds two or more naturals of."""
    ranks: dict[int, list[int]] = {}
    for c in hand:
        if IS_NATURAL[KIND_OF_ID[c]]:
            ranks.setdefault(RANK_OF[KIND_OF_ID[c]], []).append(c)
    return [c for cs in ranks.values() if len(cs) >= 2 for c in cs]


KEEP = {
    "all": list,
    "pairs": _pair_cards,
    "wilds": lambda hand: [c for c in hand if IS_WILD[KIND_OF_ID[c]]],
}


class OpenWorlds:
    """Worlds from the true game: every hand as it is, the stock reshuffled per sample unless
    ``keep_stock``; with ``only_next`` only the next player's hand (``keep``: "all", or only
    its natural pairs and triples, or only its wild cards) is kept and the other players'
    hands and the stock are dealt again from their cards."""

    def __init__(self, game: Game, keep_stock: bool, only_next: bool = False, keep: str = "all"):
        self.game, self.keep_stock, self.only_next = game, keep_stock, only_next
        self.keep = KEEP[keep]

    def sample(self, rng: random.Random) -> Game:
        g = self.game.copy(log=True)
        if self.only_next and not g.turn.pending:  # (a proposal names the asker's cards)
            me = g.current
            nxt = (me + 1) % g.players
            kept = self.keep(g.hands[nxt])
            others = [s for s in range(g.players) if s not in (me, nxt)]
            pool = [c for s in others for c in g.hands[s]] + list(g.stock)
            loose = list(g.hands[nxt])
            for c in kept:
                loose.remove(c)
            pool += loose
            rng.shuffle(pool)
            g.hands[nxt][:] = kept + pool[: len(loose)]
            del pool[: len(loose)]
            for s in others:
                n = len(g.hands[s])
                g.hands[s][:] = pool[:n]
                del pool[:n]
            g.stock[:] = pool
        elif not self.keep_stock:
            rng.shuffle(g.stock)
        return g


class OpenHard(StudyHard):
    game: Game | None = None
    keep_stock = False
    only_next = False
    keep = "all"

    def worlds(self, obs: Observation) -> OpenWorlds | Determinizer:
        if self.game is None:
            return super().worlds(obs)
        return OpenWorlds(self.game, self.keep_stock, self.only_next, self.keep)


def play(rules, players, deal_seed, a_sides, n_sides, bot_seed, mode, iterations, kw):
    game = Game.new(rules, players, seed=deal_seed)
    bots = []
    for s in range(players):
        if s % n_sides in a_sides:
            b = OpenHard(seed=bot_seed * 1009 + s, iterations=iterations, **kw)
            b.keep_stock = mode == "clairvoyant"
            b.only_next = mode.startswith("next")
            b.keep = {"next_pairs": "pairs", "next_wilds": "wilds"}.get(mode, "all")
            bots.append(b)
        else:
            bots.append(MediumBot(seed=bot_seed * 1009 + s))
    steps = overrides = searched = 0
    while game.phase not in ("deal_over", "game_over"):
        seat = game.current
        bot = bots[seat]
        if isinstance(bot, OpenHard) and mode != "plain":
            bot.game = game
        move = bot_move(bot, game, seat)
        if isinstance(bot, OpenHard) and bot.last_stats.get("samples"):
            searched += 1
            overrides += move != bot_move(bot.medium, game, seat)
        game.play(move)
        steps += 1
        if steps > 5000:
            raise RuntimeError(f"deal {deal_seed} did not end")
    return list(game.history[-1]), searched, overrides


def job(args):
    rules, players, seed, i, mode, iterations, kw = args
    n_sides = get_rules(rules).n_sides(players)
    deal_seed = seed * 100_003 + i
    total, searched, overrides = 0.0, 0, 0
    for swap in (False, True):
        a_sides = a_sides_of(n_sides, swap)
        sc, s, o = play(
            rules,
            players,
            deal_seed,
            a_sides,
            n_sides,
            seed * 7 + i * 2 + swap,
            mode,
            iterations,
            kw,
        )
        total += margin(sc, a_sides)
        searched += s
        overrides += o
    return total, searched, overrides


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="samba")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=20100)
    ap.add_argument("--iterations", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=1)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--clairvoyant", action="store_true")
    g.add_argument("--plain", action="store_true")
    g.add_argument("--next", action="store_true", help="only the next player's hand open")
    g.add_argument(
        "--next-pairs",
        action="store_true",
        help="only the next player's natural pairs and triples open",
    )
    g.add_argument(
        "--next-wilds", action="store_true", help="only the next player's wild cards open"
    )
    ap.add_argument(
        "--variant", default="", help="HardBot keywords, e.g. min_gain=0,own_turn=false"
    )
    a = ap.parse_args(argv)
    if a.seed in RESERVED:
        ap.error("seeds 9000-9099 are reserved for measurement")
    mode = (
        "clairvoyant"
        if a.clairvoyant
        else "plain"
        if a.plain
        else "next"
        if a.next
        else "next_pairs"
        if a.next_pairs
        else "next_wilds"
        if a.next_wilds
        else "open"
    )
    kw = parse_variant(a.variant)[1] if a.variant else {}
    args = [(a.rules, a.players, a.seed, i, mode, a.iterations, kw) for i in range(a.deals)]
    res = run(job, args, a.jobs, progress="pi_check")
    diffs = [r[0] for r in res]
    won = sum(d > 0 for d in diffs)
    lost = sum(d < 0 for d in diffs)
    n = len(diffs)
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / n**0.5 if n > 1 else float("inf")
    lo, hi = wilson(won, won + lost) if won + lost else (0.0, 1.0)
    conf = kw or "defaults"
    print(
        f"{a.rules} {a.players}, {mode} hard (iterations {a.iterations}, {conf}) vs medium, "
        f"{n} duplicate deals from seed {a.seed}:"
    )
    print(
        f"  won {won}, lost {lost}, tied {n - won - lost}; share of decided "
        f"{won / max(1, won + lost):.3f} [{lo:.3f}, {hi:.3f}]"
    )
    lo_m, hi_m = mean - 1.96 * se, mean + 1.96 * se
    print(
        f"  mean per duplicate deal {mean:+.1f} [{lo_m:+.1f}, {hi_m:+.1f}]"
        f"; searched decisions {sum(r[1] for r in res)}, overrides {sum(r[2] for r in res)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
