"""The faster parts of ``hard``'s rollouts give what the general code gives: the first natural
new meld found without listing every candidate, a sampled world that only ``play`` changes
trusting its generated moves by the version alone, and the cheap meld phase's discard scored
from the game's lists in the order of its bound."""

from __future__ import annotations

import random

import pytest
from conftest import ALL_TABLES, decisions, random_positions

from py_engine.ai.act import bot_move
from py_engine.candidates import candidate_shapes
from py_engine.cards import counts_of
from py_engine.errors import IllegalMove
from py_engine.legal import ActingSide, first_natural_new_meld, legal_moves, single_new_meld
from py_engine.melds import GROUP, SEQUENCE
from py_engine.moves import Discard, Meld
from py_engine.state import Game


def _first_by_listing(game, acting, counts, max_size):
    """What ``hard``'s cheap meld phase did before: the candidates listed, filtered in order."""
    for part, mtype, size, wilds in candidate_shapes(counts, game):
        if size <= max_size and ((mtype == GROUP and not wilds) or mtype == SEQUENCE):
            mv = single_new_meld(game, acting, part, mtype, size, wilds)
            if mv is not None:
                return mv
    return None


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_first_natural_new_meld_is_the_listings_first(rules, players):
    found = compared = 0
    for game in random_positions(rules, players, 21, every=2, deals=2):
        if game.phase != "meld" or not game.opened(game.side_of(game.current)):
            continue
        acting = ActingSide(game)
        counts = counts_of(game.hand_kinds(game.current))
        n = len(game.hands[game.current])
        for max_size in (n - 2, n, 3, 4, 2):
            want = _first_by_listing(game, acting, counts, max_size)
            got = first_natural_new_meld(game, acting, counts, max_size)
            assert got is want, (max_size, got, want)
            compared += 1
            found += got is not None
    assert compared > 30
    assert found > 0 or rules == "canasta"


def test_first_natural_new_meld_can_differ():
    """The comparison sees a difference: a smaller size limit leaves out a meld it found."""
    for game in random_positions("samba", 4, 3, every=1, deals=3):
        if game.phase != "meld" or not game.opened(game.side_of(game.current)):
            continue
        acting = ActingSide(game)
        counts = counts_of(game.hand_kinds(game.current))
        got = first_natural_new_meld(game, acting, counts, 20)
        if got is not None:
            size = len(got.parts[0].cards)
            assert first_natural_new_meld(game, acting, counts, size - 1) is not got
            return
    pytest.fail("no natural new meld found in three deals")


def _meld_phase_game(seed=5):
    g = Game.new("samba", 4, seed=seed)
    g.play("draw")
    return g


def test_a_game_trusts_by_version(monkeypatch):
    g = _meld_phase_game()
    moves = legal_moves(g)
    disc = next(m for m in moves if type(m) is Discard)
    melds = [m for m in moves if type(m) is Meld]
    assert all(m in g.generation() for m in melds)
    calls = []
    real = Game.verify
    monkeypatch.setattr(Game, "verify", lambda self, m: calls.append(m) or real(self, m))
    if melds:
        assert g.trusted_plan(melds[0]) is not False
        g.play(melds[0])
        assert calls == []  # a generated meld move: not checked again
    g.play(disc)
    assert calls == [disc]  # a discard carries no plan: checked as before
    assert not g.generation()  # a new version, a new record


def test_a_trusting_game_still_refuses_illegal_moves():
    g = _meld_phase_game()
    legal_moves(g)
    with pytest.raises(IllegalMove):
        g.play("draw")  # not generated, so verified: wrong phase


def test_a_copy_drops_the_generation_record():
    """A copy may be changed by hand (a search's world is): it starts with no record."""
    g = _meld_phase_game()
    legal_moves(g)
    c = g.copy(log=True)
    assert g.generation() and c._generated is None
    assert not c.generation()
    # and a hand changed with a new version is not trusted on the copy
    moves = [m for m in legal_moves(c) if type(m) is Meld]
    if moves:
        c.hands[c.current] = c.hands[c.current][:3]
        c.version += 1
        assert c.trusted_plan(moves[0]) is False


