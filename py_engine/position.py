"""The position of a game between moves (``Position``): the rule set, the seats, the cards
where they are, the melds, the scores and the turn; the queries the rules ask of it, dealing and
the end of a deal. Nothing here checks or makes a move: actions.py has each move's check and
effect, state.py the ``Game`` that plays them.
"""

from __future__ import annotations

import random
from typing import Any, Self

from .cards import IS_RED3, IS_WILD, KIND_OF_ID, RANK_OF, deck_ids
from .melds import TableMeld
from .rules import Options, RuleSet, get_rules
from .scoring import score_side, side_canastas
from .turn import ask_problem, keeps_enough_cards, may_go_out, turn_can_end

PHASES = ("draw", "meld", "answer", "deal_over", "game_over")


class Turn:
    """The current turn: the asking state, and whether the player's side had melded when the
    turn began (a Canasta side that goes out in one turn from nothing scores the concealed
    bonus)."""

    __slots__ = ("asked", "refused", "pending", "asker", "melded_before")

    def __init__(
        self,
        asked: bool = False,
        refused: bool = False,
        pending: str | None = None,
        asker: int = -1,
        melded_before: bool = True,
    ):
        self.asked, self.refused, self.pending, self.asker = asked, refused, pending, asker
        self.melded_before = melded_before

    def to_json(self) -> dict[str, Any]:
        return {
            "asked": self.asked,
            "refused": self.refused,
            "pending": self.pending,
            "asker": self.asker,
            "melded_before": self.melded_before,
        }

    def copy(self) -> Turn:
        return Turn(self.asked, self.refused, self.pending, self.asker, self.melded_before)


