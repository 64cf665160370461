"""``medium``: a heuristic player working from its seat's observation only.

It ranks every legal move with a score (``rank``) and plays the best (``decide``). What it
knows about: natural pairs that can take the pile, the opening minimum (it chooses among the
legal opening combinations and pile takes), canasta and samba progress, the danger of feeding
the next player (ranks still unseen, the next player's sequences and, in ``crawford``, its
groups; ranks it threw away itself are safer), blocking with black threes and wild cards when
the pile is rich, when to go out, and when to ask or say yes to its partner.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import IS_BLACK3, IS_RED3, IS_WILD, RANK_OF, SUIT_OF, VALUE_OF_KIND
from ..moves import (
    AddTo,
    Answer,
    Ask,
    Discard,
    Draw,
    EndDeal,
    LayRedThree,
    Merge,
    Move,
    NextDeal,
    Part,
    Pass,
    TakePile,
    TakePileOnto,
    TakeTop,
)
from ..moves import Meld as MeldMove
from ..observation import Observation
from .info import Info
from .weights import MEDIUM_WEIGHTS


def _p_pair(copies: int, hand: int, pool: int) -> float:
    """Chance that a hand of ``hand`` cards from ``pool`` unseen holds 2+ of ``copies``."""
    if copies < 2 or hand < 2:
        return 0.0
    p = min(1.0, hand / pool)
    p0 = (1 - p) ** copies
    p1 = copies * p * (1 - p) ** (copies - 1)
    return max(0.0, 1 - p0 - p1)


class MediumBot:
    level = "medium"

    def __init__(self, seed: int = 0, weights: dict | None = None, **kw):
        self.rng = random.Random(seed)
        self.w = dict(MEDIUM_WEIGHTS)
        if weights:
            self.w.update(weights)

    # The decision -------------------------------------------------------------------------
    def decide(self, obs: Observation, legal: list[Move]) -> Move:
        """The seat's move from its observation and its legal moves (``Move`` objects, the
        engine's order): ``rank``'s first (the highest score, ties broken by the text), the
        only legal move unscored. With this class's own scores (``_plain``) the discards are
        scored only when another move does not beat them all for certain (``best_move``)."""
        if not legal:
            raise ValueError("no legal move")
        if len(legal) == 1:
            return legal[0]
        info = Info.from_observation(obs, legal)
        if self._plain():
            return self.best_move(info, legal)
        return self.rank(info, legal)[0][1]

    def _plain(self) -> bool:
        """Are the scores this class's own (``scored``, ``move_score`` and ``discard_scores``
        not overridden), so that ``discard_ceiling`` bounds them?"""
        cls = type(self)
        return (
            cls.scored is MediumBot.scored
            and cls.move_score is MediumBot.move_score
            and cls.discard_scores is MediumBot.discard_scores
        )

    def discard_ceiling(self, info: Info, kinds) -> float | None:
        """A number no discard of ``kinds`` scores above (``discard_scores`` less 1000, with more
        than one card in hand), or None where the weights give no such bound. A natural card's
        score is ``-(v - value_shed * value) - danger``, and ``v`` (pairs, runs, the side's
        groups) and the danger are sums of terms that are never negative when these weights
        are not; the other kinds' scores are worked out exactly."""
        if len(info.hand) == 1 or not self.discard_ceiling_holds():
            return None
        w = self.w
        n_pile = len(info.pile)
        shed = w["value_shed"]
        top = None
        for k in kinds:
            if IS_RED3[k] or IS_WILD[k] or IS_BLACK3[k]:
                c = self.special_discard_score(k, n_pile)
            else:
                c = shed * VALUE_OF_KIND[k]
            if top is None or c > top:
                top = c
        return None if top is None else top - 1000.0

    def discard_ceiling_holds(self) -> bool:
        """Do the weights bound a natural card's discard score by ``value_shed`` times its
        value (``discard_ceiling``: no weight a score subtracts is negative)?"""
        w = self.w
        return (
            min(
                w["pair"],
                w["triple"],
                w["seq_near1"],
                w["seq_near2"],
                w["danger"],
                w["top_danger"],
                w["samba_danger"],
            )
            >= 0
        )

    def rank(self, info: Info, moves: Sequence[Move]) -> list[tuple[float, Move]]:
        """Every legal move (``Move`` objects) with its score, best first (ties broken by the
        text)."""
        scored = self.scored(info, moves)
        scored.sort(key=lambda x: (-x[0], x[1].text()))
        return scored

    def scored(self, info: Info, moves: Sequence[Move]) -> list[tuple[float, Move]]:
        """Every legal move with its score, in the given order: the discards scored together
        (``discard_move_scores``), the others as ``move_score`` gives."""
        score = self.move_score
        kinds = [m.card for m in moves if type(m) is Discard]
        if len(kinds) <= 1:
            return [(score(info, m), m) for m in moves]
        others = [0.0 if type(m) is Discard else score(info, m) for m in moves]
        known = dict(zip(kinds, self.discard_move_scores(info, kinds)))
        return [(known[m.card] if type(m) is Discard else sc, m) for m, sc in zip(moves, others)]

    def ranking(self, obs: Observation, legal: list[Move]) -> list[tuple[float, Move]]:
        """``rank`` of a seat's legal moves, from its observation."""
        return self.rank(Info.from_observation(obs, legal), legal)

    def best_move(self, info: Info, moves: list):
        """Of legal moves (``Move`` objects), the one ``rank`` puts first: the highest
        score, ties broken by the text. The discards are scored together (``discard_scores``,
        the values ``scored`` gives), and not at all where another move beats
        ``discard_ceiling``."""
        discards = [m.card for m in moves if type(m) is Discard]
        known = None
        ceiling = None
        best = None
        if len(discards) > 1:
            ceiling = self.discard_ceiling(info, discards) if self._plain() else None
            if ceiling is not None:
                # the other moves first: where one beats the ceiling, no discard is scored
                for m in moves:
                    if type(m) is not Discard:
                        best = self._better(info, m, best)
                if best is not None and best[0] > ceiling:
                    return best[2]
                return self._best_discard(
                    info, [(m.card, m.text(), m) for m in moves if type(m) is Discard], best
                )[2]
            known = dict(zip(discards, self.discard_move_scores(info, discards)))
        for m in moves:
            if known is not None and type(m) is Discard:
                t = m.text()
                sc = known[m.card]
                if best is None or sc > best[0] or (sc == best[0] and t < best[1]):
                    best = (sc, t, m)
            elif ceiling is None:  # (with a ceiling they are scored already)
                best = self._better(info, m, best)
        if best is None:
            raise ValueError("no legal move")
        return best[2]

    def _best_discard(self, info: Info, discards: Sequence[tuple[int, str, object]], best):
        """``best`` (score, text, move) or the best of ``discards`` (kind, text, move) by their
        ``discard_move_scores``, whichever ``best_move`` prefers (the higher score, a tie to the
        lower text), with more than one card in hand and weights that bound the scores
        (``discard_ceiling``): the kinds are scored in the order of their bounds
        (``natural_discard_bound``), and the rest is skipped once the best so far beats the
        next bound."""
        n_pile = len(info.pile)
        own = info.own_rank
        bound = self.natural_discard_bound
        special = self.special_discard_score
        order = []
        for k, t, m in discards:
            if IS_RED3[k] or IS_WILD[k] or IS_BLACK3[k]:
                order.append((1000.0 - special(k, n_pile), t, k, True, m))
            else:
                order.append((1000.0 - bound(k, own[RANK_OF[k]]), t, k, False, m))
        order.sort()
        natural = None
        for neg, t, k, exact, m in order:
            if best is not None and best[0] > -neg:
                break  # (this discard and every later one score below the best)
            if exact:
                sc = -neg
            else:
                if natural is None:
                    natural = self.natural_scorer_of(info)
                sc = natural(k) - 1000.0
            if best is None or sc > best[0] or (sc == best[0] and t < best[1]):
                best = (sc, t, m)
        return best

    def _better(self, info: Info, m, best):
        """``best`` (score, text, move) or ``m`` scored, whichever ``best_move`` prefers (``m``
        not a discard)."""
        t = m.text()
        sc = self.move_score(info, m)
        if best is None or sc > best[0] or (sc == best[0] and t < best[1]):
            return (sc, t, m)
        return best

    def draw_move_score(
        self, move, cards_in_hand: int, pile_size: int, meld_sizes: dict, sequence_max: int
    ) -> float | None:
        """The score of a draw-phase move (``move_score``'s, which calls it) from the few facts it
        reads: the cards in hand, the pile's size, the own melds' sizes (by id) and the rules'
        longest sequence; None for a move of another kind (``hard``'s rollouts decide the draw
        phase with it, without an ``Info``)."""
        w = self.w
        t = type(move)
        if t is Draw:
            return w["draw"]
        if t is TakePile:
            wilds = sum(1 for k in move.cards if IS_WILD[k])
            extra = sum(len(p.cards) + (type(p) is AddTo) for p in move.parts)
            return (
                w["take_base"]
                + w["take_per_card"] * pile_size
                - w["take_wild"] * wilds
                - 0.5 * extra
            )
        if t is TakePileOnto:
            return w["onto_base"] + w["take_per_card"] * pile_size
        if t is TakeTop:
            if not cards_in_hand:
                return -900.0
            n = meld_sizes.get(move.meld)
            size = n + 1 if n is not None else 4
            return (
                w["top_base"]
                + w["top_per_size"] * size
                + (w["top_samba"] if size >= sequence_max else 0)
            )
        if t is EndDeal:
            return -1000.0
        if t is LayRedThree:
            return 1000.0
        return None

    def move_score(self, info: Info, move: Move) -> float:
        """A legal move's score (higher: better): the one scorer of every move type."""
        t = type(move)
        if t is MeldMove:
            sc = self.meld_score(info, move.parts)  # type: ignore[attr-defined]
            return sc if sc > 0 else sc - 3000.0
        if t is Discard:
            sc = self.discard_score(info, move.card)  # type: ignore[attr-defined]
            return sc if len(info.hand) == 1 else sc - 1000.0
        if t is TakeTop:
            m = info.my_melds.get(move.meld)  # type: ignore[attr-defined]
            sizes = {} if m is None else {m.id: len(m.cards)}
            got = self.draw_move_score(
                move, len(info.hand), len(info.pile), sizes, info.rules.sequence_max
            )
        elif t is Answer:
            return self.answer_score(info, move.yes)  # type: ignore[attr-defined]
        elif t is Ask:
            return self.ask_score(info, move.text())
        elif t is Merge:
            return -50.0
        elif t is Pass:
            return -500.0  # legal only when nothing else ends the turn
        elif t is NextDeal:
            return 0.0
        else:
            got = self.draw_move_score(move, len(info.hand), len(info.pile), {}, 0)
        return -2000.0 if got is None else got

    # Going out ------------------------------------------------------------------------------
    def want_out(self, info: Info) -> bool:
        if info.want_out is None:
            game = info.out_game() if info.can_out else 0
            info.want_out = (
                info.can_out
                and game >= 0
                and (
                    game > 0
                    or info.lead() >= self.w["out_margin"]
                    or info.opponents_can_out()
                    or info.stock <= self.w["out_stock"]
                )
            )
        return info.want_out

    def _out_value(self, info: Info) -> float:
        return 300.0 if self.want_out(info) else -300.0

    def ask_score(self, info: Info, move: str) -> float:
        if not self.want_out(info) or not info.partners:
            # (-400 still beats every discard that keeps cards: not wanting out rarely stopped
            # an ask; going out that loses the game does)
            return -1500.0 if info.can_out and info.out_game() < 0 else -400.0
        big = max(info.hand_sizes[p] for p in info.partners)
        base = 800.0 if big > self.w["ask_partner_cards"] else -400.0
        return base - 0.01 * len(move)

    def threatened(self, info: Info) -> bool:
        """``Info.threatened`` with this bot's weights (the stock's rounds, an opponent's
        cards)."""
        return info.threatened(self.w["threat_rounds"], int(self.w["near_out_cards"]))

    def answer_score(self, info: Info, yes: bool) -> float:
        hand_value = sum(VALUE_OF_KIND[k] for k in info.hand)
        threat = self.threatened(info)
        # Yes costs the hand's points; ahead, going out now gains at least the going-out bonus
        # (docs/ai.md, "Answering"): a hand worth more than that says no.
        good = (
            hand_value <= self.w["answer_hand_value"]
            or threat
            or (info.lead() >= 0 and hand_value <= info.rules.going_out_bonus)
        )
        if not threat and info.fit_value() >= self.w["answer_fit"]:
            good = False  # hundreds of points go onto the side's melds next turn
        game = info.out_game()
        if game:
            good = game > 0  # the partner's going out wins (or loses) the game
        if any(IS_RED3[k] for k in info.hand):
            good = False  # dutch: a red three still held costs the side 750
        return 1.0 if yes == good else 0.0

    # Melding ------------------------------------------------------------------------------
    def meld_score(self, info: Info, parts: Sequence[Part]) -> float:
        """The score of laying the meld parts ``parts`` (a ``Meld`` move's)."""
        w = self.w
        laid = 0
        for p in parts:
            laid += len(p.cards)
        after = len(info.hand) - laid
        going = self.want_out(info)
        if after == 0:
            return 500.0 + self._out_value(info)
        if info.can_out and after < 2 and not going:
            return -100.0
        if not info.opened:
            wilds = 0
            for p in parts:
                wilds += sum(map(IS_WILD.__getitem__, p.cards))
            return w["open_base"] - w["open_wild"] * wilds + laid
        score = 0.0
        for p in parts:
            ks = p.cards
            wl = sum(map(IS_WILD.__getitem__, ks))
            if type(p) is not AddTo:
                if all(map(IS_BLACK3.__getitem__, ks)):
                    score += 50.0
                    continue
                score += w["new_natural"] + len(ks) - (25.0 if wl and not going else 3.0 * wl)
                if not wl and len(ks) >= info.rules.canasta_size:
                    score += w["complete"]
            else:
                m = info.my_melds.get(p.meld)
                if m is None:
                    continue
                completes = m.needs > 0 and m.needs <= len(ks)
                if wl:
                    held_wilds = info.held_wilds
                    if m.canasta:
                        score += 5.0 if going else w["wild_idle"] - 10
                    elif m.needs <= held_wilds and m.needs <= 2 and m.type == "group":
                        score += w["wild_complete"] + (w["complete"] if completes else 0)
                    else:
                        score += 5.0 if going else w["wild_idle"]
                    continue
                score += w["add_natural"] + (w["complete"] if completes else 0)
                # keep a natural pair in hand while the pile is worth taking with it
                pair = info.own_rank[RANK_OF[ks[0]]]
                if (
                    m.type == "group"
                    and pair == 2
                    and not going
                    and len(info.pile) >= w["keep_pair_pile"]
                    and not completes
                ):
                    score -= w["add_natural"] + 5
        return score + 0.01 * laid

    # Discarding --------------------------------------------------------------------------------
    def keep_value(self, info: Info, k: int) -> float:
        w = self.w
        if IS_RED3[k]:
            return 500.0
        if IS_WILD[k]:
            return w["wild_keep"] + VALUE_OF_KIND[k] / 5
        if IS_BLACK3[k]:
            return w["black3"] - w["black3_per_pile"] * len(info.pile)
        by_suit, groups, _, _, _ = info._discard_facts()
        r = RANK_OF[k]
        same = info.own_rank[r]
        v = 0.0
        if same == 2:
            v += w["pair"]
        elif same >= 3:
            v += w["triple"]
        near1, near2 = w["seq_near1"], w["seq_near2"]
        for rx in by_suit[SUIT_OF[k]]:
            if rx != r:
                d = abs(rx - r)
                v += near1 if d == 1 else (near2 if d == 2 else 0)
        for _ in range(groups[r]):
            v += 10
        return v - w["value_shed"] * VALUE_OF_KIND[k]

    def danger(self, info: Info, k: int) -> float:
        """Expected gain handed to the next player by discarding kind ``k``."""
        if IS_WILD[k] or RANK_OF[k] == 3:
            return 0.0  # blocks the pile
        w = self.w
        _, _, pile_gain, onto, feeds = info._discard_facts()
        r, s = RANK_OF[k], SUIT_OF[k]
        copies = max(0, 12 - info.seen_rank[r])
        opp_hand = info.hand_sizes[info.next]
        p = _p_pair(copies, opp_hand, info.unseen_total)
        next_discarded, next_took, next_known = info._read_next_log()
        if r in next_discarded:
            p *= 0.3
        if r in next_took:
            p = min(1.0, p * 1.5 + 0.1)
        if next_known[r] >= 2:
            p = 1.0  # the log shows it holds a pair of them
        d = w["danger"] * p * pile_gain
        for suit, lo, hi, samba in feeds:
            if suit == s:
                if r == lo or r == hi:
                    d += w["top_danger"]
                    if samba:
                        d += w["samba_danger"]  # the top card makes their samba
                    if onto:
                        d += w["danger"] * pile_gain
            elif suit < 0 and lo == r:
                d += w["danger"] * pile_gain
        return d

    def discard_move_scores(self, info: Info, kinds) -> list[float]:
        """The scores of the moves discarding each of ``kinds`` (``score``'s: ``discard_scores``,
        less 1000 while the discard does not empty the hand)."""
        values = self.discard_scores(info, kinds)
        return values if len(info.hand) == 1 else [v - 1000.0 for v in values]

    def special_discard_score(self, k: int, n_pile: int) -> float:
        """``discard_scores`` of a red three (kept at 500), a wild card (kept, but it blocks a
        pile of ten or more) or a black three (it blocks the pile): the same whatever the hand
        holds and the table shows."""
        w = self.w
        if IS_RED3[k]:
            return -500.0
        if IS_WILD[k]:
            return -(w["wild_keep"] + VALUE_OF_KIND[k] / 5) + (n_pile * 3 if n_pile >= 10 else 0)
        return -(w["black3"] - w["black3_per_pile"] * n_pile)

    def natural_scorer_of(self, info: Info):
        """``natural_discard_scorer`` for ``info``'s position: what its discards share."""
        by_suit, groups, pile_gain, onto, feeds = info._discard_facts()
        return self.natural_discard_scorer(
            info.own_rank,
            by_suit,
            groups,
            pile_gain,
            onto,
            feeds,
            info.seen_rank,
            info.hand_sizes[info.next],
            info.unseen_total,
            info._read_next_log(),
        )

    def discard_scores(self, info: Info, kinds) -> list[float]:
        """``discard_score`` of each of ``kinds``: the same values (the same sums in the same
        order), with what they share looked up once (``natural_discard_scorer``)."""
        if len(info.hand) == 1:
            return [400.0 + self._out_value(info) for _ in kinds]
        n_pile = len(info.pile)
        natural = self.natural_scorer_of(info)
        special = self.special_discard_score
        return [
            special(k, n_pile) if IS_RED3[k] or IS_WILD[k] or IS_BLACK3[k] else natural(k)
            for k in kinds
        ]

    def natural_discard_bound(self, k: int, same: int) -> float:
        """A number ``natural_discard_scorer``'s score of the natural kind ``k`` never exceeds,
        with ``same`` natural cards of its rank in hand, where ``discard_ceiling_holds``: the
        score is ``-(v - value_shed * value) - danger``, and ``v`` (the pair or triple weight,
        then runs and the side's groups) and the danger are sums of terms never negative."""
        w = self.w
        v = 0.0
        if same == 2:
            v += w["pair"]
        elif same >= 3:
            v += w["triple"]
        return -(v - w["value_shed"] * VALUE_OF_KIND[k])

    def natural_discard_scorer(
        self,
        own: list[int],
        by_suit: list[list[int]],
        groups: list[int],
        pile_gain: int,
        onto,
        feeds: list[tuple],
        seen: list[int],
        opp_hand: int,
        unseen: int,
        next_log: tuple[set[int], set[int], list[int]],
    ):
        """``discard_score`` of a natural card (more than one card in hand; ``keep_value`` and
        ``danger`` inline) as a function of its kind, from what every kind's score shares:
        ``Info.own_rank``, ``Info._discard_facts``'s parts, ``seen_rank``, the next player's
        cards, ``unseen_total`` and ``_read_next_log`` (``rollout.best_discard`` gives them from a
        rollout's game). The pair danger is worked out once per rank."""
        w = self.w
        pair_w, triple_w, near1, near2 = w["pair"], w["triple"], w["seq_near1"], w["seq_near2"]
        shed = w["value_shed"]
        danger_w, top_danger, samba_danger = w["danger"], w["top_danger"], w["samba_danger"]
        next_discarded, next_took, next_known = next_log
        by_rank: list[float | None] = [None] * 15  # the pair danger of each rank

        def score(k: int) -> float:
            r = RANK_OF[k]
            s = SUIT_OF[k]
            same = own[r]
            v = 0.0
            if same == 2:
                v += pair_w
            elif same >= 3:
                v += triple_w
            for rx in by_suit[s]:
                if rx != r:
                    dr = abs(rx - r)
                    v += near1 if dr == 1 else (near2 if dr == 2 else 0)
            for _ in range(groups[r]):
                v += 10
            kv = v - shed * VALUE_OF_KIND[k]
            d = by_rank[r]
            if d is None:  # (the same for every suit of the rank)
                p = _p_pair(max(0, 12 - seen[r]), opp_hand, unseen)
                if r in next_discarded:
                    p *= 0.3
                if r in next_took:
                    p = min(1.0, p * 1.5 + 0.1)
                if next_known[r] >= 2:
                    p = 1.0
                d = by_rank[r] = danger_w * p * pile_gain
            for suit, lo, hi, samba in feeds:
                if suit == s:
                    if r == lo or r == hi:
                        d += top_danger
                        if samba:
                            d += samba_danger
                        if onto:
                            d += danger_w * pile_gain
                elif suit < 0 and lo == r:
                    d += danger_w * pile_gain
            return -kv - d

        return score

    def discard_score(self, info: Info, k: int) -> float:
        # higher score = better move = card we least need and that feeds nobody
        if len(info.hand) == 1:
            return 400.0 + self._out_value(info)
        if IS_WILD[k]:
            # block with a wild card only when the pile is rich and the alternatives feed it
            return -self.keep_value(info, k) + (len(info.pile) * 3 if len(info.pile) >= 10 else 0)
        return -self.keep_value(info, k) - self.danger(info, k)


__all__ = ["MediumBot"]
