"""Why a move: reasons and warnings in structured form.

``explain(obs, legal, move)`` (a seat's observation, its legal moves, one of them) returns
``{"move": ..., "reasons": [...], "warnings": [...]}`` (the move as its text); each
entry is ``{"key": "why.blocks_pile", "seat": 3, "rank": "J", ...}``: an i18n key and its
parameters (seats are seat numbers for the page to name, ranks and cards are card texts of
docs/formats.md, ``side`` a side number, ``points``/``cards`` numbers). ``reasons`` say what the
move does for the player; ``warnings`` are the blunders of the suite (``tests/blunders``) that
the move commits. Everything is read from what the seat may know (``info.Info`` of its
observation).

The hint (``hints.hint``) is a move of ``hard`` explained by ``explain``.

The keys and their parameters are ``CODES``; the words are the page's (web/i18n/<lang>.json).
"""

from __future__ import annotations

from ..cards import (
    IS_BLACK3,
    IS_NATURAL,
    IS_RED3,
    IS_WILD,
    KIND_OF_ID,
    RANK_CHARS,
    RANK_OF,
    SUIT_OF,
    VALUE_OF_KIND,
    kind_text,
)
from ..moves import (
    AddTo,
    Answer,
    Ask,
    Discard,
    Draw,
    LayRedThree,
    Meld,
    Move,
    NextDeal,
    Pass,
    TakePile,
    TakePileOnto,
    TakeTop,
)
from ..observation import Observation
from .info import Info
from .lastturn import LastTurnMedium
from .medium import MediumBot, _p_pair

# Every code a reason or warning may carry, with its parameters. The engine sends codes and facts,
# never words: the page's catalogues (web/i18n/<lang>.json, the same keys) hold the words in each
# language, and tests/test_hint_codes.py checks that the two agree.
CODES: dict[str, tuple[str, ...]] = {
    "why.blocks_pile": ("seat", "cards"),
    "why.blocks_pile_pair": ("seat", "rank", "cards"),
    "why.blocks_pile_known": ("seat", "rank", "cards"),
    "why.safe_discard": ("seat", "rank"),
    "why.least_useful": ("seat", "card"),
    "why.makes_samba": (),
    "why.extends_sequence": (),
    "why.takes_pile": ("cards",),
    "why.opens": ("points",),
    "why.completes_canasta": (),
    "why.completes_samba": (),
    "why.adds_to_meld": (),
    "why.new_meld": (),
    "why.sheds_wilds": (),
    "why.last_turn": ("seat",),
    "why.draws": (),
    "why.lays_red3": (),
    "why.goes_out": (),
    "why.out_wins_game": (),
    "why.asks_partner": (),
    "why.partner_out": (),
    "why.cards_fit": ("points",),
    "why.hand_costs": ("points",),
    "why.waits_game": ("side",),
    "why.keeps_pair": (),
    "why.next_deal": (),
    "why.search_gain": ("points",),
    "warn.feeds_known_pair": ("seat", "rank", "cards"),
    "warn.leaves_pile_open": ("seat", "cards"),
    "warn.feeds_sequence": ("seat", "card"),
    "warn.feeds_samba": ("seat", "card"),
    "warn.feeds_pile_meld": ("seat", "card", "cards"),
    "warn.misses_samba": (),
    "warn.out_loses_game": ("side",),
    "warn.partner_cards_fit": ("points",),
    "warn.keeps_red3": (),
    "warn.keeps_wilds": (),
}


def rank_name(r: int) -> str:
    return RANK_CHARS[r - 2]


def _laid(move: Move) -> list[int]:
    """The kinds a meld move or a pile take lays from the hand, part by part."""
    out: list[int] = []
    if type(move) is TakePile:
        out += move.cards
    for p in getattr(move, "parts", ()):
        out += p.cards
    return out


def goes_out(info: Info, move: Move) -> bool:
    t = type(move)
    if t is Ask:
        return True
    n = len(info.hand)
    if t is Discard:
        return n == 1
    if t is Meld:
        left = n - len(_laid(move))
        return left == 0 or (info.can_out and left == 1)
    return False


def _seq_extends(info: Info, side: int, k: int):
    """The side's open sequence that natural ``k`` extends, or None."""
    if not IS_NATURAL[k]:
        return None
    r, s = RANK_OF[k], SUIT_OF[k]
    for m in info.melds[side]:
        if (
            m.type == "sequence"
            and not m.closed
            and m.suit == s
            and len(m.cards) < info.rules.sequence_max
        ):
            ranks = [RANK_OF[KIND_OF_ID[c]] for c in m.cards]
            if r in (min(ranks) - 1, max(ranks) + 1):
                return m
    return None


def _top_samba(info: Info) -> bool:
    """A ``top`` move would complete a samba."""
    for mv in info.legal:
        if type(mv) is TakeTop:
            m = info.my_melds.get(mv.meld)
            if m and len(m.cards) + 1 >= info.rules.sequence_max:
                return True
    return False