def test_rollouts_trusting_choose_as_verifying(monkeypatch):
    """``hard``'s search gives the same choices and sample means whether its rollouts trust
    the generated moves or verify every move they play."""
    from py_engine.ai.hard import HardBot
    from py_engine.observation import Observation

    g = Game.new("samba", 4, seed=12)
    rng = random.Random(3)
    seen = []
    while len(seen) < 3 and g.phase in ("draw", "meld", "answer"):
        if g.phase == "meld" and rng.random() < 0.3:
            seen.append((Observation.for_seat(g, g.current), list(legal_moves(g))))
        g.play(rng.choice(legal_moves(g)))

    def run():
        out = []
        for obs, legal in seen:
            bot = HardBot(seed=1, iterations=4, min_samples=2, confidence=0.0)
            ranked = bot.medium.ranking(obs, legal)
            cands = [m for _, m in ranked][:2]
            if len(cands) == 2:
                out.append((bot.search(obs, legal, cands), bot.last_stats["means"]))
        return out

    trusting = run()
    monkeypatch.setattr(Game, "trusted_plan", lambda self, move: False)
    assert run() == trusting
    assert trusting


def test_determinize_shuffle_is_randoms_shuffle():
    from py_engine.ai.determinize import shuffle

    for n in (0, 1, 2, 3, 7, 64, 100, 131):
        for seed in range(40):
            a, b = list(range(n)), list(range(n))
            ra, rb = random.Random(f"s:{seed}"), random.Random(f"s:{seed}")
            ra.shuffle(a)
            shuffle(b, rb)
            assert a == b and ra.random() == rb.random(), (n, seed)


def test_determinize_shuffle_check_can_fail():
    from py_engine.ai.determinize import shuffle

    a, b = list(range(50)), list(range(50))
    random.Random(1).shuffle(a)
    shuffle(b, random.Random(2))
    assert a != b


def test_natural_rank_counts():
    from py_engine.cards import parse_kind
    from py_engine.legal import natural_rank_counts

    counts = counts_of([parse_kind(t) for t in ("7S", "7H", "7H", "KD", "2C", "3S", "AS")])
    own = natural_rank_counts(counts)
    assert own[7] == 3 and own[13] == 1 and own[14] == 1 and own[2] == 0 and own[3] == 0
    assert sum(own) == 5


@pytest.mark.parametrize(
    "rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6), ("canasta", 4), ("bolivia", 2)]
)
def test_rollout_pile_facts_follow_the_pile(rules, players):
    """The pile's kinds and rank counts kept from one decision to the next (discards, pile
    taken, top card taken) are what a fresh count gives, and the rollout's ``Info`` sees the
    cards ``Info`` of the seat's observation sees."""
    from py_engine.ai.info import Info
    from py_engine.ai.rollout import _pile_facts, _rollout_info
    from py_engine.observation import Observation

    g = Game.new(rules, players, seed=31)
    rng = random.Random(31)
    cache: dict = {}
    checked = 0
    while g.phase in ("draw", "meld", "answer") and checked < 300:
        if rng.random() < 0.6:
            assert _pile_facts(g, cache) == _pile_facts(g, {})
            if g.phase == "meld":
                a = _rollout_info(g, g.current, cache)
                b = Info.from_observation(Observation.for_seat(g, g.current))
                assert (a.pile, a.seen_rank, sorted(a.hand)) == (
                    b.pile,
                    b.seen_rank,
                    sorted(b.hand),
                )
            checked += 1
        g.play(rng.choice(legal_moves(g)))
    assert checked > 50


