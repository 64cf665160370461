"""``research/hard_losses.py``: the plays it records add up to the tournament's margin, the
divergence is an override of ``hard``'s, and the report counts what it is given."""

from __future__ import annotations

import pytest

from py_engine.ai.hard import HardBot
from py_engine.ai.tournament import Player, duplicate_deal
from research import hard_losses as hl

# hard with few samples and no minimum gain, so that it overrules medium in short deals
QUICK = {"iterations": 6, "min_samples": 4, "min_gain": 0, "confidence": 0.5}


def _deals(n: int = 6) -> list[dict]:
    return [hl.duplicate("samba", 2, 20700 + k, 0, 5.0, "cpu", QUICK) for k in range(n)]


def test_plays_add_up_and_part_at_an_override_of_hards():
    deals = _deals()
    kinds = set()
    for d in deals:
        assert d["margin"] == sum(p["margin"] for p in d["plays"])
        for p in d["plays"]:
            # the score's parts add up to the play's margin (hard's sides minus medium's)
            assert sum(p["components"].values()) == pytest.approx(p["margin"])
            assert p["margin"] == pytest.approx(hl.margin(p["scores"], p["hard_sides"]))
            for n in p["overrides"]:
                assert n["move"] != n["medium"]
                assert p["moves"][n["index"]] == n["move"]
        a, b = (p["moves"] for p in d["plays"])
        v = d["divergence"]
        if v is None:
            assert a == b and d["margin"] == 0
        else:
            kinds.add(v["kind"])
            k = v["index"]
            assert a[:k] == b[:k] and a[k] != b[k]
            assert d["plays"][v["play"]]["moves"][k] == v["move"]
    # some deal of these parted (else the checks above checked nothing about divergences)
    assert kinds


def test_a_duplicate_deal_is_the_tournaments():
    """With a fixed number of samples the plays are the tournament's for the same deal (the
    same deal seed, bot seeds and seats): the same margin, deal by deal."""
    hard = Player("hard_quick", HardBot, QUICK)
    margins = []
    for i in range(4):
        d = hl.duplicate("samba", 2, 20704, i, 5.0, "cpu", QUICK)
        total, _ = duplicate_deal("samba", 2, hard, "medium", 20704, i, budget=5.0, clock="cpu")
        assert d["margin"] == total
        margins.append(total)
    assert any(margins)  # (the deals are not all tied: the comparison saw overrides)


def test_divergence_without_an_override_is_an_error():
    plays = [
        {"moves": ["draw", "discard 5C"], "overrides": []},
        {"moves": ["draw", "discard 6C"], "overrides": []},
    ]
    with pytest.raises(ValueError, match="without an override"):
        hl.divergence(plays)
    plays[1]["overrides"] = [{"index": 1, "kind": "searched", "move": "discard 6C"}]
    assert hl.divergence(plays)["play"] == 1
    plays[1]["moves"] = list(plays[0]["moves"])
    assert hl.divergence(plays) is None


def _fake(margin: float, kind: str | None, index: int = 50) -> dict:
    play = {
        "margin": margin / 2,
        "components": {c: 0.0 for c in hl.COMPONENTS} | {"hands": margin / 2},
        "canastas": 0,
        "sambas": 0,
        "cards_left": 0,
        "went_out": "medium" if margin < 0 else "hard",
        "stock_left": 10,
        "hard_cards_left": 3,
        "medium_cards_left": 4,
        "overrides": [],
        "moves_played": 100,
    }
    div = None
    if kind:
        div = {"kind": kind, "move_kind": "discard", "index": index, "play": 0, "gain": 80.0}
        play = dict(play, overrides=[div])
    return {"margin": margin, "divergence": div, "plays": [play, play]}


def test_the_summary_counts_sizes_components_and_first_divergences():
    deals = [
        _fake(20, "last_turn"),
        _fake(-700, "searched", index=90),
        _fake(300, "searched", index=20),
        _fake(0, None),
    ]
    s = hl.summary(deals, big=500)
    assert (s["won"], s["lost"], s["tied"]) == (2, 1, 1)
    assert s["won_sum"] == 320 and s["lost_sum"] == 700 and s["won_median"] == 300
    assert s["bins"] == {
        "0-30": [1, 0, 20, 0],
        "200-500": [1, 0, 300, 0],
        "500-1000": [0, 1, 0, 700],
    }
    assert s["groups"]["lost by > 500"]["hands"] == -700
    assert s["groups"]["won"]["out_hard"] == 1.0
    assert s["first"]["searched discard"] == {
        "n": 2,
        "won": 1,
        "lost": 1,
        "big_lost": 1,
        "mean": hl.mean_ci([-700, 300]),
        "moves_left": 80,
    }
    assert s["first"]["none (tied)"]["n"] == 1
    assert {k: r["n"] for k, r in s["when"].items()} == {
        "first half": 1,
        "50-80 %": 1,
        "last fifth": 1,
    }
    assert hl.size_bin(-30) == "0-30" and hl.size_bin(1001) == ">1000"


