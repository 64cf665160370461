"""The trimmed standard library: the site's python_stdlib.zip holds only the modules Pyodide's
start-up and the engine import (listed by tools/stdlib_modules.mjs under Node, cached)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from sitebuild.config import CACHE, ENGINE_PKG, PYODIDE_INTEGRITY, ROOT, log
from sitebuild.wheel import _module_files

# python_stdlib.zip holds all of Python's standard library (614 files, 2.48 MB); the site ships
# the modules Pyodide's start-up and the engine import (docs/build.md, "The trimmed standard
# library"): tools/stdlib_modules.mjs boots the npm runtime under Node, unpacks the site's wheel,
# imports every module the engine's import statements name (stdlib_imports) and plays
# (tools/stdlib_exercise.py), and lists the modules that came from the zip.
STDLIB_TOOL = ROOT / "tools" / "stdlib_modules.mjs"
STDLIB_EXERCISE = ROOT / "tools" / "stdlib_exercise.py"
STDLIB_ZIP = "python_stdlib.zip"
# Codecs are looked up by name at run time (bytes.decode("latin-1"), ...): the common ones are
# kept besides those the exercise imported (the whole encodings package is 317 kB).
STDLIB_KEEP_FILES = tuple(
    f"encodings/{name}.py"
    for name in (
        "__init__",
        "aliases",
        "ascii",
        "charmap",
        "cp1252",
        "cp437",
        "idna",
        "latin_1",
        "punycode",
        "raw_unicode_escape",
        "unicode_escape",
        "utf_16",
        "utf_16_be",
        "utf_16_le",
        "utf_32",
        "utf_32_be",
        "utf_32_le",
        "utf_8",
        "utf_8_sig",
    )
)


def stdlib_imports(modules: set[str]) -> list[str]:
    """The top-level names of the non-engine modules the engine's `modules` import (every
    import statement, inside functions too): the standard-library modules the site can need."""
    import ast

    files = _module_files()
    out = set()
    for name in modules:
        for node in ast.walk(ast.parse(files[name].read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                out.add(node.module)
                out.update(f"{node.module}.{a.name}" for a in node.names)
    return sorted(
        m
        for m in out
        if m.split(".")[0] != ENGINE_PKG
        and m.split(".")[0] in getattr(sys, "stdlib_module_names", ())
    )


def stdlib_files(runtime: Path, wheel: Path, modules: set[str]) -> list[str] | None:
    """The zip entries the site needs (cached by the runtime, the wheel and the tools), or
    None where Node is missing or the tool failed (the build then ships the whole zip)."""
    imports = stdlib_imports(modules)
    key = hashlib.sha256(
        b"\0".join(
            [
                PYODIDE_INTEGRITY.encode(),
                wheel.read_bytes(),
                STDLIB_TOOL.read_bytes(),
                STDLIB_EXERCISE.read_bytes(),
                ",".join(imports).encode(),
            ]
        )
    ).hexdigest()[:16]
    cached = CACHE / "stdlib" / f"{key}.json"
    if not cached.exists():
        if not shutil.which("node"):
            log("WARNING: node is missing: the whole standard library is shipped")
            return None
        proc = subprocess.run(
            [
                "node",
                str(STDLIB_TOOL),
                "--runtime",
                str(runtime),
                "--wheel",
                str(wheel),
                "--imports",
                ",".join(imports),
            ],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            log(
                "WARNING: the whole standard library is shipped (tools/stdlib_modules.mjs failed): "
                + (proc.stderr.strip() or proc.stdout.strip())[-2000:]
            )
            return None
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(proc.stdout.strip().splitlines()[-1])
    return json.loads(cached.read_text())["files"]


def trim_stdlib(source: Path, out: Path, files: list[str]) -> tuple[int, int]:
    """Writes `out`: the entries of the zip `source` that `files` and STDLIB_KEEP_FILES name,
    the packages around them, in the source's order, compressed as they were (the raw
    entries are copied). Returns (entries kept, entries in the source)."""
    import zipfile

    wanted = set(files) | set(STDLIB_KEEP_FILES)
    for f in list(wanted):
        parts = f.split("/")[:-1]
        wanted.update("/".join(parts[:i]) + "/" for i in range(1, len(parts) + 1))
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(out, "w") as dst:
        infos = src.infolist()
        kept = 0
        for info in infos:
            if info.filename in wanted:
                dst.writestr(info, src.read(info.filename), compress_type=info.compress_type)
                kept += 1
    return kept, len(infos)


# The trimmed zip's modules compiled ahead (tools/compile_stdlib.mjs, by the runtime's own Python
# under Node): a module imported from source is compiled on the player's device on every first
# visit, in WebAssembly (docs/build.md, "The trimmed standard library").
STDLIB_COMPILER = ROOT / "tools" / "compile_stdlib.mjs"


def compile_stdlib(runtime: Path, zip_path: Path) -> bool:
    """Replaces the zip at `zip_path` with the same entries, its modules compiled (`.pyc`);
    cached by the runtime, the zip and the tool. False (the sources stay) where Node is missing
    or the tool failed."""
    key = hashlib.sha256(
        b"\0".join(
            [PYODIDE_INTEGRITY.encode(), zip_path.read_bytes(), STDLIB_COMPILER.read_bytes()]
        )
    ).hexdigest()[:16]
    cached = CACHE / "stdlib" / f"{key}.zip"
    if not cached.exists():
        if not shutil.which("node"):
            log("WARNING: node is missing: the standard library is shipped as sources")
            return False
        cached.parent.mkdir(parents=True, exist_ok=True)
        scratch = cached.with_name(f"{key}-{os.getpid()}.tmp")
        proc = subprocess.run(
            [
                "node",
                str(STDLIB_COMPILER),
                "--runtime",
                str(runtime),
                "--in",
                str(zip_path),
                "--out",
                str(scratch),
            ],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            scratch.unlink(missing_ok=True)
            log(
                "WARNING: the standard library is shipped as sources (tools/compile_stdlib.mjs "
                "failed): " + (proc.stderr.strip() or proc.stdout.strip())[-2000:]
            )
            return False
        scratch.replace(cached)
    shutil.copyfile(cached, zip_path)
    return True
