"""The rules page's data, generated from the rule sets themselves (so it cannot disagree with the
engine). Labels are i18n keys (``rules.row.<field>``); values are numbers, booleans or short
value keys (``rules.value.<key>``) that the page translates.

>>> rows = rules_table()
>>> next(r for r in rows if r["field"] == "take_top_card")["values"]["crawford"]
False
>>> next(r for r in rows if r["field"] == "draw_counts")["values"]["canasta"]
[[2, 2], [3, 2], [4, 1]]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

from .levels import SEAT_KINDS
from .rules import PRESETS, RuleSet

# Fields shown on the page, in order (the rest are the same in every offered rule set or
# internal); each with how to present it. A few rows are derived (``DERIVED``): a value per
# player count, or the bolivia bonus shown as 0 where the rule set has no wild-card melds.
ROWS = [
    ("players_allowed", "list"),
    ("default_players", "int"),
    ("decks", "int"),
    ("jokers", "int"),
    ("hand_sizes", "pairs"),
    ("draw_counts", "pairs"),
    ("pile_freezes", "bool"),
    ("wild_freezes_pile", "bool"),
    ("take_pile_onto_meld", "bool"),
    ("take_pile_natural_and_wild", "bool"),
    ("take_top_card", "bool"),
    ("sequences", "bool"),
    ("group_max_wilds", "int"),
    ("group_naturals_per_wild", "int"),
    ("group_min_naturals", "int"),
    ("group_naturals_exceed_wilds", "bool"),
    ("wild_onto_canasta", "bool"),
    ("wild_melds", "bool"),
    ("red_threes_automatic", "bool"),
    ("red_three_discardable", "bool"),
    ("red_three_held_penalty", "int"),
    ("red_three_unmet_penalty_all", "bool"),
    ("red_three_penalty_if", "bool"),
    ("black_three_hand_penalty", "int"),
    ("keep_cards", "int"),
    ("pass_with_one", "bool"),
    ("stock_empty_continuation", "bool"),
    ("canastas_to_go_out", "pairs"),
    ("go_out_needs_sequence", "bool"),
    ("canasta_size", "int"),
    ("sequence_max", "int"),
    ("natural_canasta_bonus", "int"),
    ("mixed_canasta_bonus", "int"),
    ("samba_bonus", "int"),
    ("wild_canasta_bonus", "int"),
    ("red_three_value", "int"),
    ("red_three_all_bonus", "int"),
    ("going_out_bonus", "int"),
    ("concealed_going_out_bonus", "int"),
    ("opening_bands", "bands"),
    ("negative_minimum", "int"),
    ("targets", "list"),
    ("default_target", "pairs"),
    ("max_deals", "int"),
]

# Rows whose value is computed from the rule set rather than read from one field.
DERIVED: dict[str, Callable[[RuleSet], object]] = {
    "draw_counts": lambda rs: [[p, rs.draw_count(p)] for p in rs.players_allowed],
    "canastas_to_go_out": lambda rs: [[p, rs.canastas_needed(p)] for p in rs.players_allowed],
    "default_target": lambda rs: [[p, rs.target_for(p)] for p in rs.players_allowed],
    # True: red threes count minus for a side that melded nothing (Canasta); False: for a side
    # without its going-out requirement.
    "red_three_penalty_if": lambda rs: rs.red_three_penalty_if == "no_meld",
    "wild_canasta_bonus": lambda rs: rs.wild_canasta_bonus if rs.wild_melds else 0,
}


def _value(rs: RuleSet, name: str, kind: str):
    if name in DERIVED:
        return DERIVED[name](rs)
    v = getattr(rs, name)
    if kind in ("list", "pairs", "bands"):
        return [list(x) if isinstance(x, tuple) else x for x in v]
    return v


def rules_table(presets: dict[str, RuleSet] | None = None) -> list[dict]:
    """One row per field: its i18n key, kind, each rule set's value, and whether they differ."""
    presets = presets or PRESETS
    known = {f.name for f in fields(RuleSet)}
    rows = []
    for name, kind in ROWS:
        assert name in known, name
        values = {p: _value(rs, name, kind) for p, rs in presets.items()}
        rows.append(
            {
                "field": name,
                "label": f"rules.row.{name}",
                "kind": kind,
                "values": values,
                "differs": len({repr(v) for v in values.values()}) > 1,
            }
        )
    return rows


def _sides(rs: RuleSet, players: int) -> list[list[int]]:
    """The seats of each side at ``players`` (as ``Position`` seats them: seat % sides)."""
    n = rs.n_sides(players)
    return [[s for s in range(players) if s % n == side] for side in range(n)]


def rules_data() -> dict:
    return {
        "format": "samba-rules/1",
        "presets": [
            {
                "name": p,
                "title": rs.title,
                "notes": list(rs.notes),
                "sides": [[n, _sides(rs, n)] for n in rs.players_allowed],
            }
            for p, rs in PRESETS.items()
        ],
        "rows": rules_table(),
        # what a seat of a new game may be (the computer levels, then a person), in order
        "levels": list(SEAT_KINDS),
    }
