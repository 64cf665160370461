"""``hard``'s last-turn habit (``ai.lastturn.LastTurnMedium``): when an opponent side can go
out and one of its players holds at most ``CARDS`` cards, lay everything and shed high cards;
otherwise ``medium``'s ranking, unchanged."""

from __future__ import annotations

from py_engine.ai.act import bot_move
from py_engine.ai.hard import HardBot
from py_engine.ai.info import Info
from py_engine.ai.lastturn import LastTurnMedium
from py_engine.ai.medium import MediumBot
from py_engine.cards import VALUE_OF_KIND
from py_engine.legal import legal_moves
from py_engine.moves import Discard, Meld
from py_engine.observation import Observation
from py_engine.state import Game


def _meld_observations(seed: int, deals: int = 1):
    """(observation, legal moves) of the meld phases of seeded ``medium`` self-play deals
    (samba 4)."""
    for d in range(deals):
        g = Game.new("samba", 4, seed=seed + d)
        bot = MediumBot(seed=1)
        for _ in range(600):
            if g.phase not in ("draw", "meld", "answer"):
                break
            if g.phase == "meld":
                yield Observation.for_seat(g, g.current), legal_moves(g)
            g.play(bot_move(bot, g, g.current))


def _ending(obs: Observation, cards: int) -> Observation:
    """The observation with the next opponent's side able to go out and that player holding
    ``cards`` cards."""
    nxt = (obs.seat + 1) % obs.players
    sizes, canastas = list(obs.hand_sizes), list(obs.canastas)
    sizes[nxt] = cards
    canastas[obs.side_of[nxt]] = max(canastas[obs.side_of[nxt]], obs.requirement)
    return obs._replace(hand_sizes=tuple(sizes), canastas=tuple(canastas))


def _info(obs: Observation) -> Info:
    return Info.from_observation(obs)


def test_about_to_end_needs_an_opponent_side_that_can_go_out_with_few_cards():
    obs, _ = next(x for x in _meld_observations(61, deals=3) if x[0].canastas == (0, 0))
    bot = LastTurnMedium()
    assert not bot.about_to_end(_info(obs))
    assert bot.about_to_end(_info(_ending(obs, 2)))
    assert not bot.about_to_end(_info(_ending(obs, 3)))  # CARDS = 2
    sizes, canastas = list(obs.hand_sizes), list(obs.canastas)  # the own side: no habit
    canastas[obs.my_side] = obs.requirement
    sizes[obs.seat] = 1
    mine = obs._replace(hand_sizes=tuple(sizes), canastas=tuple(canastas))
    assert not bot.about_to_end(_info(mine))


def test_the_ranking_is_mediums_unless_the_deal_is_about_to_end():
    seen = list(_meld_observations(61, deals=2))
    plain = [(o, legal) for o, legal in seen if not LastTurnMedium().about_to_end(_info(o))]
    assert len(plain) > 20
    for o, legal in plain:
        assert LastTurnMedium(seed=1).ranking(o, legal) == MediumBot(seed=1).ranking(o, legal)


def test_on_the_last_turn_it_lays_or_sheds_the_higher_card():
    """Where the habit changes a decision, the habit's move is a meld (laying what medium kept)
    or a discard of a card worth more than medium's discard (a larger ``value_shed`` can only
    move the choice toward higher cards)."""
    changed = 0
    for o, legal in _meld_observations(61, deals=2):
        e = _ending(o, 1)
        mine = LastTurnMedium(seed=1).ranking(e, legal)[0][1]
        base = MediumBot(seed=1).ranking(e, legal)[0][1]
        if mine == base:
            continue
        changed += 1
        if type(mine) is Discard and type(base) is Discard:
            assert VALUE_OF_KIND[mine.card] > VALUE_OF_KIND[base.card]
        else:
            assert type(mine) is Meld, (mine.text(), base.text())
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
    e = _ending(obs, 2)  # the next opponent's side able to go out, that player holding two
    assert explain(e, legal, move)["reasons"][0] == {"key": "why.last_turn", "seat": nxt}
    assert hint_text({"key": "why.last_turn", "seat": 3}).startswith("Cleo may go out")
