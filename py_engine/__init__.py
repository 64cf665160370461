"""Samba, the three-deck member of the Canasta family: rules engine and computer players.

Public API::

    from py_engine import Game, get_rules, parse_move, legal_moves, view_for
    g = Game.new("samba", players=4, seed=1)
    g.play("draw")
"""

from .errors import IllegalMove, InvalidMove, ScenarioError
from .legal import legal_moves
from .moves import parse_move
from .record import game_record, load_scenario, replay, state_from_json, state_to_json
from .rules import PRESETS, RuleSet, get_rules
from .state import Game
from .views import view_for

__version__ = "0.1.0"
__all__ = [
    "Game",
    "RuleSet",
    "PRESETS",
    "get_rules",
    "parse_move",
    "legal_moves",
    "view_for",
    "IllegalMove",
    "InvalidMove",
    "ScenarioError",
    "game_record",
    "replay",
    "load_scenario",
    "state_to_json",
    "state_from_json",
]