def _naive_seen(view):
    from py_engine.cards import IS_NATURAL, KIND_OF_ID, RANK_OF

    seen = [0] * 15
    for c in view["pile"]["cards"] + view["hand"]:
        k = KIND_OF_ID[c["id"]]
        if IS_NATURAL[k]:
            seen[RANK_OF[k]] += 1
    for side in view["melds"]:
        for m in side:
            if m["type"] == "group":
                seen["23456789TJQKA".index(m["rank"]) + 2] += m["naturals"]
            elif m["type"] == "sequence":
                for c in m["cards"]:
                    seen[RANK_OF[KIND_OF_ID[c["id"]]]] += 1
    return seen


@pytest.mark.parametrize(
    "rules,players", [("samba", 4), ("dutch", 4), ("crawford", 6), ("canasta", 4), ("bolivia", 3)]
)
def test_info_seen_ranks_and_pile_from_kept_facts(rules, players):
    """``Info``'s seen ranks and pile kinds are what counting them on the seat's view gives,
    decision after decision (and on the observation of a copy of the game, which shares
    nothing kept)."""
    import copy

    from py_engine.ai.info import Info
    from py_engine.cards import KIND_OF_ID
    from py_engine.observation import Observation
    from py_engine.views import view_for

    checked = 0
    for game in random_positions(rules, players, 17, every=1, deals=1):
        if game.phase not in ("draw", "meld"):
            continue
        view = view_for(game, game.current)
        obs = Observation.for_seat(game, game.current)
        info = Info.from_observation(obs)
        assert info.pile == [KIND_OF_ID[c["id"]] for c in view["pile"]["cards"]]
        assert info.seen_rank == _naive_seen(view)
        fresh = Info.from_observation(Observation.for_seat(copy.deepcopy(game), game.current))
        assert fresh.seen_rank == info.seen_rank and fresh.pile == info.pile
        checked += 1
    assert checked > 40


def _discard_positions(rules, players, seed, deals=2):
    """Meld-phase positions of ``medium`` self-play where the seat holds more than three cards
    (with the seat's observation, its kinds, ``sorted(set(...))`` and natural rank counts)."""
    from py_engine.ai import make_bot
    from py_engine.legal import natural_rank_counts
    from py_engine.observation import Observation

    for d in range(deals):
        g = Game.new(rules, players, seed=seed + d)
        bots = [make_bot("medium", seed=s) for s in range(players)]
        while g.phase in ("draw", "meld", "answer"):
            if g.phase == "meld" and len(g.hands[g.current]) > 3:
                obs = Observation.for_seat(g, g.current)
                hand = g.hand_kinds(g.current)
                yield g, obs, hand, sorted(set(hand)), natural_rank_counts(counts_of(hand))
            g.play(bot_move(bots[g.current], g, g.current))


def _max_discard(policy, obs, distinct, red_ok):
    from py_engine.ai.info import Info
    from py_engine.cards import IS_RED3, KIND_TEXT

    scores = policy.discard_scores(Info.from_observation(obs), distinct)
    got = [
        x
        for x in zip(scores, map(KIND_TEXT.__getitem__, distinct), distinct)
        if red_ok or not IS_RED3[x[2]]
    ]
    return max(got)[2] if got else None


@pytest.mark.parametrize(
    "rules,players",
    [("samba", 4), ("samba", 2), ("dutch", 4), ("crawford", 6), ("canasta", 4), ("bolivia", 3)],
)
def test_best_discard_is_the_max_of_discard_scores(rules, players):
    """The cheap meld phase's discard, from the game's lists with the kinds scored in the order
    of their bound, is the ``max`` of ``medium``'s discard scores on the seat's observation, with one
    cache kept from decision to decision as a rollout keeps it and with a fresh one; weights that
    give no bound score every kind and still agree."""
    from py_engine.ai.medium import MediumBot
    from py_engine.ai.rollout import best_discard

    policy = MediumBot()
    unbounded = MediumBot(weights={"seq_near2": -3.0})
    assert not unbounded.discard_ceiling_holds()
    cache: dict = {}
    checked = 0
    for g, obs, hand, distinct, own in _discard_positions(rules, players, 61):
        red_ok = g.rules.red_three_discardable
        want = _max_discard(policy, obs, distinct, red_ok)
        seat = g.current
        assert best_discard(g, seat, policy, hand, distinct, own, cache) == want
        assert best_discard(g, seat, policy, hand, distinct, own, {}) == want
        assert best_discard(g, seat, unbounded, hand, distinct, own, {}) == _max_discard(
            unbounded, obs, distinct, red_ok
        )
        checked += 1
    assert checked > 40


