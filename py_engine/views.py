"""``view_for(game, seat)``: everything that seat may know, nothing more (JSON-ready)."""
from __future__ import annotations

from .cards import IS_WILD, KIND_OF_ID, RANK_CHARS, SUIT_CHARS, card_sort_key, id_text, kind_text
from .legal import legal_moves
from .melds import bonus_of, canasta_kind, cards_needed, is_closed, value_of
from .moves import AddTo, Discard, TakePile
from .moves import Meld as MeldMove
from .scoring import side_canastas
from .state import Game


def card(c: int) -> dict:
    return {"id": c, "c": id_text(c)}


def sorted_hand(ids: list[int]) -> list[int]:
    return sorted(ids, key=lambda c: (card_sort_key(KIND_OF_ID[c]), c))


def meld_view(m, rules) -> dict:
    kinds = m.kinds()
    w = sum(1 for k in kinds if IS_WILD[k])
    return {"id": m.id, "type": m.type,
            "rank": RANK_CHARS[m.rank - 2] if m.rank >= 2 else None,
            "suit": SUIT_CHARS[m.suit] if m.suit >= 0 else None,
            "cards": [card(c) for c in m.cards], "size": len(kinds), "naturals": len(kinds) - w,
            "wilds": w, "canasta": canasta_kind(m.type, kinds, rules) or (
                "black_threes" if m.type == "black3" else None),
            "needs": cards_needed(m.type, len(kinds), rules),
            "closed": is_closed(m.type, len(kinds), rules),
            "value": value_of(kinds), "bonus": bonus_of(m.type, kinds, rules)}


def _log_entry(e: dict, seat: int, game: Game) -> dict:
    text = e["move"]
    if text.startswith("ask") and (e["seat"] is None
                                   or game.side_of(e["seat"]) != game.side_of(seat)):
        text = "ask"   # the proposed action is between partners
    out = {"deal": e["deal"], "seat": e["seat"], "text": text}
    pub = dict(e["public"])
    for key in ("card",):
        if key in pub:
            pub[key] = id_text(pub[key])
    out.update(pub)
    if e["seat"] == seat and e["private"].get("cards"):
        out["cards"] = [id_text(c) for c in e["private"]["cards"]]
    return out


def _single_adds(moves) -> dict[str, list[int]]:
    """Card -> meld ids it may join alone now (from the legal single-card additions)."""
    out: dict[str, list[int]] = {}
    for m in moves:
        if isinstance(m, MeldMove) and len(m.parts) == 1 and isinstance(m.parts[0], AddTo) \
                and len(m.parts[0].cards) == 1:
            out.setdefault(kind_text(m.parts[0].cards[0]), []).append(m.parts[0].meld)
    return out


def legal_view(game: Game, seat: int) -> dict | None:
    if game.current != seat or game.phase in ("game_over",):
        if game.phase == "deal_over":
            return {"moves": ["next"], "discard": [], "adds": {}, "melds": [], "can_ask": False}
        return None
    moves = legal_moves(game)
    simple = [m.text() for m in moves if not isinstance(m, MeldMove)]
    return {"moves": simple,
            "discard": [kind_text(m.card) for m in moves if isinstance(m, Discard)],
            "adds": _single_adds(moves),
            "melds": [m.text()[len("meld "):] for m in moves if isinstance(m, MeldMove)],
            "takes": [m.text() for m in moves if isinstance(m, TakePile)],
            "can_ask": any(t.startswith("ask") for t in simple)
            or (bool(game.partners(seat)) and game.phase == "meld" and not game.turn.asked
                and game.requirement_met(game.side_of(seat)))}


def view_for(game: Game, seat: int, with_legal: bool = True) -> dict:
    """What ``seat`` may know. Other hands are counts, the stock a count."""
    r = game.rules
    top = game.pile[-1] if game.pile else None
    pile = {"size": len(game.pile), "top": card(top) if top is not None else None,
            "blocked": game.pile_blocked(),
            "frozen": game.pile_frozen(game.side_of(seat)) if r.pile_freezes else False,
            "cards": [card(c) for c in game.pile]}
    return {
        "version": game.version,
        "rules": {"name": r.name, "title": r.title, "take_top_card": r.take_top_card,
                  "pass_with_one": r.pass_with_one,
                  "red_threes_by_choice": not r.red_threes_automatic,
                  "pile_can_freeze": r.pile_freezes, "canasta_size": r.canasta_size,
                  "sequence_max": r.sequence_max, "take_pile_onto_meld": r.take_pile_onto_meld},
        "players": game.players, "seat": seat,
        "sides": [game.seats_of(s) for s in range(game.n_sides)],
        "side_of": [game.side_of(s) for s in range(game.players)],
        "my_side": game.side_of(seat),
        "deal": game.deal_no, "dealer": game.dealer, "target": game.target,
        "phase": game.phase,
        "current": game.current if game.phase not in ("deal_over", "game_over") else None,
        "hand": [card(c) for c in sorted_hand(game.hands[seat])],
        "hand_sizes": [len(h) for h in game.hands],
        "stock": len(game.stock),
        "pile": pile,
        "melds": [[meld_view(m, r) for m in side] for side in game.melds],
        "red_threes": [[card(c) for c in side] for side in game.red3],
        "scores": list(game.scores),
        "opened": [game.opened(s) for s in range(game.n_sides)],
        "minimum": [game.minimum(s) for s in range(game.n_sides)],
        "canastas": [side_canastas(m, r)[0] for m in game.melds],
        "requirement": r.canastas_needed(game.players),
        "turn": {"asked": game.turn.asked, "refused": game.turn.refused,
                 "pending": game.turn.pending if game.turn.asker >= 0 and game.side_of(
                     game.turn.asker) == game.side_of(seat) else None,
                 "asker": game.turn.asker},
        "legal": legal_view(game, seat) if with_legal else None,
        "log": [{"i": i, **_log_entry(game.log[i], seat, game)}
                for i in range(max(0, len(game.log) - 60), len(game.log))],
        "deal_result": game.deal_result,
        "history": [list(h) for h in game.history],
        "breakdowns": game.breakdowns,
        "result": game.result,
    }
