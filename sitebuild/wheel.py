"""The engine wheel: the modules the page can import (an import walk from py_engine.bridge), built
by the PEP 517 backend pyproject.toml declares, with reproducible bytes; the app lock file that
names only that wheel; the rules page's data from the engine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from sitebuild.config import CACHE, DEFAULT_SOURCE_DATE_EPOCH, ENGINE_PKG, ROOT, _digest
from sitebuild.install import venv_python


def _project_meta() -> dict:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


# The site's wheel holds what the page can import: the modules reachable from these by their
# import statements (the worker imports py_engine.bridge).
SITE_ENTRY_MODULES = (f"{ENGINE_PKG}.bridge",)


def _module_files() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / ENGINE_PKG).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def site_modules(entries: tuple[str, ...] = SITE_ENTRY_MODULES) -> set[str]:
    """The engine's modules that `entries` import, directly or not: every `import` and `from
    ... import` statement anywhere in a module (inside functions too), with the packages
    around each module. Tool modules nothing in the page imports (the tournament, the judge,
    the command line...) are left out. A module imported by a computed name would be missed:
    the engine has none (tests/…: e2e/test_build.py checks the wheel against the import graph)."""
    import ast

    files = _module_files()

    def imports(name: str) -> set[str]:
        path = files[name]
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                found.add(base)
                found.update(f"{base}.{a.name}" for a in node.names)
        out = set()
        for mod in found:
            while mod and mod not in files:
                mod = mod.rpartition(".")[0]
            if mod:
                out.add(mod)
        return out

    seen: set[str] = set()
    todo = [m for m in entries if m in files]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        parts = mod.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # its packages
        todo.extend(imports(mod))
    return seen


def build_wheel(out_dir: Path, modules: set[str] | None = None) -> Path:
    """The engine wheel, built by the PEP 517 backend pyproject.toml declares (flit_core), in
    .venv/. SOURCE_DATE_EPOCH (default 1980-01-01) fixes the timestamps: same sources, same
    bytes. With `modules` (dotted names), the backend builds it from a copy of pyproject.toml
    and of those modules only (the site's wheel, `site_modules()`); else from the sources."""
    out_dir.mkdir(parents=True, exist_ok=True)
    src = ROOT
    if modules is not None:
        src = CACHE / f"wheel-src-{os.getpid()}"
        shutil.rmtree(src, ignore_errors=True)
        files = _module_files()
        for name in sorted(modules):
            rel = files[name].relative_to(ROOT)
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(files[name], src / rel)
        shutil.copyfile(ROOT / "pyproject.toml", src / "pyproject.toml")
        try:
            return build_wheel_from(src, out_dir)
        finally:
            shutil.rmtree(src, ignore_errors=True)
    return build_wheel_from(src, out_dir)


def build_wheel_from(src: Path, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", str(DEFAULT_SOURCE_DATE_EPOCH)),
    }
    code = (
        "import sys, tomllib\n"
        "backend = tomllib.load(open('pyproject.toml', 'rb'))['build-system']['build-backend']\n"
        "import importlib; hooks = importlib.import_module(backend)\n"
        "print(hooks.build_wheel(sys.argv[1]))\n"
    )
    proc = subprocess.run(
        [str(venv_python()), "-c", code, str(out_dir.resolve())],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        sys.exit(f"build: the engine wheel failed to build:\n{proc.stdout}{proc.stderr}")
    wheel = out_dir / proc.stdout.strip().splitlines()[-1]
    wheel.chmod(0o644)  # flit writes it through a private temporary file (0600)
    return wheel


def write_app_lock(runtime: Path, wheel: Path, out: Path) -> dict:
    """A pyodide-lock.json that knows only the engine wheel (so nothing resolves remotely)."""
    stock = json.loads((runtime / "pyodide-lock.json").read_text())
    meta = _project_meta()
    canonical = meta["name"].lower().replace("_", "-")
    lock = {
        "info": stock["info"],
        "packages": {
            canonical: {
                "name": canonical,
                "version": meta["version"],
                "file_name": wheel.name,
                "install_dir": "site",
                "sha256": _digest(wheel),
                "package_type": "package",
                "imports": [ENGINE_PKG],
                "depends": [],
                "unvendored_tests": False,
            }
        },
    }
    out.write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n")
    return lock


def write_rules_data(out: Path) -> bool:
    """dist/rules-data.json for the rules page, from the engine's own rule-set data
    (py_engine.rulesdoc.rules_data(), run by this Python in a subprocess); the page falls back
    to asking the engine in the worker when the file is missing."""
    if not (ROOT / ENGINE_PKG / "rulesdoc.py").exists():
        return False
    code = (
        "import json, sys; from py_engine.rulesdoc import rules_data; "
        "sys.stdout.write(json.dumps(rules_data(), ensure_ascii=False, indent=1))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if proc.returncode != 0:
        sys.exit(f"build: py_engine.rulesdoc.rules_data() failed:\n{proc.stderr}")
    out.write_text(proc.stdout + "\n", encoding="utf-8")
    return True
