"""Imports run one way (docs/engine.md, "Layout"): cards/levels -> errors -> rules -> melds -> moves ->
scoring -> turn -> position -> actions -> state -> candidates -> legal -> observation -> views -> record ->
simulate/lessons/review/rulesdoc/spread -> ai -> session/soak -> netplay -> bridge/cli -> the package's
__init__ (which re-exports) and __main__. (lessons, review and rulesdoc came later; they sit beside
simulate: they use earlier modules and the bridge uses them. A new module must be given its place
in ORDER.)
A module may import only modules earlier in that order; modules under ai/ and netplay/ may import
anything before them, and each other: netplay/'s modules freely, ai/'s only one way too, in an order
of their own (``AI_ORDER``: a module there imports only ai/ modules earlier in it, and names from
``py_engine.ai`` itself never). No module is exempt."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import py_engine

ORDER = [
    ("cards", "levels"),
    "errors",
    "rules",
    "melds",
    "moves",
    "scoring",
    "turn",
    "position",
    "actions",
    "state",
    "candidates",
    "legal",
    "observation",
    "views",
    "record",
    ("simulate", "lessons", "review", "rulesdoc", "spread"),
    "ai",
    ("session", "soak"),
    "netplay",
    ("bridge", "cli"),
    ("__init__", "__main__"),
]
# ai/: what reads a view (info) and the leaf estimate come first, then the players from the
# simplest to ``hard`` (which explain's blunder checks guard), the level registry, and what uses
# the levels (the hint, the blunder judge, the tournament); the package's __init__ re-exports.
AI_ORDER = [
    "act",
    "weights",
    "info",
    "leaf",
    "determinize",
    "medium",
    "simple",
    "lastturn",
    "endgame",
    "rollout",
    "explain",
    "hard",
    "levels",
    "hints",
    "coach",
    "judge",
    "tournament",
    "__init__",
]
AI_RANK = {name: i for i, name in enumerate(AI_ORDER)}
RANK: dict[str, int] = {}
for i, entry in enumerate(ORDER):
    for name in entry if isinstance(entry, tuple) else (entry,):
        RANK[name] = i

PKG = Path(py_engine.__file__).parent


def modules():
    out = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).with_suffix("")
        out.append((rel.parts, path))
    return out


def engine_imports(parts: tuple[str, ...], path: Path) -> list[tuple[tuple[str, ...], int]]:
    """(imported module path inside py_engine, line) for every import, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = list(parts[:-1])  # the package of this module
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bits = a.name.split(".")
                if bits[0] == "py_engine":
                    found.append((tuple(bits[1:]), node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                bits = (node.module or "").split(".")
                if bits[0] != "py_engine":
                    continue
                base = bits[1:]
            else:
                up = node.level - 1
                if up > len(here):
                    raise AssertionError(f"{path}: relative import above the package")
                pkg = here[: len(here) - up]
                if node.module is None:  # from . import x, y
                    for a in node.names:
                        found.append((tuple(pkg) + (a.name,), node.lineno))
                    continue
                base = pkg + node.module.split(".")
            if base:
                found.append((tuple(base), node.lineno))
    return found


def layer_of(mod: tuple[str, ...]) -> str:
    return mod[0]


def test_every_engine_module_has_a_layer():
    unknown = [("/".join(p)) for p, _ in modules() if layer_of(p) not in RANK]
    assert not unknown, f"modules outside the layer order: {unknown}"


@pytest.mark.parametrize(
    "parts,path", modules(), ids=lambda x: "/".join(x) if isinstance(x, tuple) else ""
)
def test_imports_run_one_way(parts, path):
    me = layer_of(parts)
    bad = []
    for target, line in engine_imports(parts, path):
        if not target:
            continue
        other = layer_of(target)
        if other not in RANK:
            bad.append(f"line {line}: unknown module py_engine.{'.'.join(target)}")
            continue
        if me == other == "netplay":
            continue  # within netplay/
        if me == other == "ai":
            mine = AI_RANK.get(parts[1]) if len(parts) > 1 else None
            theirs = AI_RANK.get(target[1]) if len(target) > 1 else None
            if mine is None or theirs is None:
                bad.append(
                    f"line {line}: {'/'.join(parts)} imports py_engine.{'.'.join(target)}, "
                    f"which is not a module of AI_ORDER"
                )
            elif theirs >= mine:
                bad.append(
                    f"line {line}: {'/'.join(parts)} imports {'.'.join(target)}, which is "
                    f"not earlier in AI_ORDER"
                )
            continue
        if RANK[other] >= RANK[me]:
            bad.append(
                f"line {line}: {'/'.join(parts)} ({me}) imports {'.'.join(target)} "
                f"({other}), which is not earlier in the order"
            )
    assert not bad, "\n".join(bad)


def test_every_ai_module_has_a_place_in_ai_order():
    names = {p[1] for p, _ in modules() if p[0] == "ai"}
    assert names == set(AI_ORDER), (sorted(names - set(AI_ORDER)), sorted(set(AI_ORDER) - names))


def test_ai_order_refuses_a_circle(tmp_path):
    """A module of ai/ importing a later one (as explain's hint once imported hard, and hard
    explain) or a name of the package (``from . import make_bot``) is refused, at any depth."""
    p = tmp_path / "explain.py"
    p.write_text("def hint():\n    from .hard import HardBot\n")
    with pytest.raises(AssertionError, match="not earlier in AI_ORDER"):
        test_imports_run_one_way(("ai", "explain"), p)
    p.write_text("from . import make_bot\n")
    with pytest.raises(AssertionError, match="not a module of AI_ORDER"):
        test_imports_run_one_way(("ai", "judge"), p)
    p.write_text("from .medium import MediumBot\nfrom ..views import view_for\n")
    test_imports_run_one_way(("ai", "simple"), p)


def test_checker_sees_relative_and_absolute_imports(tmp_path):
    """The import parser must find the imports it is meant to police."""
    src = (
        "from .state import Game\nfrom . import views\nimport py_engine.bridge\n"
        "def f():\n    from ..cards import JOKER\n"
    )
    p = tmp_path / "x.py"
    p.write_text(src)
    got = {t for t, _ in engine_imports(("ai", "x"), p)}
    assert got == {("ai", "state"), ("ai", "views"), ("bridge",), ("cards",)}
    p.write_text("from .state import Game\nfrom . import views\nimport json\n")
    got = {t for t, _ in engine_imports(("melds",), p)}
    assert got == {("state",), ("views",)}
    # and a module importing a later one would be refused
    assert RANK["state"] > RANK["melds"] and RANK["views"] > RANK["melds"]
