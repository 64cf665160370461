"""The game state and its moves: ``verify_<action>`` checks, ``apply_<action>`` effects.

Each move type (``moves.MOVE_TYPES``) names its action; ``Game.verify(move)`` raises
IllegalMove with a reason code or returns what the move would leave (a ``Plan``), and
``Game.play(move)`` applies it.

>>> g = Game.new("samba", players=4, seed=7)
>>> g.phase, g.current, len(g.hands[0]), len(g.stock) <= 101
('draw', 0, 15, True)
>>> g.can(Draw()), g.can(Discard(0))
(True, False)
"""
from __future__ import annotations

import random

from .cards import IDS_OF_KIND, IS_RED3, IS_WILD, KIND_OF_ID, RANK_OF, deck_ids, id_text, kind_text
from .errors import IllegalMove, InvalidMove
from .melds import (BLACK3, GROUP, SEQUENCE, TableMeld, addition_problem, classify,
                    group_counts_problem, shape_of, value_of)
from .moves import (MOVE_TYPES, AddTo, Answer, Ask, Discard, Draw, EndDeal, LayRedThree, Meld,
                    Merge, Move, NewMeld, NextDeal, Pass, TakePile, TakePileOnto, TakeTop,
                    parse_move)
from .rules import Options, RuleSet, get_rules
from .scoring import score_side, side_canastas
from .turn import (ask_problem, keeps_enough_cards, may_go_out, may_pass, opening_minimum_met,
                   turn_can_end)

PHASES = ("draw", "meld", "answer", "deal_over", "game_over")


class Plan:
    """What an action would leave: the player's hand and the side's melds, nothing applied.

    ``melds`` starts as the side's own list; a meld the action changes is copied first
    (``touch``), so planning costs only what the action touches."""

    __slots__ = ("hand", "melds", "next_id", "laid", "red3", "copied", "black3")

    def __init__(self, hand: list[int], melds: list[TableMeld], next_id: int):
        self.hand = hand
        self.melds = list(melds)
        self.next_id = next_id
        self.laid: list[int] = []      # hand cards put on the table
        self.red3: list[int] = []      # red threes laid by this action
        self.copied: set[int] = set()
        self.black3 = False            # a meld of black threes is among the copied ones

    def find(self, meld_id: int) -> TableMeld:
        for m in self.melds:
            if m.id == meld_id:
                return m
        raise IllegalMove("no_such_meld", f"m{meld_id}")

    def touch(self, meld_id: int) -> TableMeld:
        """The meld, copied for this plan before it is changed."""
        for i, m in enumerate(self.melds):
            if m.id == meld_id:
                if m.id in self.copied:
                    return m
                c = self.melds[i] = m.copy()
                self.copied.add(m.id)
                self.black3 = self.black3 or m.type == BLACK3
                return c
        raise IllegalMove("no_such_meld", f"m{meld_id}")

    def drop(self, meld_id: int) -> None:
        self.melds = [m for m in self.melds if m.id != meld_id]

    def new_meld(self, mtype: str, rank: int, suit: int, ids: list[int]) -> TableMeld:
        m = TableMeld(self.next_id, mtype, rank, suit, [])
        m.add(ids)
        self.melds.append(m)
        self.copied.add(m.id)
        self.black3 = self.black3 or mtype == BLACK3
        self.next_id += 1
        return m


class Turn:
    """The current turn: the asking state, and whether the player's side had melded when the
    turn began (a Canasta side that goes out in one turn from nothing scores the concealed
    bonus)."""

    __slots__ = ("asked", "refused", "pending", "asker", "melded_before")

    def __init__(self, asked: bool = False, refused: bool = False, pending: str | None = None,
                 asker: int = -1, melded_before: bool = True):
        self.asked, self.refused, self.pending, self.asker = asked, refused, pending, asker
        self.melded_before = melded_before

    def to_json(self) -> dict:
        return {"asked": self.asked, "refused": self.refused, "pending": self.pending,
                "asker": self.asker, "melded_before": self.melded_before}

    def copy(self) -> "Turn":
        return Turn(self.asked, self.refused, self.pending, self.asker, self.melded_before)