def test_keep_discard_leaves_medium_s_discard_unsearched():
    """``HardConfig.keep_discard`` (session 25's variant): where ``medium`` discards, no other
    discard is searched; the shipped ``hard`` searches them."""
    from py_engine.ai.medium import MediumBot
    from py_engine.legal import legal_moves
    from py_engine.moves import Discard
    from py_engine.observation import Observation
    from py_engine.state import Game

    def discard(m):
        return type(m) is Discard

    shipped, keep = HardBot(seed=1), HardBot(seed=1, keep_discard=True)
    seen = 0
    for seed in range(20710, 20716):
        g = Game.new("samba", 4, seed=seed)
        med = MediumBot()
        while g.phase not in ("deal_over", "game_over"):
            obs, legal = Observation.for_seat(g, g.current), legal_moves(g)
            ranked = shipped.medium.ranking(obs, legal)
            a, b = shipped.candidates(obs, ranked), keep.candidates(obs, ranked)
            assert b[0] == a[0] and set(b) <= set(a)
            if discard(a[0]) and sum(map(discard, a)) > 1:
                seen += 1
                assert [m for m in b if discard(m)] == [a[0]]
            elif not discard(a[0]):
                assert a == b
            g.play(med.decide(obs, legal))
    assert seen > 10  # positions where the two differ were met


def test_last_turn_cards_sets_the_habit_s_threshold():
    from py_engine.ai.lastturn import LastTurnMedium

    assert type(HardBot(seed=1).medium) is LastTurnMedium
    one = HardBot(seed=1, last_turn_cards=1).medium
    assert isinstance(one, LastTurnMedium) and one.CARDS == 1
    assert LastTurnMedium.CARDS == 2  # the product's habit is untouched


def test_search_stock_leaves_early_decisions_to_medium():
    """``HardConfig.search_stock``: with more cards in the stock, ``hard`` plays its ranking's
    move without a search; at or below it, it searches as the shipped ``hard`` does."""
    from py_engine.ai.medium import MediumBot
    from py_engine.legal import legal_moves
    from py_engine.observation import Observation
    from py_engine.state import Game

    quick = {"iterations": 12, "min_samples": 4, "min_gain": 0}
    shipped = HardBot(seed=1, **quick)
    g = Game.new("dutch", 4, seed=20601 * 100_003)  # (session 25's dutch deal 0)
    med = MediumBot()
    while True:  # medium's play up to the first decision the shipped hard searches
        obs, legal = Observation.for_seat(g, g.current), legal_moves(g)
        move = shipped.decide(obs, legal)
        if shipped.last_stats.get("samples"):
            break
        g.play(med.decide(obs, legal))
    late = HardBot(seed=1, search_stock=obs.stock - 1, **quick)
    assert late.decide(obs, legal) == late.medium.ranking(obs, legal)[0][1]
    assert late.last_stats == {}  # not searched
    at = HardBot(seed=1, search_stock=obs.stock, **quick)
    assert at.decide(obs, legal) == move and at.last_stats["samples"] == 12


def test_compare_pairs_the_deals_both_played():
    def deal(i, m):
        return {"rules": "samba", "players": 4, "seed": 1, "deal": i, "margin": m}

    a = [deal(0, 100), deal(1, -50), deal(2, 0), deal(5, 999)]
    b = [deal(0, 40), deal(1, -250), deal(2, 30)]
    c = hl.compare(a, b)
    assert c["deals"] == 3
    assert (c["a"]["won"], c["a"]["lost"], c["a"]["tied"]) == (1, 1, 1)
    assert (c["b"]["won"], c["b"]["lost"], c["b"]["tied"]) == (2, 1, 0)
    assert c["difference"] == hl.mean_ci([60, 200, -30])
    assert c["a"]["sd"] == pytest.approx(76.376, abs=0.001)  # (100, -50, 0), n - 1


def test_reserved_seeds_are_refused_without_measure(tmp_path, capsys):
    out = tmp_path / "l.jsonl"
    with pytest.raises(SystemExit) as e:
        hl.main(["collect", "--seed", "9047", "--deals", "1", "--out", str(out)])
    assert e.value.code == 2 and "reserved" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(SystemExit):
        hl.main(["collect", "--seed", "20600", "--a", "round=1", "--out", str(out)])
    assert not out.exists()
