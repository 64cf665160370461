"""Each move type's check and effect: ``verify_<action>(game, move)`` raises IllegalMove with a
reason code or returns what the move would leave (a ``Plan``), ``apply_<action>(game, move,
plan)`` changes the game. ``Game.verify`` and ``Game.play`` (state.py) look them up by the move
type's ``action``; nothing here is called but through them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import IDS_OF_KIND, IS_RED3, IS_WILD, KIND_OF_ID, RANK_OF, id_text, kind_text
from .errors import IllegalMove, InvalidMove
from .melds import (
    BLACK3,
    GROUP,
    SEQUENCE,
    TableMeld,
    addition_problem,
    classify,
    group_counts_problem,
    value_of,
)
from .moves import (
    AddTo,
    Answer,
    Ask,
    Discard,
    Draw,
    EndDeal,
    LayRedThree,
    Meld,
    Merge,
    NewMeld,
    NextDeal,
    Part,
    Pass,
    TakePile,
    TakePileOnto,
    TakeTop,
    parse_move,
)
from .position import Position
from .turn import may_go_out, may_pass, opening_minimum_met, turn_can_end


class Plan:
    """What an action would leave: the player's hand and the side's melds, nothing applied.

    ``melds`` starts as the side's own list; a meld the action changes is copied first
    (``touch``), so planning costs only what the action touches."""

    __slots__ = ("hand", "melds", "next_id", "laid", "red3", "copied", "black3")

    def __init__(self, hand: list[int], melds: list[TableMeld], next_id: int):
        self.hand = hand
        self.melds = list(melds)
        self.next_id = next_id
        self.laid: list[int] = []  # hand cards put on the table
        self.red3: list[int] = []  # red threes laid by this action
        self.copied: set[int] = set()
        self.black3 = False  # a meld of black threes is among the copied ones

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


def plan_of(g: Position) -> Plan:
    """A plan for the seat to act: its hand and its side's melds, as they are now."""
    return Plan(list(g.hands[g.current]), g.melds[g.side_of(g.current)], g.next_meld_id)


def _holds(hand: list[int], k: int) -> bool:
    """Does ``hand`` hold a card of kind ``k``?"""
    for c in IDS_OF_KIND[k]:
        if c in hand:
            return True
    return False


def take_ids(hand: list[int], kinds: Iterable[int]) -> list[int]:
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


def _need(g: Position, phase: str) -> None:
    if g.phase != phase:
        if g.phase == "game_over":
            raise IllegalMove("game_over")
        raise IllegalMove("wrong_phase", f"the game is in phase {g.phase!r}")


# Drawing -----------------------------------------------------------------------------------
def verify_draw(g: Position, move: Draw) -> None:
    _need(g, "draw")
    if not g.stock:
        raise IllegalMove("stock_empty")


def apply_draw(g: Position, move: Draw, plan: Plan | None) -> None:
    seat, got = g.current, list[int]()
    n = min(g.draw_count, len(g.stock))
    g._log(seat, "draw", "draw", public={"n": n}, private={"cards": got})
    for _ in range(n):
        if not g.stock:
            break
        c = g.stock.pop()
        if IS_RED3[KIND_OF_ID[c]] and g.rules.red_threes_automatic:
            if not g._lay_red3_and_replace(seat, c):
                return
            got.append(g.hands[seat][-1])
        else:
            g.hands[seat].append(c)
            got.append(c)
    g.phase = "meld"


def verify_take_top(g: Position, move: TakeTop) -> Plan:
    _need(g, "draw")
    if not g.rules.take_top_card:
        raise IllegalMove("top_card_not_allowed")
    _check_pile_takeable(g)
    plan = plan_of(g)
    m = plan.find(move.meld)
    if m.type != SEQUENCE or len(m.cards) >= g.rules.sequence_max:
        raise IllegalMove("top_card_no_fit", f"m{move.meld} is not an open sequence")
    top = g.pile[-1]
    if addition_problem(m, (KIND_OF_ID[top],), g.rules) is not None:
        raise IllegalMove("top_card_no_fit", f"{id_text(top)} onto m{move.meld}")
    plan.touch(move.meld).add([top])
    if not turn_can_end(g.rules, len(plan.hand), _plan_may_go_out(g, plan)):
        raise IllegalMove("no_end_of_turn")
    return plan


def apply_take_top(g: Position, move: TakeTop, plan: Plan) -> None:
    top = g.pile.pop()
    g.melds[g.side_of(g.current)] = plan.melds
    g._log(g.current, move.text(), "take_top", public={"card": top, "meld": move.meld})
    g.phase = "meld"


