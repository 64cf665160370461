"""Computer players: every level plays whole deals of every rule set legally; determinization
keeps the counts; ``hard`` is reproducible with an iteration budget; the tournament runs.

No timing asserts: ``hard`` runs with a small iteration budget here.
"""

from __future__ import annotations

import random

import pytest
from conftest import ALL_TABLES, decisions

from py_engine.ai import LEVELS, make_bot
from py_engine.ai.act import bot_move
from py_engine.ai.determinize import determinize, known_holdings
from py_engine.ai.hard import HardBot
from py_engine.ai.info import listed
from py_engine.ai.tournament import tournament, wilson
from py_engine.cards import IS_RED3, KIND_OF_ID
from py_engine.legal import legal_moves
from py_engine.moves import Move, parse_move
from py_engine.observation import Observation
from py_engine.record import check_consistent, load_scenario
from py_engine.state import Game

CHEAP = ["medium", "easy", "random"]


def test_levels_registered():
    assert {"random", "easy", "medium", "hard"} <= set(LEVELS)
    with pytest.raises(ValueError):
        make_bot("grandmaster")


def play_deal(game: Game, bots: list, check_legal: bool = True) -> int:
    moves = 0
    while game.phase not in ("deal_over", "game_over"):
        seat = game.current
        legal = legal_moves(game)
        move = bot_move(bots[seat], game, seat)
        if check_legal:
            assert move in legal, (move.text(), game.phase)
        game.play(move)  # raises on an illegal move
        moves += 1
        assert moves < 3000
    return moves


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_cheap_levels_play_whole_deals(rules, players):
    for shift in range(1 if players > 2 else 2):
        shift += players
        game = Game.new(rules, players, seed=11 + shift)
        bots = [make_bot(CHEAP[(s + shift) % len(CHEAP)], seed=s) for s in range(players)]
        play_deal(game, bots)
        # after the deal every level starts the next one
        for s in range(players):
            if game.phase == "deal_over":
                assert bot_move(bots[s], game, s).text() == "next"


@pytest.mark.parametrize(
    "rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6), ("samba", 2)]
)
def test_hard_plays_a_whole_deal(rules, players):
    game = Game.new(rules, players, seed=5)
    bots = [
        HardBot(seed=s, iterations=1, rounds=0.5, shortlist=3, min_samples=1, min_gain=0.0)
        if s == 0
        else make_bot("medium", seed=s)
        for s in range(players)
    ]
    play_deal(game, bots)


def _ask_position() -> Game:
    """Seat 0 (samba, partners 0+2) may go out by asking: two canastas on the table."""
    return load_scenario(
        {
            "rules": "samba",
            "players": 4,
            "current": 0,
            "phase": "meld",
            "hands": [
                ["QC", "9S"],
                ["4C", "5C", "KD"],
                ["9H", "9D", "AS", "AH", "KC"],
                ["AS", "QS"],
            ],
            "melds": [
                [
                    ["4H", "5H", "6H", "7H", "8H", "9H", "TH"],
                    ["KS", "KS", "KH", "KH", "KD", "KC", "KC"],
                    ["QS", "QH", "QD"],
                ],
                [],
            ],
            "pile": ["5D", "8C"],
        }
    )


@pytest.mark.parametrize("level", sorted(["random", "easy", "medium", "hard"]))
def test_every_level_answers_its_partner(level):
    game = _ask_position()
    asks = [m.text() for m in legal_moves(game) if m.text().startswith("ask")]
    assert asks
    game.play(asks[0])
    assert game.phase == "answer" and game.current == 2
    kw = {"iterations": 1, "rounds": 0.5} if level == "hard" else {}
    move = bot_move(make_bot(level, seed=1, **kw), game, 2).text()
    assert move in ("answer yes", "answer no")
    game.play(move)


