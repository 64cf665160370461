"""Game records, the full state as JSON, and scenarios (see docs/formats.md)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, NoReturn

from .cards import IS_RED3, KIND_OF_ID, deck_ids, id_text, kind_text, parse_kind
from .errors import IllegalMove, InvalidMove, ScenarioError
from .legal import legal_moves
from .melds import SEQUENCE, TableMeld, classify, sort_sequence
from .rules import Options, get_rules
from .state import PHASES, Game, Turn

RECORD_FORMAT = "samba-record/1"
STATE_FORMAT = "samba-state/1"


# Records ---------------------------------------------------------------------------------------
def game_record(game: Game) -> dict[str, Any]:
    rec = {
        "format": RECORD_FORMAT,
        "rules": game.rules.name,
        "players": game.players,
        "target": game.target,
        "seed": game.seed,
        "moves": list(game.moves),
    }
    if game.scenario is not None:
        rec["scenario"] = game.scenario
    if game.deal_seeds:
        rec["deal_seeds"] = {str(k): v for k, v in sorted(game.deal_seeds.items())}
    return rec


def replay(record: dict[str, Any], upto: int | None = None) -> Game:
    """Rebuild a game from its record, checking every move; raises ScenarioError if it fails."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ScenarioError(f"not a game record (format must be {RECORD_FORMAT!r})")
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ScenarioError("record 'moves' must be a list of move texts")
    try:
        seeds = record.get("deal_seeds")
        if seeds is not None:
            if not isinstance(seeds, dict) or not all(
                isinstance(k, str) and k.isdigit() for k in seeds
            ):
                raise ScenarioError("record 'deal_seeds' must map deal numbers to seed texts")
            seeds = {int(k): v for k, v in seeds.items()}
        if "scenario" in record:
            game = load_scenario(record["scenario"])
            if seeds:
                raise ScenarioError("a record of a scenario has no deal seeds")
        else:
            game = Game.new(
                record.get("rules", "samba"),
                record.get("players"),
                record.get("target"),
                record.get("seed", 0),
                deal_seeds=seeds,
            )
    except ScenarioError:
        raise
    except (ValueError, TypeError, KeyError) as e:
        raise ScenarioError(f"bad record: {e}") from None
    for i, text in enumerate(moves[:upto]):
        try:
            game.play(text)
        except (IllegalMove, InvalidMove) as e:
            raise ScenarioError(f"move {i + 1} ({text!r}) is not legal: {e}") from None
    return game


# The full state --------------------------------------------------------------------------------
def state_to_json(game: Game) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "rules": game.rules.name,
        "players": game.players,
        "target": game.target,
        "seed": game.seed,
        "scores": list(game.scores),
        "history": [list(h) for h in game.history],
        "breakdowns": game.breakdowns,
        "deal": game.deal_no,
        "dealer": game.dealer,
        "hands": [list(h) for h in game.hands],
        "stock": list(game.stock),
        "pile": list(game.pile),
        "pile_marker": game.pile_marker,
        "melds": [[m.to_json() for m in side] for side in game.melds],
        "red_threes": [list(s) for s in game.red3],
        "next_meld_id": game.next_meld_id,
        "phase": game.phase,
        "current": game.current,
        "turn": game.turn.to_json(),
        "went_out": game.went_out,
        "deal_result": game.deal_result,
        "result": game.result,
        "moves": list(game.moves),
        "log": game.log,
        "version": game.version,
        "scenario": game.scenario,
        "deal_seeds": {str(k): v for k, v in sorted(game.deal_seeds.items())},
    }


def state_from_json(d: dict[str, Any]) -> Game:
    """Load a full state; raises ScenarioError when it does not describe a valid game."""
    try:
        if d.get("format") != STATE_FORMAT:
            raise ScenarioError(f"not a saved state (format must be {STATE_FORMAT!r})")
        t = d["turn"]
        g = Game.from_position(
            d["rules"],
            d["players"],
            d["target"],
            int(d["seed"]),
            hands=[[int(c) for c in h] for h in d["hands"]],
            stock=[int(c) for c in d["stock"]],
            pile=[int(c) for c in d["pile"]],
            melds=[[TableMeld.from_json(m) for m in side] for side in d["melds"]],
            red3=[[int(c) for c in s] for s in d["red_threes"]],
            phase=str(d["phase"]),
            current=int(d["current"]),
            dealer=int(d["dealer"]),
            deal_no=int(d["deal"]),
            scores=[int(x) for x in d["scores"]],
            pile_marker=bool(d["pile_marker"]),
            next_meld_id=int(d["next_meld_id"]),
            turn=Turn(
                bool(t["asked"]),
                bool(t["refused"]),
                t["pending"],
                int(t["asker"]),
                bool(t.get("melded_before", True)),
            ),
            version=int(d["version"]),
        )
        g.history = [[int(x) for x in h] for h in d["history"]]
        g.breakdowns = list(d.get("breakdowns", []))
        g.went_out, g.deal_result, g.result = d["went_out"], d["deal_result"], d["result"]
        g.moves, g.log = list(d["moves"]), list(d["log"])
        g.deal_seeds = {int(k): str(v) for k, v in d.get("deal_seeds", {}).items()}
        g.scenario = d.get("scenario")
    except ScenarioError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ScenarioError(f"corrupt saved state: {e!r}") from None
    check_consistent(g)
    return g