class Game:
    """A game of Samba: several deals to the target score."""

    def __init__(self, rules: RuleSet, options: Options, seed: int):
        self.rules, self.players, self.target, self.seed = rules, options.players, options.target, seed
        self.n_sides = rules.n_sides(self.players)
        # Asked of the rule set once: finished melds a side needs to go out, cards a draw takes.
        self.canastas_needed = rules.canastas_needed(self.players)
        self.draw_count = rules.draw_count(self.players)
        self._minimums: dict[int, int] = {}     # score -> opening minimum (``minimum``)
        self._seats = [tuple(s for s in range(self.players) if s % self.n_sides == side)
                       for side in range(self.n_sides)]
        self._partners = [tuple(s for s in self._seats[seat % self.n_sides] if s != seat)
                          for seat in range(self.players)]
        self.scores = [0] * self.n_sides
        self.history: list[list[int]] = []
        self.breakdowns: list[dict] = []    # each finished deal's deal_result
        self.deal_no = 0
        self.dealer = self.players - 2   # start_deal moves it on: the last seat deals first (D1)
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
        self.deal_result: dict | None = None
        self.result: dict | None = None
        self.moves: list[str] = []
        self.log: list[dict] = []
        self.version = 0
        self.scenario: dict | None = None
        # Deal number -> the text that seeds that deal's shuffle instead of the game seed (play
        # between browsers derives each deal's seed from every player's revealed value).
        self.deal_seeds: dict[int, str] = {}
        self.record_log = True       # copies for a search may leave the log out (``copy``)
        self.view_cache: dict = {}   # views.py keeps what it renders once here
        # The legal moves legal.py generated at one position: (``fingerprint()``, id(move) ->
        # (move, plan or None)); ``play`` trusts those moves without checking them again.
        self.generated: tuple[tuple, dict] | None = None
        # True once the caller promised that only ``play`` changes this game (``played_only``)
        self.only_played = False

    # Construction -------------------------------------------------------------------------
    @staticmethod
    def new(rules: RuleSet | str = "samba", players: int | None = None, target: int | None = None,
            seed: int = 0, deal_seeds: dict[int, str] | None = None) -> "Game":
        rs = rules if isinstance(rules, RuleSet) else get_rules(rules)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        g = Game(rs, Options.make(rs, players, target), seed)
        g.deal_seeds = _check_deal_seeds(deal_seeds)
        g.start_deal()
        return g

    @staticmethod
    def from_position(rules: RuleSet | str, players: int, target: int | None = None,
                      seed: int = 0, *, hands: list[list[int]], stock: list[int],
                      pile: list[int], melds: list[list[TableMeld]], red3: list[list[int]],
                      phase: str = "draw", current: int = 0, dealer: int | None = None,
                      deal_no: int = 1, scores: list[int] | None = None,
                      pile_marker: bool = False, next_meld_id: int | None = None,
                      turn: Turn | None = None, version: int = 0) -> "Game":
        """A game set in any position (scenarios, saved states, a bot's sampled worlds).

        Cards are physical ids; it checks shapes only (``record.check_consistent`` checks that
        the cards add up to the deck). Raises ValueError on a bad rule set or shape."""
        rs = rules if isinstance(rules, RuleSet) else get_rules(rules)
        g = Game(rs, Options.make(rs, players, target), seed)
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
        g.turn = turn if turn is not None else Turn(
            melded_before=bool(g.melds[g.side_of(current)]))
        g.version = version
        return g

    def copy(self, log: bool = False) -> "Game":
        """An independent copy of the position (hands, stock, pile and each side's meld list new
        lists; the melds themselves are shared, as nothing changes a meld on the table in place:
        an action changes a copy of it, ``Plan.touch``); with ``log=False`` the copy keeps no
        log or move list (a bot's search needs neither)."""
        g = Game.__new__(Game)
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
        g.view_cache = {}
        g.generated = None
        g.only_played = False
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
        score = self.scores[side]
        got = self._minimums.get(score)
        if got is None:
            got = self._minimums[score] = self.rules.opening_minimum(score)
        return got

    def requirement_met(self, side: int, melds: list[TableMeld] | None = None) -> bool:
        """Has the side (or would ``melds``) the canastas and sambas it needs to go out?"""
        return self.requirement_met_counts(
            *side_canastas(self.melds[side] if melds is None else melds, self.rules))

    meets_requirement = requirement_met

    def may_go_out_now(self) -> bool:
        return may_go_out(self.requirement_met(self.side_of(self.current)), self.turn.refused)

    def ask_problem(self, seat: int) -> str | None:
        """Why ``seat`` may not ask its partner now (a reason code), or None."""
        if self.phase != "meld" or self.current != seat:
            return "wrong_phase"
        return ask_problem(self.rules, bool(self._partners[seat]), self.turn.asked,
                           len(self.hands[seat]))

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
        return ((r.pile_freezes and not self.opened(side))
                or (r.wild_freezes_pile and any(IS_WILD[KIND_OF_ID[c]] for c in self.pile))
                or (r.covered_red3_freezes_pile and self.pile_marker))

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
        self.phase, self.current, self.turn = "draw", (self.dealer + 1) % self.players, Turn(
            melded_before=False)
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
            self._log(seat, "red3", "red3", public={"card": card, "replaced": 1},
                      private={"cards": drawn})
            return True

    # The log -----------------------------------------------------------------------------------
    def _log(self, seat, move: str, kind: str, public=None, private=None) -> None:
        """One log entry: ``kind`` (an action or event name), the move's text, what everyone
        saw (``public``) and what only ``seat`` saw (``private``)."""
        if self.record_log:
            self.log.append({"deal": self.deal_no, "seat": seat, "move": move, "kind": kind,
                             "public": public or {}, "private": private or {}})

    # verify / can / play ------------------------------------------------------------------
    def _need(self, phase: str) -> None:
        if self.phase != phase:
            if self.phase == "game_over":
                raise IllegalMove("game_over")
            raise IllegalMove("wrong_phase", f"the game is in phase {self.phase!r}")

    def verify(self, move: Move) -> Plan | None:
        """Raise IllegalMove (with a reason code) unless ``move`` is legal now; change nothing."""
        check = _VERIFY.get(type(move))
        if check is None:
            try:
                return getattr(self, "verify_" + move.action)(move)
            except AttributeError:
                raise InvalidMove(f"not a move: {move!r}") from None
        return check(self, move)

    def can(self, move: Move) -> bool:
        try:
            self.verify(move)
            return True
        except IllegalMove:
            return False

    def fingerprint(self) -> tuple:
        """Everything the legal moves of the seat to act depend on: this game object, its
        version, phase and turn, the hand, the stock's size, the pile, the next meld's id, the
        side's melds (each meld object with its card list and size), the side's score and the
        rule set. Tests and tools change a game's cards without a new version; the fingerprint
        still changes. A game only ``play`` changes (``played_only``): its version alone."""
        if self.only_played:
            return (self.version,)
        seat = self.current
        side = seat % self.n_sides
        t = self.turn
        return (id(self), self.version, self.phase, seat, tuple(self.hands[seat]),
                len(self.stock), tuple(self.pile), self.pile_marker, self.next_meld_id,
                tuple([(id(m), id(m.cards), len(m.cards)) for m in self.melds[side]]),
                self.scores[side], t.asked, t.refused, t.pending, t.asker, id(self.rules))

    def played_only(self) -> None:
        """Promise that from now on nothing but ``play`` changes this game (a bot's sampled world
        in a rollout, which only its rollout plays): the version then tells positions apart, and
        the fingerprint is the version alone. A copy makes no such promise."""
        self.only_played = True
        self.generated = None

    def generation(self) -> dict:
        """The record of the moves generated at this position (``legal.py`` fills it: move id
        -> (move, its plan or None)); a new one whenever the fingerprint changed."""
        fp = self.fingerprint()
        gen = self.generated
        if gen is None or gen[0] != fp:
            gen = self.generated = (fp, {})
        return gen[1]

    def trusted_plan(self, move: Move) -> Plan | None | bool:
        """The plan of ``move`` if it is one of the moves generated at this very position (the
        same object, and the fingerprint unchanged), without checking it again; ``False`` if
        it must be verified. A meld move generated from counts gets its plan built here (its
        parts are valid melds and legal by construction, ``tests/test_trusted_play.py``)."""
        gen = self.generated
        if gen is None:
            return False
        got = gen[1].get(id(move))
        if got is None or got[0] is not move or gen[0] != self.fingerprint():
            return False
        if got[1] is not None:
            return got[1]
        if type(move) is not Meld:
            return False
        plan = self._plan()
        for part in move.parts:
            ids = _take_ids(plan.hand, part.cards)
            plan.laid.extend(ids)
            if isinstance(part, AddTo):
                plan.touch(part.meld).add(ids)
            else:
                mtype, rank, suit = shape_of(part.cards)
                plan.new_meld(mtype, rank, suit, ids)
        return plan

    def play(self, move: Move | str) -> dict:
        """Apply a legal move (or its text) for the seat to act; returns the log record.

        A move the legal-move generator made at this position (``trusted_plan``) is not checked
        again; any other is verified first."""
        if isinstance(move, str):
            move = parse_move(move)
        plan = self.trusted_plan(move) if self.generated is not None else False
        if plan is False:
            plan = self.verify(move)
        seat = self.current
        log = self.log
        n_log = len(log)
        apply = _APPLY.get(type(move))
        if apply is None:
            getattr(self, "apply_" + move.action)(move, plan)
        else:
            apply(self, move, plan)
        if self.record_log:
            self.moves.append(move.text())
        self.version += 1
        return log[n_log] if len(log) > n_log else {"seat": seat, "move": move.text()}

    # Drawing -----------------------------------------------------------------------------------
    def verify_draw(self, move: Draw) -> None:
        self._need("draw")
        if not self.stock:
            raise IllegalMove("stock_empty")

    def apply_draw(self, move: Draw, plan) -> None:
        seat, got = self.current, list[int]()
        n = min(self.draw_count, len(self.stock))
        self._log(seat, "draw", "draw", public={"n": n}, private={"cards": got})
        for _ in range(n):
            if not self.stock:
                break
            c = self.stock.pop()
            if IS_RED3[KIND_OF_ID[c]] and self.rules.red_threes_automatic:
                if not self._lay_red3_and_replace(seat, c):
                    return
                got.append(self.hands[seat][-1])
            else:
                self.hands[seat].append(c)
                got.append(c)
        self.phase = "meld"

    def verify_take_top(self, move: TakeTop) -> Plan:
        self._need("draw")
        if not self.rules.take_top_card:
            raise IllegalMove("top_card_not_allowed")
        self._check_pile_takeable()
        plan = self._plan()
        m = plan.find(move.meld)
        if m.type != SEQUENCE or len(m.cards) >= self.rules.sequence_max:
            raise IllegalMove("top_card_no_fit", f"m{move.meld} is not an open sequence")
        top = self.pile[-1]
        if addition_problem(m, (KIND_OF_ID[top],), self.rules) is not None:
            raise IllegalMove("top_card_no_fit", f"{id_text(top)} onto m{move.meld}")
        plan.touch(move.meld).add([top])
        if not turn_can_end(self.rules, len(plan.hand), self._plan_may_go_out(plan)):
            raise IllegalMove("no_end_of_turn")
        return plan

    def apply_take_top(self, move: TakeTop, plan: Plan) -> None:
        top = self.pile.pop()
        self.melds[self.side_of(self.current)] = plan.melds
        self._log(self.current, move.text(), "take_top", public={"card": top, "meld": move.meld})
        self.phase = "meld"

    def _check_pile_takeable(self) -> None:
        if not self.pile:
            raise IllegalMove("pile_empty")
        if self.pile_blocked():
            raise IllegalMove("pile_blocked", id_text(self.pile[-1]))

    def _plan(self) -> Plan:
        return Plan(list(self.hands[self.current]), self.melds[self.side_of(self.current)],
                    self.next_meld_id)

    def verify_take_pile(self, move: TakePile) -> Plan:
        self._need("draw")
        self._check_pile_takeable()
        side, r = self.side_of(self.current), self.rules
        top = self.pile[-1]
        rank = RANK_OF[KIND_OF_ID[top]]
        plan = self._plan()
        group_ids = _take_ids(plan.hand, move.cards)
        plan.laid.extend(group_ids)
        naturals = sum(1 for c in group_ids if not IS_WILD[KIND_OF_ID[c]])
        if any(not IS_WILD[KIND_OF_ID[c]] and RANK_OF[KIND_OF_ID[c]] != rank for c in group_ids):
            raise IllegalMove("no_natural_pair", f"the top card is {id_text(top)}")
        wilds = len(group_ids) - naturals
        frozen = self.pile_frozen(side)
        if naturals < 2 and not (r.take_pile_natural_and_wild and not frozen
                                 and naturals >= 1 and wilds >= 1):
            raise IllegalMove("no_natural_pair", f"the top card is {id_text(top)}")
        code = group_counts_problem(naturals + 1, wilds, r)
        if code is not None:
            raise IllegalMove(code)
        plan.new_meld(GROUP, rank, -1, [top] + group_ids)
        self._plan_parts(plan, move.parts)
        self._pile_rest_into(plan, self.pile[:-1])
        self._check_after(plan, extra_value=value_of([KIND_OF_ID[top]]))
        return plan

    def verify_take_pile_onto(self, move: TakePileOnto) -> Plan:
        self._need("draw")
        r = self.rules
        if not r.take_pile_onto_meld:
            raise IllegalMove("pile_onto_meld_not_allowed")
        self._check_pile_takeable()
        if self.pile_frozen(self.side_of(self.current)):
            raise IllegalMove("pile_frozen")
        plan = self._plan()
        m = plan.find(move.meld)
        top = self.pile[-1]
        limit = r.canasta_size if m.type == GROUP else r.sequence_max
        if m.type not in (GROUP, SEQUENCE) or len(m.cards) >= limit:
            raise IllegalMove("top_card_no_fit", f"m{move.meld} has {len(m.cards)} cards")
        if addition_problem(m, (KIND_OF_ID[top],), r) is not None:
            raise IllegalMove("top_card_no_fit", f"{id_text(top)} onto m{move.meld}")
        plan.touch(move.meld).add([top])
        self._pile_rest_into(plan, self.pile[:-1])
        self._check_after(plan)
        return plan

    def _pile_rest_into(self, plan: Plan, rest: list[int]) -> None:
        if not self.rules.red_threes_automatic:
            plan.hand.extend(rest)
            return
        for c in rest:
            if IS_RED3[KIND_OF_ID[c]]:
                plan.red3.append(c)
            else:
                plan.hand.append(c)

    def apply_take_pile(self, move, plan: Plan) -> None:
        seat, side = self.current, self.side_of(self.current)
        taken = [id_text(c) for c in self.pile]
        public = {"pile": taken, "size": len(self.pile), "card": self.pile[-1]}
        self.pile, self.pile_marker = [], False
        self.hands[seat] = plan.hand
        self.melds[side], self.next_meld_id = plan.melds, plan.next_id
        self.red3[side].extend(plan.red3)
        if isinstance(move, TakePileOnto):
            public["meld"] = move.meld
        self._log(seat, move.text(), "take_pile", public=public)
        self.phase = "meld"
        # Replacing red threes found in the pile, where a rule set asks for it.
        if self.rules.red_three_in_pile_replaced:
            for c in plan.red3:
                self.red3[side].remove(c)
                if not self._lay_red3_and_replace(seat, c):
                    return
        self._after_meld(seat)

    apply_take_pile_onto = apply_take_pile

    def verify_end_deal(self, move: EndDeal) -> None:
        self._need("draw")
        if self.stock:
            raise IllegalMove("stock_not_empty")
        if self.rules.must_take_fitting_pile_on_empty_stock:
            side = self.side_of(self.current)
            for m in self.melds[side]:
                if self.can(TakePileOnto(m.id)):
                    raise IllegalMove("must_take_pile", f"onto m{m.id}")

    def apply_end_deal(self, move, plan) -> None:
        self._log(self.current, "end", "end")
        self._end_deal("stock")

    # Melding -------------------------------------------------------------------------------------
    def _plan_parts(self, plan: Plan, parts) -> None:
        """Apply meld parts to a plan (hand cards out, melds changed); raise if any is illegal."""
        r = self.rules
        for i, part in enumerate(parts):
            ids = _take_ids(plan.hand, part.cards)
            plan.laid.extend(ids)
            kinds = [KIND_OF_ID[c] for c in ids]
            if isinstance(part, NewMeld):
                mtype, rank, suit = classify(kinds, r, f"part {i + 1}: {part.text()}")
                plan.new_meld(mtype, rank, suit, ids)
            elif isinstance(part, AddTo):
                m = plan.find(part.meld)
                code = addition_problem(m, kinds, r)
                if code is not None:
                    raise IllegalMove(code, f"part {i + 1}: {part.text()}")
                plan.touch(part.meld).add(ids)
            else:
                raise InvalidMove(f"not a meld part: {part!r}")

    def _plan_may_go_out(self, plan: Plan) -> bool:
        return may_go_out(self.requirement_met(-1, plan.melds), self.turn.refused)

    def _check_after(self, plan: Plan, extra_value: int = 0) -> None:
        """Opening minimum, black threes and the going-out requirement for a planned action."""
        side = self.side_of(self.current)
        if not self.opened(side) and (plan.laid or extra_value):
            pts = value_of([KIND_OF_ID[c] for c in plan.laid]) + extra_value
            if not opening_minimum_met(pts, self.minimum(side)):
                raise IllegalMove("opening_too_low", f"{pts} of {self.minimum(side)}",
                                  points=pts, minimum=self.minimum(side))
        laid_black3 = False
        if plan.black3:
            laid = set(plan.laid)
            laid_black3 = any(m.type == BLACK3 and m.id in plan.copied
                              and not laid.isdisjoint(m.cards) for m in plan.melds)
        code = self.end_of_action_problem(len(plan.hand), self.requirement_met(-1, plan.melds),
                                          laid_black3)
        if code is not None:
            raise IllegalMove(code)

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
            not self.rules.go_out_needs_sequence or sequences > 0)

    def verify_meld(self, move: Meld) -> Plan:
        self._need("meld")
        if not move.parts:
            raise IllegalMove("empty_meld")
        plan = self._plan()
        self._plan_parts(plan, move.parts)
        self._check_after(plan)
        return plan

    def apply_meld(self, move: Meld, plan: Plan) -> None:
        seat = self.current
        self.hands[seat] = plan.hand
        self.melds[self.side_of(seat)], self.next_meld_id = plan.melds, plan.next_id
        copied = plan.copied     # (the melds changed, in the side's order)
        self._log(seat, move.text(), "meld",
                  public={"laid": list(plan.laid),
                          "melds": list(copied) if len(copied) == 1 else
                          [m.id for m in plan.melds if m.id in copied]})
        self._after_meld(seat)

    def _after_meld(self, seat: int) -> None:
        if not self.hands[seat] and self.phase != "deal_over":
            self.went_out = seat
            self._end_deal("out")

    def verify_merge(self, move: Merge) -> Plan:
        self._need("meld")
        plan = self._plan()
        a, b = plan.find(move.a), plan.find(move.b)
        if a is b or a.type != GROUP or b.type != GROUP or a.rank != b.rank:
            raise IllegalMove("merge_mismatch")
        code = addition_problem(a, b.kinds(), self.rules)
        if code is not None:
            raise IllegalMove(code, move.text())
        if not self.rules.wild_onto_canasta and len(b.cards) >= self.rules.canasta_size \
                and a.wilds:
            raise IllegalMove("wild_on_canasta")
        plan.touch(move.a).add(b.cards)
        plan.drop(move.b)
        if not turn_can_end(self.rules, len(plan.hand), self._plan_may_go_out(plan)):
            raise IllegalMove("no_end_of_turn")
        return plan

    def apply_merge(self, move: Merge, plan: Plan) -> None:
        self.melds[self.side_of(self.current)] = plan.melds
        self._log(self.current, move.text(), "merge", public={"melds": [move.a, move.b]})

    # Ending the turn --------------------------------------------------------------------------
    def verify_discard(self, move: Discard) -> None:
        self._need("meld")
        hand = self.hands[self.current]
        k = move.card
        if not 0 <= k < len(IDS_OF_KIND) or not _holds(hand, k):
            raise IllegalMove("card_not_in_hand", kind_text(k) if 0 <= k < len(IDS_OF_KIND)
                              else repr(k))
        if IS_RED3[k] and not self.rules.red_three_discardable:
            raise IllegalMove("cannot_discard")
        if len(hand) == 1 and not self.may_go_out_now():
            if self.turn.refused:
                raise IllegalMove("partner_refused")
            raise IllegalMove("must_pass" if self.rules.pass_with_one else "cannot_go_out")

    def apply_discard(self, move: Discard, plan) -> None:
        seat = self.current
        c = _take_ids(self.hands[seat], (move.card,))[0]
        self.pile.append(c)
        self._log(seat, move.text(), "discard", public={"card": c})
        if not self.hands[seat]:
            self.went_out = seat
            self._end_deal("out")
        else:
            self._next_turn()

    def verify_pass_turn(self, move: Pass) -> None:
        self._need("meld")
        if not may_pass(self.rules, len(self.hands[self.current]), self.may_go_out_now()):
            raise IllegalMove("cannot_pass")

    def apply_pass_turn(self, move: Pass, plan) -> None:
        self._log(self.current, "pass", "pass")
        self._next_turn()

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.players
        self.phase = "draw"
        self.turn = Turn(melded_before=self.opened(self.side_of(self.current)))

    def verify_lay_red_three(self, move: LayRedThree) -> None:
        if self.phase not in ("draw", "meld"):
            self._need("meld")
        if self.rules.red_threes_automatic:
            raise IllegalMove("red_threes_automatic")
        if not IS_RED3[move.card]:
            raise IllegalMove("not_red_three", move.text())
        _take_ids(list(self.hands[self.current]), (move.card,))
        if len(self.hands[self.current]) <= 1:
            raise IllegalMove("must_keep_cards")   # never empty the hand this way (D7)

    def apply_lay_red_three(self, move: LayRedThree, plan) -> None:
        seat = self.current
        c = _take_ids(self.hands[seat], (move.card,))[0]
        self.red3[self.side_of(seat)].append(c)
        self._log(seat, move.text(), "red3", public={"card": c})

    # Asking the partner --------------------------------------------------------------------------
    def verify_ask(self, move: Ask) -> Plan:
        self._need("meld")
        code = self.ask_problem(self.current)
        if code is not None:
            raise IllegalMove(code)
        return self._verify_going_out(move)

    def _verify_going_out(self, move: Ask) -> Plan:
        side = self.side_of(self.current)
        plan = self._plan()
        self._plan_parts(plan, move.parts)
        if move.discard is not None:
            if len(plan.hand) != 1 or KIND_OF_ID[plan.hand[0]] != move.discard:
                raise IllegalMove("not_going_out", "the discard must be the last card")
            if IS_RED3[move.discard] and not self.rules.red_three_discardable:
                raise IllegalMove("cannot_discard")
        elif plan.hand:
            raise IllegalMove("not_going_out", f"{len(plan.hand)} cards would be left")
        if not self.requirement_met(side, plan.melds):
            raise IllegalMove("cannot_go_out")
        self._check_after(plan)
        return plan

    def apply_ask(self, move: Ask, plan) -> None:
        seat = self.current
        self.turn.asked, self.turn.pending, self.turn.asker = True, move.text(), seat
        self._log(seat, move.text(), "ask", public={"partner": self.partners(seat)[0]})
        self.phase, self.current = "answer", self.partners(seat)[0]

    def verify_answer(self, move: Answer) -> None:
        self._need("answer")

    def apply_answer(self, move: Answer, plan) -> None:
        self._log(self.current, move.text(), "answer", public={"yes": move.yes})
        ask = parse_move(self.turn.pending or "")
        self.current, self.phase, self.turn.pending = self.turn.asker, "meld", None
        if not move.yes:
            self.turn.refused = True
            return
        assert isinstance(ask, Ask)
        plan = self._verify_going_out(ask)
        if ask.parts:
            self.apply_meld(Meld(ask.parts), plan)
        if ask.discard is not None and self.phase == "meld":
            self.apply_discard(Discard(ask.discard), None)

    # Deals ----------------------------------------------------------------------------------------
    def verify_next_deal(self, move: NextDeal) -> None:
        self._need("deal_over")

    def apply_next_deal(self, move, plan) -> None:
        self.start_deal()

    def _end_deal(self, reason: str) -> None:
        sides = []
        for side in range(self.n_sides):
            seats = self.seats_of(side)
            out = self.went_out is not None and self.went_out in seats
            sides.append(score_side(self.rules, self.players, self.melds[side], self.red3[side],
                                    [self.hands[s] for s in seats], out,
                                    melded_before_turn=not out or self.turn.melded_before))
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
            self.result = {"winner": winner, "draw": winner is None,
                           "reason": "target" if reached else "deal_cap",
                           "scores": list(self.scores)}
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