def test_medium_asks_a_partner_holding_many_cards():
    game = _ask_position()
    move = bot_move(make_bot("medium"), game, 0).text()
    assert move.startswith("ask") or move.startswith("meld") or move.startswith("discard")


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_determinize_respects_counts(rules, players):
    game = Game.new(rules, players, seed=3)
    bots = [make_bot("easy", seed=s) for s in range(players)]
    rng = random.Random(0)
    step = 0
    while game.phase not in ("deal_over", "game_over") and step < 120:
        seat = game.current
        if step % 7 == 0:
            d = determinize(Observation.for_seat(game, seat), rng)
            check_consistent(d)  # every card of the deck exactly once, melds legal
            assert [len(h) for h in d.hands] == [len(h) for h in game.hands]
            assert len(d.stock) == len(game.stock)
            assert sorted(d.hands[seat]) == sorted(game.hands[seat])
            assert d.pile == game.pile and d.phase == game.phase and d.current == game.current
            assert [[m.id for m in s] for s in d.melds] == [[m.id for m in s] for s in game.melds]
            if game.rules.red_threes_automatic:
                assert not any(IS_RED3[KIND_OF_ID[c]] for h in d.hands for c in h)
            assert sorted(m.text() for m in legal_moves(d)) == sorted(
                m.text() for m in legal_moves(game)
            )
        game.play(bot_move(bots[seat], game, seat))
        step += 1


def test_determinize_keeps_cards_seen_picked_up():
    game = Game.new("samba", 4, seed=1)
    bots = [make_bot("medium", seed=s) for s in range(4)]
    found = False
    for _ in range(400):
        if game.phase != "draw" and game.phase != "meld":
            break
        seat = game.current
        obs = Observation.for_seat(game, seat)
        held = known_holdings(obs)
        for s, kinds in enumerate(held):
            if s != seat and kinds:
                d = determinize(obs, random.Random(1))
                have = [KIND_OF_ID[c] for c in d.hands[s]]
                for k in set(kinds):
                    assert have.count(k) >= min(kinds.count(k), 1) or len(have) < len(kinds)
                found = True
        game.play(bot_move(bots[seat], game, seat))
    assert found


def test_hard_is_reproducible_with_an_iteration_budget():
    game = Game.new("samba", 4, seed=8)
    easy = [make_bot("easy", seed=s) for s in range(4)]
    choices = []
    for step in range(30):
        seat = game.current
        if step % 3 == 0:
            a = bot_move(HardBot(seed=4, iterations=2, rounds=0.5), game, seat)
            b = bot_move(HardBot(seed=4, iterations=2, rounds=0.5), game, seat)
            assert a == b and a in legal_moves(game)
            choices.append(a)
        game.play(bot_move(easy[seat], game, seat))
    assert choices


def test_tournament_summary_shape():
    out = tournament("samba", 4, "easy", "random", 2, 1)
    assert out["deals"] == 2 and out["a_won"] + out["b_won"] + out["ties"] == 2
    assert set(out["decision_ms"]) == {"easy", "random"}
    for lv in out["decision_ms"].values():
        assert lv["p50"] <= lv["p95"] <= lv["max"]
    lo, hi = out["a_share_95"]
    assert 0 <= lo <= out["a_share"] <= hi <= 1
    out3 = tournament("crawford", 6, "medium", "easy", 1, 2)
    assert out3["deals"] == 1


def test_tournament_in_two_processes_plays_the_same_deals():
    def strip(d):
        return {k: v for k, v in d.items() if k not in ("seconds", "jobs", "decision_ms")}

    one = tournament("samba", 4, "medium", "easy", 3, 4)
    two = tournament("samba", 4, "medium", "easy", 3, 4, jobs=2)
    assert two["jobs"] == 2 and strip(one) == strip(two)
    assert {k: v["n"] for k, v in one["decision_ms"].items()} == {
        k: v["n"] for k, v in two["decision_ms"].items()
    }


def test_wilson_interval():
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70


