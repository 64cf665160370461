"""What a heuristic bot reads of its seat's knowledge, digested once per decision (``Info``), as
typed values: its hand and the pile as kinds, the ranks seen, what the next player's log entries
of this deal say (the ranks it discarded, the piles it took, the naturals it is known to hold),
the table's melds (``observation.MeldSeen``), the rule facts (``RuleFacts``), the legal moves
(``Move`` objects). Built from the seat's observation (``from_observation``: what the bots
decide on) or a rollout's game (``of_facts``, from ``rollout._rollout_info``: the same facts,
tests/test_info_observation.py). Only what the seat may know.
``medium`` scores moves from it; ``hard``, ``explain`` and the endgame players read it too."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ..cards import IS_NATURAL, IS_WILD, KIND_BY_TEXT, KIND_OF_ID, RANK_OF, SUIT_OF, VALUE_OF_KIND
from ..moves import Meld as MeldMove
from ..moves import Move
from ..observation import LogSeen, MeldSeen, Observation
from ..rules import RuleSet


def listed(legal: Sequence[Move]) -> list[Move]:
    """Legal moves in the order a view lists them (docs/bridge.md): the other moves, then the
    meld moves, each in the engine's order."""
    return [m for m in legal if type(m) is not MeldMove] + [m for m in legal if type(m) is MeldMove]


def fold_next_facts(facts) -> tuple[set[int], set[int], list[int]]:
    """What the next player's log entries of this deal say, in order (each ``entry_facts``,
    None for an entry that says nothing): the ranks it discarded, the ranks of the piles it took,
    and the natural cards of each rank it is known to hold (picked up, not melded or discarded
    since)."""
    discarded: set[int] = set()
    took: set[int] = set()
    held = [0] * 15
    for f in facts:
        if f is None:
            continue
        what, ranks, gained, lost = f
        if what == "d":
            if ranks:
                r = ranks[0]
                discarded.add(r)
                held[r] = max(0, held[r] - 1)
            continue
        if what == "t":
            took.update(ranks)
            for r in gained:
                held[r] += 1
        for r in lost:  # melded, so no longer held
            if held[r]:
                held[r] -= 1
    return discarded, took, held


class RuleFacts(NamedTuple):
    """The rules a heuristic bot reads (a view's ``rules`` names them alike, docs/bridge.md)."""

    take_top_card: bool
    red_threes_by_choice: bool
    canasta_size: int
    sequence_max: int
    take_pile_onto_meld: bool
    draw_count: int
    going_out_bonus: int


def rule_facts(r: RuleSet, players: int) -> RuleFacts:
    return RuleFacts(
        r.take_top_card,
        not r.red_threes_automatic,
        r.canasta_size,
        r.sequence_max,
        r.take_pile_onto_meld,
        r.draw_count(players),
        r.going_out_bonus,
    )


