"""How well sampled worlds predict the next player's hand (issue 15's inference study).

    python -m research.infer_study --seeds 30000-30011 [--samples 12] [--every 4]

On ``medium`` self-play positions (samba 4), the Brier score over the natural ranks of the next
player's hand ("holds one", "holds a pair": lower is better) of worlds sampled four ways: plain
(``Determinizer``), capped (``inference.Avoided``), filtered by each other seat's last discard
(``LastDiscards``: would ``medium``, holding the sampled hand and that card, have discarded
it?), both, and pair-rich (``inference.PairRich``, ``--beta``); it also prints the mean number of
natural pairs in the next hand, true and sampled. Tuning seeds only: 9000-9099 are refused.

``LastDiscards(view)`` reads a habit as a likelihood: a seat's latest discard was the card its
hand needed least. Since that discard the seat has drawn nothing, so its hand then was its
sampled hand plus that card; ``apply`` deals a seat's unknown cards again (with the stock) until
``medium``'s discard scores of that hand, on today's table, put the card near the top (accepted
with chance ``exp(-gap / temp)``), at most ``tries`` times, keeping the likeliest deal. (Kept
in this study, not in the engine: it did not improve the prediction, docs/journal/2026-12-05-ai-sessions.md, "Session 7".)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from py_engine.ai.act import bot_move
from py_engine.ai.determinize import (
    Determinizer,  # noqa: E402
    known_holdings,  # noqa: E402
)
from py_engine.ai.info import Info  # noqa: E402
from py_engine.ai.medium import MediumBot  # noqa: E402
from py_engine.cards import IS_RED3, KIND_OF_ID, parse_kind  # noqa: E402
from py_engine.observation import Observation  # noqa: E402
from py_engine.state import Game  # noqa: E402
from py_engine.views import view_for  # noqa: E402
from research.inference import Avoided, PairRich, loose_positions, natural_counts  # noqa: E402

RESERVED = range(9000, 9100)


class LastDiscards:
    """Each other seat's latest discard, read as "the card its hand needed least" (this
    tool's docstring); ``seats`` lists (seat, the discarded card, the observation as that seat
    would hold it with this seat's knowledge, the pile's cards before it)."""

    def __init__(
        self,
        view: dict,
        obs: Observation,
        temp: float = 25.0,
        tries: int = 8,
        bot: MediumBot | None = None,
    ):
        """``view`` and ``obs``: the seat's JSON view and observation (of one position)."""
        self.temp, self.tries = temp, tries
        self.bot = bot or MediumBot()
        me, deal = view["seat"], view["deal"]
        log = [e for e in view.get("log", []) if e.get("deal") == deal]
        pile = [KIND_OF_ID[c["id"]] for c in view["pile"]["cards"]]
        t = view.get("turn") or {}
        asker = t.get("asker", -1) if t.get("pending") else -1
        self.known = known_holdings(obs)
        self.seats: list[tuple[int, int, dict, list[int]]] = []
        for s in range(view["players"]):
            if s == me or s == asker or view["hand_sizes"][s] == 0:
                continue
            at = max(
                (
                    i
                    for i, e in enumerate(log)
                    if e.get("seat") == s and e.get("kind") == "discard" and e.get("card")
                ),
                default=None,
            )
            if at is None:
                continue
            later = log[at + 1 :]
            if any(e.get("seat") == s or (e.get("kind") or "").startswith("take") for e in later):
                continue  # it has played since, or the pile is another pile now
            below = len(pile) - 1 - sum(1 for e in later if e.get("kind") == "discard")
            k = parse_kind(log[at]["card"])
            if below < 0 or pile[below] != k:
                continue
            seat_obs = obs._replace(seat=s, my_side=obs.side_of[s])
            self.seats.append((s, obs.pile[below], seat_obs, obs.pile[:below]))
        self.active = bool(self.seats)

    def gap(self, seat_obs: Observation, hand: list[int], card: int, pile: tuple) -> float:
        """How far below ``medium``'s best discard ``card`` (a card id) scores for ``hand`` +
        ``card`` (card ids) on the pile ``pile`` (card ids)."""
        info = Info.from_observation(seat_obs._replace(hand=(*hand, card), pile=pile))
        distinct = sorted(set(info.hand))
        scores = self.bot.discard_scores(info, distinct)
        return max(scores) - scores[distinct.index(KIND_OF_ID[card])]

    def apply(self, g, rng: random.Random) -> int:
        """Deal the unknown cards of each listed seat's sampled hand in ``g`` again with the
        stock until its latest discard is likely; the number of deals tried again."""
        if not self.active:
            return 0
        redealt = 0
        stock = g.stock
        for s, card, seat_obs, pile in self.seats:
            hand = g.hands[s]
            loose = loose_positions(hand, self.known[s])
            best_gap = self.gap(seat_obs, hand, card, pile)
            if not loose or rng.random() < math.exp(-best_gap / self.temp):
                continue
            best = (list(hand), list(stock))
            free = [i for i, c in enumerate(stock) if not IS_RED3[KIND_OF_ID[c]]]
            for _ in range(self.tries):
                redealt += 1
                for j, i in zip(loose, rng.sample(free, min(len(loose), len(free)))):
                    hand[j], stock[i] = stock[i], hand[j]
                gap = self.gap(seat_obs, hand, card, pile)
                if gap < best_gap:
                    best_gap, best = gap, (list(hand), list(stock))
                if rng.random() < math.exp(-gap / self.temp):
                    break
            else:
                hand[:], stock[:] = best
        return redealt