def test_last_red_three_is_not_laid_and_medium_plays_on():
    """dutch: a player holding only a red three may not lay it (the hand would be empty before
    drawing: docs/decisions.md D7); medium picks a legal move instead."""
    from py_engine import IllegalMove, parse_move

    game = load_scenario(
        {
            "rules": "dutch",
            "players": 4,
            "current": 0,
            "phase": "draw",
            "hands": [["3D"], ["4C", "5C"], ["9H", "9D"], ["AS", "QS"]],
            "melds": [
                [
                    ["4H", "5H", "6H", "7H", "8H", "9H", "TH"],
                    ["KS", "KS", "KH", "KH", "KD", "KC", "KC"],
                    ["4S", "5S", "6S"],
                ],
                [],
            ],
            "pile": ["5D", "7S"],
        }
    )
    with pytest.raises(IllegalMove) as e:
        game.play("red3 3D")
    assert e.value.code == "must_keep_cards"
    bot = make_bot("medium")
    choice = bot_move(bot, game, 0).text()
    assert not choice.startswith("red3") and game.can(parse_move(choice))
    game.play(choice)
    assert game.phase == "meld" and game.hands[0]


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6)])
def test_a_rollouts_info_ranks_like_the_observation(rules, players):
    """``hard``'s rollouts read a cached ``Info`` of the sampled game (``_rollout_info``);
    ``medium`` must rank moves the same on it as on the seat's observation, and the cheap
    meld-phase stand-in must only play legal moves."""
    from py_engine.ai.info import Info
    from py_engine.ai.medium import MediumBot
    from py_engine.ai.rollout import _rollout_info, fast_meld_move

    g = Game.new(rules, players, seed=3)
    bot, cache, fast = MediumBot(seed=1), {}, {}
    steps = 0
    while g.phase in ("draw", "meld", "answer") and steps < 150:
        legal = legal_moves(g)
        full = bot.rank(Info.from_observation(Observation.for_seat(g, g.current), legal), legal)
        assert bot.rank(_rollout_info(g, g.current, cache), legal) == full
        mv = fast_meld_move(g, bot, fast)
        if mv is not None:
            assert g.can(mv), mv.text()
        g.play(full[0][1])
        steps += 1


# explanations and hints -------------------------------------------------------------------


def _case(case_id):
    import os

    from py_engine.ai.judge import load_cases, position

    case = [
        c
        for c in load_cases(os.path.join(os.path.dirname(__file__), "blunders"))
        if c["id"] == case_id
    ][0]
    return position(case)


def _explain(g: Game, seat: int, text: str) -> dict:
    """``explain`` of the legal move with the text ``text`` for ``seat`` (the seat to act)."""
    from py_engine.ai.explain import explain

    legal = legal_moves(g)
    move = parse_move(text)
    assert move in legal, text
    return explain(Observation.for_seat(g, seat), legal, move)


@pytest.mark.parametrize(
    "rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6), ("samba", 2)]
)
def test_explain_gives_known_keys_for_every_move(rules, players):
    """Every legal move of a medium deal gets reasons (and warnings) whose keys are declared codes
    with their parameters, and have English words (the page's catalogue) that the parameters
    fill."""
    import json

    from hint_words import hint_text

    from py_engine.ai.explain import CODES, explain

    game = Game.new(rules, players, seed=21)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    used = set()
    while game.phase not in ("deal_over", "game_over"):
        seat = game.current
        obs, legal = Observation.for_seat(game, seat), legal_moves(game)
        for m in listed(legal)[:12]:
            out = explain(obs, legal, m)
            assert out["move"] == m.text()
            for r in out["reasons"] + out["warnings"]:
                assert r["key"] in CODES, r
                assert sorted(k for k in r if k != "key") == sorted(CODES[r["key"]]), r
                assert "{" not in hint_text(r), r
                used.add(r["key"])
                json.dumps(r)
        game.play(bot_move(bots[seat], game, seat))
    assert {"why.least_useful", "why.draws"} <= used


def test_explain_names_the_known_pair_and_the_block():
    g = _case("known-pair-jacks-s4")
    out = _explain(g, 0, "discard JC")
    assert {
        "key": "warn.feeds_known_pair",
        "seat": 1,
        "rank": "J",
        "cards": len(g.pile) + 1,
    } in out["warnings"]
    g = _case("block-joker-known-s4")
    why = _explain(g, 0, "discard JK")["reasons"][0]
    assert why["key"] == "why.blocks_pile_known" and why["seat"] == 1
    assert why["rank"] in "KQJ9"
    assert _explain(g, 0, "discard KS")["warnings"]


