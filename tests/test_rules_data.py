"""Rule sets as data (docs/rules.md section 11): presets, validation, options."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rulebook_helpers import OPENING_BANDS

from py_engine import rules as R
from py_engine.rules import PRESETS, Options, RuleSet, get_rules
from py_engine.scoring import red_threes_score


def test_five_presets_registered_by_name():
    assert list(PRESETS) == ["samba", "dutch", "crawford", "bolivia", "canasta"]
    for name, rs in PRESETS.items():
        assert rs.name == name
        assert get_rules(name) is rs
        assert isinstance(rs, RuleSet)


def test_unknown_rule_set_names_the_choices():
    with pytest.raises(ValueError) as e:
        get_rules("bridge")
    assert "bridge" in str(e.value) and "samba" in str(e.value)
    with pytest.raises(ValueError):
        get_rules(None)


def test_rule_sets_are_frozen():
    with pytest.raises(AttributeError):  # dataclasses.FrozenInstanceError
        get_rules("samba").take_top_card = False  # type: ignore[misc]


# Section 11, row "players"
@pytest.mark.parametrize(
    "name,allowed,default",
    [
        ("samba", (2, 3, 4), 4),
        ("dutch", (2, 3, 4, 5, 6), 4),
        ("crawford", (4, 6), 6),
        ("bolivia", (2, 3, 4, 5, 6), 4),
        ("canasta", (2, 3, 4), 4),
    ],
)
def test_players_row(name, allowed, default):
    rs = get_rules(name)
    assert tuple(sorted(rs.players_allowed)) == allowed
    assert rs.default_players == default


# Section 11, row "cards dealt"
@pytest.mark.parametrize(
    "name,players,dealt",
    [
        ("samba", 2, 15),
        ("samba", 3, 15),
        ("samba", 4, 15),
        ("dutch", 2, 15),
        ("dutch", 4, 15),
        ("dutch", 5, 15),
        ("dutch", 6, 13),
        ("crawford", 4, 15),
        ("crawford", 6, 15),
        ("bolivia", 2, 15),
        ("bolivia", 5, 15),
        ("bolivia", 6, 13),
        ("canasta", 2, 15),
        ("canasta", 3, 13),
        ("canasta", 4, 11),
    ],
)
def test_cards_dealt_row(name, players, dealt):
    assert get_rules(name).hand_size(players) == dealt


# Section 2: sides
@pytest.mark.parametrize(
    "name,players,sides",
    [
        ("samba", 2, 2),
        ("samba", 3, 3),
        ("samba", 4, 2),
        ("dutch", 6, 3),
        ("dutch", 5, 5),
        ("crawford", 6, 3),
        ("crawford", 4, 2),
        ("bolivia", 6, 3),
        ("bolivia", 5, 5),
        ("canasta", 2, 2),
        ("canasta", 3, 3),
        ("canasta", 4, 2),
    ],
)
def test_side_counts(name, players, sides):
    assert get_rules(name).n_sides(players) == sides


def test_pile_freezes_row():
    assert not get_rules("samba").pile_freezes
    assert not get_rules("dutch").pile_freezes
    c = get_rules("crawford")
    assert c.pile_freezes and c.wild_freezes_pile and c.covered_red3_freezes_pile
    for name in ("samba", "dutch", "bolivia"):
        rs = get_rules(name)
        assert not rs.wild_freezes_pile and not rs.covered_red3_freezes_pile
    k = get_rules("canasta")
    assert k.pile_freezes and k.wild_freezes_pile and not k.covered_red3_freezes_pile  # D19


def test_take_pile_row():
    for name in ("samba", "dutch", "bolivia", "canasta"):
        assert not get_rules(name).take_pile_onto_meld, name
    assert get_rules("crawford").take_pile_onto_meld
    for name in ("samba", "dutch", "crawford", "bolivia"):  # never one natural and one wild
        assert not get_rules(name).take_pile_natural_and_wild
    assert get_rules("canasta").take_pile_natural_and_wild


def test_take_top_card_row():
    for name in ("samba", "dutch", "bolivia"):
        assert get_rules(name).take_top_card
    assert not get_rules("crawford").take_top_card
    assert not get_rules("canasta").take_top_card


def test_group_ratio_row():
    for name in ("samba", "dutch", "bolivia"):
        rs = get_rules(name)
        assert rs.group_naturals_per_wild == 2 and rs.group_max_wilds == 2
        assert not rs.group_naturals_exceed_wilds
    c = get_rules("crawford")
    assert c.group_min_naturals == 2 and c.group_max_wilds == 2
    k = get_rules("canasta")
    assert k.group_max_wilds == 3 and k.group_naturals_exceed_wilds
    assert k.group_naturals_per_wild == 0 and k.group_min_naturals == 0


def test_wild_onto_canasta_row():
    for name in ("samba", "dutch", "bolivia", "canasta"):
        assert get_rules(name).wild_onto_canasta
    assert not get_rules("crawford").wild_onto_canasta


def test_red_threes_row():
    for name in ("samba", "crawford", "canasta"):
        rs = get_rules(name)
        assert rs.red_threes_automatic and rs.red_three_held_penalty == 0
        assert not rs.red_three_discardable and rs.red_three_unreplaced_ends_deal
    for name in ("dutch", "bolivia"):
        d = get_rules(name)
        assert not d.red_threes_automatic
        assert d.red_three_held_penalty == 750
        assert d.red_three_discardable


@pytest.mark.parametrize(
    "name,unmet_all_six",
    [("samba", -1000), ("dutch", -600), ("crawford", -1000), ("bolivia", -600)],
)
def test_all_six_red_threes_row(name, unmet_all_six):
    rs = get_rules(name)
    assert red_threes_score(6, rs, positive=False) == unmet_all_six
    assert red_threes_score(6, rs, positive=True) == 1000
    assert red_threes_score(2, rs, positive=True) == 200
    assert red_threes_score(2, rs, positive=False) == -200
    assert red_threes_score(0, rs, positive=False) == 0


def test_canasta_all_four_red_threes_row():
    k = get_rules("canasta")
    assert k.red_threes_total() == 4 and k.red_three_penalty_if == "no_meld"
    assert red_threes_score(4, k, positive=True) == 800
    assert red_threes_score(4, k, positive=False) == -800
    assert red_threes_score(3, k, positive=True) == 300
    assert red_threes_score(3, k, positive=False) == -300
    for name in ("samba", "dutch", "crawford", "bolivia"):
        assert get_rules(name).red_three_penalty_if == "unmet"


def test_cannot_go_out_yet_row():
    for name in ("samba", "crawford", "canasta"):
        rs = get_rules(name)
        assert rs.keep_cards == 2 and not rs.pass_with_one
    for name in ("dutch", "bolivia"):
        d = get_rules(name)
        assert d.keep_cards == 1 and d.pass_with_one


def test_stock_empty_row():
    for name in ("samba", "dutch", "bolivia", "canasta"):  # canasta: D19
        rs = get_rules(name)
        assert not rs.stock_empty_continuation and not rs.must_take_fitting_pile_on_empty_stock
    c = get_rules("crawford")
    assert c.stock_empty_continuation and c.must_take_fitting_pile_on_empty_stock


@pytest.mark.parametrize("name", ["samba", "dutch", "crawford"])
def test_shared_figures(name):
    rs = get_rules(name)
    assert rs.decks * 52 + rs.jokers == 162
    assert rs.canasta_size == 7 and rs.sequence_max == 7
    assert (rs.natural_canasta_bonus, rs.mixed_canasta_bonus, rs.samba_bonus) == (500, 300, 1500)
    assert rs.going_out_bonus == 200 and rs.concealed_going_out_bonus == 0
    assert rs.canastas_needed(rs.default_players) == 2
    assert rs.red_three_value == 100 and rs.red_three_all_bonus == 1000
    assert rs.black_three_hand_penalty == 5
    assert sorted(rs.targets) == [2500, 5000, 7500, 10000] and rs.default_target == 10000
    assert rs.max_deals == 60
    assert rs.draw_count(rs.default_players) == 2


@pytest.mark.parametrize("score,minimum", OPENING_BANDS)
def test_opening_minimum_bands(score, minimum):
    for name in ("samba", "dutch", "crawford", "bolivia"):
        assert get_rules(name).opening_minimum(score) == minimum
    # canasta: 15/50/90/120, no 150 band
    assert get_rules("canasta").opening_minimum(score) == min(minimum, 120)


def test_bolivia_row():
    b, d = get_rules("bolivia"), get_rules("dutch")
    assert b.wild_melds and b.wild_meld_max == 7 and b.wild_canasta_bonus == 2500
    assert b.go_out_needs_sequence and b.canastas_needed(4) == 2
    assert b.black_three_hand_penalty == 100
    assert b.default_target == 15000 and 15000 in b.targets
    assert (b.decks, b.jokers, b.samba_bonus, b.going_out_bonus) == (3, 6, 1500, 200)
    assert b.opening_bands == d.opening_bands and b.concealed_going_out_bonus == 0
    assert not d.wild_melds and not d.go_out_needs_sequence


def test_canasta_row():
    c = get_rules("canasta")
    assert c.decks * 52 + c.jokers == 108
    assert [c.hand_size(p) for p in (2, 3, 4)] == [15, 13, 11]
    assert [c.draw_count(p) for p in (2, 3, 4)] == [2, 2, 1]
    assert not c.sequences and not c.wild_melds
    assert [c.canastas_needed(p) for p in (2, 3, 4)] == [2, 1, 1]
    assert c.red_three_value == 100 and c.red_three_all_bonus == 800
    assert c.going_out_bonus == 100 and c.concealed_going_out_bonus == 200
    assert (c.natural_canasta_bonus, c.mixed_canasta_bonus, c.canasta_size) == (500, 300, 7)
    assert c.negative_minimum == 15 and c.black_three_hand_penalty == 5
    assert [c.target_for(p) for p in (2, 3, 4)] == [5000, 7500, 5000]
    assert sorted(c.targets) == [2500, 5000, 7500, 10000] and c.default_target == 5000


@pytest.mark.parametrize(
    "changes,needle",
    [
        ({"name": "not an identifier"}, "identifier"),
        ({"default_players": 5}, "default_players"),
        ({"players_allowed": (2, 7)}, "unsupported player count 7"),
        ({"players_allowed": (2, 3, 4, 5), "default_players": 4}, "no hand size for 5"),
        ({"default_target": 1234}, "default_target"),
        ({"keep_cards": 3}, "keep_cards"),
        ({"pass_with_one": True}, "pass_with_one"),
        ({"red_three_penalty_if": "sometimes"}, "red_three_penalty_if"),
        ({"canasta_size": 2}, "meld sizes"),
        ({"sequences": False}, "take_top_card needs sequences"),
        ({"opening_bands": ((0, 50), (1500, 90))}, "opening_bands"),
        ({"default_targets": ((3, 1234),)}, "default_targets"),
        ({"default_targets": ((5, 5000),)}, "default_targets"),
        (
            {"go_out_needs_sequence": True, "sequences": False, "take_top_card": False},
            "go_out_needs_sequence needs sequences",
        ),
        ({"draw_counts": ((4, 0),)}, "draw_counts"),
        ({"canastas_to_go_out": ((7, 1),)}, "canastas_to_go_out"),
        ({"concealed_going_out_bonus": -1}, "concealed_going_out_bonus"),
        ({"hand_sizes": ((2, 15), (3, 15), (4, 41))}, "not enough cards"),
    ],
)
def test_invalid_rule_set_raises(changes, needle):
    with pytest.raises(ValueError) as e:
        replace(R.SAMBA, **changes)
    assert needle in str(e.value)
    assert "invalid rule set" in str(e.value)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_options_defaults(name):
    rs = get_rules(name)
    o = Options.make(rs)
    assert (o.players, o.target) == (rs.default_players, rs.target_for(rs.default_players))
    for p in rs.players_allowed:
        assert Options.make(rs, p).target == rs.target_for(p) in rs.targets
    for p in rs.players_allowed:
        for t in rs.targets:
            assert Options.make(rs, p, t) == Options(p, t)


@pytest.mark.parametrize(
    "name,players",
    [
        ("samba", 5),
        ("samba", 6),
        ("samba", 1),
        ("crawford", 2),
        ("crawford", 3),
        ("crawford", 5),
        ("dutch", 7),
        ("dutch", 0),
        ("samba", "4"),
        ("samba", 4.0),
        ("samba", True),
    ],
)
def test_options_reject_bad_player_counts(name, players):
    with pytest.raises(ValueError) as e:
        Options.make(get_rules(name), players, None)
    msg = str(e.value)
    assert name in msg and "players" in msg and repr(players) in msg


@pytest.mark.parametrize("target", [1234, 0, -2500, 15000, 2500.0, "5000", True, 3000])
def test_options_reject_bad_targets(target):
    with pytest.raises(ValueError) as e:
        Options.make(get_rules("samba"), 4, target)
    msg = str(e.value)
    assert "target" in msg and "2500" in msg and repr(target) in msg
