"""`python build.py test`: the test stages (cpython, types, pyodide, e2e, netplay), the set-up
each needs, one build of dist/, and the table of results."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sitebuild.assemble import build
from sitebuild.config import BUILD_TOOLS, CACHE, ENGINE_PKG, ROOT, TEST_TOOLS
from sitebuild.install import (
    ensure_chromium,
    npm_packages,
    pyodide_runtime,
    pyodide_test_wheels,
    venv_python,
)
from sitebuild.wheel import build_wheel, write_app_lock


def _run(cmd: list, env: dict | None = None) -> int:
    print(f"\n[test] $ {' '.join(map(str, cmd))}", flush=True)
    return subprocess.run(
        [str(c) for c in cmd], cwd=ROOT, env={**os.environ, **(env or {})}
    ).returncode


def _names_paths(extra: list[str]) -> bool:
    """Whether extra pytest args name test files/dirs (then they replace the default)."""
    return any(not a.startswith("-") and (ROOT / a.split("::")[0]).exists() for a in extra)


def _pytest(default: list[str], extra: list[str], env: dict | None = None) -> int:
    target = [] if _names_paths(extra) else default
    return _run([venv_python(), "-m", "pytest", *target, "-p", "no:cacheprovider", *extra], env)


def _offline_prefix() -> list[str]:
    """`unshare -n` where it works (root on Linux): the in-Pyodide run gets no network at all,
    which proves that everything comes from local files."""
    if (
        shutil.which("unshare")
        and subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0
    ):
        return ["unshare", "-n"]
    return []


def stage_cpython(extra: list[str]) -> int:
    return _pytest(
        ["tests", "--ignore=tests/pyodide", "--doctest-modules", ENGINE_PKG, "research"], extra
    )


def stage_types(extra: list[str]) -> int:
    return _run([venv_python(), "-m", "mypy"])  # files and options: pyproject.toml [tool.mypy]


def stage_lint(extra: list[str]) -> int:
    """The linters, each run whatever the one before said: ruff (lint and format check) on the
    Python (pyproject.toml [tool.ruff]); ESLint (eslint.config.mjs) and tsc's JSDoc check
    (tsconfig.json) on web/js."""
    if not shutil.which("node"):
        print("[test] node is missing: install Node.js 20", flush=True)
        return 2
    bins = ROOT / "node_modules" / ".bin"
    runs = [
        [venv_python(), "-m", "ruff", "check", "--no-cache", "."],
        [venv_python(), "-m", "ruff", "format", "--check", "--no-cache", "."],
        [bins / "eslint", "web/js"],
        [bins / "tsc", "--noEmit", "-p", "tsconfig.json"],
    ]
    rcs = [_run(cmd) for cmd in runs]
    return next((rc for rc in rcs if rc), 0)


def stage_js(extra: list[str]) -> int:
    """The page's logic modules (web/js/targets.js, words.js) under Node's test runner, on views
    the engine makes (tests/js/engine_views.py, run by this Python)."""
    if not shutil.which("node"):
        print("[test] node is missing: install Node.js 20", flush=True)
        return 2
    return _run(["node", "--test", ROOT / "tests" / "js"], {"SAMBA_PYTHON": sys.executable})


def stage_pyodide(extra: list[str]) -> int:
    if not shutil.which("node"):
        print("[test] node is missing: install Node.js 20", flush=True)
        return 2
    # The tests import the whole engine (tools included): a wheel of all of it, and a lock
    # file of the same kind as the site's, beside it.
    engine = CACHE / "test-engine"
    shutil.rmtree(engine, ignore_errors=True)
    write_app_lock(pyodide_runtime(), build_wheel(engine), engine / "app-lock.json")
    return _run(
        [
            *_offline_prefix(),
            "node",
            ROOT / "tests" / "pyodide" / "run.mjs",
            "--runtime",
            pyodide_runtime(),
            "--lock",
            engine / "app-lock.json",
            "--wheels",
            pyodide_test_wheels(),
            "--tests",
            ROOT / "tests",
            "--",
            *extra,
        ]
    )


def stage_e2e(extra: list[str]) -> int:
    if not ensure_chromium():
        return 2
    return _pytest(["e2e"], [*extra, "-p", "no:playwright"], {"SAMBA_DIST_BUILT": "1"})


def stage_netplay(extra: list[str]) -> int:
    """The play-with-friends browser tests, on networks built from namespaces (e2e/netns_run.py:
    two homes behind NATs, coturn and a Nostr relay on a public segment; nothing leaves the
    machine)."""
    if not ensure_chromium():
        return 2
    return _run(
        [venv_python(), ROOT / "e2e" / "netns_run.py", "--", *extra], {"SAMBA_DIST_BUILT": "1"}
    )


@dataclass(frozen=True)
class Stage:
    """A test stage: what it runs, the set-up it needs first (run once, before the build),
    whether it gets the extra pytest arguments, and whether its failure fails the verdict
    (`gate`; a stage not gating yet is run and reported all the same)."""

    what: str
    run: Callable[[list[str]], int]
    setup: tuple[Callable[[], object], ...] = ()
    takes_pytest_args: bool = True
    gate: bool = True


def _test_tools() -> Path:
    return venv_python(BUILD_TOOLS + TEST_TOOLS)


STAGES = {
    "cpython": Stage(
        "pytest tests and the docstring examples of py_engine", stage_cpython, (_test_tools,)
    ),
    "types": Stage("mypy py_engine", stage_types, (_test_tools,), takes_pytest_args=False),
    "lint": Stage(
        "ruff check, ruff format --check; ESLint and tsc --checkJs on web/js",
        stage_lint,
        (_test_tools, npm_packages),
        takes_pytest_args=False,
    ),
    "js": Stage(
        "the page's logic modules under Node's test runner (node --test tests/js)",
        stage_js,
        takes_pytest_args=False,
    ),
    "pyodide": Stage(
        "the engine's tests inside Pyodide under Node",
        stage_pyodide,
        (_test_tools, pyodide_test_wheels),
    ),
    "e2e": Stage("Playwright driving Debian's Chromium", stage_e2e, (_test_tools, ensure_chromium)),
    "netplay": Stage(
        "play with friends: stock Chromium over WebRTC across NATs (namespaces, "
        "coturn, a Nostr relay)",
        stage_netplay,
        (_test_tools, ensure_chromium),
    ),
}


def test(only: list[str], extra: list[str]) -> int:
    names = [s for s in STAGES if s in only] or list(STAGES)
    # (a) what the tests need; a failure here is reported by the stage that needs it.
    done = set()
    for name in names:
        for step in STAGES[name].setup:
            if step in done:
                continue
            done.add(step)
            try:
                step()
            except (subprocess.CalledProcessError, SystemExit, OSError) as exc:
                print(f"[test] {step.__name__} failed: {exc}", flush=True)
    # (b) dist/
    build()
    results = []
    for name in names:
        t0 = time.perf_counter()
        try:
            rc = STAGES[name].run(extra if STAGES[name].takes_pytest_args else [])
        except (subprocess.CalledProcessError, SystemExit, OSError) as exc:
            print(f"[test] stage {name} could not run: {exc}", flush=True)
            rc = 2
        results.append((name, rc, time.perf_counter() - t0))
    print("\n stage     | result   | exit | time    | what")
    print("-----------+----------+------+---------+------")
    for name, rc, secs in results:
        verdict = "PASS" if rc == 0 else ("NO TESTS" if rc == 5 else "FAIL")
        note = "" if STAGES[name].gate else " (not gating yet)"
        print(f" {name:<9} | {verdict:<8} | {rc:>4} | {secs:6.1f}s | {STAGES[name].what}{note}")
    failed = [name for name, rc, _ in results if rc != 0 and STAGES[name].gate]
    print("\nverdict:", "PASS" if not failed else "FAIL (" + ", ".join(failed) + ")", flush=True)
    return 1 if failed else 0
