"""The site's wheel holds exactly the modules the site imports: what ``py_engine.bridge`` reaches
by its imports (build.py's ``site_modules``), which is every module of the engine but the
commands site hosts and developers run (the tournament, the soak, the blunder-suite judge...).
A study's code in the engine would ride along into every player's download: studies live in
``research/``, which the engine never imports. (e2e/test_build.py checks the built wheel's files
against ``site_modules`` and plays a game from it.)"""

from __future__ import annotations

import ast
import sys

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform == "emscripten", reason="Pyodide runs the installed wheel, not the sources"
)

# The engine's modules the site does not import: run from a shell, never by the page.
HOST_COMMANDS = {
    "py_engine.__main__",
    "py_engine.cli",  # python -m py_engine ...
    "py_engine.simulate",  # simulate, bench (and the soak's checks)
    "py_engine.soak",
    "py_engine.spread",  # the soak; runs on processes or Ray
    "py_engine.ai.tournament",  # the tournament
    "py_engine.ai.judge",  # the blunder suite's judge
}


def test_the_site_wheel_is_the_engine_less_the_host_commands():
    import build

    every = set(build._module_files())
    assert HOST_COMMANDS <= every, sorted(HOST_COMMANDS - every)
    assert build.site_modules() == every - HOST_COMMANDS


def test_no_study_code_in_the_engine():
    """No import statement in py_engine names research/, tools/ or Ray (spread.connect imports
    Ray by name when --ray asks for it, and looks for research/ to send it to the workers)."""
    import build

    bad = []
    for name, path in build._module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            bad += [
                f"{name}: {n}" for n in names if n.split(".")[0] in ("research", "tools", "ray")
            ]
    assert not bad, bad
