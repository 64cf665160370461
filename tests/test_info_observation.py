"""``Info.from_observation`` (what a bot reads of its seat's observation) holds what the seat's
JSON view shows (the page's wire format, docs/bridge.md), on many positions of every table; each
level decides on the observation as it reads the view's listing; a rollout's ``Info`` of its
game (``rollout._rollout_info``) digests the same facts as the observation's: every field, every
derived figure ``medium`` and ``explain`` read, and ``medium``'s score of every legal move."""

from __future__ import annotations

import pytest
from conftest import ALL_TABLES, random_positions

from py_engine.ai import make_bot
from py_engine.ai.info import Info, RuleFacts
from py_engine.ai.medium import MediumBot
from py_engine.cards import IS_NATURAL, KIND_BY_TEXT, KIND_OF_ID, RANK_OF
from py_engine.legal import legal_moves
from py_engine.observation import Observation
from py_engine.views import view_for


def listing(view: dict) -> list[str]:
    """The texts of a view's legal moves, in its listing's order: its other moves, then its
    meld moves (docs/bridge.md)."""
    legal = view.get("legal") or {}
    return list(legal.get("moves", [])) + ["meld " + p for p in legal.get("melds", [])]


def facts(info: Info) -> tuple:
    sides = range(len(info.melds))
    return (
        info.seat,
        info.n,
        info.side,
        list(info.side_of),
        info.hand,
        info.pile,
        [list(side) for side in info.melds],
        info.my_melds,
        info.opened,
        info.req,
        list(info.canastas),
        info.can_out,
        info.partners,
        info.next,
        info.next_side,
        info.rules,
        list(info.hand_sizes),
        info.stock,
        info.phase,
        info.deal,
        list(info.scores or ()),
        info.target,
        info.red_threes,
        info.own_rank,
        info.held_wilds,
        list(info.seen_rank),
        info.unseen_total,
        info._read_next_log(),
        info._discard_facts(),
        [info.table_estimate(s) for s in sides],
        [info.table_score(s) for s in sides],
        info.lead(),
        info.fit_value(),
        info.out_game(),
        info.opponents_can_out(),
        info.threatened(2.5, 2),
        sorted(m.text() for m in info.legal),
    )


def shown(view: dict) -> tuple:
    """What a seat's view shows of the facts ``Info`` holds, read from its JSON."""
    side = view["my_side"]
    nxt = (view["seat"] + 1) % view["players"]
    canasta = {"black_threes": None}
    return (
        view["seat"],
        view["players"],
        side,
        list(view["side_of"]),
        view["phase"],
        view["deal"],
        sorted(KIND_OF_ID[c["id"]] for c in view["hand"]),
        [KIND_OF_ID[c["id"]] for c in view["pile"]["cards"]],
        [
            [
                (
                    m["id"],
                    m["type"],
                    [c["id"] for c in m["cards"]],
                    m.get("wilds", 0),
                    canasta.get(m.get("canasta"), m.get("canasta")),
                    m.get("needs", 0),
                    m.get("closed", False),
                    m.get("value", 0),
                    m.get("bonus", 0),
                )
                for m in melds
            ]
            for melds in view["melds"]
        ],
        view["opened"][side],
        view["requirement"],
        list(view["canastas"]),
        {k: view["rules"][k] for k in RuleFacts._fields},
        list(view["hand_sizes"]),
        view["stock"],
        list(view["scores"]),
        view["target"],
        [len(r) for r in view["red_threes"]],
        {
            RANK_OF[KIND_BY_TEXT[e["card"]]]
            for e in view["log"]
            if e["seat"] == nxt
            and e["deal"] == view["deal"]
            and e["kind"] == "discard"
            and IS_NATURAL[KIND_BY_TEXT[e["card"]]]
        },
        sorted(listing(view)),
    )


def held(info: Info) -> tuple:
    """The same facts of an ``Info``."""
    return (
        info.seat,
        info.n,
        info.side,
        list(info.side_of),
        info.phase,
        info.deal,
        sorted(info.hand),
        info.pile,
        [
            [
                (m.id, m.type, list(m.cards), m.wilds, m.canasta, m.needs, m.closed)
                + (m.value, m.bonus)
                for m in melds
            ]
            for melds in info.melds
        ],
        info.opened,
        info.req,
        list(info.canastas),
        info.rules._asdict(),
        list(info.hand_sizes),
        info.stock,
        list(info.scores or ()),
        info.target,
        info.red_threes,
        info.next_discarded,
        sorted(m.text() for m in info.legal),
    )


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_info_of_the_observation_holds_what_the_view_shows(rules, players):
    compared = said = 0
    for g in random_positions(rules, players, seed=17, every=3, deals=2):
        if g.phase == "game_over":
            continue
        for seat in range(g.players):
            mine = g.phase in ("draw", "meld", "answer") and seat == g.current
            moves = legal_moves(g) if mine else []
            a = shown(view_for(g, seat, with_legal=mine))
            b = held(Info.from_observation(Observation.for_seat(g, seat), moves))
            assert a == b, (rules, players, g.version, seat)
            compared += 1
            said += bool(b[-2])
    assert compared > 100 and said > 10


