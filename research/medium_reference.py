"""The ``medium`` ranking as it was before it was made faster (revision 1cae381), kept as the
reference that research/tests/test_medium_reference.py compares the fast ranking with. It reads
the seat's JSON view, on its own. Not used by the engine; do not change it."""

from __future__ import annotations

import random

from py_engine.ai.weights import MEDIUM_WEIGHTS
from py_engine.cards import (
    IS_BLACK3,
    IS_NATURAL,
    IS_RED3,
    IS_WILD,
    KIND_OF_ID,
    RANK_OF,
    SUIT_OF,
    VALUE_OF_KIND,
    kind_text,
    parse_kind,
)

_RANKS = "23456789TJQKA"


def _kinds(cards) -> list[int]:
    return [KIND_OF_ID[c["id"]] for c in cards]


def legal_texts(view: dict) -> list[str]:
    """The texts of a view's legal moves: its other moves, then its meld moves."""
    legal = view.get("legal") or {}
    return list(legal.get("moves", [])) + ["meld " + p for p in legal.get("melds", [])]


def _rank(ch: str | None) -> int:
    return _RANKS.index(ch) + 2 if ch else 0


class Info:
    """What a view says, digested once per decision."""

    def __init__(self, view: dict):
        self.view = view
        self.seat, self.n = view["seat"], view["players"]
        self.side = view["my_side"]
        self.side_of = view["side_of"]
        self.hand = _kinds(view["hand"])
        self.pile = _kinds(view["pile"]["cards"])
        self.melds = view["melds"]
        self.my_melds = {m["id"]: m for m in view["melds"][self.side]}
        self.opened = view["opened"][self.side]
        self.req = view["requirement"]
        self.canastas = view["canastas"]
        self.can_out = self.canastas[self.side] >= self.req
        self.partners = [
            s for s in range(self.n) if self.side_of[s] == self.side and s != self.seat
        ]
        self.next = (self.seat + 1) % self.n
        self.next_side = self.side_of[self.next]
        self.rules = view["rules"]
        self.want_out: bool | None = None
        # rank counts seen anywhere public, plus the own hand
        seen = [0] * 15
        for k in self.hand + self.pile:
            if IS_NATURAL[k]:
                seen[RANK_OF[k]] += 1
        for side in self.melds:
            for m in side:
                if m["type"] == "group":  # all its naturals are of its rank
                    seen[_rank(m["rank"])] += m["naturals"]
                elif m["type"] == "sequence":  # naturals, one of each rank
                    for c in m["cards"]:
                        seen[RANK_OF[KIND_OF_ID[c["id"]]]] += 1
        self.seen_rank = seen
        self.unseen_total = max(
            1, view["stock"] + sum(h for s, h in enumerate(view["hand_sizes"]) if s != self.seat)
        )
        # ranks the next player discarded this deal (it holds no pair of them, probably)
        self.next_discarded: set[int] = set()
        self.next_took: set[int] = set()
        # natural cards of each rank the next player is known to hold: picked up with a pile
        # (the log names it) and not melded or discarded since
        held = [0] * 15
        for e in view.get("log", []):
            if e.get("deal") != view["deal"] or e.get("seat") != self.next:
                continue
            t = e.get("text", "")
            if t.startswith("discard"):
                k = parse_kind(t.split()[1])
                if IS_NATURAL[k]:
                    self.next_discarded.add(RANK_OF[k])
                    held[RANK_OF[k]] = max(0, held[RANK_OF[k]] - 1)
            elif t.startswith("take") and "pile" in e:
                self.next_took.update(RANK_OF[parse_kind(c)] for c in e["pile"])
                for c in e["pile"][:-1]:
                    k = parse_kind(c)
                    if IS_NATURAL[k]:
                        held[RANK_OF[k]] += 1
                for part in t.split(";")[1:]:
                    _unheld(held, part)
            elif t.startswith("meld"):
                _unheld(held, t[4:])
        self.next_known = held

    def table_estimate(self, side: int) -> float:
        """The side's deal score so far, counting the table only, plus canasta progress."""
        v = 0.0
        for m in self.melds[side]:
            v += m["value"] + m.get("bonus", 0)
            if not m["canasta"] and m["type"] in ("group", "sequence"):
                v += {1: 120, 2: 60, 3: 25}.get(m["needs"], 0) * (
                    3 if m["type"] == "sequence" else 1
                )
        v += 100 * len(self.view["red_threes"][side])
        hands = [s for s in range(self.n) if self.side_of[s] == side]
        v -= 8 * sum(self.view["hand_sizes"][s] for s in hands)
        return v

    def lead(self) -> float:
        mine = self.table_estimate(self.side)
        others = [self.table_estimate(s) for s in range(len(self.melds)) if s != self.side]
        return mine - max(others) if others else mine

    def opponents_can_out(self) -> bool:
        return any(c >= self.req for s, c in enumerate(self.canastas) if s != self.side)

    def threatened(self, out_stock: float) -> bool:
        """The deal may end soon without this side's say: an opponent side can go out, or is
        one canasta short with a meld one card from it, or the stock is nearly gone."""
        if self.opponents_can_out() or self.view["stock"] <= out_stock:
            return True
        for s, c in enumerate(self.canastas):
            if (
                s != self.side
                and c == self.req - 1
                and any(0 < m["needs"] <= 1 for m in self.melds[s])
            ):
                return True
        return False

    def fit_value(self, hand: list[int] | None = None) -> float:
        """Card points in hand that the side's melds can take on a later turn (naturals of a
        group's rank, cards extending a sequence, wild cards where a group has room)."""
        v = 0.0
        groups = {
            _rank(m["rank"]): m
            for m in self.my_melds.values()
            if m["type"] == "group" and not m.get("closed")
        }
        seqs = [
            m
            for m in self.my_melds.values()
            if m["type"] == "sequence"
            and not m.get("closed")
            and m["size"] < self.rules["sequence_max"]
        ]
        room = sum(
            1 for m in groups.values() if m["naturals"] >= 2 * (m["wilds"] + 1) and m["wilds"] < 2
        )
        for k in self.hand if hand is None else hand:
            if IS_WILD[k]:
                if room:
                    v += VALUE_OF_KIND[k]
                    room -= 1
            elif IS_NATURAL[k]:
                r = RANK_OF[k]
                if r in groups:
                    v += VALUE_OF_KIND[k]
                    continue
                for m in seqs:
                    if m["suit"] == "CDHS"[SUIT_OF[k]]:
                        ranks = [RANK_OF[KIND_OF_ID[c["id"]]] for c in m["cards"]]
                        if r in (min(ranks) - 1, max(ranks) + 1):
                            v += VALUE_OF_KIND[k]
                            break
        return v

    def table_score(self, side: int) -> float:
        """The side's deal score on the table now (melds, bonuses, red threes)."""
        v = sum(m["value"] + m.get("bonus", 0) for m in self.melds[side])
        reds = len(self.view["red_threes"][side])
        red = 1000 if reds == 6 else 100 * reds
        return v + (red if self.canastas[side] >= self.req else -red)

    def out_game(self) -> int:
        """What going out now does to the game, from the game totals: 1 it wins the game,
        -1 another side then wins it, 0 neither (or the view has no totals)."""
        scores, target = self.view.get("scores"), self.view.get("target")
        if not scores or not target or max(scores) + 4000 < target:
            return 0
        sizes = self.view["hand_sizes"]
        tot = []
        for s in range(len(scores)):
            seats = [x for x in range(self.n) if self.side_of[x] == s and x != self.seat]
            t = scores[s] + self.table_score(s) - 9 * sum(sizes[x] for x in seats)
            tot.append(t + (200 if s == self.side else 0))
        mine = tot[self.side]
        best_other = max(t for s, t in enumerate(tot) if s != self.side)
        if best_other >= target and best_other > mine - 50:
            return -1
        if mine >= target and mine > best_other + 150:
            return 1
        return 0