def _check_pile_takeable(g: Position) -> None:
    if not g.pile:
        raise IllegalMove("pile_empty")
    if g.pile_blocked():
        raise IllegalMove("pile_blocked", id_text(g.pile[-1]))


def verify_take_pile(g: Position, move: TakePile) -> Plan:
    _need(g, "draw")
    _check_pile_takeable(g)
    side, r = g.side_of(g.current), g.rules
    top = g.pile[-1]
    rank = RANK_OF[KIND_OF_ID[top]]
    plan = plan_of(g)
    group_ids = take_ids(plan.hand, move.cards)
    plan.laid.extend(group_ids)
    naturals = sum(1 for c in group_ids if not IS_WILD[KIND_OF_ID[c]])
    if any(not IS_WILD[KIND_OF_ID[c]] and RANK_OF[KIND_OF_ID[c]] != rank for c in group_ids):
        raise IllegalMove("no_natural_pair", f"the top card is {id_text(top)}")
    wilds = len(group_ids) - naturals
    frozen = g.pile_frozen(side)
    if naturals < 2 and not (
        r.take_pile_natural_and_wild and not frozen and naturals >= 1 and wilds >= 1
    ):
        raise IllegalMove("no_natural_pair", f"the top card is {id_text(top)}")
    code = group_counts_problem(naturals + 1, wilds, r)
    if code is not None:
        raise IllegalMove(code)
    plan.new_meld(GROUP, rank, -1, [top] + group_ids)
    _plan_parts(g, plan, move.parts)
    _pile_rest_into(g, plan, g.pile[:-1])
    _check_after(g, plan, extra_value=value_of([KIND_OF_ID[top]]))
    return plan


def verify_take_pile_onto(g: Position, move: TakePileOnto) -> Plan:
    _need(g, "draw")
    r = g.rules
    if not r.take_pile_onto_meld:
        raise IllegalMove("pile_onto_meld_not_allowed")
    _check_pile_takeable(g)
    if g.pile_frozen(g.side_of(g.current)):
        raise IllegalMove("pile_frozen")
    plan = plan_of(g)
    m = plan.find(move.meld)
    top = g.pile[-1]
    limit = r.canasta_size if m.type == GROUP else r.sequence_max
    if m.type not in (GROUP, SEQUENCE) or len(m.cards) >= limit:
        raise IllegalMove("top_card_no_fit", f"m{move.meld} has {len(m.cards)} cards")
    if addition_problem(m, (KIND_OF_ID[top],), r) is not None:
        raise IllegalMove("top_card_no_fit", f"{id_text(top)} onto m{move.meld}")
    plan.touch(move.meld).add([top])
    _pile_rest_into(g, plan, g.pile[:-1])
    _check_after(g, plan)
    return plan


def _pile_rest_into(g: Position, plan: Plan, rest: list[int]) -> None:
    if not g.rules.red_threes_automatic:
        plan.hand.extend(rest)
        return
    for c in rest:
        if IS_RED3[KIND_OF_ID[c]]:
            plan.red3.append(c)
        else:
            plan.hand.append(c)


def _logged_parts(
    parts: Iterable[Part], laid: list[int], start: int, new_id: int
) -> list[dict[str, Any]]:
    """An action's meld parts as log facts, in order: the hand cards each part laid (they are
    ``laid[start:]``, part after part) and the meld they went to, ``new`` when the part made it
    (new melds take ids from ``new_id`` on, as ``Plan.new_meld`` gave them)."""
    out = []
    for part in parts:
        n = len(part.cards)
        ids = laid[start : start + n]
        start += n
        if isinstance(part, NewMeld):
            out.append({"cards": ids, "meld": new_id, "new": True})
            new_id += 1
        else:
            out.append({"cards": ids, "meld": part.meld, "new": False})
    return out


def apply_take_pile(g: Position, move: TakePile | TakePileOnto, plan: Plan) -> None:
    seat, side = g.current, g.side_of(g.current)
    taken = [id_text(c) for c in g.pile]
    public = {"pile": taken, "size": len(g.pile), "card": g.pile[-1]}
    if g.record_log and not isinstance(move, TakePileOnto):
        # The hand cards laid with the top card, the group they made, the other parts.
        n = len(move.cards)
        public["with"] = plan.laid[:n]
        public["group"] = g.next_meld_id
        if move.parts:
            public["parts"] = _logged_parts(move.parts, plan.laid, n, g.next_meld_id + 1)
    g.pile, g.pile_marker = [], False
    g.hands[seat] = plan.hand
    g.melds[side], g.next_meld_id = plan.melds, plan.next_id
    g.red3[side].extend(plan.red3)
    if isinstance(move, TakePileOnto):
        public["meld"] = move.meld
    g._log(seat, move.text(), "take_pile", public=public)
    g.phase = "meld"
    # Replacing red threes found in the pile, where a rule set asks for it.
    if g.rules.red_three_in_pile_replaced:
        for c in plan.red3:
            g.red3[side].remove(c)
            if not g._lay_red3_and_replace(seat, c):
                return
    _after_meld(g, seat)


