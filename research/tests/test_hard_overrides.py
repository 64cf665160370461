"""``research/hard_overrides.py``: seeds, variants, move kinds, the judge's rebuild, the summary."""

from __future__ import annotations

import pytest

from py_engine.ai.act import bot_move
from py_engine.ai.info import Info
from py_engine.ai.medium import MediumBot
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.state import Game
from research import hard_overrides as ho


def test_seeds_parse_and_reserved_seeds_are_refused():
    assert ho.parse_seeds("20000-20002,20010") == [20000, 20001, 20002, 20010]
    with pytest.raises(ValueError, match="reserved"):
        ho.parse_seeds("8990-9001")
    with pytest.raises(ValueError):
        ho.parse_seeds("20005-20001")


def test_variants_parse_to_hardbot_keywords():
    assert ho.parse_variant("leaf=hand,rounds=3,confidence=2.5,fast=false") == (
        "leaf=hand,rounds=3,confidence=2.5,fast=false",
        {"leaf": "hand", "rounds": 3, "confidence": 2.5, "fast": False},
    )
    with pytest.raises(ValueError):
        ho.parse_variant("rounds")


def test_move_kinds():
    g = Game.new("samba", 4, seed=20000)
    obs = Observation.for_seat(g, g.current)
    assert ho.move_kind(obs, "draw", "take 5C 5C") == "draw phase"
    meld = obs._replace(phase="meld")
    assert ho.move_kind(meld, "discard 5C", "discard KD") == "discard"
    assert ho.move_kind(meld, "discard 5C", "ask") == "go out/ask/answer"
    assert ho.move_kind(meld, "meld new 5C 5D 5H", "discard KD") == "meld"


def test_detail_kinds():
    rec = {"kind": "draw phase", "medium": "take QD QD"}
    assert ho.detail_kind(rec, "take QD QD JK") == "take, with or without a wild"
    assert ho.detail_kind(rec, "draw") == "draw phase, other"
    assert (
        ho.detail_kind({"kind": "discard", "medium": "discard 3S"}, "discard KD")
        == "discard, not medium's black three"
    )
    assert (
        ho.detail_kind({"kind": "discard", "medium": "discard 5D"}, "discard KD")
        == "discard, other"
    )


def test_higher_confidence_keeps_only_clear_overrides():
    n = 24
    se = 10.0
    clear = {"mean": 40.0, "lower": 40.0 - ho.t_of(1.5, n) * se, "samples": n}
    thin = {"mean": 20.0, "lower": 20.0 - ho.t_of(1.5, n) * se, "samples": n}
    assert ho.keeps(clear, 2.5) and not ho.keeps(thin, 2.5)
    assert ho.keeps(thin, 1.5 - 1e-9)


def test_summary_rows():
    recs = [
        {
            "kind": "discard",
            "medium": "discard 5C",
            "configs": {
                "default": {"move": "discard A", "mean": 30.0, "lower": 1.0, "samples": 24}
            },
            "judged": {"discard A": {"mean": -10.0}},
        },
        {
            "kind": "discard",
            "medium": "discard 3S",
            "configs": {
                "default": {"move": "discard B", "mean": 50.0, "lower": 2.0, "samples": 24}
            },
            "judged": {"discard B": {"mean": 30.0}},
        },
        {
            "kind": "draw phase",
            "medium": "take 5C 5C",
            "configs": {"x": {"move": "draw", "mean": 5.0, "lower": 1.0, "samples": 24}},
            "judged": {"draw": {"mean": 8.0}},
        },
    ]
    rows = {(r["config"], r["kind"]): r for r in ho.summarize(recs, min_gains=[40])}
    assert rows[("default, predicted >= 40", "all")]["judged"] == 30.0
    d = rows[("default", "discard")]
    assert (d["n"], d["predicted"], d["judged"], d["agree"]) == (2, 40.0, 10.0, 0.5)
    assert d["ci95"][0] < 10.0 < d["ci95"][1]
    assert rows[("default", "all")]["n"] == 2
    assert rows[("default", "predicted 25-75")]["n"] == 2
    assert rows[("default", "discard, other")]["judged"] == -10.0
    assert rows[("x", "draw phase, other")]["n"] == 1
    assert rows[("x", "predicted < 25")]["judged"] == 8.0
    assert rows[("x", "draw phase")]["ci95"] is None  # one override: no interval


def test_overrides_played_without_a_search_get_a_row_of_their_own():
    # The exact going-out turn and the last-turn habit overrule medium with no sampled gain.
    recs = [
        {
            "kind": "meld",
            "medium": "discard 5H",
            "configs": {
                "default": {"move": "meld add m4 JK", "mean": None, "lower": None, "samples": 0}
            },
            "judged": {"meld add m4 JK": {"mean": 100.0}},
        },
        {
            "kind": "discard",
            "medium": "discard 5C",
            "configs": {
                "default": {"move": "discard A", "mean": 30.0, "lower": 1.0, "samples": 24}
            },
            "judged": {"discard A": {"mean": -10.0}},
        },
    ]
    rows = {
        (r["config"], r["kind"]): r for r in ho.summarize(recs, confidences=[3.0], min_gains=[40])
    }
    assert rows[("default", "not searched")]["n"] == 1
    assert rows[("default", "not searched")]["predicted"] is None
    assert (rows[("default", "all")]["n"], rows[("default", "all")]["predicted"]) == (2, 30.0)
    # No confidence or minimum gain decides such a move: it stays in those rows.
    assert rows[("default, confidence 3.0", "all")]["judged"] == 100.0
    assert rows[("default, predicted >= 40", "all")]["judged"] == 100.0