def _wild_meld_open(info: Info) -> bool:
    return any(any(IS_WILD[k] for k in _laid(mv)) for mv in info.legal if type(mv) is Meld)


def _pair_risk(info: Info, k: int) -> float:
    r = RANK_OF[k]
    if info.next_known[r] >= 2:
        return 1.0
    copies = max(0, 12 - info.seen_rank[r])
    p = _p_pair(copies, info.hand_sizes[info.next], info.unseen_total)
    if r in info.next_discarded:
        p *= 0.3
    return p


def warnings_of(info: Info, move: Move, bot: MediumBot | None = None) -> list[dict]:
    """The suite's blunders that ``move`` (a legal move) commits (``[]`` for none)."""
    bot = bot or MediumBot()
    w = bot.w
    out = []
    t = type(move)
    pile = len(info.pile)
    red3_held = info.rules.red_threes_by_choice and any(IS_RED3[k] for k in info.hand)
    if goes_out(info, move) and info.out_game() < 0:
        out.append({"key": "warn.out_loses_game", "side": _best_other(info)})
    if type(move) is Discard and len(info.hand) > 1:
        k = move.card
        nxt = info.next
        if IS_NATURAL[k] and info.next_side != info.side:
            r = RANK_OF[k]
            if info.next_known[r] >= 2 and pile >= 3:
                out.append(
                    {
                        "key": "warn.feeds_known_pair",
                        "seat": nxt,
                        "rank": rank_name(r),
                        "cards": pile + 1,
                    }
                )
            m = _seq_extends(info, info.next_side, k) if info.rules.take_top_card else None
            if m is not None:
                key = (
                    "warn.feeds_samba"
                    if len(m.cards) + 1 >= info.rules.sequence_max
                    else "warn.feeds_sequence"
                )
                if key == "warn.feeds_samba" or len(m.cards) >= 5 or pile >= 10:
                    out.append({"key": key, "seat": nxt, "card": kind_text(k)})
            if (
                info.rules.take_pile_onto_meld
                and pile >= 6
                and not any(IS_WILD[x] for x in info.pile)
            ):
                for m in info.melds[info.next_side]:
                    if (
                        m.type == "group" and m.rank == r and len(m.cards) < info.rules.canasta_size
                    ) or (m.type == "sequence" and _seq_extends(info, info.next_side, k)):
                        out.append(
                            {
                                "key": "warn.feeds_pile_meld",
                                "seat": nxt,
                                "card": kind_text(k),
                                "cards": pile + 1,
                            }
                        )
                        break
            if (
                pile >= 15
                and _pair_risk(info, k) >= 0.2
                and any(IS_BLACK3[x] or IS_WILD[x] for x in info.hand)
            ):
                out.append({"key": "warn.leaves_pile_open", "cards": pile + 1, "seat": nxt})
        if red3_held and not IS_RED3[k]:
            out.append({"key": "warn.keeps_red3"})
        if (
            not IS_WILD[k]
            and any(IS_WILD[x] for x in info.hand)
            and info.threatened(w["threat_rounds"], int(w["near_out_cards"]))
            and _wild_meld_open(info)
        ):
            out.append({"key": "warn.keeps_wilds"})
    elif t is Pass and red3_held:
        out.append({"key": "warn.keeps_red3"})
    elif (t is Draw or t is TakePile or t is TakePileOnto) and _top_samba(info):
        out.append({"key": "warn.misses_samba"})
    elif type(move) is Answer and move.yes:
        fit = info.fit_value()
        if (
            fit >= w["answer_fit"]
            and not info.threatened(w["threat_rounds"], int(w["near_out_cards"]))
            and info.out_game() <= 0
        ):
            out.append({"key": "warn.partner_cards_fit", "points": int(fit)})
        if any(IS_RED3[k] for k in info.hand):
            out.append({"key": "warn.keeps_red3"})
        if info.out_game() < 0:
            out.append({"key": "warn.out_loses_game", "side": _best_other(info)})
    return out


def _best_other(info: Info) -> int:
    scores = info.scores or [0] * len(info.melds)
    others = [s for s in range(len(info.melds)) if s != info.side]
    return max(others, key=lambda s: scores[s] + info.table_score(s))