def test_explain_answer_and_samba():
    g = _case("answer-yes-fits-s4")
    assert _explain(g, 2, "answer yes")["warnings"][0]["key"] == "warn.partner_cards_fit"
    assert _explain(g, 2, "answer no")["reasons"][0]["key"] == "why.cards_fit"
    g = _case("top-samba-high-s4")
    assert _explain(g, 0, "top m1")["reasons"] == [{"key": "why.makes_samba"}]
    assert _explain(g, 0, "draw")["warnings"] == [{"key": "warn.misses_samba"}]


def counting_clock(monkeypatch, step: float) -> None:
    """``time.perf_counter`` as a stand-in that advances ``step`` seconds a reading: a bot's
    time budget then runs out after a fixed amount of work, however busy the machine is."""
    import itertools
    import time

    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * step)


def test_hint_asks_hard_within_its_budget(monkeypatch):
    import time

    from py_engine.ai.hints import hint

    g = _case("feed-seq5-s4")
    legal = legal_moves(g)
    counting_clock(monkeypatch, 1e-4)
    t = time.perf_counter()
    out = hint(Observation.for_seat(g, 0), legal, budget=0.2)
    assert time.perf_counter() - t < 0.2 * 1.5
    assert out["level"] == "hard" and out["move"] in [m.text() for m in legal]
    assert out["reasons"] and not out["warnings"]


# easy: a beginner's mistakes ----------------------------------------------------------------


def test_easy_misses_some_additions_but_not_all():
    """The same position over many seeds: the beginner sometimes overlooks the addition."""
    game = load_scenario(
        {
            "rules": "samba",
            "players": 4,
            "current": 0,
            "phase": "meld",
            "hands": [["KH", "4C", "9D", "7S"], ["4D", "5C"], ["9H", "6D"], ["AS", "QS"]],
            "melds": [[["KS", "KC", "KD"]], [["8S", "8H", "8D"]]],
            "pile": ["5D", "8C"],
        }
    )
    picks = [bot_move(make_bot("easy", seed=s), game, 0).text() for s in range(40)]
    adds = sum(p == "meld add m1 KH" for p in picks)
    assert 5 < adds < 35
    assert bot_move(make_bot("easy", seed=3), game, 0) == bot_move(
        make_bot("easy", seed=3), game, 0
    )


def test_easy_forgets_the_buried_pile_and_old_pickups():
    """The next player picked up J♦ J♥ with the pile three rounds ago: medium's digest of the
    observation knows it holds a pair of jacks, the beginner's has forgotten; and of a pile of jacks
    it remembers only the top cards."""
    from py_engine.ai.info import Info
    from py_engine.ai.rollout import _rollout_info
    from py_engine.ai.simple import EasyBot

    g = _case("known-pair-jacks-s4")
    obs, legal = Observation.for_seat(g, 0), legal_moves(g)
    assert _rollout_info(g, 0, {}).next_known[11] == 2  # (a rollout's digest likewise)
    assert Info.from_observation(obs, legal).next_known[11] == 2
    assert EasyBot(seed=0).perceive(obs, legal).next_known[11] == 0
    game = load_scenario(
        {
            "rules": "samba",
            "players": 4,
            "current": 0,
            "phase": "meld",
            "hands": [
                ["JD", "9S", "KH", "AC", "AC"],
                ["4C", "5C", "7H", "TD"],
                ["9H", "6D"],
                ["AS", "QS"],
            ],
            "melds": [[["QS", "QC", "QD"]], [["8S", "8D", "8C"]]],
            "pile": ["JC", "JC", "JD", "JD", "JH", "JH", "JS", "JS", "JC", "4D", "6C", "8H"],
        }
    )
    obs, legal = Observation.for_seat(game, 0), legal_moves(game)
    assert _rollout_info(game, 0, {}).seen_rank[11] == 10
    assert Info.from_observation(obs, legal).seen_rank[11] == 10  # nine in the pile, the own J♦
    assert EasyBot(seed=0).perceive(obs, legal).seen_rank[11] == 1