def check_consistent(g: Game) -> None:
    """Every card of the deck exactly once, shapes right; raises ScenarioError."""
    if len(g.hands) != g.players or len(g.melds) != g.n_sides or len(g.red3) != g.n_sides:
        raise ScenarioError("wrong number of hands or sides")
    if len(g.scores) != g.n_sides:
        raise ScenarioError("wrong number of scores")
    ids = sorted(g.all_card_ids())
    if ids != sorted(deck_ids(g.rules.decks, g.rules.jokers)):
        raise ScenarioError("the cards do not add up to the deck")
    if g.phase not in PHASES or not 0 <= g.current < g.players or not 0 <= g.dealer < g.players:
        raise ScenarioError("bad phase, current seat or dealer")
    for side in g.melds:
        for m in side:
            if not m.cards:
                raise ScenarioError(f"empty meld m{m.id}")
            try:
                t, rank, suit = classify([KIND_OF_ID[c] for c in m.cards], g.rules)
            except IllegalMove as e:
                raise ScenarioError(f"illegal meld m{m.id}: {e}") from None
            if (t, rank, suit) != (m.type, m.rank, m.suit):
                raise ScenarioError(f"meld m{m.id} is not the {m.type} it claims to be")
            if t == SEQUENCE and m.cards != sort_sequence(m.cards):
                raise ScenarioError(f"sequence m{m.id} is out of order")
    mids = [m.id for side in g.melds for m in side]
    if len(set(mids)) != len(mids) or any(not 0 < i < g.next_meld_id for i in mids):
        raise ScenarioError("meld ids must be unique and below next_meld_id")
    for reds in g.red3:
        if not all(IS_RED3[KIND_OF_ID[c]] for c in reds):
            raise ScenarioError("only red threes may be laid as red threes")
    if g.phase == "answer" and (not g.turn.pending or g.turn.asker not in range(g.players)):
        raise ScenarioError("the answer phase needs a pending question")


# Scenarios --------------------------------------------------------------------------------------
def _kinds(cards: Iterable[object], where: str) -> list[int]:
    if not isinstance(cards, list):
        raise ScenarioError(f"{where} must be a list of cards")
    try:
        return [parse_kind(c) if isinstance(c, str) else _bad(c) for c in cards]
    except ValueError as e:
        raise ScenarioError(f"{where}: {e}") from None


def _bad(c: object) -> NoReturn:
    raise ValueError(f"malformed card {c!r}")