# Each move type's check and effect (``verify`` and ``play`` look them up by the move's type).
_VERIFY = {cls: getattr(Game, "verify_" + cls.action) for cls in MOVE_TYPES}
_APPLY = {cls: getattr(Game, "apply_" + cls.action) for cls in MOVE_TYPES}


def _check_deal_seeds(seeds) -> dict[int, str]:
    if seeds is None:
        return {}
    if not isinstance(seeds, dict) or not all(
            isinstance(k, int) and not isinstance(k, bool) and k > 0 and isinstance(v, str)
            and 0 < len(v) <= 200 for k, v in seeds.items()):
        raise ValueError("deal_seeds must map deal numbers (1, 2, ...) to seed texts")
    return dict(seeds)


def _holds(hand: list[int], k: int) -> bool:
    """Does ``hand`` hold a card of kind ``k``?"""
    for c in IDS_OF_KIND[k]:
        if c in hand:
            return True
    return False


def _take_ids(hand: list[int], kinds) -> list[int]:
    """Remove one physical card of each kind from ``hand`` (lowest id first)."""
    out = []
    for k in kinds:
        for c in IDS_OF_KIND[k]:
            if c in hand:
                hand.remove(c)
                out.append(c)
                break
        else:
            raise IllegalMove("card_not_in_hand", kind_text(k))
    return out