def test_easy_never_asks_and_always_says_yes():
    game = _ask_position()
    assert bot_move(make_bot("easy"), game, 0).verb != "ask"
    asks = [m.text() for m in legal_moves(game) if m.text().startswith("ask")]
    game.play(asks[0])
    assert bot_move(make_bot("easy"), game, 2).text() == "answer yes"


def test_hard_gives_up_early_where_too_few_samples_fit(monkeypatch):
    """A machine too slow for ``min_samples`` within the budget: after a third of it ``hard``
    stops and plays ``medium``'s move (it could not overrule it anyway)."""
    import time

    from py_engine.ai.medium import MediumBot

    g = _case("feed-seq5-s4")
    obs, legal = Observation.for_seat(g, 0), legal_moves(g)
    counting_clock(monkeypatch, 1e-3)
    h = HardBot(seed=1, budget=1.5, min_samples=10**6)
    cands = h.searched(obs, legal)
    assert len(cands) >= 2
    t = time.perf_counter()
    move = h.search(obs, legal, cands)
    assert time.perf_counter() - t < 1.5 * 0.8
    assert move == bot_move(MediumBot(seed=1), g, 0) == cands[0]
    assert 1 <= h.last_stats["samples"] < 10**6


def test_sampled_red_threes_are_laid_in_dutch():
    """dutch: the unseen red threes never stay in another player's sampled hand (players lay
    them at once), the counts stay and the sample stays consistent; samba is left alone."""
    from py_engine.ai.hard import laid_red_threes
    from py_engine.cards import IS_RED3, KIND_OF_ID

    for rules in ("dutch", "samba"):
        game = Game.new(rules, 4, seed=2)
        obs = Observation.for_seat(game, 0)
        moved = 0
        for i in range(30):
            d = determinize(obs, random.Random(i))
            before = [len(h) for h in d.hands], len(d.stock), sorted(d.hands[0])
            held = sum(IS_RED3[KIND_OF_ID[c]] for h in d.hands[1:] for c in h)
            laid_red_threes(d, 0)
            check_consistent(d)
            assert ([len(h) for h in d.hands], len(d.stock), sorted(d.hands[0])) == before
            after = sum(IS_RED3[KIND_OF_ID[c]] for h in d.hands[1:] for c in h)
            assert after == (0 if rules == "dutch" else held)
            moved += held - after
        assert (moved > 0) == (rules == "dutch")


# hard's time budget: scaled to the machine, a deadline for the whole decision -------------------


def test_auto_budget_scales_to_the_machine_within_its_cap():
    from py_engine.ai.hard import auto_budget

    assert auto_budget(0.75, 1.4, factor=0.3) == 0.75  # a faster machine: the base
    assert auto_budget(0.75, 1.4, factor=1.5) == pytest.approx(1.125)
    assert auto_budget(0.75, 1.4, factor=4.0) == 1.4  # a phone: the cap
    assert auto_budget(0.5, 1.0, factor=1.6) == pytest.approx(0.8)


def test_machine_factor_probes_now_and_then(monkeypatch):
    from py_engine.ai import hard

    calls = []
    monkeypatch.setattr(hard, "_probe_once", lambda: calls.append(1) or hard.PROBE_REF * 2)
    monkeypatch.setattr(hard, "_probes", [])
    monkeypatch.setattr(hard, "_probe_at", [float("-inf")])
    assert hard.machine_factor() == pytest.approx(2.0)
    assert len(calls) == 2  # a warm-up run, then the measured one
    hard.machine_factor()
    assert len(calls) == 2  # within PROBE_EVERY: no new probe
    assert hard.machine_factor(now=hard._probe_at[0] + hard.PROBE_EVERY + 1) == pytest.approx(2.0)
    assert len(calls) == 3
    assert HardBot(seed=1).auto and not HardBot(seed=1, budget=0.3).auto
    assert HardBot(seed=1).time_budget() == pytest.approx(
        min(hard.DEFAULT_CAP, 2 * hard.DEFAULT_BUDGET)
    )


