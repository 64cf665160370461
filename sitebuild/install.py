"""Setting up what the build and the tests need, where missing: the npm packages (`npm ci`), the
virtual environment .venv/ with the pinned Python tools, Debian's Chromium (apt, as root) and
the Python 3.14 wheels for the in-Pyodide test run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from sitebuild.config import (
    BUILD_TOOLS,
    CACHE,
    NODE_MODULES,
    PYODIDE_TEST_WHEELS,
    PYODIDE_VERSION,
    ROOT,
    VENV,
    _digest,
    log,
)


def npm_packages() -> Path:
    """node_modules/ as package-lock.json says (`npm ci`, when the lock file changed)."""
    stamp = NODE_MODULES / ".samba-lock-sha256"
    lock = ROOT / "package-lock.json"
    installed = all(
        (NODE_MODULES / name / "package.json").exists()
        for name in json.loads((ROOT / "package.json").read_text())["dependencies"]
    )
    if not (installed and stamp.exists() and stamp.read_text() == _digest(lock)):
        if not shutil.which("npm"):
            sys.exit("build: npm is needed for the Pyodide runtime (install Node.js 20 and npm)")
        log("npm ci (package-lock.json)")
        subprocess.run(
            ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        stamp.write_text(_digest(lock))
    return NODE_MODULES


def pyodide_runtime() -> Path:
    """The Pyodide npm package (node_modules/pyodide), checked to be the pinned version. Under
    Node its pyodide.mjs imports `ws`, which npm put beside it."""
    pkg = npm_packages() / "pyodide"
    version = json.loads((pkg / "package.json").read_text()).get("version")
    if version != PYODIDE_VERSION:
        sys.exit(f"build: node_modules/pyodide is {version}, package.json pins {PYODIDE_VERSION}")
    return pkg


def venv_python(tools: tuple[str, ...] = BUILD_TOOLS) -> Path:
    """The Python of .venv/, created where missing, with `tools` installed (pip, pinned)."""
    python = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        log(f"python -m venv {VENV.relative_to(ROOT) if VENV.is_relative_to(ROOT) else VENV}")
        try:
            venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        except (subprocess.CalledProcessError, OSError) as exc:
            # Debian's Python without python3-venv has no ensurepip: install it as root.
            if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
                log(f"venv failed ({exc}); apt-get install -y python3-venv")
                _apt_install("python3-venv")
                venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
            else:
                sys.exit(f"build: cannot create {VENV} ({exc}); install python3-venv")
    stamp = VENV / ".samba-tools"
    have = set(stamp.read_text().split()) if stamp.exists() else set()
    missing = [t for t in tools if t not in have]
    if missing:
        log(f"pip install {' '.join(missing)} (into {VENV.name}/)")
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *missing],
            check=True,
        )
        stamp.write_text("\n".join(sorted(have | set(missing))) + "\n")
    return python


def _apt_install(package: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(
        ["apt-get", "install", "-y", "-q", package], check=True, env=env, stdout=subprocess.DEVNULL
    )


def ensure_chromium() -> str | None:
    """Path of Debian's Chromium; installs it with apt as root where missing."""
    path = shutil.which("chromium")
    if path:
        return path
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        log("apt-get install -y chromium")
        _apt_install("chromium")
        return shutil.which("chromium")
    log(
        "Chromium is missing: install Debian's package as root "
        "(`apt-get update && apt-get install -y chromium`) so `chromium` is on the PATH"
    )
    return None


def pyodide_test_wheels() -> Path:
    """pytest + deps + micropip for Python 3.14 (pure-Python wheels), cached and hash-checked."""
    dest = CACHE / "wheels-py314"
    dest.mkdir(parents=True, exist_ok=True)

    def ok(name: str) -> bool:
        p = dest / name
        return p.exists() and _digest(p) == PYODIDE_TEST_WHEELS[name]

    missing = [n for n in PYODIDE_TEST_WHEELS if not ok(n)]
    if missing:
        reqs = ["{}=={}".format(*n.split("-")[:2]) for n in missing]
        log(f"pip download (Python 3.14 wheels): {' '.join(reqs)}")
        subprocess.run(
            [
                str(venv_python()),
                "-m",
                "pip",
                "download",
                "-q",
                "--disable-pip-version-check",
                "--no-deps",
                "--python-version",
                "3.14",
                "--only-binary=:all:",
                "-d",
                str(dest),
                *reqs,
            ],
            check=True,
        )
        bad = [n for n in missing if not ok(n)]
        if bad:
            sys.exit(f"build: sha256 mismatch or missing wheel(s): {bad}")
    return dest