def load_scenario(sc: Any) -> Game:
    """Set up any position from a scenario (docs/formats.md); raises ScenarioError."""
    if not isinstance(sc, dict):
        raise ScenarioError("a scenario is a JSON object")
    known = {
        "rules",
        "players",
        "target",
        "seed",
        "scores",
        "dealer",
        "deal",
        "current",
        "phase",
        "hands",
        "pile",
        "melds",
        "red_threes",
        "stock",
        "pile_frozen",
        "title",
        "description",
    }
    extra = set(sc) - known
    if extra:
        raise ScenarioError(f"unknown scenario field(s): {', '.join(sorted(extra))}")
    try:
        rules = get_rules(sc.get("rules", "samba"))
        opts = Options.make(rules, sc.get("players"), sc.get("target"))
    except ValueError as e:
        raise ScenarioError(str(e)) from None
    seed = sc.get("seed", 0)
    if not isinstance(seed, int):
        raise ScenarioError("seed must be an integer")
    n, ns = opts.players, rules.n_sides(opts.players)
    pool: dict[int, list[int]] = {}
    for c in deck_ids(rules.decks, rules.jokers):
        pool.setdefault(KIND_OF_ID[c], []).append(c)

    def take(kinds: Iterable[int], where: str) -> list[int]:
        out = []
        for k in kinds:
            if not pool.get(k):
                raise ScenarioError(f"{where}: more copies of {kind_text(k)} than the deck has")
            out.append(pool[k].pop(0))
        return out

    hands = sc.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise ScenarioError(f"'hands' must list {n} hands")
    hand_ids = [take(_kinds(h, f"hand {i}"), f"hand {i}") for i, h in enumerate(hands)]
    for i, h in enumerate(hand_ids):
        if not h:
            raise ScenarioError(f"hand {i} is empty")
        if rules.red_threes_automatic and any(IS_RED3[KIND_OF_ID[c]] for c in h):
            raise ScenarioError(f"hand {i} holds a red three, which this rule set lays at once")
    pile = take(_kinds(sc.get("pile", []), "pile"), "pile")
    melds = sc.get("melds", [[] for _ in range(ns)])
    if not isinstance(melds, list) or len(melds) != ns:
        raise ScenarioError(f"'melds' must list {ns} sides")
    table: list[list[TableMeld]] = [[] for _ in range(ns)]
    next_id = 1
    for s, side in enumerate(melds):
        if not isinstance(side, list):
            raise ScenarioError(f"melds of side {s} must be a list")
        for j, cards in enumerate(side):
            ids = take(_kinds(cards, f"side {s} meld {j + 1}"), f"side {s} meld {j + 1}")
            try:
                t, rank, suit = classify([KIND_OF_ID[c] for c in ids], rules)
            except IllegalMove as e:
                raise ScenarioError(f"side {s} meld {j + 1} is illegal: {e}") from None
            table[s].append(
                TableMeld(next_id, t, rank, suit, sort_sequence(ids) if t == SEQUENCE else ids)
            )
            next_id += 1
    reds = sc.get("red_threes", [[] for _ in range(ns)])
    if not isinstance(reds, list) or len(reds) != ns:
        raise ScenarioError(f"'red_threes' must list {ns} sides")
    red3: list[list[int]] = []
    for s, side in enumerate(reds):
        ks = _kinds(side, f"red threes of side {s}")
        if not all(IS_RED3[k] for k in ks):
            raise ScenarioError(f"red threes of side {s}: only 3H and 3D belong there")
        red3.append(take(ks, f"red threes of side {s}"))
    if "stock" in sc:
        stock = list(reversed(take(_kinds(sc["stock"], "stock"), "stock")))
        left = sum(len(v) for v in pool.values())
        if left:
            raise ScenarioError(f"{left} cards of the deck are missing from the scenario")
    else:
        stock = sorted(c for v in pool.values() for c in v)
        random.Random(f"scenario:{seed}").shuffle(stock)
    scores = sc.get("scores", [0] * ns)
    if (
        not isinstance(scores, list)
        or len(scores) != ns
        or not all(isinstance(x, int) for x in scores)
    ):
        raise ScenarioError(f"'scores' must list {ns} integers")
    deal_no = _int(sc, "deal", 1, 1, rules.max_deals)
    dealer = _int(sc, "dealer", n - 1, 0, n - 1)
    current = _int(sc, "current", (dealer + 1) % n, 0, n - 1)
    phase = sc.get("phase", "draw")
    if phase not in ("draw", "meld"):
        raise ScenarioError("'phase' must be 'draw' or 'meld'")
    g = Game.from_position(
        rules,
        n,
        opts.target,
        seed,
        hands=hand_ids,
        stock=stock,
        pile=pile,
        melds=table,
        red3=red3,
        phase=phase,
        current=current,
        dealer=dealer,
        deal_no=deal_no,
        scores=list(scores),
        pile_marker=bool(sc.get("pile_frozen", False)),
        next_meld_id=next_id,
    )
    g.scenario = sc
    check_consistent(g)
    if not legal_moves(g):
        # e.g. one card left in the meld phase while the side may not go out: play could not go on
        raise ScenarioError("the player to move would have no legal move in this position")
    g._log(None, "scenario", "scenario")
    return g


def _int(sc: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    v = sc.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ScenarioError(f"'{key}' must be an integer from {lo} to {hi}")
    return v


def scenario_of(game: Game) -> dict[str, Any]:
    """The scenario that sets up the current position (stock included)."""
    return {
        "rules": game.rules.name,
        "players": game.players,
        "target": game.target,
        "seed": game.seed,
        "scores": list(game.scores),
        "dealer": game.dealer,
        "deal": game.deal_no,
        "current": game.current,
        "phase": game.phase,
        "hands": [[id_text(c) for c in h] for h in game.hands],
        "pile": [id_text(c) for c in game.pile],
        "melds": [[[id_text(c) for c in m.cards] for m in side] for side in game.melds],
        "red_threes": [[id_text(c) for c in s] for s in game.red3],
        "stock": [id_text(c) for c in reversed(game.stock)],
        "pile_frozen": game.pile_marker,
    }


__all__ = [
    "game_record",
    "replay",
    "state_to_json",
    "state_from_json",
    "load_scenario",
    "scenario_of",
    "check_consistent",
]