class _Clock:
    """A fake ``perf_counter``: every reading advances ``step`` seconds, and the step grows by
    ``growth`` each time (a machine getting slower: a sample then outlasts the earlier ones)."""

    def __init__(self, step, growth=1.0):
        self.t, self.step, self.growth = 1000.0, step, growth

    def __call__(self):
        self.t += self.step
        self.step *= self.growth
        return self.t


def test_hard_stops_at_its_deadline_and_drops_the_unfinished_sample(monkeypatch):
    """The deadline counts from the start of ``decide``; a sample still running at the deadline
    is abandoned (inside the rollout), so every candidate keeps the same samples."""
    from py_engine.ai import hard
    from py_engine.ai.medium import MediumBot

    g = _case("feed-seq5-s4")
    obs, legal = Observation.for_seat(g, 0), legal_moves(g)
    clock = _Clock(0.0005, 1.01)
    monkeypatch.setattr(hard.time, "perf_counter", clock)
    h = HardBot(seed=1, budget=0.5, min_samples=1, min_gain=0.0)  # no early stop
    t0 = clock.t
    move = h.decide(obs, legal)
    st = h.last_stats
    assert st["overrun"] is True and st["samples"] >= 1
    assert clock.t - t0 < 0.5 + 8 * clock.step  # a few readings after it, not a sample
    assert move in legal
    # a deadline already past when the search starts: no sample, medium's move
    clock.step, clock.growth = 1.0, 1.0
    h2 = HardBot(seed=1, budget=0.5)
    assert h2.decide(obs, legal) == MediumBot(seed=1).decide(obs, legal)
    assert h2.last_stats["samples"] == 0


def test_hard_with_iterations_has_no_deadline():
    g = _case("feed-seq5-s4")
    h = HardBot(seed=3, iterations=3, rounds=0.5)
    h.decide(Observation.for_seat(g, 0), legal_moves(g))
    assert h.last_stats["samples"] == 3 and h.last_stats["budget"] is None
    assert not h.last_stats["overrun"] and h._deadline is None


# hints -------------------------------------------------------------------------------------


def test_hint_is_reproducible_and_ignores_hidden_cards():
    """With a fixed number of samples the hint depends on the view only: moving the cards the
    viewer cannot see leaves it (move, reasons, warnings) unchanged."""
    from test_fairness import shuffle_hidden

    from py_engine.ai.hints import hint
    from py_engine.record import state_from_json, state_to_json

    rng = random.Random(5)
    searched = 0
    for case_id in ("feed-seq5-s4", "known-pair-jacks-s4", "block-joker-known-s4"):
        g = _case(case_id)
        seat = g.current
        first = hint(Observation.for_seat(g, seat), legal_moves(g), seed=g.version, iterations=4)
        assert first["level"] == "hard" and first["samples"] in (0, 4)
        searched += first["samples"] == 4
        for _ in range(3):
            other = state_from_json(state_to_json(g))
            shuffle_hidden(other, seat, rng)
            obs = Observation.for_seat(other, seat)
            assert hint(obs, legal_moves(other), seed=g.version, iterations=4) == first
    assert searched >= 1


def test_hint_levels_and_texts():
    from hint_words import hint_text

    from py_engine.ai.explain import CODES
    from py_engine.ai.hints import hint

    g = _case("feed-seq5-s4")
    obs, legal = Observation.for_seat(g, 0), legal_moves(g)
    for level in ("easy", "medium", "hard"):
        out = hint(obs, legal, level=level, iterations=2)
        assert out["level"] == level and out["move"] in [m.text() for m in legal]
        for e in out["reasons"] + out["warnings"]:
            assert sorted(k for k in e if k != "key") == sorted(CODES[e["key"]]), e
            assert "{" not in hint_text(e), e