apply_take_pile_onto = apply_take_pile


def verify_end_deal(g: Position, move: EndDeal) -> None:
    _need(g, "draw")
    if g.stock:
        raise IllegalMove("stock_not_empty")
    if g.rules.must_take_fitting_pile_on_empty_stock:
        side = g.side_of(g.current)
        for m in g.melds[side]:
            try:
                verify_take_pile_onto(g, TakePileOnto(m.id))
            except IllegalMove:
                continue
            raise IllegalMove("must_take_pile", f"onto m{m.id}")


def apply_end_deal(g: Position, move: EndDeal, plan: Plan | None) -> None:
    g._log(g.current, "end", "end")
    g._end_deal("stock")


# Melding -------------------------------------------------------------------------------------
def _plan_parts(g: Position, plan: Plan, parts: Iterable[Part]) -> None:
    """Apply meld parts to a plan (hand cards out, melds changed); raise if any is illegal."""
    r = g.rules
    for i, part in enumerate(parts):
        ids = take_ids(plan.hand, part.cards)
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


def _plan_may_go_out(g: Position, plan: Plan) -> bool:
    return may_go_out(g.requirement_met(-1, plan.melds), g.turn.refused)


def _check_after(g: Position, plan: Plan, extra_value: int = 0) -> None:
    """Opening minimum, black threes and the going-out requirement for a planned action."""
    side = g.side_of(g.current)
    if not g.opened(side) and (plan.laid or extra_value):
        pts = value_of([KIND_OF_ID[c] for c in plan.laid]) + extra_value
        if not opening_minimum_met(pts, g.minimum(side)):
            raise IllegalMove(
                "opening_too_low",
                f"{pts} of {g.minimum(side)}",
                points=pts,
                minimum=g.minimum(side),
            )
    laid_black3 = False
    if plan.black3:
        laid = set(plan.laid)
        laid_black3 = any(
            m.type == BLACK3 and m.id in plan.copied and not laid.isdisjoint(m.cards)
            for m in plan.melds
        )
    code = g.end_of_action_problem(len(plan.hand), g.requirement_met(-1, plan.melds), laid_black3)
    if code is not None:
        raise IllegalMove(code)


def verify_meld(g: Position, move: Meld) -> Plan:
    _need(g, "meld")
    if not move.parts:
        raise IllegalMove("empty_meld")
    plan = plan_of(g)
    _plan_parts(g, plan, move.parts)
    _check_after(g, plan)
    return plan


def apply_meld(g: Position, move: Meld, plan: Plan) -> None:
    seat = g.current
    g.hands[seat] = plan.hand
    first_new = g.next_meld_id
    g.melds[g.side_of(seat)], g.next_meld_id = plan.melds, plan.next_id
    copied = plan.copied  # (the melds changed, in the side's order)
    if g.record_log:
        g._log(
            seat,
            move.text(),
            "meld",
            public={
                "laid": list(plan.laid),
                "melds": list(copied)
                if len(copied) == 1
                else [m.id for m in plan.melds if m.id in copied],
                "parts": _logged_parts(move.parts, plan.laid, 0, first_new),
            },
        )
    _after_meld(g, seat)


def _after_meld(g: Position, seat: int) -> None:
    if not g.hands[seat] and g.phase != "deal_over":
        g.went_out = seat
        g._end_deal("out")


def verify_merge(g: Position, move: Merge) -> Plan:
    _need(g, "meld")
    plan = plan_of(g)
    a, b = plan.find(move.a), plan.find(move.b)
    if a is b or a.type != GROUP or b.type != GROUP or a.rank != b.rank:
        raise IllegalMove("merge_mismatch")
    code = addition_problem(a, b.kinds(), g.rules)
    if code is not None:
        raise IllegalMove(code, move.text())
    if not g.rules.wild_onto_canasta and len(b.cards) >= g.rules.canasta_size and a.wilds:
        raise IllegalMove("wild_on_canasta")
    plan.touch(move.a).add(b.cards)
    plan.drop(move.b)
    if not turn_can_end(g.rules, len(plan.hand), _plan_may_go_out(g, plan)):
        raise IllegalMove("no_end_of_turn")
    return plan


def apply_merge(g: Position, move: Merge, plan: Plan) -> None:
    g.melds[g.side_of(g.current)] = plan.melds
    g._log(g.current, move.text(), "merge", public={"melds": [move.a, move.b]})


