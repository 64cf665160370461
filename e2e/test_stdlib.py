"""The trimmed standard library (docs/build.md): the site ships the modules Pyodide's start-up
and the engine import. Booted under Node with the shipped python_stdlib.zip instead of the npm
runtime's, everything the page can make Python do must run: every module of the site's wheel
imported, every standard-library module the engine's import statements name, a game played by
every bot level with hints, records, a reload and a review, a traceback, a memory snapshot
(tools/stdlib_exercise.py). A module missing from the zip fails it. No browser."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile

import pytest

import build


def _run(dist_dir, stdlib, imports=None):
    info = json.loads((dist_dir / build.SNAPSHOT_INFO).read_text(encoding="utf-8"))
    if imports is None:
        imports = build.stdlib_imports(build.site_modules())
    return subprocess.run(
        [
            "node",
            str(build.STDLIB_TOOL),
            "--runtime",
            str(build.pyodide_runtime()),
            "--wheel",
            str(dist_dir / info["wheel"]),
            "--imports",
            ",".join(imports),
            "--stdlib",
            str(stdlib),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def node():
    if not shutil.which("node"):
        pytest.fail("node is needed (Node.js 20)")


def test_the_shipped_standard_library_runs_everything_the_page_can_ask(node, dist_dir):
    stdlib = dist_dir / "pyodide" / build.STDLIB_ZIP
    with (
        zipfile.ZipFile(stdlib) as z,
        zipfile.ZipFile(build.pyodide_runtime() / build.STDLIB_ZIP) as npm,
    ):
        assert len(z.namelist()) < len(npm.namelist()) / 2, "trimmed"
    proc = _run(dist_dir, stdlib)
    assert proc.returncode == 0, proc.stderr[-3000:]
    used = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "json" in used["modules"] and "random" in used["modules"], used["modules"]


def test_a_module_missing_from_the_zip_fails_the_check(node, dist_dir, tmp_path):
    """The check can fail: the same zip without json/ (which the engine imports) is refused."""
    stdlib = dist_dir / "pyodide" / build.STDLIB_ZIP
    cut = tmp_path / build.STDLIB_ZIP
    with zipfile.ZipFile(stdlib) as src, zipfile.ZipFile(cut, "w") as dst:
        for info in src.infolist():
            if not info.filename.startswith("json/"):
                dst.writestr(info, src.read(info.filename), compress_type=info.compress_type)
    proc = _run(dist_dir, cut)
    assert proc.returncode != 0
    assert "No module named 'json'" in proc.stderr, proc.stderr[-2000:]


def test_the_engine_imports_are_found_in_its_sources():
    """stdlib_imports reads every import statement of the site's modules (inside functions
    too): what the engine imports lazily is in the list the check imports."""
    imports = build.stdlib_imports(build.site_modules())
    for name in ("json", "random", "hashlib", "dataclasses", "itertools"):
        assert name in imports, imports
    assert not [m for m in imports if m.startswith(build.ENGINE_PKG)]


def test_the_shipped_zip_is_compiled_and_a_failed_compile_ships_the_sources(
    node, dist_dir, tmp_path, monkeypatch
):
    """The shipped zip holds compiled modules only (tools/compile_stdlib.mjs); where the compile
    fails the build ships the sources as they were, and says so (False)."""
    with zipfile.ZipFile(dist_dir / "pyodide" / build.STDLIB_ZIP) as z:
        names = z.namelist()
    assert [n for n in names if n.endswith(".pyc")] and not [n for n in names if n.endswith(".py")]
    sources = tmp_path / build.STDLIB_ZIP
    with zipfile.ZipFile(sources, "w") as z:
        z.writestr("json/__init__.py", "x = 1\n")
        z.writestr("json/", "")
    before = sources.read_bytes()
    broken = tmp_path / "broken.mjs"
    broken.write_text("process.exit(3);\n")
    import sitebuild.stdlib

    monkeypatch.setattr(sitebuild.stdlib, "STDLIB_COMPILER", broken)
    monkeypatch.setattr(sitebuild.stdlib, "CACHE", tmp_path / "cache")
    assert build.compile_stdlib(build.pyodide_runtime(), sources) is False
    assert sources.read_bytes() == before
    assert not list((tmp_path / "cache" / "stdlib").glob("*.tmp"))