def test_the_view_comparison_can_fail():
    """Another seat's view, or a table with other rules, shows other facts."""
    from py_engine.state import Game

    g = Game.new("samba", 4, seed=17)
    info = Info.from_observation(Observation.for_seat(g, 0), legal_moves(g))
    assert shown(view_for(g, 0)) == held(info)
    assert shown(view_for(g, 1, with_legal=False)) != held(info)
    info.rules = info.rules._replace(draw_count=info.rules.draw_count + 1)
    assert shown(view_for(g, 0)) != held(info)


def _by_listing(level: str, seed: int, obs: Observation, view: dict) -> str:
    """The move ``level`` plays reading the moves in the order the seat's JSON view lists
    them (``random`` draws from that list, ``easy`` picks among it), or ``medium``'s full
    ranking's first, as its text."""
    import random

    from py_engine.ai.simple import EasyBot
    from py_engine.moves import parse_move

    texts = listing(view)
    moves = list(map(parse_move, texts))
    if level == "random":
        return random.Random(seed).choice(texts)
    if level == "medium":
        return MediumBot(seed=seed).ranking(obs, moves)[0][1].text()
    bot = EasyBot(seed=seed)
    if texts == ["next"]:
        return "next"
    if "answer yes" in texts:
        return "answer yes"
    info = Info.from_observation(obs, moves, log=obs.log[-bot.log_memory :])
    bot._forget(info)
    rng = random.Random(f"easy:{seed}:{view['version']}:{view['seat']}")
    return bot._pick(info, rng, moves)[1]


@pytest.mark.parametrize("rules,players", ALL_TABLES)
@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_a_bot_decides_on_the_observation_as_on_the_views_listing(level, rules, players):
    """``decide(observation, legal moves)`` plays the move the same level plays reading the
    moves as the seat's JSON view lists them (the same seeds: ``random`` draws from the same
    list in the same order); ``medium``'s shortcut (``best_move``) plays its full ranking's
    first."""
    decided = 0
    for g in random_positions(rules, players, seed=23, every=2, deals=1):
        if g.phase not in ("draw", "meld", "answer"):
            continue
        seat = g.current
        obs = Observation.for_seat(g, seat)
        by_view = _by_listing(level, seat, obs, view_for(g, seat))
        move = make_bot(level, seed=seat).decide(obs, legal_moves(g))
        assert move.text() == by_view, (rules, players, g.version)
        decided += 1
    assert decided > 20


@pytest.mark.parametrize("rules,players", ALL_TABLES)
def test_a_rollouts_info_is_info_of_the_observation(rules, players):
    """A rollout's ``Info`` of its game (``rollout._rollout_info``: no scores, no legal moves)
    digests what ``Info`` of the seat's observation does, and ``medium`` scores every legal move
    alike on both."""
    from py_engine.ai.rollout import _rollout_info

    bot = MediumBot()
    cache: dict = {}
    compared = 0
    for g in random_positions(rules, players, seed=29, every=3, deals=2):
        if g.phase not in ("draw", "meld", "answer"):
            continue
        seat = g.current
        a = Info.from_observation(Observation.for_seat(g, seat), legal_moves(g))
        b = _rollout_info(g, seat, cache)
        a.scores = a.target = None  # (a rollout's Info reads no game totals)
        for m in legal_moves(g):
            assert bot.move_score(a, m) == bot.move_score(b, m), m.text()
        fa, fb = facts(a), facts(b)
        assert sorted(fa[4]) == sorted(fb[4])  # (a rollout's hand is in the game's order)
        # (so the discards' facts list a suit's ranks in another order)
        assert [sorted(x) for x in fa[28][0]] == [sorted(x) for x in fb[28][0]]
        assert fa[28][1:] == fb[28][1:]
        # (and ``fit_value`` lets the first wild cards in hand fill the room)
        assert a.fit_value(sorted(a.hand)) == b.fit_value(sorted(b.hand))
        skip = (4, 28, 32, len(fa) - 1)  # (no legal moves in a rollout's Info)
        assert [x for i, x in enumerate(fa) if i not in skip] == [
            x for i, x in enumerate(fb) if i not in skip
        ], (rules, players, g.version)
        compared += 1
    assert compared > 20


def test_bot_move_asks_decide_and_scores_of_a_subclass_are_ranked():
    """``act.bot_move`` asks the bot's ``decide``; a ``medium`` whose scores are its own (here:
    ``move_score`` overridden, the same values) is ranked in full (``rank``) rather than with
    the discard ceiling's shortcut, and plays the same moves."""
    from py_engine.ai.act import bot_move
    from py_engine.state import Game

    class Own(MediumBot):
        def decide(self, obs, legal):
            raise LookupError("asked")

    class OwnScore(MediumBot):
        def move_score(self, info, move):
            return super().move_score(info, move)

    assert MediumBot()._plain() and not OwnScore()._plain()
    g = Game.new("samba", 4, seed=3)
    with pytest.raises(LookupError):
        bot_move(Own(), g, g.current)
    assert (
        bot_move(MediumBot(), g, g.current)
        == MediumBot().ranking(Observation.for_seat(g, g.current), legal_moves(g))[0][1]
    )
    compared = 0
    for g in random_positions("samba", 4, seed=31, every=2, deals=1):
        if g.phase in ("draw", "meld", "answer"):
            assert bot_move(OwnScore(), g, g.current) == bot_move(MediumBot(), g, g.current)
            compared += 1
    assert compared > 20