# Ending the turn --------------------------------------------------------------------------
def verify_discard(g: Position, move: Discard) -> None:
    _need(g, "meld")
    hand = g.hands[g.current]
    k = move.card
    if not 0 <= k < len(IDS_OF_KIND) or not _holds(hand, k):
        raise IllegalMove(
            "card_not_in_hand", kind_text(k) if 0 <= k < len(IDS_OF_KIND) else repr(k)
        )
    if IS_RED3[k] and not g.rules.red_three_discardable:
        raise IllegalMove("cannot_discard")
    if len(hand) == 1 and not g.may_go_out_now():
        if g.turn.refused:
            raise IllegalMove("partner_refused")
        raise IllegalMove("must_pass" if g.rules.pass_with_one else "cannot_go_out")


def apply_discard(g: Position, move: Discard, plan: Plan | None) -> None:
    seat = g.current
    c = take_ids(g.hands[seat], (move.card,))[0]
    g.pile.append(c)
    g._log(seat, move.text(), "discard", public={"card": c})
    if not g.hands[seat]:
        g.went_out = seat
        g._end_deal("out")
    else:
        g._next_turn()


def verify_pass_turn(g: Position, move: Pass) -> None:
    _need(g, "meld")
    if not may_pass(g.rules, len(g.hands[g.current]), g.may_go_out_now()):
        raise IllegalMove("cannot_pass")


def apply_pass_turn(g: Position, move: Pass, plan: Plan | None) -> None:
    g._log(g.current, "pass", "pass")
    g._next_turn()


def verify_lay_red_three(g: Position, move: LayRedThree) -> None:
    if g.phase not in ("draw", "meld"):
        _need(g, "meld")
    if g.rules.red_threes_automatic:
        raise IllegalMove("red_threes_automatic")
    if not IS_RED3[move.card]:
        raise IllegalMove("not_red_three", move.text())
    take_ids(list(g.hands[g.current]), (move.card,))
    if len(g.hands[g.current]) <= 1:
        raise IllegalMove("must_keep_cards")  # never empty the hand this way (D7)


def apply_lay_red_three(g: Position, move: LayRedThree, plan: Plan | None) -> None:
    seat = g.current
    c = take_ids(g.hands[seat], (move.card,))[0]
    g.red3[g.side_of(seat)].append(c)
    g._log(seat, move.text(), "red3", public={"card": c})


# Asking the partner --------------------------------------------------------------------------
def verify_ask(g: Position, move: Ask) -> Plan:
    _need(g, "meld")
    code = g.ask_problem(g.current)
    if code is not None:
        raise IllegalMove(code)
    return _verify_going_out(g, move)


def _verify_going_out(g: Position, move: Ask) -> Plan:
    side = g.side_of(g.current)
    plan = plan_of(g)
    _plan_parts(g, plan, move.parts)
    if move.discard is not None:
        if len(plan.hand) != 1 or KIND_OF_ID[plan.hand[0]] != move.discard:
            raise IllegalMove("not_going_out", "the discard must be the last card")
        if IS_RED3[move.discard] and not g.rules.red_three_discardable:
            raise IllegalMove("cannot_discard")
    elif plan.hand:
        raise IllegalMove("not_going_out", f"{len(plan.hand)} cards would be left")
    if not g.requirement_met(side, plan.melds):
        raise IllegalMove("cannot_go_out")
    _check_after(g, plan)
    return plan


def apply_ask(g: Position, move: Ask, plan: Plan | None) -> None:
    seat = g.current
    g.turn.asked, g.turn.pending, g.turn.asker = True, move.text(), seat
    g._log(seat, move.text(), "ask", public={"partner": g.partners(seat)[0]})
    g.phase, g.current = "answer", g.partners(seat)[0]


def verify_answer(g: Position, move: Answer) -> None:
    _need(g, "answer")


def apply_answer(g: Position, move: Answer, plan: Plan | None) -> None:
    g._log(g.current, move.text(), "answer", public={"yes": move.yes})
    ask = parse_move(g.turn.pending or "")
    g.current, g.phase, g.turn.pending = g.turn.asker, "meld", None
    if not move.yes:
        g.turn.refused = True
        return
    assert isinstance(ask, Ask)
    plan = _verify_going_out(g, ask)
    if ask.parts:
        apply_meld(g, Meld(ask.parts), plan)
    if ask.discard is not None and g.phase == "meld":
        apply_discard(g, Discard(ask.discard), None)


# Deals ----------------------------------------------------------------------------------------
def verify_next_deal(g: Position, move: NextDeal) -> None:
    _need(g, "deal_over")


def apply_next_deal(g: Position, move: NextDeal, plan: Plan | None) -> None:
    g.start_deal()