def _unheld(held: list[int], text: str) -> None:
    for tok in text.replace(";", " ").split():
        if len(tok) == 2 and not tok.startswith("m"):
            try:
                k = parse_kind(tok)
            except ValueError:
                continue
            if IS_NATURAL[k] and held[RANK_OF[k]]:
                held[RANK_OF[k]] -= 1


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
    def choose(self, view: dict) -> str:
        ranked = self.rank_moves(view)
        if not ranked:
            raise ValueError("no legal move in this view")
        return ranked[0][1]

    def rank_moves(self, view: dict) -> list[tuple[float, str]]:
        """Every legal move with its score, best first (ties broken by the text)."""
        moves = legal_texts(view)
        if not moves:
            return []
        if moves == ["next"]:
            return [(0.0, "next")]
        info = Info(view)
        scored = [(self.score(info, m), m) for m in moves]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return scored

    def score(self, info: Info, move: str) -> float:
        w = self.w
        head = move.split()[0]
        if head == "next":
            return 0.0
        if head == "answer":
            return self.answer_score(info, move == "answer yes")
        if head == "red3":
            return 1000.0
        if head == "draw":
            return w["draw"]
        if head == "end":
            return -1000.0
        if head == "top":
            if not info.hand:
                return -900.0  # engine dead end: no card left to end the turn with
            m = info.my_melds.get(int(move.split()[1][1:]))
            size = (m["size"] + 1) if m else 4
            return (
                w["top_base"]
                + w["top_per_size"] * size
                + (w["top_samba"] if size >= info.rules["sequence_max"] else 0)
            )
        if head == "take":
            toks = move.split(";")[0].split()[1:]
            if len(toks) == 1 and toks[0].startswith("m"):
                return w["onto_base"] + w["take_per_card"] * len(info.pile)
            wilds = sum(1 for t in toks if IS_WILD[parse_kind(t)])
            extra = sum(len(p.split()) - 1 for p in move.split(";")[1:])
            return (
                w["take_base"]
                + w["take_per_card"] * len(info.pile)
                - w["take_wild"] * wilds
                - 0.5 * extra
            )
        if head == "meld":
            sc = self.meld_score(info, move[5:])
            return sc if sc > 0 else sc - 3000.0
        if head == "merge":
            return -50.0
        if head == "pass":
            return -500.0  # legal only when nothing else ends the turn
        if head == "discard":
            sc = self.discard_score(info, parse_kind(move.split()[1]))
            return sc if len(info.hand) == 1 else sc - 1000.0
        if head == "ask":
            return self.ask_score(info, move)
        return -2000.0

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
                    or info.view["stock"] <= self.w["out_stock"]
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
        big = max(info.view["hand_sizes"][p] for p in info.partners)
        base = 800.0 if big > self.w["ask_partner_cards"] else -400.0
        return base - 0.01 * len(move)

    def answer_score(self, info: Info, yes: bool) -> float:
        hand_value = sum(VALUE_OF_KIND[k] for k in info.hand)
        threat = info.threatened(self.w["out_stock"])
        good = hand_value <= self.w["answer_hand_value"] or info.lead() >= 0 or threat
        if not threat and info.fit_value() >= self.w["answer_fit"]:
            good = False  # hundreds of points go onto the side's melds next turn
        game = info.out_game()
        if game:
            good = game > 0  # the partner's going out wins (or loses) the game
        if any(IS_RED3[k] for k in info.hand):
            good = False  # dutch: a red three still held costs the side 750
        return 1.0 if yes == good else 0.0

    # Melding ------------------------------------------------------------------------------
    def meld_score(self, info: Info, text: str) -> float:
        w = self.w
        parts = [p.split() for p in text.split(";")]
        laid = [parse_kind(t) for p in parts for t in (p[1:] if p[0] == "new" else p[2:])]
        after = len(info.hand) - len(laid)
        wilds = sum(1 for k in laid if IS_WILD[k])
        going = self.want_out(info)
        if after == 0:
            return 500.0 + self._out_value(info)
        if info.can_out and after < 2 and not going:
            return -100.0
        if not info.opened:
            return w["open_base"] - w["open_wild"] * wilds + len(laid)
        score = 0.0
        for p in parts:
            if p[0] == "new":
                ks = [parse_kind(t) for t in p[1:]]
                if all(IS_BLACK3[k] for k in ks):
                    score += 50.0
                    continue
                wl = sum(1 for k in ks if IS_WILD[k])
                score += w["new_natural"] + len(ks) - (25.0 if wl and not going else 3.0 * wl)
                if not wl and len(ks) >= info.rules["canasta_size"]:
                    score += w["complete"]
            else:
                m = info.my_melds.get(int(p[1][1:]))
                ks = [parse_kind(t) for t in p[2:]]
                if m is None:
                    continue
                wl = sum(1 for k in ks if IS_WILD[k])
                completes = m["needs"] > 0 and m["needs"] <= len(ks)
                if wl:
                    held_wilds = sum(1 for k in info.hand if IS_WILD[k])
                    if m["canasta"]:
                        score += 5.0 if going else w["wild_idle"] - 10
                    elif m["needs"] <= held_wilds and m["needs"] <= 2 and m["type"] == "group":
                        score += w["wild_complete"] + (w["complete"] if completes else 0)
                    else:
                        score += 5.0 if going else w["wild_idle"]
                    continue
                score += w["add_natural"] + (w["complete"] if completes else 0)
                # keep a natural pair in hand while the pile is worth taking with it
                r = RANK_OF[ks[0]]
                pair = sum(1 for k in info.hand if IS_NATURAL[k] and RANK_OF[k] == r)
                if (
                    m["type"] == "group"
                    and pair == 2
                    and not going
                    and len(info.pile) >= w["keep_pair_pile"]
                    and not completes
                ):
                    score -= w["add_natural"] + 5
        return score + 0.01 * len(laid)

    # Discarding --------------------------------------------------------------------------------
    def keep_value(self, info: Info, k: int) -> float:
        w = self.w
        if IS_RED3[k]:
            return 500.0
        if IS_WILD[k]:
            return w["wild_keep"] + VALUE_OF_KIND[k] / 5
        if IS_BLACK3[k]:
            return w["black3"] - w["black3_per_pile"] * len(info.pile)
        r, s = RANK_OF[k], SUIT_OF[k]
        same = sum(1 for x in info.hand if IS_NATURAL[x] and RANK_OF[x] == r)
        v = 0.0
        if same == 2:
            v += w["pair"]
        elif same >= 3:
            v += w["triple"]
        if info.rules.get("take_top_card") or True:
            for x in set(info.hand):
                if IS_NATURAL[x] and SUIT_OF[x] == s and x != k:
                    d = abs(RANK_OF[x] - r)
                    v += w["seq_near1"] if d == 1 else (w["seq_near2"] if d == 2 else 0)
        for m in info.my_melds.values():
            if m["type"] == "group" and _rank(m["rank"]) == r and not m["canasta"]:
                v += 10
        return v - w["value_shed"] * VALUE_OF_KIND[k]

    def danger(self, info: Info, k: int) -> float:
        """Expected gain handed to the next player by discarding kind ``k``."""
        if IS_WILD[k] or RANK_OF[k] == 3:
            return 0.0  # blocks the pile
        w = self.w
        pile_gain = 20 + 5 * (len(info.pile) + 1) + sum(VALUE_OF_KIND[x] for x in info.pile)
        r, s = RANK_OF[k], SUIT_OF[k]
        copies = max(0, 12 - info.seen_rank[r])
        opp_hand = info.view["hand_sizes"][info.next]
        p = _p_pair(copies, opp_hand, info.unseen_total)
        if r in info.next_discarded:
            p *= 0.3
        if r in info.next_took:
            p = min(1.0, p * 1.5 + 0.1)
        if info.next_known[r] >= 2:
            p = 1.0  # the log shows it holds a pair of them
        d = w["danger"] * p * pile_gain
        opp = info.melds[info.next_side]
        for m in opp:
            if m["type"] == "sequence" and not m["closed"] and m["suit"] == "CDHS"[s]:
                ranks = [RANK_OF[KIND_OF_ID[c["id"]]] for c in m["cards"]]
                if r in (min(ranks) - 1, max(ranks) + 1):
                    d += w["top_danger"]
                    if len(ranks) + 1 >= info.rules["sequence_max"]:
                        d += w["samba_danger"]  # the top card makes their samba
                    if info.rules.get("take_pile_onto_meld"):
                        d += w["danger"] * pile_gain
            elif (
                info.rules.get("take_pile_onto_meld")
                and m["type"] == "group"
                and _rank(m["rank"]) == r
                and m["size"] < info.rules["canasta_size"]
            ):
                d += w["danger"] * pile_gain
        return d

    def discard_score(self, info: Info, k: int) -> float:
        # higher score = better move = card we least need and that feeds nobody
        going = self.want_out(info)
        if len(info.hand) == 1:
            return 400.0 + self._out_value(info)
        if IS_WILD[k]:
            # block with a wild card only when the pile is rich and the alternatives feed it
            return -self.keep_value(info, k) + (len(info.pile) * 3 if len(info.pile) >= 10 else 0)
        s = -self.keep_value(info, k) - self.danger(info, k)
        if going:
            s += 0.0
        return s


def best_discard(view: dict, bot: MediumBot | None = None) -> str:
    bot = bot or MediumBot()
    info = Info(view)
    ds = view["legal"]["discard"]
    return "discard " + max(ds, key=lambda d: (bot.discard_score(info, parse_kind(d)), d))


__all__ = ["MediumBot", "Info", "kind_text"]
