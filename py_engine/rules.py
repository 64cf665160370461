"""Rule sets as data: one frozen, validated dataclass, presets registered by name.

The engine asks the rule set questions (``rules.pile_freezes``); it never tests a preset's name.

>>> get_rules("samba").take_top_card
True
>>> get_rules("dutch").hand_size(6)
13
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

SIDES_BY_PLAYERS = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    # Cards and players
    decks: int = 3
    jokers: int = 6
    players_allowed: tuple[int, ...] = (2, 3, 4)
    default_players: int = 4
    hand_sizes: tuple[tuple[int, int], ...] = ((2, 15), (3, 15), (4, 15))
    draw_counts: tuple[tuple[int, int], ...] = ()  # players -> cards drawn; default 2
    partnerships: bool = True  # 4 and 6 players play in partnerships
    # The pile
    pile_freezes: bool = False  # frozen for an unmelded side (Canasta)
    wild_freezes_pile: bool = False  # a wild card in the pile freezes it for everyone
    covered_red3_freezes_pile: bool = False  # a red 3 covered at the deal freezes it
    take_pile_onto_meld: bool = False  # unfrozen pile: top card onto own meld < canasta size
    take_pile_natural_and_wild: bool = False  # unfrozen pile: one natural + one wild (Canasta)
    take_top_card: bool = False  # take only the top card onto an own sequence
    must_take_fitting_pile_on_empty_stock: bool = False
    # Melds
    group_max_wilds: int = 2
    group_naturals_per_wild: int = 2  # naturals >= per_wild * wilds + min_naturals_extra
    group_min_naturals: int = 0  # ... and naturals >= this
    group_naturals_exceed_wilds: bool = False
    sequences: bool = True
    sequence_max: int = 7
    wild_melds: bool = False  # melds of wild cards only (Bolivia)
    wild_meld_max: int = 7
    canasta_size: int = 7
    wild_onto_canasta: bool = True
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    samba_bonus: int = 1500
    wild_canasta_bonus: int = 2500
    # Threes
    red_threes_automatic: bool = True  # laid at once and replaced from the stock
    red_three_in_pile_replaced: bool = False
    red_three_value: int = 100
    red_three_all_bonus: int = 1000  # total for holding all of them
    red_three_unmet_penalty_all: bool = True  # unmet: minus the same total (else -value each)
    red_three_penalty_if: str = "unmet"  # "unmet" requirement, or "no_meld" (Canasta)
    red_three_held_penalty: int = 0  # side penalty for red threes still in hand (dutch 750)
    red_three_discardable: bool = False
    red_three_unreplaced_ends_deal: bool = True
    black_three_hand_penalty: int = 5  # per black three left in hand
    black_threes_meld_going_out: bool = True
    # Going out
    canastas_to_go_out: tuple[tuple[int, int], ...] = ()  # players -> count; default 2
    go_out_needs_sequence: bool = False  # Bolivia: one of them a samba/escalera
    keep_cards: int = 2  # cards to keep after melding until the side may go out
    pass_with_one: bool = False
    going_out_bonus: int = 200
    concealed_going_out_bonus: int = 0  # 0: no extra bonus for going out in one turn
    may_ask_partner: bool = True
    stock_empty_continuation: bool = False  # Canasta: play on while discards are taken
    # Opening minimum: (lowest side score, minimum), highest band first
    opening_bands: tuple[tuple[int, int], ...] = ((7000, 150), (3000, 120), (1500, 90), (0, 50))
    negative_minimum: int = 15
    # The game
    targets: tuple[int, ...] = (2500, 5000, 7500, 10000)
    default_target: int = 10000
    default_targets: tuple[tuple[int, int], ...] = ()  # players -> usual target; default above
    max_deals: int = 60
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        problems = []
        if not self.name or not self.name.isidentifier():
            problems.append("name must be an identifier")
        if self.default_players not in self.players_allowed:
            problems.append("default_players not allowed")
        for p in self.players_allowed:
            if p not in SIDES_BY_PLAYERS:
                problems.append(f"unsupported player count {p}")
            elif p not in dict(self.hand_sizes):
                problems.append(f"no hand size for {p} players")
        if self.default_target not in self.targets:
            problems.append("default_target not among targets")
        for p, t in self.default_targets:
            if p not in self.players_allowed or t not in self.targets:
                problems.append(f"default_targets: {p} players, {t} not allowed")
        if self.wild_melds and not 3 <= self.wild_meld_max <= 13:
            problems.append("meld sizes out of range")
        if self.go_out_needs_sequence and not self.sequences:
            problems.append("go_out_needs_sequence needs sequences")
        for p, n in self.draw_counts + self.canastas_to_go_out:
            if p not in self.players_allowed or not 1 <= n <= 3:
                problems.append(f"draw_counts/canastas_to_go_out: bad entry ({p}, {n})")
        if self.concealed_going_out_bonus < 0:
            problems.append("concealed_going_out_bonus must not be negative")
        if self.keep_cards not in (1, 2):
            problems.append("keep_cards must be 1 or 2")
        if self.pass_with_one and self.keep_cards != 1:
            problems.append("pass_with_one needs keep_cards 1")
        if self.red_three_penalty_if not in ("unmet", "no_meld"):
            problems.append("red_three_penalty_if must be 'unmet' or 'no_meld'")
        if not 3 <= self.canasta_size <= 13 or not 3 <= self.sequence_max <= 11:
            problems.append("meld sizes out of range")
        if self.take_top_card and not self.sequences:
            problems.append("take_top_card needs sequences")
        bands = [b for b, _ in self.opening_bands]
        if bands != sorted(bands, reverse=True) or (bands and bands[-1] != 0):
            problems.append("opening_bands must descend to 0")
        total = self.decks * 52 + self.jokers
        for p, n in self.hand_sizes:
            if p * n + 2 > total:
                problems.append(f"not enough cards for {p} players")
        if problems:
            raise ValueError(f"invalid rule set {self.name!r}: " + "; ".join(problems))

    # Questions the engine asks ---------------------------------------------------------
    def hand_size(self, players: int) -> int:
        return dict(self.hand_sizes)[players]

    def draw_count(self, players: int) -> int:
        return dict(self.draw_counts).get(players, 2)

    def canastas_needed(self, players: int) -> int:
        return dict(self.canastas_to_go_out).get(players, 2)

    def target_for(self, players: int) -> int:
        """The usual target score at ``players`` players (Canasta: 7,500 with three)."""
        return dict(self.default_targets).get(players, self.default_target)

    def n_sides(self, players: int) -> int:
        return SIDES_BY_PLAYERS[players] if self.partnerships else players

    def opening_minimum(self, score: int) -> int:
        if score < 0:
            return self.negative_minimum
        for low, minimum in self.opening_bands:
            if score >= low:
                return minimum
        raise AssertionError(score)

    @cached_property
    def shortest_finished(self) -> int:
        """The fewest cards of any finished meld (canasta, samba, wild meld)."""
        return min(self.canasta_size, self.sequence_max, self.wild_meld_max)

    def red_threes_total(self) -> int:
        return 2 * self.decks


@dataclass(frozen=True)
class Options:
    """What a player may choose for a game: the player count and the target score."""

    players: int
    target: int

    @staticmethod
    def make(rules: RuleSet, players: int | None = None, target: int | None = None) -> Options:
        p = rules.default_players if players is None else players
        t = (
            rules.target_for(p)
            if target is None and p in rules.players_allowed
            else (rules.default_target if target is None else target)
        )
        if not isinstance(p, int) or isinstance(p, bool) or p not in rules.players_allowed:
            raise ValueError(
                f"{rules.name} is played by {', '.join(map(str, rules.players_allowed))}"
                f" players, not {p!r}"
            )
        if not isinstance(t, int) or isinstance(t, bool) or t not in rules.targets:
            raise ValueError(
                f"target score must be one of {', '.join(map(str, rules.targets))}, not {t!r}"
            )
        return Options(p, t)


SAMBA = RuleSet(
    name="samba",
    title="Samba",
    take_top_card=True,
    notes=("seeds 001/004",),
)

DUTCH = RuleSet(
    name="dutch",
    title="Samba (Dutch rules)",
    players_allowed=(2, 3, 4, 5, 6),
    default_players=4,
    hand_sizes=((2, 15), (3, 15), (4, 15), (5, 15), (6, 13)),
    take_top_card=True,
    red_threes_automatic=False,
    red_three_held_penalty=750,
    red_three_discardable=True,
    red_three_unmet_penalty_all=False,
    red_three_unreplaced_ends_deal=False,
    keep_cards=1,
    pass_with_one=True,
    notes=("seed 002",),
)

CRAWFORD = RuleSet(
    name="crawford",
    title="Samba (Crawford, three partnerships)",
    players_allowed=(4, 6),
    default_players=6,
    hand_sizes=((4, 15), (6, 15)),
    pile_freezes=True,
    wild_freezes_pile=True,
    covered_red3_freezes_pile=True,
    take_pile_onto_meld=True,
    group_naturals_per_wild=0,
    group_min_naturals=2,
    wild_onto_canasta=False,
    must_take_fitting_pile_on_empty_stock=True,
    stock_empty_continuation=True,
    notes=("seed 000",),
)

# Bolivia (docs/rules.md section 11): Dutch Samba plus melds of wild cards only (seven are a
# closed "bolivia"); a seven-card sequence, the "escalera", is needed to go out.
BOLIVIA = replace(
    DUTCH,
    name="bolivia",
    title="Bolivia",
    wild_melds=True,
    wild_meld_max=7,
    wild_canasta_bonus=2500,
    go_out_needs_sequence=True,
    black_three_hand_penalty=100,
    targets=(2500, 5000, 7500, 10000, 15000),
    default_target=15000,
    notes=("docs/rules.md section 11",),
)

# Classic Canasta as the site of seeds 001/004 plays it (docs/rules.md section 11).
CANASTA = RuleSet(
    name="canasta",
    title="Canasta",
    decks=2,
    jokers=4,
    players_allowed=(2, 3, 4),
    default_players=4,
    hand_sizes=((2, 15), (3, 13), (4, 11)),
    draw_counts=((2, 2), (3, 2), (4, 1)),
    pile_freezes=True,
    wild_freezes_pile=True,
    take_pile_natural_and_wild=True,
    sequences=False,
    take_top_card=False,
    group_max_wilds=3,
    group_naturals_per_wild=0,
    group_naturals_exceed_wilds=True,
    red_three_value=100,
    red_three_all_bonus=800,
    red_three_penalty_if="no_meld",
    red_three_discardable=False,
    canastas_to_go_out=((2, 2), (3, 1), (4, 1)),
    going_out_bonus=100,
    concealed_going_out_bonus=200,
    opening_bands=((3000, 120), (1500, 90), (0, 50)),
    negative_minimum=15,
    targets=(2500, 5000, 7500, 10000),
    default_target=5000,
    default_targets=((3, 7500),),
    notes=("seeds 001/004",),
)

PRESETS: dict[str, RuleSet] = {r.name: r for r in (SAMBA, DUTCH, CRAWFORD, BOLIVIA, CANASTA)}


def get_rules(name: str) -> RuleSet:
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown rule set {name!r}; choose one of {', '.join(PRESETS)}") from None