def reasons_of(info: Info, move: Move, bot: MediumBot | None = None) -> list[dict]:
    """What the move (a legal move) does for the player (the main reasons first)."""
    bot = bot or MediumBot()
    out: list[dict] = []
    t = type(move)
    pile = len(info.pile)
    nxt = info.next
    if (
        info.can_out
        and not goes_out(info, move)
        and info.out_game() < 0
        and (t is Discard or t is Meld or t is Answer)
    ):
        out.append({"key": "why.waits_game", "side": _best_other(info)})
    ending = LastTurnMedium.closing_seat(info) if t is Discard or t is Meld else None
    if ending is not None and not goes_out(info, move):
        out.append({"key": "why.last_turn", "seat": ending})
    if goes_out(info, move) and t is not Ask:
        out.append({"key": "why.goes_out"})
        if info.out_game() > 0:
            out.append({"key": "why.out_wins_game"})
        return out
    if t is NextDeal:
        out.append({"key": "why.next_deal"})
    elif t is LayRedThree:
        out.append({"key": "why.lays_red3"})
    elif t is Ask:
        out.append({"key": "why.asks_partner"})
    elif type(move) is Answer and move.yes:
        out.append({"key": "why.partner_out"})
    elif t is Answer:
        fit = info.fit_value()
        held = sum(VALUE_OF_KIND[k] for k in info.hand)
        if held > info.rules.going_out_bonus:
            out.append({"key": "why.hand_costs", "points": held})
        if fit:
            out.append({"key": "why.cards_fit", "points": int(fit)})
    elif type(move) is TakeTop:
        m = info.my_melds.get(move.meld)
        if m and len(m.cards) + 1 >= info.rules.sequence_max:
            out.append({"key": "why.makes_samba"})
        else:
            out.append({"key": "why.extends_sequence"})
    elif t is TakePile or t is TakePileOnto:
        if not info.opened:
            out.append({"key": "why.opens", "points": _points(move, info)})
        out.append({"key": "why.takes_pile", "cards": pile})
    elif t is Draw:
        out.append({"key": "why.draws"})
    elif type(move) is Meld:
        out.extend(_meld_reasons(info, move))
    elif type(move) is Discard:
        k = move.card
        if IS_WILD[k] or IS_BLACK3[k] or RANK_OF[k] == 3:
            if info.next_side != info.side:
                out.append(_block_reason(info))
        elif info.next_side != info.side and RANK_OF[k] in info.next_discarded:
            out.append({"key": "why.safe_discard", "seat": nxt, "rank": rank_name(RANK_OF[k])})
        else:
            out.append({"key": "why.least_useful", "seat": nxt, "card": kind_text(k)})
        pairs = [
            x
            for x in set(info.hand)
            if IS_NATURAL[x]
            and x != k
            and sum(1 for y in info.hand if IS_NATURAL[y] and RANK_OF[y] == RANK_OF[x]) == 2
        ]
        if pairs and pile >= 5:
            out.append({"key": "why.keeps_pair"})
    return out


def _points(move: Move, info: Info) -> int:
    """The points a pile take lays from the hand, with the pile's top card."""
    pts = sum(VALUE_OF_KIND[k] for k in _laid(move))
    if info.pile:
        pts += VALUE_OF_KIND[info.pile[-1]]
    return pts


def _block_reason(info: Info) -> dict:
    """Blocking: name the most likely pair the next player holds among the other cards."""
    pile = len(info.pile)
    best, risk = None, 0.0
    for x in set(info.hand):
        if IS_NATURAL[x]:
            p = _pair_risk(info, x)
            if p > risk:
                best, risk = x, p
    if best is not None and info.next_known[RANK_OF[best]] >= 2:
        return {
            "key": "why.blocks_pile_known",
            "seat": info.next,
            "rank": rank_name(RANK_OF[best]),
            "cards": pile + 1,
        }
    if best is not None and risk >= 0.25:
        return {
            "key": "why.blocks_pile_pair",
            "seat": info.next,
            "rank": rank_name(RANK_OF[best]),
            "cards": pile + 1,
        }
    return {"key": "why.blocks_pile", "seat": info.next, "cards": pile + 1}


def _meld_reasons(info: Info, move: Meld) -> list[dict]:
    out = []
    laid = _laid(move)
    if not info.opened:
        return [{"key": "why.opens", "points": sum(VALUE_OF_KIND[k] for k in laid)}]
    if any(IS_WILD[k] for k in laid) and MediumBot().threatened(info):
        out.append({"key": "why.sheds_wilds"})
    for p in move.parts:
        if type(p) is AddTo:
            m = info.my_melds.get(p.meld)
            if m and 0 < m.needs <= len(p.cards):
                out.append(
                    {
                        "key": "why.completes_samba"
                        if m.type == "sequence"
                        else "why.completes_canasta"
                    }
                )
            else:
                out.append({"key": "why.adds_to_meld"})
        else:
            size = len(p.cards)
            out.append(
                {
                    "key": "why.completes_canasta"
                    if size >= info.rules.canasta_size
                    else "why.new_meld"
                }
            )
    seen, uniq = set(), []
    for r in out:
        if r["key"] not in seen:
            seen.add(r["key"])
            uniq.append(r)
    return uniq


def explain(obs: Observation, legal: list[Move], move: Move) -> dict:
    """Why ``move`` (one of ``legal``, the legal moves of the seat that observes ``obs``):
    reasons and warnings (module doc)."""
    info = Info.from_observation(obs, legal)
    return {
        "move": move.text(),
        "reasons": reasons_of(info, move),
        "warnings": warnings_of(info, move),
    }


__all__ = ["explain", "CODES", "warnings_of", "reasons_of"]
