"""The table page's modules (docs/frontend.md), checked from their source: imports run one way,
the renderer only reads the one state object, and no table module reads a move or log text
with a pattern. No browser needed."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parent.parent / "web" / "js"
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?from\s+"\./([\w-]+)\.js"', re.M)

CONTROLLER = {"app", "intents", "saving", "session", "store"}
RENDERER = {
    "render",
    "card-el",
    "view-table",
    "view-hand",
    "view-actions",
    "view-log",
    "view-dialogs",
    "view-input",
    "words",
    "targets",
    "a11y",
    "cards",
    "coach-view",
}
# module -> modules it must not import (directly)
FORBIDDEN = {
    "session": {"intents", "saving", "app"},
    "saving": {"intents", "app"},
    "intents": {"app"},
    "store": CONTROLLER - {"store"} | RENDERER,
    **{m: CONTROLLER for m in RENDERER},
}
TABLE = CONTROLLER | RENDERER | {"review"}


def imports(name: str) -> set[str]:
    return set(IMPORT.findall((JS / f"{name}.js").read_text(encoding="utf-8")))


def test_imports_run_one_way():
    bad = {m: sorted(imports(m) & banned) for m, banned in FORBIDDEN.items() if imports(m) & banned}
    assert not bad, bad


def test_the_renderer_never_writes_the_state():
    write = re.compile(
        r"\bui\.\w+(\.\w+)*\s*(=(?!=)|\+=|-=|\+\+)|\bui\.\w+\.(push|splice|add|delete|clear)\("
    )
    found = {m: write.findall((JS / f"{m}.js").read_text(encoding="utf-8")) for m in RENDERER}
    assert not {m: f for m, f in found.items() if f}


def test_no_table_module_reads_a_text_with_a_pattern():
    # A card code in a lesson's prose (cards.prettyProse) is the one pattern over game words.
    pattern = re.compile(r"match\(|RegExp|/\^|\.exec\(|\.test\(")
    found = {}
    for m in sorted(TABLE):
        for no, line in enumerate((JS / f"{m}.js").read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.setdefault(m, []).append(f"{no}: {line.strip()}")
    assert not found, found