def test_pooled_tournaments_add_up(tmp_path, capsys):
    """``tournament.pool``: runs on other seeds pooled as one; a single run pools to itself;
    runs of other levels are refused."""
    import json

    from py_engine.ai.tournament import main, pool

    a = tournament("samba", 2, "easy", "random", 3, 11)
    b = tournament("samba", 2, "easy", "random", 2, 12)
    one = pool([a])
    assert one["mean_score_diff"] == a["mean_score_diff"]
    assert one["mean_score_diff_95"] == pytest.approx(a["mean_score_diff_95"], abs=0.2)
    both = pool([a, b])
    assert both["deals"] == 5 and both["a_won"] == a["a_won"] + b["a_won"]
    assert both["ties"] == a["ties"] + b["ties"] and both["seeds"] == [11, 12]
    assert both["mean_score_diff"] == pytest.approx(
        (3 * a["mean_score_diff"] + 2 * b["mean_score_diff"]) / 5, abs=0.1
    )
    lo, hi = both["mean_score_diff_95"]
    assert lo <= both["mean_score_diff"] <= hi
    with pytest.raises(ValueError):
        pool([a, tournament("samba", 2, "medium", "random", 1, 13)])
    paths = []
    for i, r in enumerate((a, b)):
        paths.append(tmp_path / f"{i}.json")
        paths[-1].write_text(json.dumps(r))
    (tmp_path / "running.json").write_text("")
    assert main(["pool", *map(str, paths), str(tmp_path / "running.json")]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 5


def _overriding_position():
    """A searched position of a seeded medium self-play deal where ``hard`` (24 samples,
    no minimum gain) overrules ``medium``: (the game there, the bot's search statistics, its
    move; the statistics name the moves by their ``Move`` values)."""
    from py_engine.ai.medium import MediumBot

    g = Game.new("samba", 4, seed=20041)
    bot = MediumBot(seed=1)
    for _ in range(400):
        h = HardBot(seed=5, iterations=24, min_gain=0.0)
        move = bot_move(h, g, g.current)
        mine = bot_move(bot, g, g.current)
        if h.last_stats.get("samples") and move != mine:
            return g, h.last_stats, move
        g.play(mine)
    raise AssertionError("no override in this deal")


def test_min_gain_keeps_mediums_move_below_it_and_stops_when_settled():
    """``min_gain``: an override needs a mean sampled gain of at least that many points, and
    sampling stops (every four samples after ``min_samples``) once no candidate's upper bound
    reaches it."""
    from py_engine.ai.medium import MediumBot

    g, st, move = _overriding_position()
    gain = st["gains"][move][0]
    assert gain > 0
    won, lost = st["signs"][move]  # samples the override beat medium's move in, lost in
    assert won > 0 and won + lost <= st["samples"]
    seat = g.current

    def choose(bot) -> Move:
        return bot_move(bot, g, seat)

    same = HardBot(seed=5, iterations=24, min_gain=gain / 2)
    assert choose(same) == move and same.last_stats["samples"] == 24
    above = HardBot(seed=5, iterations=24, min_gain=gain + 1)
    assert choose(above) == choose(MediumBot(seed=5)) != move
    huge = HardBot(seed=5, iterations=24, min_gain=10**6)
    assert choose(huge) != move
    assert huge.last_stats["samples"] == 12  # settled at once: min_samples


def test_settled_reads_the_upper_bounds():
    h = HardBot(seed=0, min_gain=50.0)
    base = [0.0] * 12
    assert h._settled([base, [10.0, -10.0] * 6], 12)  # mean 0, tight
    assert not h._settled([base, [10.0, -10.0] * 6, [60.0] * 12], 12)
    assert not h._settled([base, [200.0, -150.0] * 6], 12)  # mean 25, wide


def test_own_turn_leaves_the_searching_seats_turn_to_medium(monkeypatch):
    """``own_turn=True``: in a rollout the rest of the searching seat's turn is never played by
    the cheap meld stand-in; later turns still are. Without it the stand-in plays it."""
    from py_engine.ai import hard

    g = Game.new("samba", 4, seed=3)
    obs = Observation.for_seat(g, 0)
    draws = [m for m in listed(legal_moves(g)) if m.verb in ("draw", "take")]
    assert draws
    calls: list[tuple[int, str]] = []
    real = hard.fast_meld_move

    def spy(game, policy, cache):
        calls.append((game.current, real(game, policy, cache) is not None))
        return real(game, policy, cache)

    monkeypatch.setattr(hard, "fast_meld_move", spy)
    for own, want_first in ((True, False), (False, True)):
        calls.clear()
        world = hard.Determinizer(obs).sample(random.Random(3))
        world.play(draws[0])
        HardBot(seed=1, own_turn=own, rounds=2).rollout(world, 0, random.Random(4))
        first_turn = []
        for seat, _ in calls:
            if seat != 0:
                break
            first_turn.append(seat)
        assert bool(first_turn) == want_first
        assert any(seat != 0 for seat, _ in calls)


def test_tournament_counts_deals_decided_by_a_few_points(monkeypatch):
    """Deals decided by at most ``SMALL_MARGIN`` points are counted apart, and the share of the
    other decided deals is given with its interval (pooled runs add them up)."""
    import py_engine.ai.tournament as tm

    diffs = [5.0, -10.0, 200.0, 0.0, -500.0, 31.0, -30.0]
    monkeypatch.setattr(tm, "run", lambda fn, args, jobs, ray, progress: [(d, {}) for d in diffs])
    out = tm.tournament("samba", 4, "medium", "easy", len(diffs), 1)
    assert (out["a_won"], out["b_won"], out["ties"]) == (3, 3, 1)
    assert (out["small_margin"], out["a_won_small"], out["b_won_small"]) == (30, 1, 2)
    assert out["a_share_decided"] == 0.5
    assert out["a_share_decided_beyond_small"] == round(2 / 3, 3)
    lo, hi = out["a_share_decided_beyond_small_95"]
    assert lo < 2 / 3 < hi
    both = tm.pool([out, dict(out, seed=2)])
    assert (both["a_won_small"], both["b_won_small"]) == (2, 4)
    assert both["a_share_decided_beyond_small"] == round(4 / 6, 3)


def test_hard_budget_on_the_cpu_clock_and_bad_clocks(monkeypatch):
    """``clock="cpu"``: the budget runs on this process's CPU time, so elapsed time the
    machine's other jobs take does not shorten the search (a measurement on a busy machine
    plays as a quiet one would); an unknown clock is refused, by the bot and the tournament.
    Both clocks are stand-ins that count their readings (no test of real time): elapsed time
    races ahead (a second a reading), CPU time creeps (a tenth of a millisecond a reading)."""
    import itertools
    import time as _time

    from py_engine.ai import tournament as tour

    g, _, _ = _overriding_position()
    wall_ticks, cpu_ticks = itertools.count(), itertools.count()
    monkeypatch.setattr(_time, "perf_counter", lambda: float(next(wall_ticks)))
    monkeypatch.setattr(_time, "process_time", lambda: next(cpu_ticks) * 1e-4)
    wall = HardBot(seed=5, budget=0.3, min_gain=0.0)  # elapsed time races ahead: no time
    bot_move(wall, g, g.current)
    cpu = HardBot(seed=5, budget=0.3, min_gain=0.0, clock="cpu")
    bot_move(cpu, g, g.current)
    assert wall.last_stats["samples"] < cpu.last_stats["samples"]
    assert cpu.last_stats["samples"] >= 12
    with pytest.raises(ValueError, match="unknown clock"):
        HardBot(seed=3, budget=0.2, clock="sundial")
    with pytest.raises(ValueError, match="unknown clock"):
        tour.tournament("samba", 4, "hard", "medium", 1, 5, budget=0.1, clock="sundial")
    assert tour.tournament("samba", 2, "medium", "easy", 1, 5, clock="cpu")["clock"] == "cpu"


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6)])
def test_known_holdings_are_held(rules, players):
    """What the log's facts say a seat holds (``known_holdings``: the pile it picked up, less
    what it laid, melded, discarded since) it really holds, and over these deals the log says
    something: a lower bound of the real hand, kind by kind, checked against the game."""
    from collections import Counter

    game = Game.new(rules, players, seed=4)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    said = 0
    for _ in decisions(game, 600):
        seat = game.current
        for s, kinds in enumerate(known_holdings(Observation.for_seat(game, seat))):
            if s == seat:
                assert not kinds
                continue
            real = Counter(KIND_OF_ID[c] for c in game.hands[s])
            assert not Counter(kinds) - real, (s, kinds)
            said += bool(kinds)
        game.play(bot_move(bots[seat], game, seat))
    assert said > 20
