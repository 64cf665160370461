"""Where things are and what is pinned: the paths of the checkout, the Pyodide runtime's version
and integrity (package.json, package-lock.json), the Python tools and test wheels, the MIME
types the site's files are served with, and the helpers every step uses (log, digests)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
WEB = ROOT / "web"
ENGINE_PKG = "py_engine"
CACHE = Path(os.environ.get("SAMBA_BUILD_CACHE", ROOT / ".cache")).resolve()
VENV = Path(os.environ.get("SAMBA_VENV", ROOT / ".venv")).resolve()
NODE_MODULES = ROOT / "node_modules"

# --- pinned inputs ---------------------------------------------------------------------------
# npm packages: package.json pins the versions, package-lock.json their integrity (npm ci).
PYODIDE_VERSION = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
PYODIDE_INTEGRITY = json.loads((ROOT / "package-lock.json").read_text())["packages"][
    "node_modules/pyodide"
]["integrity"]
# Files of the npm package that loadPyodide needs in a browser (the stock pyodide-lock.json is
# left out on purpose: it points unknown packages at a CDN; the app uses dist/app-lock.json).
PYODIDE_RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Python tools, installed into .venv/ with pip: the engine wheel's build backend (declared in
# pyproject.toml's [build-system]) for every build, the test tools for `test` and `bench`
# (ruff: the linter and formatter of the `lint` stage)
# (Ray: the engine's optional extra `cluster`, for the test that spreads a tournament over a
# local Ray cluster; never in the wheel or the site).
BUILD_TOOLS = ("flit_core==3.12.0",)
TEST_TOOLS = ("pytest==9.0.3", "playwright==1.65.2", "mypy==1.20.2", "ray==2.60.0", "ruff==0.17.6")
# Pure-Python wheels for the in-Pyodide test run (Python 3.14), with their sha256.
PYODIDE_TEST_WHEELS = {
    "micropip-0.11.1-py3-none-any.whl": "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
    "pytest-9.0.3-py3-none-any.whl": "2c5efc453d45394fdd706ade797c0a81091eccd1d6e4bccfcd476e2b8e0ab5d9",
    "pluggy-1.7.0-py3-none-any.whl": "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec",
    "iniconfig-2.3.1-py3-none-any.whl": "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7",
    "packaging-26.4-py3-none-any.whl": "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2",
    "pygments-2.21.0-py3-none-any.whl": "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9",
}
# A fixed default so that two builds give the same wheel bytes (1980-01-01, the zip epoch).
DEFAULT_SOURCE_DATE_EPOCH = 315532800

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".map": "application/json",
}


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sri(data: bytes, algo: str = "sha256") -> str:
    return f"{algo}-" + base64.b64encode(hashlib.new(algo, data).digest()).decode()
