"""The game state and its actions: verify / can / play for every move.

>>> g = Game.new("samba", players=4, seed=7)
>>> g.phase, g.current, len(g.hands[0]), len(g.stock) <= 101
('draw', 0, 15, True)
>>> g.can(Draw()), g.can(Discard(0))
(True, False)
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import (IS_RED3, IS_WILD, KIND_OF_ID, RANK_OF, deck_ids, id_text)
from .errors import IllegalMove, InvalidMove
from .melds import (BLACK3, GROUP, SEQUENCE, Meld, check_addition, check_group_counts,
                    classify, sort_sequence, value_of)
from .moves import (AddTo, Answer, Ask, Discard, Draw, EndDeal, LayRedThree, Merge, Move,
                    NewMeld, NextDeal, Pass, TakePile, TakePileOnto, TakeTop, parse_move)
from .moves import Meld as MeldMove
from .rules import Options, RuleSet, get_rules
from .scoring import requirement_met, score_side

PHASES = ("draw", "meld", "answer", "deal_over", "game_over")


@dataclass
class Plan:
    """What an action would leave: the player's hand and the side's melds (nothing applied)."""
    hand: list[int]
    melds: list[Meld]
    next_id: int
    laid: list[int] = field(default_factory=list)      # hand cards put on the table
    red3: list[int] = field(default_factory=list)      # red threes laid by this action


@dataclass
class Turn:
    asked: bool = False
    refused: bool = False
    pending: str | None = None      # the proposed going-out action while the partner answers
    asker: int = -1

    def to_json(self) -> dict:
        return dict(self.__dict__)


class Game:
    """A game of Samba: several deals to the target score."""

    def __init__(self, rules: RuleSet, options: Options, seed: int):
        self.rules, self.players, self.target, self.seed = rules, options.players, options.target, seed
        self.n_sides = rules.n_sides(self.players)
        self.scores = [0] * self.n_sides
        self.history: list[list[int]] = []
        self.breakdowns: list[dict] = []    # each finished deal's deal_result
        self.deal_no = 0
        self.dealer = self.players - 2   # start_deal moves it on: the last seat deals first (D1)
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.pile_marker = False
        self.melds: list[list[Meld]] = [[] for _ in range(self.n_sides)]
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

    # Seats and sides ------------------------------------------------------------------------
    def side_of(self, seat: int) -> int:
        return seat % self.n_sides

    def seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.players) if s % self.n_sides == side]

    def partners(self, seat: int) -> list[int]:
        return [s for s in self.seats_of(self.side_of(seat)) if s != seat]

    def opened(self, side: int) -> bool:
        return bool(self.melds[side])

    def minimum(self, side: int) -> int:
        return self.rules.opening_minimum(self.scores[side])

    def meets_requirement(self, side: int, melds: list[Meld] | None = None) -> bool:
        return requirement_met(self.melds[side] if melds is None else melds, self.rules, self.players)

    # The pile --------------------------------------------------------------------------------
    def top_kind(self) -> int | None:
        return KIND_OF_ID[self.pile[-1]] if self.pile else None

    def pile_blocked(self) -> bool:
        k = self.top_kind()
        return k is not None and (IS_WILD[k] or RANK_OF[k] == 3)

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
        self.phase, self.current, self.turn = "draw", (self.dealer + 1) % self.players, Turn()
        self._log(None, "deal", public={"dealer": self.dealer})
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
        drawn = []
        while True:
            if not self.stock:
                self._log(seat, "red3", public={"card": card})
                if self.rules.red_three_unreplaced_ends_deal:
                    self._end_deal("red_three")
                    return False
                return True
            c = self.stock.pop()
            if IS_RED3[KIND_OF_ID[c]]:
                self.red3[self.side_of(seat)].append(c)
                self._log(seat, "red3", public={"card": c})
                continue
            self.hands[seat].append(c)
            drawn.append(c)
            self._log(seat, "red3", public={"card": card, "replaced": 1}, private={"cards": drawn})
            return True

    # The log -----------------------------------------------------------------------------------
    def _log(self, seat, move, public=None, private=None) -> None:
        self.log.append({"deal": self.deal_no, "seat": seat, "move": move,
                         "public": public or {}, "private": private or {}})

    # verify / can / play ------------------------------------------------------------------
    def _need(self, phase: str | tuple, seat: int | None = None) -> None:
        if self.phase == "game_over":
            raise IllegalMove("game_over")
        if self.phase not in ((phase,) if isinstance(phase, str) else phase):
            raise IllegalMove("wrong_phase", f"the game is in phase {self.phase!r}")

    def verify(self, move: Move) -> Plan | None:
        """Raise IllegalMove (with a reason code) unless ``move`` is legal now; change nothing."""
        return _VERIFY[type(move)](self, move)

    def can(self, move: Move) -> bool:
        try:
            self.verify(move)
            return True
        except IllegalMove:
            return False

    def play(self, move: Move | str) -> dict:
        """Apply a legal move (or its text) for the seat to act; returns the log record."""
        if isinstance(move, str):
            move = parse_move(move)
        plan = self.verify(move)
        seat = self.current
        n_log = len(self.log)
        _DO[type(move)](self, move, plan)
        self.moves.append(move.text())
        self.version += 1
        return self.log[n_log] if len(self.log) > n_log else {"seat": seat, "move": move.text()}

    # Drawing -----------------------------------------------------------------------------------
    def verify_draw(self, move: Draw) -> None:
        self._need("draw")
        if not self.stock:
            raise IllegalMove("stock_empty")

    def _do_draw(self, move: Draw, plan) -> None:
        seat, got = self.current, []
        n = min(self.rules.draw_count(self.players), len(self.stock))
        self._log(seat, "draw", public={"n": n}, private={"cards": got})
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
        side = self.side_of(self.current)
        melds = _copy_melds(self.melds[side])
        m = _find(melds, move.meld)
        if m.type != SEQUENCE or len(m.cards) >= self.rules.sequence_max:
            raise IllegalMove("top_card_no_fit", f"m{move.meld} is not an open sequence")
        top = self.pile[-1]
        try:
            check_addition(m.type, m.rank, m.suit, m.kinds(), [KIND_OF_ID[top]], self.rules)
        except IllegalMove:
            raise IllegalMove("top_card_no_fit", f"{id_text(top)} onto m{move.meld}") from None
        m.cards = sort_sequence(m.cards + [top])
        plan = Plan(list(self.hands[self.current]), melds, self.next_meld_id)
        self._check_end_possible(plan)
        return plan

    def _do_take_top(self, move: TakeTop, plan: Plan) -> None:
        top = self.pile.pop()
        self.melds[self.side_of(self.current)] = plan.melds
        self._log(self.current, move.text(), public={"card": top})
        self.phase = "meld"

    def _check_pile_takeable(self) -> None:
        if not self.pile:
            raise IllegalMove("pile_empty")
        if self.pile_blocked():
            raise IllegalMove("pile_blocked", id_text(self.pile[-1]))

    def verify_take_pile(self, move: TakePile) -> Plan:
        self._need("draw")
        self._check_pile_takeable()
        seat, side, r = self.current, self.side_of(self.current), self.rules
        top = self.pile[-1]
        rank = RANK_OF[KIND_OF_ID[top]]
        hand = list(self.hands[seat])
        group_ids = _take_ids(hand, move.cards)
        naturals = sum(1 for c in group_ids if not IS_WILD[KIND_OF_ID[c]])
        if any(not IS_WILD[KIND_OF_ID[c]] and RANK_OF[KIND_OF_ID[c]] != rank for c in group_ids):
            raise IllegalMove("no_natural_pair", f"the top card is {id_text(top)}")
        wilds = len(group_ids) - naturals
        frozen = self.pile_frozen(side)
        if naturals < 2 and not (r.take_pile_natural_and_wild and not frozen
                                 and naturals >= 1 and wilds >= 1):
            raise IllegalMove("no_natural_pair", f"the top card is {id_text(top)}")
        check_group_counts(naturals + 1, wilds, r)
        melds = _copy_melds(self.melds[side])
        plan = Plan(hand, melds, self.next_meld_id, laid=list(group_ids))
        melds.append(Meld(plan.next_id, GROUP, rank, -1, [top] + group_ids))
        plan.next_id += 1
        self._plan_parts(plan, move.parts)
        rest = self.pile[:-1]
        self._pile_rest_into(plan, rest)
        self._check_after(plan, extra_value=value_of([KIND_OF_ID[top]]))
        return plan

    def verify_take_pile_onto(self, move: TakePileOnto) -> Plan:
        self._need("draw")
        r = self.rules
        if not r.take_pile_onto_meld:
            raise IllegalMove("pile_onto_meld_not_allowed")
        self._check_pile_takeable()
        side = self.side_of(self.current)
        if self.pile_frozen(side):
            raise IllegalMove("pile_frozen")
        melds = _copy_melds(self.melds[side])
        m = _find(melds, move.meld)
        top = self.pile[-1]
        limit = r.canasta_size if m.type == GROUP else r.sequence_max
        if m.type not in (GROUP, SEQUENCE) or len(m.cards) >= limit:
            raise IllegalMove("top_card_no_fit", f"m{move.meld} has {len(m.cards)} cards")
        try:
            check_addition(m.type, m.rank, m.suit, m.kinds(), [KIND_OF_ID[top]], r)
        except IllegalMove:
            raise IllegalMove("top_card_no_fit", f"{id_text(top)} onto m{move.meld}") from None
        m.cards = m.cards + [top] if m.type == GROUP else sort_sequence(m.cards + [top])
        plan = Plan(list(self.hands[self.current]), melds, self.next_meld_id)
        self._pile_rest_into(plan, self.pile[:-1])
        self._check_after(plan)
        return plan

    def _pile_rest_into(self, plan: Plan, rest: list[int]) -> None:
        for c in rest:
            if IS_RED3[KIND_OF_ID[c]] and self.rules.red_threes_automatic:
                plan.red3.append(c)
            else:
                plan.hand.append(c)

    def _do_take_pile(self, move, plan: Plan) -> None:
        seat, side = self.current, self.side_of(self.current)
        taken = [id_text(c) for c in self.pile]
        self.pile, self.pile_marker = [], False
        self.hands[seat] = plan.hand
        self.melds[side], self.next_meld_id = plan.melds, plan.next_id
        self.red3[side].extend(plan.red3)
        self._log(seat, move.text(), public={"pile": taken})
        self.phase = "meld"
        # Replacing red threes found in the pile, where a rule set asks for it.
        if self.rules.red_three_in_pile_replaced:
            for c in plan.red3:
                self.red3[side].remove(c)
                if not self._lay_red3_and_replace(seat, c):
                    return
        self._after_meld(seat)

    def verify_end_deal(self, move: EndDeal) -> None:
        self._need("draw")
        if self.stock:
            raise IllegalMove("stock_not_empty")
        if self.rules.must_take_fitting_pile_on_empty_stock:
            side = self.side_of(self.current)
            for m in self.melds[side]:
                if self.can(TakePileOnto(m.id)):
                    raise IllegalMove("must_take_pile", f"onto m{m.id}")

    def _do_end(self, move, plan) -> None:
        self._log(self.current, "end")
        self._end_deal("stock")

    # Melding -------------------------------------------------------------------------------------
    def _plan_parts(self, plan: Plan, parts) -> None:
        """Apply meld parts to a plan (hand cards out, melds changed); raise if any is illegal."""
        r = self.rules
        for i, part in enumerate(parts):
            where = f"part {i + 1}: {part.text()}"
            ids = _take_ids(plan.hand, part.cards)
            plan.laid.extend(ids)
            if isinstance(part, NewMeld):
                mtype, rank, suit = classify([KIND_OF_ID[c] for c in ids], r, where)
                if mtype == SEQUENCE:
                    ids = sort_sequence(ids)
                plan.melds.append(Meld(plan.next_id, mtype, rank, suit, ids))
                plan.next_id += 1
            elif isinstance(part, AddTo):
                m = _find(plan.melds, part.meld)
                check_addition(m.type, m.rank, m.suit, m.kinds(), [KIND_OF_ID[c] for c in ids], r,
                               where)
                m.cards = sort_sequence(m.cards + ids) if m.type == SEQUENCE else m.cards + ids
            else:
                raise InvalidMove(f"not a meld part: {part!r}")

    def _may_go_out(self, plan: Plan) -> bool:
        return self.meets_requirement(-1, plan.melds) and not self.turn.refused

    def _check_after(self, plan: Plan, extra_value: int = 0) -> None:
        """Opening minimum, black threes and the going-out requirement for a planned action."""
        side = self.side_of(self.current)
        if not self.opened(side) and (plan.laid or extra_value):
            pts = value_of([KIND_OF_ID[c] for c in plan.laid]) + extra_value
            if pts < self.minimum(side):
                raise IllegalMove("opening_too_low", f"{pts} of {self.minimum(side)}",
                                  points=pts, minimum=self.minimum(side))
        may_out = self._may_go_out(plan)
        laid_black3 = any(m.type == BLACK3 and any(c in plan.laid for c in m.cards)
                          for m in plan.melds)
        if laid_black3 and self.rules.black_threes_meld_going_out and (
                len(plan.hand) > 1 or not may_out):
            raise IllegalMove("black_threes_not_out")
        if not may_out and len(plan.hand) < self.rules.keep_cards:
            raise IllegalMove("partner_refused" if self.turn.refused and self.meets_requirement(
                -1, plan.melds) else "must_keep_cards")
        self._check_end_possible(plan, may_out)

    def _check_end_possible(self, plan: Plan, may_out: bool | None = None) -> None:
        h = len(plan.hand)
        if may_out is None:
            may_out = self._may_go_out(plan)
        ok = (h >= 2 or (h == 1 and (may_out or self.rules.pass_with_one))
              or (h == 0 and may_out))
        if not ok:
            raise IllegalMove("no_end_of_turn")

    def verify_meld(self, move: MeldMove) -> Plan:
        self._need("meld")
        if not move.parts:
            raise IllegalMove("empty_meld")
        side = self.side_of(self.current)
        plan = Plan(list(self.hands[self.current]), _copy_melds(self.melds[side]), self.next_meld_id)
        self._plan_parts(plan, move.parts)
        self._check_after(plan)
        return plan

    def _do_meld(self, move: MeldMove, plan: Plan) -> None:
        seat = self.current
        self.hands[seat] = plan.hand
        self.melds[self.side_of(seat)], self.next_meld_id = plan.melds, plan.next_id
        self._log(seat, move.text())
        self._after_meld(seat)

    def _after_meld(self, seat: int) -> None:
        if not self.hands[seat] and self.phase != "deal_over":
            self.went_out = seat
            self._end_deal("out")

    def verify_merge(self, move: Merge) -> Plan:
        self._need("meld")
        side = self.side_of(self.current)
        melds = _copy_melds(self.melds[side])
        a, b = _find(melds, move.a), _find(melds, move.b)
        if a is b or a.type != GROUP or b.type != GROUP or a.rank != b.rank:
            raise IllegalMove("merge_mismatch")
        check_addition(a.type, a.rank, a.suit, a.kinds(), b.kinds(), self.rules, move.text())
        if not self.rules.wild_onto_canasta and len(b.cards) >= self.rules.canasta_size and any(
                IS_WILD[k] for k in a.kinds()):
            raise IllegalMove("wild_on_canasta")
        a.cards = a.cards + b.cards
        melds.remove(b)
        plan = Plan(list(self.hands[self.current]), melds, self.next_meld_id)
        self._check_end_possible(plan)
        return plan

    def _do_merge(self, move: Merge, plan: Plan) -> None:
        self.melds[self.side_of(self.current)] = plan.melds
        self._log(self.current, move.text())

    # Ending the turn --------------------------------------------------------------------------
    def verify_discard(self, move: Discard) -> None:
        self._need("meld")
        seat = self.current
        ids = _take_ids(list(self.hands[seat]), (move.card,))
        if IS_RED3[KIND_OF_ID[ids[0]]] and not self.rules.red_three_discardable:
            raise IllegalMove("cannot_discard")
        if len(self.hands[seat]) == 1 and not self._may_go_out_now():
            if self.turn.refused:
                raise IllegalMove("partner_refused")
            raise IllegalMove("must_pass" if self.rules.pass_with_one else "cannot_go_out")

    def _may_go_out_now(self) -> bool:
        return self.meets_requirement(self.side_of(self.current)) and not self.turn.refused

    def _do_discard(self, move: Discard, plan) -> None:
        seat = self.current
        c = _take_ids(self.hands[seat], (move.card,))[0]
        self.pile.append(c)
        self._log(seat, move.text(), public={"card": c})
        if not self.hands[seat]:
            self.went_out = seat
            self._end_deal("out")
        else:
            self._next_turn()

    def verify_pass_turn(self, move: Pass) -> None:
        self._need("meld")
        if not (self.rules.pass_with_one and len(self.hands[self.current]) == 1
                and not self._may_go_out_now()):
            raise IllegalMove("cannot_pass")

    def _do_pass(self, move: Pass, plan) -> None:
        self._log(self.current, "pass")
        self._next_turn()

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.players
        self.phase, self.turn = "draw", Turn()

    def verify_lay_red_three(self, move: LayRedThree) -> None:
        self._need(("draw", "meld"))
        if self.rules.red_threes_automatic:
            raise IllegalMove("red_threes_automatic")
        if not IS_RED3[move.card]:
            raise IllegalMove("not_red_three", move.text())
        _take_ids(list(self.hands[self.current]), (move.card,))
        if len(self.hands[self.current]) <= 1:
            raise IllegalMove("must_keep_cards")   # never empty the hand this way (D7)

    def _do_red3(self, move: LayRedThree, plan) -> None:
        seat = self.current
        c = _take_ids(self.hands[seat], (move.card,))[0]
        self.red3[self.side_of(seat)].append(c)
        self._log(seat, move.text(), public={"card": c})

    # Asking the partner --------------------------------------------------------------------------
    def verify_ask(self, move: Ask) -> Plan:
        self._need("meld")
        if not self.rules.may_ask_partner or not self.partners(self.current):
            raise IllegalMove("no_partner")
        if self.turn.asked:
            raise IllegalMove("already_asked")
        if len(self.hands[self.current]) < (1 if self.rules.pass_with_one else 2):
            raise IllegalMove("ask_too_late")
        return self._verify_going_out(move)

    def _verify_going_out(self, move: Ask) -> Plan:
        side = self.side_of(self.current)
        plan = Plan(list(self.hands[self.current]), _copy_melds(self.melds[side]), self.next_meld_id)
        self._plan_parts(plan, move.parts)
        if move.discard is not None:
            if len(plan.hand) != 1 or KIND_OF_ID[plan.hand[0]] != move.discard:
                raise IllegalMove("not_going_out", "the discard must be the last card")
            if IS_RED3[move.discard] and not self.rules.red_three_discardable:
                raise IllegalMove("cannot_discard")
        elif plan.hand:
            raise IllegalMove("not_going_out", f"{len(plan.hand)} cards would be left")
        if not self.meets_requirement(side, plan.melds):
            raise IllegalMove("cannot_go_out")
        self._check_after(plan)
        return plan

    def _do_ask(self, move: Ask, plan) -> None:
        seat = self.current
        self.turn.asked, self.turn.pending, self.turn.asker = True, move.text(), seat
        self._log(seat, move.text())
        self.phase, self.current = "answer", self.partners(seat)[0]

    def verify_answer(self, move: Answer) -> None:
        self._need("answer")

    def _do_answer(self, move: Answer, plan) -> None:
        self._log(self.current, move.text())
        ask = parse_move(self.turn.pending)
        self.current, self.phase, self.turn.pending = self.turn.asker, "meld", None
        if not move.yes:
            self.turn.refused = True
            return
        assert isinstance(ask, Ask)
        plan = self._verify_going_out(ask)
        if ask.parts:
            self._do_meld(MeldMove(ask.parts), plan)
        if ask.discard is not None and self.phase == "meld":
            self._do_discard(Discard(ask.discard), None)

    # Deals ----------------------------------------------------------------------------------------
    def verify_next_deal(self, move: NextDeal) -> None:
        self._need("deal_over")

    def _do_next(self, move, plan) -> None:
        self.start_deal()

    def _end_deal(self, reason: str) -> None:
        sides = []
        for side in range(self.n_sides):
            seats = self.seats_of(side)
            sides.append(score_side(self.rules, self.players, self.melds[side], self.red3[side],
                                    [self.hands[s] for s in seats],
                                    self.went_out is not None and self.went_out in seats))
        totals = [s["total"] for s in sides]
        for i, t in enumerate(totals):
            self.scores[i] += t
        self.history.append(totals)
        self.deal_result = {"reason": reason, "went_out": self.went_out, "sides": sides}
        self.breakdowns.append(self.deal_result)
        self._log(None, "deal_end", public={"reason": reason, "totals": totals})
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
        return [KIND_OF_ID[c] for c in self.hands[seat]]

    def all_card_ids(self) -> list[int]:
        ids = [c for h in self.hands for c in h] + self.stock + self.pile
        ids += [c for side in self.melds for m in side for c in m.cards]
        ids += [c for side in self.red3 for c in side]
        return ids


def _check_deal_seeds(seeds) -> dict[int, str]:
    if seeds is None:
        return {}
    if not isinstance(seeds, dict) or not all(
            isinstance(k, int) and not isinstance(k, bool) and k > 0 and isinstance(v, str)
            and 0 < len(v) <= 200 for k, v in seeds.items()):
        raise ValueError("deal_seeds must map deal numbers (1, 2, ...) to seed texts")
    return dict(seeds)


def _copy_melds(melds: list[Meld]) -> list[Meld]:
    return [Meld(m.id, m.type, m.rank, m.suit, list(m.cards)) for m in melds]


def _find(melds: list[Meld], meld_id: int) -> Meld:
    for m in melds:
        if m.id == meld_id:
            return m
    raise IllegalMove("no_such_meld", f"m{meld_id}")


def _take_ids(hand: list[int], kinds) -> list[int]:
    """Remove one physical card of each kind from ``hand`` (lowest id first)."""
    out = []
    for k in kinds:
        best = None
        for c in hand:
            if KIND_OF_ID[c] == k and (best is None or c < best):
                best = c
        if best is None:
            from .cards import kind_text
            raise IllegalMove("card_not_in_hand", kind_text(k))
        hand.remove(best)
        out.append(best)
    return out


_VERIFY = {Draw: Game.verify_draw, TakeTop: Game.verify_take_top, TakePile: Game.verify_take_pile,
           TakePileOnto: Game.verify_take_pile_onto, EndDeal: Game.verify_end_deal,
           MeldMove: Game.verify_meld, Merge: Game.verify_merge, Discard: Game.verify_discard,
           Pass: Game.verify_pass_turn, LayRedThree: Game.verify_lay_red_three, Ask: Game.verify_ask,
           Answer: Game.verify_answer, NextDeal: Game.verify_next_deal}
_DO = {Draw: Game._do_draw, TakeTop: Game._do_take_top, TakePile: Game._do_take_pile,
       TakePileOnto: Game._do_take_pile, EndDeal: Game._do_end, MeldMove: Game._do_meld,
       Merge: Game._do_merge, Discard: Game._do_discard, Pass: Game._do_pass,
       LayRedThree: Game._do_red3, Ask: Game._do_ask, Answer: Game._do_answer,
       NextDeal: Game._do_next}


def _action(name: str, cls):
    """``can_<name>(*args)`` and ``<name>(*args)`` for one move class (verify_<x> is above)."""
    def can(self, *args):
        return self.can(cls(*args))

    def do(self, *args):
        return self.play(cls(*args))
    can.__name__, do.__name__ = f"can_{name}", name
    can.__doc__ = f"Would {cls.__name__}{args_doc(cls)} be legal now?"
    do.__doc__ = f"Play {cls.__name__}{args_doc(cls)}; returns the log record."
    setattr(Game, f"can_{name}", can)
    setattr(Game, name, do)


def args_doc(cls) -> str:
    return "(" + ", ".join(getattr(cls, "__dataclass_fields__", {})) + ")"


for _name, _cls in (("draw", Draw), ("take_pile", TakePile), ("take_pile_onto", TakePileOnto),
                    ("take_top", TakeTop), ("meld", MeldMove), ("merge", Merge),
                    ("discard", Discard), ("pass_turn", Pass), ("lay_red_three", LayRedThree),
                    ("ask", Ask), ("answer", Answer), ("end_deal", EndDeal),
                    ("next_deal", NextDeal)):
    _action(_name, _cls)