class Position:
    """A game of Samba between moves: the rule set, the seats, the cards where they are, the
    melds, the scores and the turn; the queries the rules ask of it, dealing, and the end of a
    deal. ``state.Game`` adds the moves (``verify`` and ``play``)."""

    def __init__(self, rules: RuleSet, options: Options, seed: int):
        self.rules, self.players, self.target, self.seed = (
            rules,
            options.players,
            options.target,
            seed,
        )
        self.n_sides = rules.n_sides(self.players)
        # Asked of the rule set once: finished melds a side needs to go out, cards a draw takes.
        self.canastas_needed = rules.canastas_needed(self.players)
        self.draw_count = rules.draw_count(self.players)
        self._seats = [
            tuple(s for s in range(self.players) if s % self.n_sides == side)
            for side in range(self.n_sides)
        ]
        self._partners = [
            tuple(s for s in self._seats[seat % self.n_sides] if s != seat)
            for seat in range(self.players)
        ]
        self.scores = [0] * self.n_sides
        self.history: list[list[int]] = []
        self.breakdowns: list[dict[str, Any]] = []  # each finished deal's deal_result
        self.deal_no = 0
        self.dealer = self.players - 2  # start_deal moves it on: the last seat deals first (D1)
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.pile_marker = False
        self.melds: list[list[TableMeld]] = [[] for _ in range(self.n_sides)]
        self.red3: list[list[int]] = [[] for _ in range(self.n_sides)]
        self.next_meld_id = 1
        self.phase = "draw"
        self.current = 0
        self.turn = Turn()
        self.went_out: int | None = None
        self.deal_result: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.moves: list[str] = []
        self.log: list[dict[str, Any]] = []
        self.version = 0
        self.scenario: dict[str, Any] | None = None
        # Deal number -> the text that seeds that deal's shuffle instead of the game seed (play
        # between browsers derives each deal's seed from every player's revealed value).
        self.deal_seeds: dict[int, str] = {}
        self.record_log = True  # copies for a search may leave the log out (``copy``)

    # Construction -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: RuleSet | str = "samba",
        players: int | None = None,
        target: int | None = None,
        seed: int = 0,
        deal_seeds: dict[int, str] | None = None,
    ) -> Self:
        rs = rules if isinstance(rules, RuleSet) else get_rules(rules)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        g = cls(rs, Options.make(rs, players, target), seed)
        g.deal_seeds = _check_deal_seeds(deal_seeds)
        g.start_deal()
        return g

    @classmethod
    def from_position(
        cls,
        rules: RuleSet | str,
        players: int,
        target: int | None = None,
        seed: int = 0,
        *,
        hands: list[list[int]],
        stock: list[int],
        pile: list[int],
        melds: list[list[TableMeld]],
        red3: list[list[int]],
        phase: str = "draw",
        current: int = 0,
        dealer: int | None = None,
        deal_no: int = 1,
        scores: list[int] | None = None,
        pile_marker: bool = False,
        next_meld_id: int | None = None,
        turn: Turn | None = None,
        version: int = 0,
    ) -> Self:
        """A game set in any position (scenarios, saved states, a bot's sampled worlds).

        Cards are physical ids; it checks shapes only (``record.check_consistent`` checks that
        the cards add up to the deck). Raises ValueError on a bad rule set or shape."""
        rs = rules if isinstance(rules, RuleSet) else get_rules(rules)
        g = cls(rs, Options.make(rs, players, target), seed)
        if len(hands) != g.players or len(melds) != g.n_sides or len(red3) != g.n_sides:
            raise ValueError("wrong number of hands or sides")
        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r}")
        g.hands = [list(h) for h in hands]
        g.stock, g.pile, g.pile_marker = list(stock), list(pile), bool(pile_marker)
        g.melds = [list(side) for side in melds]
        g.red3 = [list(s) for s in red3]
        ids = [m.id for side in g.melds for m in side]
        g.next_meld_id = next_meld_id if next_meld_id is not None else max(ids, default=0) + 1
        g.phase, g.current = phase, current
        g.dealer = (current - 1) % g.players if dealer is None else dealer
        g.deal_no = deal_no
        if scores is not None:
            if len(scores) != g.n_sides:
                raise ValueError("wrong number of scores")
            g.scores = list(scores)
        g.turn = turn if turn is not None else Turn(melded_before=bool(g.melds[g.side_of(current)]))
        g.version = version
        return g

    def copy(self, log: bool = False) -> Self:
        """An independent copy of the position (hands, stock, pile and each side's meld list new
        lists; the melds themselves are shared, as nothing changes a meld on the table in place:
        an action changes a copy of it, ``Plan.touch``); with ``log=False`` the copy keeps no
        log or move list (a bot's search needs neither)."""
        cls = type(self)
        g = cls.__new__(cls)
        d = dict(self.__dict__)
        g.__dict__.update(d)
        g.scores = list(self.scores)
        g.history = [list(h) for h in self.history]
        g.breakdowns = list(self.breakdowns)
        g.hands = [list(h) for h in self.hands]
        g.stock, g.pile = list(self.stock), list(self.pile)
        g.melds = [list(side) for side in self.melds]
        g.red3 = [list(s) for s in self.red3]
        g.turn = self.turn.copy()
        g.deal_seeds = dict(self.deal_seeds)
        if log:
            g.moves, g.log = list(self.moves), list(self.log)
        else:
            g.moves, g.log, g.record_log = [], [], False
        return g

    # Seats and sides ------------------------------------------------------------------------
    def side_of(self, seat: int) -> int:
        return seat % self.n_sides

    def seats_of(self, side: int) -> list[int]:
        return list(self._seats[side])

    def partners(self, seat: int) -> list[int]:
        return list(self._partners[seat])

    def opened(self, side: int) -> bool:
        return bool(self.melds[side])

    def minimum(self, side: int) -> int:
        return self.rules.opening_minimum(self.scores[side])

    def requirement_met(self, side: int, melds: list[TableMeld] | None = None) -> bool:
        """Has the side (or would ``melds``) the canastas and sambas it needs to go out?"""
        return self.requirement_met_counts(
            *side_canastas(self.melds[side] if melds is None else melds, self.rules)
        )

    meets_requirement = requirement_met

    def may_go_out_now(self) -> bool:
        return may_go_out(self.requirement_met(self.side_of(self.current)), self.turn.refused)

    def ask_problem(self, seat: int) -> str | None:
        """Why ``seat`` may not ask its partner now (a reason code), or None."""
        if self.phase != "meld" or self.current != seat:
            return "wrong_phase"
        return ask_problem(
            self.rules, bool(self._partners[seat]), self.turn.asked, len(self.hands[seat])
        )

    # The pile --------------------------------------------------------------------------------
    def top_kind(self) -> int | None:
        return KIND_OF_ID[self.pile[-1]] if self.pile else None

    def pile_blocked(self) -> bool:
        if not self.pile:
            return False
        k = KIND_OF_ID[self.pile[-1]]
        return IS_WILD[k] or RANK_OF[k] == 3

    def pile_frozen(self, side: int) -> bool:
        r = self.rules
        return (
            (r.pile_freezes and not self.opened(side))
            or (r.wild_freezes_pile and any(IS_WILD[KIND_OF_ID[c]] for c in self.pile))
            or (r.covered_red3_freezes_pile and self.pile_marker)
        )

    # Dealing ---------------------------------------------------------------------------------
    def deal_rng(self) -> random.Random:
        own = self.deal_seeds.get(self.deal_no)
        if own is not None:
            return random.Random(f"samba-deal:{own}")
        return random.Random(f"samba:{self.seed}:{self.deal_no}")

    def start_deal(self, deck: list[int] | None = None) -> None:
        """Deal a new hand; ``deck`` (top = last) may be injected by tests."""
        r = self.rules
        self.deal_no += 1
        self.dealer = (self.dealer + 1) % self.players
        if deck is None:
            deck = deck_ids(r.decks, r.jokers)
            self.deal_rng().shuffle(deck)
        deck = list(deck)
        self.hands = [[] for _ in range(self.players)]
        for _ in range(r.hand_size(self.players)):
            for i in range(1, self.players + 1):
                self.hands[(self.dealer + i) % self.players].append(deck.pop())
        self.pile, self.pile_marker = [deck.pop()], False
        while self.pile_blocked() and deck:
            if IS_RED3[KIND_OF_ID[self.pile[-1]]]:
                self.pile_marker = True
            self.pile.append(deck.pop())
        self.stock = deck
        self.melds = [[] for _ in range(self.n_sides)]
        self.red3 = [[] for _ in range(self.n_sides)]
        self.next_meld_id, self.went_out, self.deal_result = 1, None, None
        self.phase, self.current, self.turn = (
            "draw",
            (self.dealer + 1) % self.players,
            Turn(melded_before=False),
        )
        self._log(None, "deal", "deal", public={"dealer": self.dealer})
        if r.red_threes_automatic:
            for i in range(1, self.players + 1):
                seat = (self.dealer + i) % self.players
                for c in [c for c in self.hands[seat] if IS_RED3[KIND_OF_ID[c]]]:
                    self.hands[seat].remove(c)
                    if not self._lay_red3_and_replace(seat, c):
                        return

    def _lay_red3_and_replace(self, seat: int, card: int) -> bool:
        """Lay an automatic red three and replace it; False if that ended the deal."""
        self.red3[self.side_of(seat)].append(card)
        drawn: list[int] = []
        while True:
            if not self.stock:
                self._log(seat, "red3", "red3", public={"card": card})
                if self.rules.red_three_unreplaced_ends_deal:
                    self._end_deal("red_three")
                    return False
                return True
            c = self.stock.pop()
            if IS_RED3[KIND_OF_ID[c]]:
                self.red3[self.side_of(seat)].append(c)
                self._log(seat, "red3", "red3", public={"card": c})
                continue
            self.hands[seat].append(c)
            drawn.append(c)
            self._log(
                seat, "red3", "red3", public={"card": card, "replaced": 1}, private={"cards": drawn}
            )
            return True

    # The log -----------------------------------------------------------------------------------
    def _log(
        self,
        seat: int | None,
        move: str,
        kind: str,
        public: dict[str, Any] | None = None,
        private: dict[str, Any] | None = None,
    ) -> None:
        """One log entry: ``kind`` (an action or event name), the move's text, what everyone
        saw (``public``) and what only ``seat`` saw (``private``)."""
        if self.record_log:
            self.log.append(
                {
                    "deal": self.deal_no,
                    "seat": seat,
                    "move": move,
                    "kind": kind,
                    "public": public or {},
                    "private": private or {},
                }
            )

    # What an action may leave, and the turn passing on -----------------------------------------
    def end_of_action_problem(self, cards_left: int, met: bool, laid_black3: bool) -> str | None:
        """What is wrong with leaving ``cards_left`` cards in the player's hand after an action
        that (``met``) leaves the side's requirement met or not, and lays black threes or not
        (sections 6 and 8), or None."""
        out_ok = may_go_out(met, self.turn.refused)
        r = self.rules
        if laid_black3 and r.black_threes_meld_going_out and (cards_left > 1 or not out_ok):
            return "black_threes_not_out"
        if not keeps_enough_cards(r, cards_left, out_ok):
            return "partner_refused" if self.turn.refused and met else "must_keep_cards"
        if not turn_can_end(r, cards_left, out_ok):
            return "no_end_of_turn"
        return None

    def requirement_met_counts(self, finished: int, sequences: int) -> bool:
        """Do ``finished`` canastas and sambas, ``sequences`` of them sambas, meet the side's
        going-out requirement (section 8)?"""
        return finished >= self.canastas_needed and (
            not self.rules.go_out_needs_sequence or sequences > 0
        )

    def requirement_missing(self, finished: int, sequences: int) -> dict[str, Any]:
        """What a side with ``finished`` canastas and sambas, ``sequences`` of them sambas, still
        lacks to go out (section 8): ``canastas``, how many more; ``sequence``, whether one of
        them must still be a samba/escalera. Nothing lacks exactly when
        ``requirement_met_counts`` holds."""
        return {
            "canastas": max(0, self.canastas_needed - finished),
            "sequence": self.rules.go_out_needs_sequence and sequences == 0,
        }

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.players
        self.phase = "draw"
        self.turn = Turn(melded_before=self.opened(self.side_of(self.current)))

    # The end of a deal -----------------------------------------------------------------------
    def _end_deal(self, reason: str) -> None:
        """Score the deal (``reason``: how it ended), add it to the game, and end the game
        when a side reached the target or the deal cap."""
        sides = []
        for side in range(self.n_sides):
            seats = self.seats_of(side)
            out = self.went_out is not None and self.went_out in seats
            sides.append(
                score_side(
                    self.rules,
                    self.players,
                    self.melds[side],
                    self.red3[side],
                    [self.hands[s] for s in seats],
                    out,
                    melded_before_turn=not out or self.turn.melded_before,
                )
            )
        totals = [s["total"] for s in sides]
        for i, t in enumerate(totals):
            self.scores[i] += t
        self.history.append(totals)
        self.deal_result = {"reason": reason, "went_out": self.went_out, "sides": sides}
        self.breakdowns.append(self.deal_result)
        self._log(None, "deal_end", "deal_end", public={"reason": reason, "totals": totals})
        top = max(self.scores)
        if top >= self.target or self.deal_no >= self.rules.max_deals:
            leaders = [i for i, s in enumerate(self.scores) if s == top]
            reached = top >= self.target
            winner = leaders[0] if reached and len(leaders) == 1 else None
            self.result = {
                "winner": winner,
                "draw": winner is None,
                "reason": "target" if reached else "deal_cap",
                "scores": list(self.scores),
            }
            self.phase = "game_over"
        else:
            self.phase = "deal_over"

    # Queries -------------------------------------------------------------------------------------
    def hand_kinds(self, seat: int) -> list[int]:
        return list(map(KIND_OF_ID.__getitem__, self.hands[seat]))

    def all_card_ids(self) -> list[int]:
        ids = [c for h in self.hands for c in h] + self.stock + self.pile
        ids += [c for side in self.melds for m in side for c in m.cards]
        ids += [c for side in self.red3 for c in side]
        return ids


def _check_deal_seeds(seeds: object) -> dict[int, str]:
    if seeds is None:
        return {}
    if not isinstance(seeds, dict) or not all(
        isinstance(k, int)
        and not isinstance(k, bool)
        and k > 0
        and isinstance(v, str)
        and 0 < len(v) <= 200
        for k, v in seeds.items()
    ):
        raise ValueError("deal_seeds must map deal numbers (1, 2, ...) to seed texts")
    return dict(seeds)
