"""The seats' kinds by name: the computer levels and a person. The one list of them: the bots
(``ai.LEVELS`` maps these names to players), the table (``session``), play with friends and the
page (through the rules data, ``rulesdoc.rules_data()["levels"]``) all read it.

>>> SEAT_KINDS
('easy', 'medium', 'hard', 'random', 'human')
"""

from __future__ import annotations

# The computer levels, in the order the menus offer them (the first is the default).
LEVELS = ("easy", "medium", "hard", "random")
# The levels a player may ask for a hint from (``random`` gives no reasons worth reading).
HINT_LEVELS = ("easy", "medium", "hard")
HUMAN = "human"
# What a seat of a new game may be, in the menus' order.
SEAT_KINDS = (*LEVELS, HUMAN)

__all__ = ["LEVELS", "HINT_LEVELS", "HUMAN", "SEAT_KINDS"]
