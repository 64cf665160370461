"""``hard``'s last-turn habit (``ai.lastturn.LastTurnMedium``): when an opponent side can go
out and one of its players holds at most ``CARDS`` cards, lay everything and shed high cards;
otherwise ``medium``'s ranking, unchanged."""

from __future__ import annotations

import copy

from py_engine.ai.act import bot_move
from py_engine.ai.hard import HardBot
from py_engine.ai.info import Info
from py_engine.ai.lastturn import LastTurnMedium
from py_engine.ai.medium import MediumBot
from py_engine.cards import VALUE_OF_KIND, parse_kind
from py_engine.legal import legal_moves
from py_engine.moves import Discard
from py_engine.observation import Observation
from py_engine.state import Game
from py_engine.views import view_for


def _meld_views(seed: int, deals: int = 3):
    """Meld-phase views of seeded ``medium`` self-play deals (samba 4)."""
    for d in range(deals):
        g = Game.new("samba", 4, seed=seed + d)
        bot = MediumBot(seed=1)
        for _ in range(600):
            if g.phase not in ("draw", "meld", "answer"):
                break
            view = view_for(g, g.current)
            if view["phase"] == "meld":
                yield view
            g.play(bot_move(bot, g, g.current))


def _meld_observations(seed: int):
    """(observation, legal moves) of the meld phases of a seeded ``medium`` self-play deal
    (samba 4)."""
    g = Game.new("samba", 4, seed=seed)
    bot = MediumBot(seed=1)
    for _ in range(600):
        if g.phase not in ("draw", "meld", "answer"):
            break
        if g.phase == "meld":
            yield Observation.for_seat(g, g.current), legal_moves(g)
        g.play(bot_move(bot, g, g.current))


def _ending(view: dict, cards: int) -> dict:
    """The view with the next opponent's side able to go out and that player holding
    ``cards`` cards."""
    v = copy.deepcopy(view)
    nxt = (v["seat"] + 1) % v["players"]
    v["hand_sizes"][nxt] = cards
    v["canastas"][v["side_of"][nxt]] = max(v["canastas"][v["side_of"][nxt]], v["requirement"])
    return v


def test_about_to_end_needs_an_opponent_side_that_can_go_out_with_few_cards():
    view = next(v for v in _meld_views(61) if v["canastas"] == [0, 0])
    bot = LastTurnMedium()
    assert not bot.about_to_end(Info(view))
    assert bot.about_to_end(Info(_ending(view, 2)))
    assert not bot.about_to_end(Info(_ending(view, 3)))  # CARDS = 2
    mine = copy.deepcopy(view)  # the own side: no habit
    mine["canastas"][view["my_side"]] = view["requirement"]
    mine["hand_sizes"][view["seat"]] = 1
    assert not bot.about_to_end(Info(mine))


def test_the_ranking_is_mediums_unless_the_deal_is_about_to_end():
    views = list(_meld_views(61, deals=2))
    plain = [v for v in views if not LastTurnMedium().about_to_end(Info(v))]
    assert len(plain) > 20
    for v in plain:
        assert LastTurnMedium(seed=1).rank_moves(v) == MediumBot(seed=1).rank_moves(v)


def test_on_the_last_turn_it_lays_or_sheds_the_higher_card():
    """Where the habit changes a decision, the habit's move is a meld (laying what medium kept)
    or a discard of a card worth more than medium's discard (a larger ``value_shed`` can only
    move the choice toward higher cards)."""
    changed = 0
    for v in _meld_views(61, deals=2):
        e = _ending(v, 1)
        mine = LastTurnMedium(seed=1).rank_moves(e)[0][1]
        base = MediumBot(seed=1).rank_moves(e)[0][1]
        if mine == base:
            continue
        changed += 1
        if mine.startswith("discard") and base.startswith("discard"):
            assert (
                VALUE_OF_KIND[parse_kind(mine.split()[1])]
                > VALUE_OF_KIND[parse_kind(base.split()[1])]
            )
        else:
            assert mine.startswith("meld"), (mine, base)
    assert changed >= 5


def test_hard_ranks_its_own_moves_with_the_habit():
    assert type(HardBot(seed=1).medium) is LastTurnMedium
    assert type(HardBot(seed=1, last_turn=False).medium) is MediumBot


def test_the_hint_says_why_on_the_last_turn():
    """``explain`` names the opponent who may end the deal (``why.last_turn``) for a meld or a
    discard on such a turn, and never otherwise; the key has English words (the page's)."""
    from hint_words import hint_text

    from py_engine.ai.explain import explain

    obs, legal = next(
        (o, legal)
        for o, legal in _meld_observations(61)
        if o.canastas == (0, 0) and any(type(m) is Discard for m in legal)
    )
    move = next(m for m in legal if type(m) is Discard)
    assert all(r["key"] != "why.last_turn" for r in explain(obs, legal, move)["reasons"])
    nxt = (obs.seat + 1) % obs.players
    # the next opponent's side able to go out and that player holding two cards
    sizes, canastas = list(obs.hand_sizes), list(obs.canastas)
    sizes[nxt] = 2
    canastas[obs.side_of[nxt]] = max(canastas[obs.side_of[nxt]], obs.requirement)
    e = obs._replace(hand_sizes=tuple(sizes), canastas=tuple(canastas))
    assert explain(e, legal, move)["reasons"][0] == {"key": "why.last_turn", "seat": nxt}
    assert hint_text({"key": "why.last_turn", "seat": 3}).startswith("Cleo may go out")
