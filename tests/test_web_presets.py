"""The new-game menu, the share links and the embed parameters take the rule sets, their player
counts and targets from the build's rules data (py_engine.rulesdoc.rules_data(), written to
dist/rules-data.json; read by web/js/rules-data.js): the page keeps no copy of the presets, so a
new rule set appears by itself and the page and the engine cannot disagree. (The browser side is
checked by e2e/test_wording.py: the dialog offers what the file says.)"""

from __future__ import annotations

import pathlib
import re

from py_engine.rules import PRESETS
from py_engine.rulesdoc import rules_data

WEB = pathlib.Path(__file__).resolve().parent.parent / "web"
READER = WEB / "js" / "rules-data.js"


def test_the_page_keeps_no_copy_of_the_presets():
    """No script of the table and not index.html names a rule set other than the default one
    (samba, the fallback when a saved or linked one is unknown) or lists player counts."""
    others = [name for name in PRESETS if name != "samba"]
    files = sorted(WEB.glob("js/*.js")) + [WEB / "index.html"]
    bad = []
    for f in files:
        # "canasta" is also the word for a finished meld, a CSS class of the meld boxes
        text = re.sub(r"classList\.\w+\([^)]*\)", "", f.read_text(encoding="utf-8"))
        for name in others:
            # as a value or a key (comments and message keys may mention it)
            if re.search(rf"""["'`]{name}["'`]|[{{,]\s*{name}\s*:""", text):
                bad.append(f"{f.name}: {name}")
        if re.search(r"\[\s*2\s*,\s*3\s*,\s*4\b", text):
            bad.append(f"{f.name}: a list of player counts")
    assert not bad, bad


def test_the_rules_data_has_what_the_menu_reads():
    data = rules_data()
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    rows = {r["field"]: r["values"] for r in data["rows"]}
    src = READER.read_text(encoding="utf-8")
    for field, attr in [("players_allowed", "players_allowed"), ("targets", "targets")]:
        assert f'"{field}"' in src, f"rules-data.js does not read {field}"
        want = {n: list(getattr(r, attr)) for n, r in PRESETS.items()}
        assert rows[field] == want, field
    assert '"default_target"' in src, "rules-data.js does not read default_target"
    assert rows["default_target"] == {
        n: [[p, r.target_for(p)] for p in r.players_allowed] for n, r in PRESETS.items()
    }


def test_every_preset_default_players_is_offered():
    """The menu's default player count: the data's `default_players` where the data has that
    row, else 4 when offered, else the largest count (js/rules-data.js); either way one of the
    counts the rule set allows, and the engine's own default wherever the data says it."""
    data = rules_data()
    rows = {r["field"]: r["values"] for r in data["rows"]}
    for name, rs in PRESETS.items():
        allowed = rows["players_allowed"][name]
        if "default_players" in rows:
            assert rows["default_players"][name] == rs.default_players
            chosen = rows["default_players"][name]
        else:
            chosen = 4 if 4 in allowed else allowed[-1]
        assert chosen in allowed, name


def test_the_levels_have_one_source():
    """The seat kinds (computer levels, then a person) are py_engine/levels.py's: the bots, the
    table and the rules data the page reads use that list, and no page script writes its own."""
    from py_engine import levels
    from py_engine.ai import LEVELS
    from py_engine.session import SEAT_KINDS

    assert tuple(LEVELS) == levels.LEVELS
    assert SEAT_KINDS == levels.SEAT_KINDS == (*levels.LEVELS, "human")
    assert rules_data()["levels"] == list(levels.SEAT_KINDS)
    bad = []
    for f in sorted(WEB.glob("js/*.js")):
        text = f.read_text(encoding="utf-8")
        if re.search(r"""["']easy["']\s*,\s*["']medium["']""", text):
            bad.append(f.name)
    assert not bad, f"scripts that list the levels themselves: {bad}"