class Info:
    """What a seat may know, digested once per decision: from its observation
    (``from_observation``) or from a rollout's game (``of_facts``)."""

    seat: int
    n: int
    side: int
    side_of: Sequence[int]
    hand: list[int]
    pile: list[int]
    melds: Sequence[Sequence[MeldSeen]]
    my_melds: dict[int, MeldSeen]
    opened: bool
    req: int
    canastas: Sequence[int]
    can_out: bool
    partners: list[int]
    next: int
    next_side: int
    rules: RuleFacts
    hand_sizes: Sequence[int]
    stock: int
    phase: str
    deal: int
    scores: Sequence[int] | None
    target: int | None
    red_threes: list[int]  # each side's red threes laid
    want_out: bool | None
    own_rank: list[int]  # natural cards of each rank in the own hand
    _log_seen: Sequence[LogSeen] | None  # the log entries read (None: ``_next_log_of`` says)
    _legal: list[Move] | None
    # Read by the discard scores only, so worked out on first use (``seen_rank``,
    # ``unseen_total``, ``next_discarded``, ``next_took``, ``next_known``, ``_discard_facts``).
    _seen: list[int] | None
    _pile_ranks: list[int] | None
    _unseen: int | None
    _next_log: tuple[set[int], set[int], list[int]] | None
    _next_log_of: Callable[[], tuple[set[int], set[int], list[int]]] | None
    _facts: tuple | None
    _held_wilds: int | None

    @classmethod
    def from_observation(
        cls,
        obs: Observation,
        legal: list[Move] | None = None,
        log: Sequence[LogSeen] | None = None,
    ) -> Info:
        """The digest of an observation and its seat's legal moves; ``log``: the log entries
        it reads instead of the observation's (``easy`` remembers the last few only)."""
        return cls.of_facts(
            obs.seat,
            obs.players,
            obs.side_of,
            list(map(KIND_OF_ID.__getitem__, obs.hand)),
            list(map(KIND_OF_ID.__getitem__, obs.pile)),
            obs.melds,
            obs.requirement,
            obs.canastas,
            rule_facts(obs.rules, obs.players),
            obs.hand_sizes,
            obs.stock,
            obs.phase,
            obs.deal,
            list(map(len, obs.red_threes)),
            None,
            None,
            opened=obs.opened[obs.my_side],
            scores=obs.scores,
            target=obs.target,
            log_seen=obs.log if log is None else log,
            legal=legal,
        )

    @classmethod
    def of_facts(
        cls,
        seat: int,
        n: int,
        side_of: Sequence[int],
        hand: list[int],
        pile: list[int],
        melds: Sequence[Sequence[MeldSeen]],
        req: int,
        canastas: Sequence[int],
        rules: RuleFacts,
        hand_sizes: Sequence[int],
        stock: int,
        phase: str,
        deal: int,
        red_threes: list[int],
        pile_ranks: list[int] | None,
        next_log: Callable[[], tuple[set[int], set[int], list[int]]] | None,
        *,
        opened: bool | None = None,
        scores: Sequence[int] | None = None,
        target: int | None = None,
        log_seen: Sequence[LogSeen] | None = None,
        legal: list[Move] | None = None,
    ) -> Info:
        """An ``Info`` of the facts a rollout reads of its game (``rollout._rollout_info``): no
        scores, no legal moves; ``next_log``: what ``_read_next_log`` gives, worked out when
        first read. ``from_observation`` passes the rest (``opened``: the side has melds unless
        told, ``log_seen``: the log entries read)."""
        info = cls.__new__(cls)
        side = side_of[seat]
        info.seat, info.n = seat, n
        info.side = side
        info.side_of = side_of
        info.hand = hand
        info.pile = pile
        info.melds = melds
        info.my_melds = {m.id: m for m in melds[side]}
        info.opened = bool(melds[side]) if opened is None else opened
        info.req = req
        info.canastas = canastas
        info.can_out = canastas[side] >= req
        info.partners = [s for s in range(n) if side_of[s] == side and s != seat]
        info.next = (seat + 1) % n
        info.next_side = side_of[info.next]
        info.rules = rules
        info.hand_sizes = hand_sizes
        info.stock = stock
        info.phase = phase
        info.deal = deal
        info.scores = scores
        info.target = target
        info.red_threes = red_threes
        info.want_out = None
        info._log_seen = log_seen
        info._legal = legal
        own = [0] * 15
        for k in hand:
            if IS_NATURAL[k]:
                own[RANK_OF[k]] += 1
        info.own_rank = own
        info._seen = None
        info._pile_ranks = pile_ranks
        info._unseen = None
        info._next_log = None
        info._next_log_of = next_log
        info._facts = None
        info._held_wilds = None
        return info

    @property
    def legal(self) -> list[Move]:
        """The seat's legal moves (``Move`` objects)."""
        got = self._legal
        return [] if got is None else got

    @property
    def held_wilds(self) -> int:
        """The wild cards in the own hand (counted on first use)."""
        n = self._held_wilds
        if n is None:
            n = self._held_wilds = sum(map(IS_WILD.__getitem__, self.hand))
        return n

    @property
    def seen_rank(self) -> list[int]:
        """Natural cards of each rank seen anywhere public, plus the own hand (a list the
        caller may change: ``EasyBot.perceive`` forgets the buried pile)."""
        seen = self._seen
        if seen is None:
            if self._pile_ranks is not None:
                seen = list(self._pile_ranks)
            else:
                seen = [0] * 15
                for k in self.pile:
                    if IS_NATURAL[k]:
                        seen[RANK_OF[k]] += 1
            own = self.own_rank
            for r in range(15):
                seen[r] += own[r]
            for side in self.melds:
                for m in side:
                    if m.type == "group":  # all its naturals are of its rank
                        seen[m.rank] += len(m.cards) - m.wilds
                    elif m.type == "sequence":  # naturals, one of each rank
                        for c in m.cards:
                            seen[RANK_OF[KIND_OF_ID[c]]] += 1
            self._seen = seen
        return seen

    @property
    def unseen_total(self) -> int:
        if self._unseen is None:
            self._unseen = max(
                1,
                self.stock + sum(h for s, h in enumerate(self.hand_sizes) if s != self.seat),
            )
        return self._unseen

    @property
    def next_discarded(self) -> set[int]:
        """Ranks the next player discarded this deal (it holds no pair of them, probably)."""
        return self._read_next_log()[0]

    @property
    def next_took(self) -> set[int]:
        """Ranks in the piles the next player picked up this deal."""
        return self._read_next_log()[1]

    @property
    def next_known(self) -> list[int]:
        """Natural cards of each rank the next player is known to hold: picked up with a pile
        (the log names it) and not melded or discarded since."""
        return self._read_next_log()[2]

    def _read_next_log(self) -> tuple[set[int], set[int], list[int]]:
        got = self._next_log
        if got is not None:
            return got
        of = self._next_log_of
        if of is not None:
            got = self._next_log = of()
            return got
        deal, nxt = self.deal, self.next
        seen = self._log_seen or ()
        facts = [seen_entry_facts(e) for e in seen if e.seat == nxt and e.deal == deal]
        got = self._next_log = fold_next_facts(facts)
        return got

    def _discard_facts(self) -> tuple:
        """What every discard's score reads of the hand and the table, worked out once: per
        suit the ranks of the distinct natural kinds in hand (in ``set(hand)`` order, the order
        the sums were always made in), per rank the own unfinished groups, the pile's gain, and
        the next side's melds a discard could feed."""
        f = self._facts
        if f is None:
            by_suit: list[list[int]] = [[], [], [], []]
            for x in set(self.hand):
                if IS_NATURAL[x]:
                    by_suit[SUIT_OF[x]].append(RANK_OF[x])
            groups = [0] * 15
            for m in self.my_melds.values():
                if m.type == "group" and not m.canasta:
                    groups[m.rank] += 1
            pile_gain = (
                20 + 5 * (len(self.pile) + 1) + sum(map(VALUE_OF_KIND.__getitem__, self.pile))
            )
            rules = self.rules
            onto = rules.take_pile_onto_meld
            feeds = []  # (suit, low - 1, high + 1, samba next) or (-1, rank, 0, False)
            for m in self.melds[self.next_side]:
                if m.type == "sequence" and not m.closed:
                    ranks = [RANK_OF[KIND_OF_ID[c]] for c in m.cards]
                    feeds.append(
                        (
                            m.suit,
                            min(ranks) - 1,
                            max(ranks) + 1,
                            len(ranks) + 1 >= rules.sequence_max,
                        )
                    )
                elif onto and m.type == "group" and len(m.cards) < rules.canasta_size:
                    feeds.append((-1, m.rank, 0, False))
            f = self._facts = (by_suit, groups, pile_gain, onto, feeds)
        return f

    def table_estimate(self, side: int) -> float:
        """The side's deal score so far, counting the table only, plus canasta progress."""
        v = 0.0
        for m in self.melds[side]:
            v += m.value + m.bonus
            if not m.canasta and m.type in ("group", "sequence"):
                v += {1: 120, 2: 60, 3: 25}.get(m.needs, 0) * (3 if m.type == "sequence" else 1)
        v += 100 * self.red_threes[side]
        hands = [s for s in range(self.n) if self.side_of[s] == side]
        v -= 8 * sum(self.hand_sizes[s] for s in hands)
        return v

    def lead(self) -> float:
        mine = self.table_estimate(self.side)
        others = [self.table_estimate(s) for s in range(len(self.melds)) if s != self.side]
        return mine - max(others) if others else mine

    def opponents_can_out(self) -> bool:
        return any(c >= self.req for s, c in enumerate(self.canastas) if s != self.side)

    def threatened(self, rounds: float, near_cards: int) -> bool:
        """The deal may end soon without this side's say: the stock holds at most ``rounds``
        rounds of the table's draws (players x cards drawn a turn, from the rules), or an
        opponent side that can go out (or is one canasta short with a meld one card from it)
        has a seat holding at most ``near_cards`` cards."""
        if self.stock <= rounds * self.n * self.rules.draw_count:
            return True
        sizes = self.hand_sizes
        for s, c in enumerate(self.canastas):
            if s == self.side or not (
                c >= self.req
                or (c == self.req - 1 and any(0 < m.needs <= 1 for m in self.melds[s]))
            ):
                continue
            if min(sizes[x] for x in range(self.n) if self.side_of[x] == s) <= near_cards:
                return True
        return False

    def fit_value(self, hand: list[int] | None = None) -> float:
        """Card points in hand that the side's melds can take on a later turn (naturals of a
        group's rank, cards extending a sequence, wild cards where a group has room)."""
        v = 0.0
        groups = {m.rank: m for m in self.my_melds.values() if m.type == "group" and not m.closed}
        smax = self.rules.sequence_max
        seqs = [
            m
            for m in self.my_melds.values()
            if m.type == "sequence" and not m.closed and len(m.cards) < smax
        ]
        room = sum(
            1
            for m in groups.values()
            if len(m.cards) - m.wilds >= 2 * (m.wilds + 1) and m.wilds < 2
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
                    if m.suit == SUIT_OF[k]:
                        ranks = [RANK_OF[KIND_OF_ID[c]] for c in m.cards]
                        if r in (min(ranks) - 1, max(ranks) + 1):
                            v += VALUE_OF_KIND[k]
                            break
        return v

    def table_score(self, side: int) -> float:
        """The side's deal score on the table now (melds, bonuses, red threes)."""
        v = sum(m.value + m.bonus for m in self.melds[side])
        reds = self.red_threes[side]
        red = 1000 if reds == 6 else 100 * reds
        return v + (red if self.canastas[side] >= self.req else -red)

    def out_game(self) -> int:
        """What going out now does to the game, from the game totals: 1 it wins the game,
        -1 another side then wins it, 0 neither (or no totals: a rollout's ``Info``)."""
        scores, target = self.scores, self.target
        if not scores or not target or max(scores) + 4000 < target:
            return 0
        sizes = self.hand_sizes
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


EntryFacts = tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def entry_facts(
    kind: str, card: int | None, pile: Sequence[int] | None, laid: Iterable[int]
) -> EntryFacts | None:
    """What ``Info._read_next_log`` reads of one log entry of the kind ``kind`` (the engine's
    log kinds), from its facts as kinds: the card discarded (``card``), the pile taken
    (``pile``, bottom to top) and the cards the entry melded (``laid``: a meld's, or the parts
    a pile take laid besides the top card's group). ("d", the discarded natural's rank or
    nothing, (), ()), ("t", the ranks of the pile taken, the naturals' ranks under its top card,
    the ranks of the naturals melded with it), ("m", (), (), the ranks of the naturals melded),
    or None (another kind of entry)."""
    if kind == "discard" and card is not None:
        return ("d", (RANK_OF[card],) if IS_NATURAL[card] else (), (), ())
    if kind == "take_pile" and pile is not None:
        return (
            "t",
            tuple([RANK_OF[k] for k in pile]),
            tuple([RANK_OF[k] for k in pile[:-1] if IS_NATURAL[k]]),
            _natural_ranks(laid),
        )
    if kind == "meld":
        return ("m", (), (), _natural_ranks(laid))
    return None


def _natural_ranks(kinds: Iterable[int]) -> tuple[int, ...]:
    return tuple([RANK_OF[k] for k in kinds if IS_NATURAL[k]])


def _texts_kinds(texts: Iterable[str]) -> list[int]:
    return [KIND_BY_TEXT[t] for t in texts]


def seen_entry_facts(e: LogSeen) -> EntryFacts | None:
    """``entry_facts`` of an observed log entry (its facts name cards by their kinds)."""
    kind = e.kind
    pub = e.public
    if kind == "discard":
        return entry_facts(kind, pub.get("card"), None, ())
    if kind == "take_pile":
        pile = pub.get("pile")
        laid: list[int] = []
        for p in pub.get("parts", ()):
            laid += p["cards"]
        return entry_facts(kind, None, None if pile is None else _texts_kinds(pile), laid)
    if kind == "meld":
        return entry_facts(kind, None, None, pub.get("laid", ()))
    return None