def positions(seeds, every):
    i = 0
    for seed in seeds:
        g = Game.new("samba", 4, seed=seed)
        bot = MediumBot(seed=1)
        while g.phase not in ("deal_over", "game_over"):
            s = g.current
            move = bot_move(bot, g, s)
            if i % every == 0:
                yield g, s
            i += 1
            g.play(move)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="30000-30011")
    ap.add_argument("--samples", type=int, default=12)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--temp", type=float, default=25.0)
    ap.add_argument("--tries", type=int, default=8)
    ap.add_argument("--beta", type=float, default=1.0)
    a = ap.parse_args(argv)
    lo, _, hi = a.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    if any(s in RESERVED for s in seeds):
        ap.error("seeds 9000-9099 are reserved for measurement")
    ways = ("plain", "capped", "last", "both", "rich")
    brier = {w: [0.0, 0.0] for w in ways}
    pairs_held = {w: 0.0 for w in ways}
    true_pairs = 0
    premise = [0, 0, 0]
    secs = {w: 0.0 for w in ways}
    n = 0
    for g, me in positions(seeds, a.every):
        view = view_for(g, me)
        nxt = (me + 1) % 4
        truth = natural_counts(g.hands[nxt])
        true_pairs += sum(c >= 2 for c in truth)
        obs = Observation.for_seat(g, me)
        worlds = Determinizer(obs)
        avoided = Avoided(obs)
        last = LastDiscards(view, obs, temp=a.temp, tries=a.tries)
        rich = PairRich(obs, beta=a.beta)
        sample = worlds.sample(random.Random(0))
        for s, card, seat_obs, pile in last.seats:  # the premise: true hands, plain samples
            premise[0] += 1
            premise[1] += last.gap(seat_obs, g.hands[s], card, pile) == 0
            premise[2] += last.gap(seat_obs, sample.hands[s], card, pile) == 0
        for w in ways:
            t0 = time.process_time()
            ones, pairs = [0] * 15, [0] * 15
            for j in range(a.samples):
                world = worlds.sample(random.Random(j))
                rng = random.Random(j + 100)
                if w in ("last", "both"):
                    last.apply(world, rng)
                if w in ("capped", "both"):
                    avoided.apply(world, rng)
                if w == "rich":
                    rich.apply(world, rng)
                c = natural_counts(world.hands[nxt])
                pairs_held[w] += sum(x >= 2 for x in c) / a.samples
                for r in range(4, 15):
                    ones[r] += c[r] >= 1
                    pairs[r] += c[r] >= 2
            secs[w] += time.process_time() - t0
            k = a.samples
            brier[w][0] += sum((ones[r] / k - (truth[r] >= 1)) ** 2 for r in range(4, 15))
            brier[w][1] += sum((pairs[r] / k - (truth[r] >= 2)) ** 2 for r in range(4, 15))
        n += 1
    print(
        f"{n} positions (seeds {a.seeds}, every {a.every}th decision), {a.samples} samples "
        f"each; Brier score per position of the next hand (lower is better):"
    )
    for w in ways:
        print(
            f"  {w:7s} holds one {brier[w][0] / n:.3f}  holds a pair {brier[w][1] / n:.3f}"
            f"  pairs held {pairs_held[w] / n:.2f}"
            f"  ({1000 * secs[w] / n / a.samples:.2f} ms per sample)"
        )
    print(f"  true    pairs held {true_pairs / n:.2f}")
    print(
        f"last discards read: {premise[0]}; medium's top discard of the hand plus the card in "
        f"{premise[1]} of the true hands, {premise[2]} of plain samples"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
