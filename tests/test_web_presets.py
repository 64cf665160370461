"""The new-game dialog's menu (web/js/app.js) offers exactly the player counts the rule sets allow,
so the page and the engine cannot disagree."""
from __future__ import annotations

import json
import pathlib
import re

from py_engine.rules import PRESETS

APP = pathlib.Path(__file__).resolve().parent.parent / "web" / "js" / "app.js"


def js_object(name: str) -> dict:
    m = re.search(rf"const {name} = (\{{[^;]*\}});", APP.read_text())
    assert m, f"{name} not found in {APP}"
    return json.loads(re.sub(r"(\w+):", r'"\1":', m.group(1)))


def test_player_choices_match_the_presets():
    assert js_object("PLAYER_CHOICES") == {n: list(r.players_allowed) for n, r in PRESETS.items()}


def test_default_players_match_the_presets():
    assert js_object("DEFAULT_PLAYERS") == {n: r.default_players for n, r in PRESETS.items()}