def test_best_discard_stops_early_and_can_fail(monkeypatch):
    """The bound lets decisions skip kinds (fewer ranks' dangers worked out than where the
    weights give no bound and every kind is scored), and a wrong score would be seen: a danger
    counted twice changes some choices."""
    from py_engine.ai import medium, rollout
    from py_engine.ai.medium import MediumBot

    policy = MediumBot()
    unbounded = MediumBot(weights={"seq_near2": -3.0})
    calls = []
    real = medium._p_pair
    monkeypatch.setattr(medium, "_p_pair", lambda *a: calls.append(1) or real(*a))
    positions = list(_discard_positions("samba", 4, 71, deals=1))
    counted = []
    for bot in (policy, unbounded):
        calls.clear()
        for g, _obs, hand, distinct, own in positions:
            rollout.best_discard(g, g.current, bot, hand, distinct, own, {})
        counted.append(len(calls))
    assert 0 < counted[0] < counted[1] * 0.8, counted
    doubled = MediumBot(weights={"danger": 2.0})
    differ = sum(
        rollout.best_discard(g, g.current, policy, hand, distinct, own, {})
        != _max_discard(doubled, obs, distinct, True)
        for g, obs, hand, distinct, own in positions
    )
    assert differ > 0


@pytest.mark.parametrize("rules,players", [("samba", 4), ("dutch", 3), ("crawford", 6)])
def test_next_log_facts_agree(rules, players):
    """What the next player's log entries say (discards, piles taken, naturals known held) is
    read from the log's facts, never its texts, three ways: a seat's observation (``Info``), a
    rollout's ``Info`` (``_rollout_info``) and a rollout's game log (``_next_log``); all agree,
    and over these games they say something."""
    from py_engine.ai.info import Info
    from py_engine.ai.rollout import _next_log, _rollout_info
    from py_engine.observation import Observation
    from py_engine.simulate import random_move

    g = Game.new(rules, players, seed=21)
    rng = random.Random(21)
    said = 0
    for _ in decisions(g, 400):
        seat = g.current
        nxt = (seat + 1) % players
        seen = Info.from_observation(Observation.for_seat(g, seat))._read_next_log()
        assert seen == _rollout_info(g, seat, {})._read_next_log()
        assert seen == _next_log(g, nxt)
        said += bool(seen[0] or seen[1] or any(seen[2]))
        g.play(random_move(g, rng))
    assert said > 20


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_a_rollouts_rules_say_what_a_seats_view_says(rules, players):
    """``medium`` reads the same rule facts in a rollout as at the table, and they are the
    ones the seat's view names (a rollout once lacked ``draw_count`` and ``going_out_bonus``,
    and so read samba's 2 and 200 in every rule set)."""
    from py_engine.ai.info import Info
    from py_engine.ai.rollout import _rollout_info
    from py_engine.observation import Observation
    from py_engine.views import view_for

    g = Game.new(rules, players, seed=5)
    fast = _rollout_info(g, 0, {}).rules
    assert fast == Info.from_observation(Observation.for_seat(g, 0)).rules
    table = view_for(g, 0)["rules"]
    assert fast._asdict() == {k: table[k] for k in fast._fields}
    assert {"draw_count", "going_out_bonus"} <= set(fast._fields)