def _override_at_meld(seed: int, min_moves: int):
    """(the game, a record of a made-up override: another legal move than medium's) at the
    first meld phase of medium self-play after ``min_moves`` moves."""
    g = Game.new("samba", 4, seed=seed)
    med = MediumBot(seed=1)
    moves = []
    while g.phase != "meld" or len(moves) < min_moves:
        mv = bot_move(med, g, g.current).text()
        g.play(mv)
        moves.append(mv)
    legal = legal_moves(g)
    mm = med.ranking(Observation.for_seat(g, g.current), legal)[0][1].text()
    other = next(m.text() for m in legal if m.text() != mm)
    return g, {
        "rules": "samba",
        "players": 4,
        "deal_seed": seed,
        "moves": moves,
        "seat": g.current,
        "medium": mm,
        "configs": {"default": {"move": other}},
    }


def test_judge_rebuilds_the_position_and_pairs_the_moves():
    g, rec = _override_at_meld(20000, 1)
    other = rec["configs"]["default"]["move"]
    out = ho.judge_position(rec, samples=3)
    assert set(out["judged"]) == {other} and out["judge_samples"] == 3
    j = out["judged"][other]
    assert j["won"] + j["lost"] <= 3
    assert (j["mean"] > 0) <= (j["won"] > 0) and (j["mean"] < 0) <= (j["lost"] > 0)
    assert ho.judge_position(rec, samples=3)["judged"] == out["judged"]  # reproducible
    with pytest.raises(ValueError):
        ho.judge_position({**rec, "seat": (g.current + 1) % 4}, samples=1)


def test_the_open_judge_plays_the_true_hands_and_the_view_judge_samples_them(monkeypatch):
    g, rec = _override_at_meld(20001, 8)
    others = [s for s in range(4) if s != g.current]
    truth = [sorted(g.hands[s]) for s in others]
    seen = []
    real_turn = ho._turn

    def spy(game, seat, *args):
        seen.append(([sorted(game.hands[s]) for s in others], list(game.stock)))
        return real_turn(game, seat, *args)

    monkeypatch.setattr(ho, "_turn", spy)
    out = ho.judge_position(rec, samples=3, open_hands=True)
    assert out["judge_open"] is True and len(seen) == 6
    assert all(hands == truth for hands, _ in seen)
    # the stock's cards are the true ones, shuffled anew for each sample (the same for both moves)
    assert all(sorted(stock) == sorted(g.stock) for _, stock in seen)
    assert len({tuple(stock) for _, stock in seen}) == 3
    seen.clear()
    ho.judge_position(rec, samples=3)
    assert sum(hands != truth for hands, _ in seen) == 6  # the view's worlds deal them anew


from research import regret_study as rs  # noqa: E402


def test_regret_split_gain_scores_the_choice_on_the_other_half():
    # "b" looks best on the first half and is worse on the second; "c" never beats medium's
    rec = {
        "lines": ["a", "b", "c"],
        "margins": {"a": [0, 0, 0, 0], "b": [100, 100, -50, -30], "c": [-10, -10, 0, 0]},
    }
    assert rs.split_gain(rec) == (-40.0, 1)
    flat = {"lines": ["a", "b"], "margins": {"a": [5, 5], "b": [0, 0]}}
    assert rs.split_gain(flat) == (0.0, 0)  # nothing beats medium's move on the first half


def test_regret_collect_judges_medium_ranked_moves_at_the_true_table():
    recs = rs.collect([20000], every=9, top=3, samples=2)
    assert recs and all(r["kind"] != "meld" for r in recs)
    for r in recs:
        g = ho.rebuild(r)
        med = MediumBot(seed=20000)
        ranked = med.ranking(Observation.for_seat(g, g.current), legal_moves(g))
        assert r["lines"] == [m.text() for _, m in ranked][:3]
        assert all(len(v) == 2 for v in r["margins"].values())
    rows = {row["kind"]: row for row in rs.report(recs, out=open("/dev/null", "w"))}
    assert rows["all"]["positions"] == len(recs)


from research import medium_variants as mv  # noqa: E402


def test_shed_variant_sheds_harder_only_while_an_opponent_can_go_out():
    from py_engine.cards import IS_NATURAL, VALUE_OF_KIND, parse_kind

    g, _ = _override_at_meld(20002, 8)
    obs, legal = Observation.for_seat(g, g.current), legal_moves(g)
    med, shed = MediumBot(seed=1), mv.ShedBot(seed=1)

    def scored(bot: MediumBot, obs: Observation) -> list[tuple[float, str]]:
        return [(sc, m.text()) for sc, m in bot.scored(Info.from_observation(obs, legal), legal)]

    assert scored(shed, obs) == scored(med, obs)
    side = obs.my_side
    threat = obs._replace(
        canastas=tuple(obs.requirement if s != side else c for s, c in enumerate(obs.canastas))
    )
    a = dict((m, sc) for sc, m in scored(med, threat))
    b = dict((m, sc) for sc, m in scored(shed, threat))
    discards = [m for m in a if m.startswith("discard ")]
    assert any(IS_NATURAL[parse_kind(m.split()[1])] for m in discards)
    for m in discards:
        k = parse_kind(m.split()[1])
        extra = (
            (mv.ShedBot.FACTOR - 1) * med.w["value_shed"] * VALUE_OF_KIND[k]
            if IS_NATURAL[k]
            else 0.0
        )  # (black threes and wild cards: no shedding term)
        assert b[m] == pytest.approx(a[m] + extra)
    assert shed.w == med.w  # the weights are restored after each decision


def test_variant_tool_refuses_reserved_seeds():
    with pytest.raises(SystemExit):
        mv.main(["--variant", "shed", "--seed", "9040", "--deals", "1"])
