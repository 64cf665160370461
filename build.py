#!/usr/bin/env python3
"""Build, serve, test and benchmark the Samba static site (standard library only).

    python build.py                 build dist/
    python build.py serve [--port 8000] [--prefix /sub/path/]
    python build.py test [--only STAGE ...] [-- extra pytest args]
    python build.py bench [--runs 3] [--first-visit]

The rest is done by the standard tools, which build.py sets up when they are missing: `npm ci`
(package.json, package-lock.json: the Pyodide runtime and ws, integrity-checked by npm), a
virtual environment .venv/ (the wheel's build backend, flit_core, and the test tools), the
PEP 517 build backend for the engine wheel, tools/stdlib_modules.mjs for the trimmed standard library,
tools/draw_icons.py for the icons. See docs/build.md.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import html as _html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import time
import venv
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
WEB = ROOT / "web"
ENGINE_PKG = "py_engine"
CACHE = Path(os.environ.get("SAMBA_BUILD_CACHE", ROOT / ".cache")).resolve()
VENV = Path(os.environ.get("SAMBA_VENV", ROOT / ".venv")).resolve()
NODE_MODULES = ROOT / "node_modules"

# --- pinned inputs ---------------------------------------------------------------------------
# npm packages: package.json pins the versions, package-lock.json their integrity (npm ci).
PYODIDE_VERSION = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
PYODIDE_INTEGRITY = json.loads((ROOT / "package-lock.json").read_text())[
    "packages"]["node_modules/pyodide"]["integrity"]
# Files of the npm package that loadPyodide needs in a browser (the stock pyodide-lock.json is
# left out on purpose: it points unknown packages at a CDN; the app uses dist/app-lock.json).
PYODIDE_RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Python tools, installed into .venv/ with pip: the engine wheel's build backend (declared in
# pyproject.toml's [build-system]) for every build, the test tools for `test` and `bench`
# (Ray: the engine's optional extra `cluster`, for the test that spreads a tournament over a
# local Ray cluster; never in the wheel or the site).
BUILD_TOOLS = ("flit_core==3.12.0",)
TEST_TOOLS = ("pytest==9.0.3", "playwright==1.65.2", "mypy==1.20.2", "ray==2.60.0")
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

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "connect-src 'self' wss:; img-src 'self' data:; style-src 'self'; object-src 'none'; "
    "base-uri 'none'"
)


def csp_connect_src(relays: list[str]) -> str:
    """connect-src of the site's CSP for play with friends' signaling relays (netplay.json):
    the site itself, any wss:// relay (a site host may change the relays in dist/netplay.json
    without a build), and each plain ws:// relay the configuration names."""
    plain = sorted({r.rstrip("/") for r in relays if isinstance(r, str) and r.startswith("ws://")})
    return " ".join(["connect-src 'self' wss:", *plain])


def csp_with_relays(policy: str, relays: list[str]) -> str:
    """`policy` (CSP or csp_for_html's) with connect-src for these relays."""
    return re.sub(r"connect-src [^;]*", csp_connect_src(relays), policy, count=1)
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


# --- set-up: npm packages and the virtual environment ----------------------------------------
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def npm_packages() -> Path:
    """node_modules/ as package-lock.json says (`npm ci`, when the lock file changed)."""
    stamp = NODE_MODULES / ".samba-lock-sha256"
    lock = ROOT / "package-lock.json"
    installed = all((NODE_MODULES / name / "package.json").exists()
                    for name in json.loads((ROOT / "package.json").read_text())["dependencies"])
    if not (installed and stamp.exists() and stamp.read_text() == _digest(lock)):
        if not shutil.which("npm"):
            sys.exit("build: npm is needed for the Pyodide runtime (install Node.js 20 and npm)")
        log("npm ci (package-lock.json)")
        subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                        "--loglevel=error"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
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
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        *missing], check=True)
        stamp.write_text("\n".join(sorted(have | set(missing))) + "\n")
    return python


def _apt_install(package: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "-q", package], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def ensure_chromium() -> str | None:
    """Path of Debian's Chromium; installs it with apt as root where missing."""
    path = shutil.which("chromium")
    if path:
        return path
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        log("apt-get install -y chromium")
        _apt_install("chromium")
        return shutil.which("chromium")
    log("Chromium is missing: install Debian's package as root "
        "(`apt-get update && apt-get install -y chromium`) so `chromium` is on the PATH")
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
        subprocess.run([str(venv_python()), "-m", "pip", "download", "-q",
                        "--disable-pip-version-check", "--no-deps", "--python-version", "3.14",
                        "--only-binary=:all:", "-d", str(dest), *reqs], check=True)
        bad = [n for n in missing if not ok(n)]
        if bad:
            sys.exit(f"build: sha256 mismatch or missing wheel(s): {bad}")
    return dest


# --- the engine wheel ------------------------------------------------------------------------
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
                    parts = package.split(".")[:len(package.split(".")) - node.level + 1]
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
    env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH",
                                                             str(DEFAULT_SOURCE_DATE_EPOCH))}
    code = ("import sys, tomllib\n"
            "backend = tomllib.load(open('pyproject.toml', 'rb'))['build-system']['build-backend']\n"
            "import importlib; hooks = importlib.import_module(backend)\n"
            "print(hooks.build_wheel(sys.argv[1]))\n")
    proc = subprocess.run([str(venv_python()), "-c", code, str(out_dir.resolve())], cwd=src, env=env,
                          capture_output=True, text=True)
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
    code = ("import json, sys; from py_engine.rulesdoc import rules_data; "
            "sys.stdout.write(json.dumps(rules_data(), ensure_ascii=False, indent=1))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", env={**os.environ, "PYTHONPATH": str(ROOT)})
    if proc.returncode != 0:
        sys.exit(f"build: py_engine.rulesdoc.rules_data() failed:\n{proc.stderr}")
    out.write_text(proc.stdout + "\n", encoding="utf-8")
    return True


# --- the memory snapshot (made on the device) -------------------------------------------------
SNAPSHOT_INFO = "snapshot.json"  # in dist/: what web/worker.js reads first
# The worker makes the snapshot itself after a first normal boot (docs/build.md): its name
# depends on the runtime, the wheel, the standard library shipped and the worker's code.
SNAPSHOT_TOOL = WEB / "worker.js"


def _sri(data: bytes, algo: str = "sha256") -> str:
    return f"{algo}-" + base64.b64encode(hashlib.new(algo, data).digest()).decode()


def snapshot_key(wheel_bytes: bytes, pyodide: str = PYODIDE_VERSION,
                 integrity: str = PYODIDE_INTEGRITY, tool: bytes | None = None,
                 stdlib: bytes = b"") -> str:
    """What a snapshot depends on: the runtime (version and tarball hash), the engine wheel's
    bytes, the standard library shipped and the worker that makes it. Part of its name: a
    snapshot another build made is never restored (the worker removes it)."""
    tool = SNAPSHOT_TOOL.read_bytes() if tool is None else tool
    parts = [pyodide.encode(), integrity.encode(), hashlib.sha256(wheel_bytes).digest(), tool,
             hashlib.sha256(stdlib).digest()]
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


# The files a first visit's boot downloads, whose bytes the worker counts as progress.
BOOT_FILES = ("pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


def write_snapshot_info(site: Path, wheel: Path) -> dict:
    """site/snapshot.json: the name the worker keeps its snapshot under, the wheel it unpacks
    (with its integrity), where, and the sizes of the boot's files (progress)."""
    lock_info = json.loads((pyodide_runtime() / "pyodide-lock.json").read_text())["info"]
    major_minor = ".".join(lock_info["python"].split(".")[:2])
    wheel_bytes = wheel.read_bytes()
    stdlib = (site / "pyodide" / "python_stdlib.zip").read_bytes()
    key = snapshot_key(wheel_bytes, stdlib=stdlib)
    sizes = {rel: (site / rel).stat().st_size for rel in BOOT_FILES}
    sizes[wheel.name] = len(wheel_bytes)
    info = {"file": f"snapshot-{PYODIDE_VERSION}-{key}", "made": "device",
            "pyodide": PYODIDE_VERSION, "python": lock_info["python"], "wheel": wheel.name,
            "wheel_integrity": _sri(wheel_bytes),
            "site_packages": f"/lib/python{major_minor}/site-packages", "sizes": sizes}
    (site / SNAPSHOT_INFO).write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    return info


# --- the trimmed standard library -------------------------------------------------------------
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
STDLIB_KEEP_FILES = tuple(f"encodings/{name}.py" for name in (
    "__init__", "aliases", "ascii", "charmap", "cp1252", "cp437", "idna", "latin_1", "punycode",
    "raw_unicode_escape", "unicode_escape", "utf_16", "utf_16_be", "utf_16_le", "utf_32",
    "utf_32_be", "utf_32_le", "utf_8", "utf_8_sig"))


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
    return sorted(m for m in out if m.split(".")[0] != ENGINE_PKG
                  and m.split(".")[0] in getattr(sys, "stdlib_module_names", ()))


def stdlib_files(runtime: Path, wheel: Path, modules: set[str]) -> list[str] | None:
    """The zip entries the site needs (cached by the runtime, the wheel and the tools), or
    None where Node is missing or the tool failed (the build then ships the whole zip)."""
    imports = stdlib_imports(modules)
    key = hashlib.sha256(b"\0".join([PYODIDE_INTEGRITY.encode(), wheel.read_bytes(),
                                      STDLIB_TOOL.read_bytes(), STDLIB_EXERCISE.read_bytes(),
                                      ",".join(imports).encode()])).hexdigest()[:16]
    cached = CACHE / "stdlib" / f"{key}.json"
    if not cached.exists():
        if not shutil.which("node"):
            log("WARNING: node is missing: the whole standard library is shipped")
            return None
        proc = subprocess.run(["node", str(STDLIB_TOOL), "--runtime", str(runtime), "--wheel",
                               str(wheel), "--imports", ",".join(imports)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            log("WARNING: the whole standard library is shipped (tools/stdlib_modules.mjs failed): "
                + (proc.stderr.strip() or proc.stdout.strip())[-2000:])
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
    key = hashlib.sha256(b"\0".join([PYODIDE_INTEGRITY.encode(), zip_path.read_bytes(),
                                      STDLIB_COMPILER.read_bytes()])).hexdigest()[:16]
    cached = CACHE / "stdlib" / f"{key}.zip"
    if not cached.exists():
        if not shutil.which("node"):
            log("WARNING: node is missing: the standard library is shipped as sources")
            return False
        cached.parent.mkdir(parents=True, exist_ok=True)
        scratch = cached.with_name(f"{key}-{os.getpid()}.tmp")
        proc = subprocess.run(["node", str(STDLIB_COMPILER), "--runtime", str(runtime), "--in",
                               str(zip_path), "--out", str(scratch)], capture_output=True, text=True)
        if proc.returncode != 0:
            scratch.unlink(missing_ok=True)
            log("WARNING: the standard library is shipped as sources (tools/compile_stdlib.mjs "
                "failed): " + (proc.stderr.strip() or proc.stdout.strip())[-2000:])
            return False
        scratch.replace(cached)
    shutil.copyfile(cached, zip_path)
    return True


# --- precompressed files ------------------------------------------------------------------------
# Beside each large compressible file, its `.gz` (gzip -9) and `.br` (brotli, from Node's zlib):
# hosts that serve precompressed files (Netlify, Cloudflare, nginx gzip_static/brotli_static,
# `python build.py serve`) send those; GitHub Pages gzips on the fly and ignores them.
PRECOMPRESS_MIN_BYTES = 16_384
PRECOMPRESS_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".html", ".css", ".svg", ".webmanifest")
PRECOMPRESSED = (".gz", ".br")
_BROTLI_JS = (
    "const fs=require('fs'),z=require('zlib');for(const[a,b]of JSON.parse(process.argv[1]))"
    "fs.writeFileSync(b,z.brotliCompressSync(fs.readFileSync(a),{params:{"
    "[z.constants.BROTLI_PARAM_QUALITY]:11,[z.constants.BROTLI_PARAM_SIZE_HINT]:fs.statSync(a).size}}));")


def precompress(site: Path) -> int:
    """Writes the `.gz` and `.br` siblings (cached by content in .cache/compressed/); returns
    how many files got them. Without Node, only `.gz`."""
    import gzip
    cache = CACHE / "compressed"
    cache.mkdir(parents=True, exist_ok=True)
    todo, n = [], 0
    for path in sorted(site.rglob("*")):
        if not (path.is_file() and path.suffix in PRECOMPRESS_SUFFIXES
                and path.stat().st_size >= PRECOMPRESS_MIN_BYTES):
            continue
        n += 1
        digest = _digest(path)
        gz, br = cache / f"{digest}.gz", cache / f"{digest}.br"
        if not gz.exists():
            gz.write_bytes(gzip.compress(path.read_bytes(), 9, mtime=0))
        if not br.exists():
            todo.append((str(path), str(br)))
        shutil.copyfile(gz, path.with_name(path.name + ".gz"))
    if todo and shutil.which("node"):
        subprocess.run(["node", "-e", _BROTLI_JS, json.dumps(todo)], check=True)
    for path in sorted(site.rglob("*")):
        br = cache / f"{_digest(path)}.br" if path.is_file() and path.suffix in PRECOMPRESS_SUFFIXES else None
        if br is not None and br.exists():
            shutil.copyfile(br, path.with_name(path.name + ".br"))
    return n


# --- the first frame: index.html inlined ---------------------------------------------------
# What the first frame needs comes with the HTML itself, so that the page paints after one
# request (no stylesheet or script round trip to a server or through the service worker): the
# stylesheets index.html links are copied into one <style>, the render-blocking first-paint.js
# into an inline module, and the shell's texts in every language into a JSON data block (read
# by first-paint.js). The files stay in web/ (the source; other pages and the module graph use
# them); the build copies, it never keeps a second hand-written copy. The strict CSP allows the
# inline blocks by their sha256 (csp_for_html), computed from the file as served.
INLINE_PAGE = "index.html"
INLINE_STYLES = re.compile(r'(?:<link rel="stylesheet" href="(css/[a-z0-9-]+\.css)">\n)+')
INLINE_MODULE = '<script type="module" src="js/first-paint.js" blocking="render"></script>'
BOOT_TEXTS_MARK = "<!-- boot-texts -->"
# Keys the first frame shows besides the shell's data-i18n texts (first-paint.js).
BOOT_TEXT_KEYS = ("app.title", "boot.shuffling")


def _i18n_catalogues() -> dict[str, dict]:
    """The catalogues of web/i18n/, in the order of i18n.js LANGS (the language picker's)."""
    found = {p.stem: p for p in sorted((WEB / "i18n").glob("*.json"))}
    m = re.search(r"export const LANGS = \[([^\]]*)\]", (WEB / "js" / "i18n.js").read_text(encoding="utf-8"))
    order = re.findall(r'"([a-z]+)"', m.group(1)) if m else []
    codes = [c for c in order if c in found] + [c for c in found if c not in order]
    return {c: json.loads(found[c].read_text(encoding="utf-8")) for c in codes}


def boot_texts(html: str, catalogues: dict[str, dict]) -> dict[str, dict]:
    """The texts of the shell in every language: the data-i18n/data-i18n-aria keys of `html`
    and BOOT_TEXT_KEYS, from the catalogues (a key a catalogue lacks is left out: the shell's
    English stays)."""
    keys = sorted(set(re.findall(r'data-i18n(?:-aria)?="([a-z0-9_.]+)"', html)) | set(BOOT_TEXT_KEYS)
                  | {f"lang.{code}" for code in catalogues})  # the language picker's labels
    return {lang: {k: cat[k] for k in keys if isinstance(cat.get(k), str)}
            for lang, cat in catalogues.items()}


def inline_first_frame(site: Path) -> None:
    """Rewrites site/index.html with its stylesheets, first-paint.js and the boot texts inline."""
    page = site / INLINE_PAGE
    html = page.read_text(encoding="utf-8")
    m = INLINE_STYLES.search(html)
    if not m or html.count(INLINE_MODULE) != 1 or html.count(BOOT_TEXTS_MARK) != 1:
        sys.exit(f"build: {INLINE_PAGE} must link its stylesheets, load {INLINE_MODULE!r} and "
                 f"hold {BOOT_TEXTS_MARK!r} once")
    css = "".join(f"/* {rel} */\n" + (site / rel).read_text(encoding="utf-8")
                  for rel in re.findall(r'href="([^"]+)"', m.group(0)))
    js = (site / "js" / "first-paint.js").read_text(encoding="utf-8")
    texts = json.dumps(boot_texts(html, _i18n_catalogues()), ensure_ascii=False)
    texts = texts.replace("<", "\\u003c")  # never closes the data block
    for what, text in (("css", css), ("js/first-paint.js", js)):
        if re.search(r"</(style|script)", text, re.I):
            sys.exit(f"build: {what} contains a closing </style> or </script>; cannot inline it")
    # data-sheets: the files, for js/style-fallback.js (a host's policy that refuses the copy)
    sheets = " ".join(re.findall(r'href="([^"]+)"', m.group(0)))
    html = (html[:m.start()] + f'<style data-sheets="{sheets}">\n{css}</style>\n' + html[m.end():])
    html = html.replace(INLINE_MODULE, f'<script type="module" blocking="render">\n{js}</script>')
    html = html.replace(BOOT_TEXTS_MARK, '<script type="application/json" id="boot-texts">'
                        + texts + "</script>")
    page.write_text(html, encoding="utf-8")


_INLINE_BLOCK = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1>", re.S | re.I)


def csp_for_html(html: str) -> str:
    """The site's CSP for one HTML page: CSP, with the sha256 of each inline script (not data
    blocks) and style of the page added to script-src and style-src."""
    hashes = {"script": [], "style": []}
    for tag, attrs, body in _INLINE_BLOCK.findall(html):
        if not body or (tag.lower() == "script" and re.search(r"\bsrc=", attrs)):
            continue
        kind = re.search(r'\btype="([^"]*)"', attrs)
        if tag.lower() == "script" and kind and kind.group(1) not in ("module", "text/javascript"):
            continue  # a data block (application/json) is never run
        hashes[tag.lower()].append(f"'{_sri(body.encode())}'")
    policy = CSP
    for tag, src in (("script", "script-src 'self' 'wasm-unsafe-eval'"), ("style", "style-src 'self'")):
        if hashes[tag]:
            policy = policy.replace(src, " ".join([src, *sorted(set(hashes[tag]))]))
    return policy


# --- any static host: the pages' text, their own CSP, _headers, HOSTING.md -------------------
# A host that sends no headers of ours (GitHub Pages) still gets the policy: each page carries it
# in a <meta> (hashes included); a host that reads a _headers file (Netlify, Cloudflare Pages)
# gets the same policy as a header, and the MIME types and nosniff. `serve` sends the same
# headers (make_handler). dist/HOSTING.md tells a host what it must serve.
PRERENDER_TOOL = ROOT / "tools" / "prerender.mjs"
HEADERS_FILE = "_headers"     # read by Netlify and Cloudflare Pages; never precached
HOSTING_FILE = "HOSTING.md"   # web/HOSTING.md, its MIME table filled in by the build
HOSTING_MIME_MARK = "<!-- mime-types -->"
# Sent with every file (serve, _headers).
SITE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # Public static files, like GitHub Pages: a host page on another site may load
    # js/samba-table.js as a module script (a CORS request).
    "Access-Control-Allow-Origin": "*",
}
# Directives a <meta> policy does not carry (CSP 3): they work in a header only.
META_IGNORED_DIRECTIVES = ("frame-ancestors", "report-uri", "report-to", "sandbox")
# Types a static host may not know (or not send right): written into _headers per file.
HOST_TYPES = (".wasm", ".mjs", ".webmanifest", ".whl", ".gz")
# Where a script starts a worker or registers the service worker (their CSP is their response's
# own header: a page's <meta> does not reach them). `base` = import.meta.url or document.baseURI.
WORKER_START = re.compile(r'(?:new (?:Shared)?Worker|\.register)\(\s*new URL\("([^"]+)",\s*'
                          r'(import\.meta\.url|document\.baseURI)\)')
# Cloudflare Pages' limits for a _headers file.
HEADERS_MAX_RULES, HEADERS_MAX_LINE = 100, 2000


def prerender_pages(site: Path) -> list[str]:
    """Draws the text of the pages whose <html> names a drawing module (data-prerender) into
    their HTML, with that module under Node (tools/prerender.mjs): the page's own code, no copy."""
    pages = [p.name for p in sorted(site.glob("*.html"))
             if re.search(r"<html\b[^>]*\bdata-prerender=", p.read_text(encoding="utf-8"))]
    if not pages:
        return []
    proc = subprocess.run(["node", str(PRERENDER_TOOL), str(site)], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8")
    if proc.returncode != 0:
        sys.exit(f"build: tools/prerender.mjs failed:\n{proc.stdout}{proc.stderr}")
    done = json.loads(proc.stdout.strip().splitlines()[-1])["pages"]
    if sorted(done) != pages:
        sys.exit(f"build: tools/prerender.mjs drew {done}, not {pages}")
    return done


_DESCRIPTION = re.compile(r'<meta name="description" data-i18n-content="([a-z0-9_.]+)" content="[^"]*">')


def fill_descriptions(site: Path, catalogue: dict) -> None:
    """Every page's <meta name="description">, from the default language's catalogue (the
    pages that switch language translate it: dom.js translateMeta). A page without one, or
    with a key the catalogue lacks, stops the build."""
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        m = _DESCRIPTION.search(html)
        if not m or not isinstance(catalogue.get(m.group(1)), str):
            sys.exit(f"build: {page.name} needs <meta name=\"description\" data-i18n-content=\"KEY\" "
                     f"content=\"\"> with a KEY of web/i18n/en.json")
        text = _html.escape(catalogue[m.group(1)], quote=True)
        page.write_text(html[:m.start()] + m.group(0).replace('content=""', f'content="{text}"')
                        + html[m.end():], encoding="utf-8")


def meta_policy(policy: str) -> str:
    """`policy` without the directives a <meta> policy ignores."""
    parts = [d.strip() for d in policy.split(";") if d.strip()]
    return "; ".join(d for d in parts if d.split()[0].lower() not in META_IGNORED_DIRECTIVES)


META_CHARSET = '<meta charset="utf-8">'


def add_meta_csp(site: Path) -> dict[str, str]:
    """Puts each page's policy (csp_for_html: CSP and the page's hashes, connect-src for the
    relays of site/netplay.json) into the page, as the first thing after its charset (a <meta>
    policy governs only what comes after it); returns {page: header policy}. Run after every
    other change to the pages' HTML."""
    relays = netplay_relays(site)
    policies = {}
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        if html.count(META_CHARSET) != 1 or "http-equiv=\"Content-Security-Policy\"" in html:
            sys.exit(f"build: {page.name} must hold {META_CHARSET} once and no CSP of its own")
        policies[page.name] = policy = csp_with_relays(csp_for_html(html), relays)
        meta = ('<meta http-equiv="Content-Security-Policy" content="'
                + _html.escape(meta_policy(policy), quote=False).replace('"', "&quot;") + '">')
        page.write_text(html.replace(META_CHARSET, f"{META_CHARSET}\n{meta}", 1), encoding="utf-8")
        if csp_with_relays(csp_for_html(page.read_text(encoding="utf-8")), relays) != policy:
            sys.exit(f"build: the meta CSP changed {page.name}'s own policy")
    return policies


def worker_scripts(site: Path) -> list[str]:
    """The site's worker and service-worker scripts (site-relative), from the scripts that start
    them (WORKER_START); a `new Worker(` of another form is reported (it gets no CSP header)."""
    found = set()
    for path in sorted(site.rglob("*.js")):
        if "pyodide" in path.relative_to(site).parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        starts = WORKER_START.findall(text)
        if len(starts) < len(re.findall(r"new (?:Shared)?Worker\(", text)):
            log(f"note: {path.relative_to(site)} starts a worker this build cannot place; "
                "it gets no CSP in _headers")
        for rel, base in starts:
            start = path.parent if base.startswith("import") else site
            target = (start / rel).resolve()
            if target.is_relative_to(site.resolve()) and target.is_file():
                found.add(target.relative_to(site.resolve()).as_posix())
    return sorted(found)


def headers_rules(site: Path, policies: dict[str, str]) -> dict[str, dict[str, str]]:
    """{URL path: {header: value}} for _headers. No header is given by two rules that can match
    one path (hosts join or override such duplicates: two CSPs would both apply)."""
    rules: dict[str, dict[str, str]] = {"/*": dict(SITE_HEADERS)}
    for name, policy in sorted(policies.items()):
        stem = name[:-len(".html")]
        for url in (["/", "/index.html"] if name == "index.html" else [f"/{name}", f"/{stem}"]):
            rules.setdefault(url, {})["Content-Security-Policy"] = policy
    for rel in worker_scripts(site):
        rules.setdefault(f"/{rel}", {})["Content-Security-Policy"] = csp_with_relays(
            CSP, netplay_relays(site))
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and path.suffix in HOST_TYPES and not rel.startswith("."):
            rules.setdefault(f"/{rel}", {})["Content-Type"] = MIME_TYPES[path.suffix]
    return rules


def write_headers_file(site: Path, policies: dict[str, str]) -> int:
    """site/_headers (Netlify / Cloudflare Pages format); returns the number of rules."""
    rules = headers_rules(site, policies)
    lines = ["# Response headers for hosts that read this file (Netlify, Cloudflare Pages), written",
             "# by build.py: each page's Content-Security-Policy (the same as the page's <meta>,",
             "# with the sha256 of its inline blocks: a hand-written policy without them leaves the",
             "# table unstyled until its script has loaded the stylesheets), the workers' policy,",
             "# MIME types a host may not know, and nosniff. See HOSTING.md.", ""]
    for url, headers in rules.items():
        lines.append(url)
        lines.extend(f"  {k}: {v}" for k, v in headers.items())
    long = [line for line in lines if len(line) > HEADERS_MAX_LINE]
    if len(rules) > HEADERS_MAX_RULES or long:
        log(f"note: {HEADERS_FILE} has {len(rules)} rules and {len(long)} lines over "
            f"{HEADERS_MAX_LINE} characters (Cloudflare Pages takes {HEADERS_MAX_RULES} and {HEADERS_MAX_LINE})")
    (site / HEADERS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(rules)


def fill_hosting_readme(site: Path) -> None:
    """site/HOSTING.md (copied from web/) with the MIME types of the files the site has."""
    path = site / HOSTING_FILE
    text = path.read_text(encoding="utf-8")
    if text.count(HOSTING_MIME_MARK) != 1:
        sys.exit(f"build: web/{HOSTING_FILE} must hold {HOSTING_MIME_MARK!r} once")
    have = {p.suffix for p in site.rglob("*") if p.is_file()}
    table = ["| files | Content-Type |", "|---|---|"]
    table += [f"| `*{ext}` | `{MIME_TYPES[ext]}` |" for ext in sorted(have & set(MIME_TYPES))]
    path.write_text(text.replace(HOSTING_MIME_MARK, "\n".join(table)), encoding="utf-8")


# --- the service worker ----------------------------------------------------------------------
SW_TEMPLATE = "sw.template.js"  # in web/; filled in and written as dist/sw.js, not shipped
SW_NAME = "sw.js"
# Files of dist/ that are not precached (the worker itself; source maps nobody needs offline;
# the files for hosts: a host that reads _headers does not serve it).
SW_EXCLUDE_SUFFIXES = (".map",)
# ... nor the site's play-with-friends configuration, which a site host may edit in dist/.
SW_EXCLUDE_NAMES = ("_headers", "HOSTING.md", "netplay.json")
# What the engine worker hands to the service worker's install (web/worker.js HANDOFF), with
# the site's wheel: sw.js carries their sha256.
HANDED_OFF = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


def precache_list(site: Path) -> list[str]:
    """Every file under `site` a visitor needs offline, as URLs relative to the site root (plus
    "./", the directory URL that serves index.html), sorted; sw.js itself is left out."""
    urls = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if (path.is_dir() or rel in (SW_NAME, *SW_EXCLUDE_NAMES) or path.suffix in SW_EXCLUDE_SUFFIXES
                or (path.suffix in PRECOMPRESSED and path.with_suffix("").is_file())
                or any(part.startswith(".") for part in path.relative_to(site).parts)):
            continue
        urls.append(rel)
    if "index.html" in urls:
        urls.insert(0, "./")
    return urls


def site_version(site: Path, urls: list[str], template: str = "") -> str:
    """A content hash of the precached files (names and bytes) and the template: any change
    to the site gives another version, hence another sw.js."""
    h = hashlib.sha256()
    h.update(hashlib.sha256(template.encode()).digest())
    for rel in urls:
        if rel == "./":
            continue
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256((site / rel).read_bytes()).digest())
    return h.hexdigest()[:20]


def service_worker_source(site: Path, template: str) -> tuple[str, str, list[str]]:
    """(sw.js source, version, precache URLs) for the site tree `site`."""
    urls = precache_list(site)
    version = site_version(site, urls, template)
    handed = {rel: _sri((site / rel).read_bytes()) for rel in urls if rel in HANDED_OFF or rel.endswith(".whl")}
    fills = {'"__SW_VERSION__"': json.dumps(version),
             '["__SW_PRECACHE__"]': json.dumps(urls, indent=2),
             '{"__SW_HANDOFF__": ""}': json.dumps(handed, indent=2)}
    source = template
    for key, value in fills.items():
        if source.count(key) != 1:
            sys.exit(f"build: {SW_TEMPLATE} must contain {key} exactly once")
        source = source.replace(key, value)
    return source, version, urls


def write_service_worker(site: Path, template_path: Path = WEB / SW_TEMPLATE) -> tuple[str, int]:
    """Write site/sw.js from the template; returns (version, number of precached URLs)."""
    source, version, urls = service_worker_source(site, template_path.read_text(encoding="utf-8"))
    (site / SW_NAME).write_text(source, encoding="utf-8")
    return version, len(urls)


# --- dist ------------------------------------------------------------------------------------
def _remove_stale_scratch() -> None:
    """Scratch trees left by builds that died (their process is gone)."""
    for path in list(CACHE.glob("dist-build-*")) + list(CACHE.glob("dist-old-*")):
        pid = path.name.rsplit("-", 1)[-1]
        try:
            os.kill(int(pid), 0)
        except (ValueError, ProcessLookupError):
            shutil.rmtree(path, ignore_errors=True)
        except PermissionError:
            pass


# V8's explicit compile hint (Chromium 136+; a comment elsewhere): compile every function of the
# file at once, so the code cache kept with the service worker's copy holds them all and a
# returning visit compiles none of pyodide.asm.mjs's 1.2 MB (docs/build.md, "Compile hint").
COMPILE_HINT = "//# allFunctionsCalledOnLoad\n"


def compile_hint(path: Path) -> None:
    """Prefixes `path` (a JavaScript file) with COMPILE_HINT."""
    text = path.read_text(encoding="utf-8")
    if not text.startswith(COMPILE_HINT):
        path.write_text(COMPILE_HINT + text, encoding="utf-8")


# Emscripten's dynamic linker wraps each JavaScript function that goes into the wasm table in a
# tiny wasm module of its own, compiled anew for every function (259 at each start of Pyodide
# 314.0.7, on the worker's thread: docs/build.md, "Return visit"). The module depends only on
# the signature: the site's copy compiles one per signature and instantiates it per function.
# The table is filled in the same order with the same kind of entries, so a memory snapshot made
# with the npm runtime restores as before. If the runtime's text differs (another Pyodide), the
# copy is left as it is.
WRAPPER_COMPILE = ('var convertJsFunctionToWasm=(func,sig)=>{var bytes=Uint8Array.of(0,97,115,109,1,0,0,0,1,'
                   '...uleb128EncodeWithLen([1,96,...generateTypePack(sig.slice(1)),...generateTypePack('
                   'sig[0]==="v"?"":sig[0])]),2,7,1,1,101,1,102,0,0,7,5,1,1,102,0,0);'
                   'var module=new WebAssembly.Module(bytes);')
WRAPPER_SHARED = ('var wrapperModules=new Map;'
                  'var convertJsFunctionToWasm=(func,sig)=>{var module=wrapperModules.get(sig);'
                  'if(!module){var bytes=Uint8Array.of(0,97,115,109,1,0,0,0,1,'
                  '...uleb128EncodeWithLen([1,96,...generateTypePack(sig.slice(1)),...generateTypePack('
                  'sig[0]==="v"?"":sig[0])]),2,7,1,1,101,1,102,0,0,7,5,1,1,102,0,0);'
                  'module=new WebAssembly.Module(bytes);wrapperModules.set(sig,module)}')


def share_wrapper_modules(path: Path) -> bool:
    """Rewrites WRAPPER_COMPILE into WRAPPER_SHARED in `path`; False where it is not found once."""
    text = path.read_text(encoding="utf-8")
    if text.count(WRAPPER_COMPILE) != 1:
        return WRAPPER_SHARED in text
    path.write_text(text.replace(WRAPPER_COMPILE, WRAPPER_SHARED), encoding="utf-8")
    return True


def build(quiet: bool = False, netplay_config_file: Path | None = None, out: Path = DIST) -> Path:
    """Build dist/ (or `out`) and return its path. Builds into a scratch dir, then swaps it in."""
    t0 = time.perf_counter()
    runtime = pyodide_runtime()
    CACHE.mkdir(parents=True, exist_ok=True)
    _remove_stale_scratch()
    stage = CACHE / f"dist-build-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / "pyodide").mkdir(parents=True)
    for name in PYODIDE_RUNTIME_FILES:
        shutil.copyfile(runtime / name, stage / "pyodide" / name)
    compile_hint(stage / "pyodide" / "pyodide.asm.mjs")
    if not share_wrapper_modules(stage / "pyodide" / "pyodide.asm.mjs"):
        log("note: pyodide.asm.mjs is not the text expected; its wrapper modules are not shared")
    shutil.copytree(WEB, stage, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", ".*", SW_TEMPLATE))
    inline_first_frame(stage)
    netplay = write_netplay_config(stage, netplay_config_file)
    vendor_trystero(stage)
    modules = site_modules()
    wheel = build_wheel(stage, modules)
    stdlib = stdlib_files(runtime, wheel, modules)
    if stdlib is not None:
        stdlib_kept = trim_stdlib(runtime / STDLIB_ZIP, stage / "pyodide" / STDLIB_ZIP, stdlib)
        stdlib_compiled = compile_stdlib(runtime, stage / "pyodide" / STDLIB_ZIP)
    rules_data = write_rules_data(stage / "rules-data.json")
    lock = write_app_lock(runtime, wheel, stage / "app-lock.json")
    fill_descriptions(stage, _i18n_catalogues()["en"])
    prerendered = prerender_pages(stage) if rules_data else []
    policies = add_meta_csp(stage)   # after every other change to the pages
    snapshot = write_snapshot_info(stage, wheel)
    fill_hosting_readme(stage)
    sw = write_service_worker(stage)
    header_rules = write_headers_file(stage, policies)   # (sw.js exists: its own rule)
    precompressed = precompress(stage)   # (after every other file; _headers names none of them)
    # Swap the new tree in (a server running on dist/ keeps working apart from a short gap).
    old = CACHE / f"dist-old-{os.getpid()}"
    if out.exists():
        shutil.move(out, old)
    shutil.move(stage, out)   # (a rename, unless `out` lies on another file system)
    shutil.rmtree(old, ignore_errors=True)

    if not quiet:
        files = [p for p in out.rglob("*") if p.is_file()]
        sha = next(iter(lock["packages"].values()))["sha256"]
        log(f"pyodide {PYODIDE_VERSION} (npm ci, integrity checked by npm) -> dist/pyodide/")
        log(f"engine wheel dist/{wheel.name} ({(out / wheel.name).stat().st_size} bytes, "
            f"sha256 {sha[:16]}...)")
        log("app lock dist/app-lock.json (engine only)"
            + ("; dist/rules-data.json from py_engine.rulesdoc" if rules_data else ""))
        log(f"dist/{SNAPSHOT_INFO}: the worker keeps its snapshot as {snapshot['file']}")
        if stdlib is not None:
            log(f"standard library: {stdlib_kept[0]} of {stdlib_kept[1]} entries "
                f"({(out / 'pyodide' / STDLIB_ZIP).stat().st_size / 1e6:.2f} MB"
                + (", compiled)" if stdlib_compiled else ", sources)"))
        log(f"precompressed .gz/.br beside {precompressed} files")
        log(f"pages drawn in the build: {', '.join(prerendered) or 'none'}; each page's CSP in a "
            f"<meta>; dist/{HEADERS_FILE} ({header_rules} rules) and dist/{HOSTING_FILE} for hosts")
        log(f"play with friends: dist/{NETPLAY_CONFIG} ({len(netplay['iceServers'])} ICE "
            f"server(s), {len(netplay['relays'])} relay(s)); dist/{VENDOR_DIR}/ (trystero)")
        log(f"service worker dist/{SW_NAME}: version {sw[0]}, {sw[1]} precached URLs")
        log(f"dist/: {len(files)} files, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB, "
            f"built in {time.perf_counter() - t0:.2f} s")
    return out


# --- play with friends: the site's configuration and the signaling library ------------------
# web/netplay.json is the default configuration (docs/netplay.md): the ICE servers (STUN, and
# TURN with its credentials) and the signaling relays (Nostr, ws:// or wss://). The build writes
# it to dist/netplay.json, or the file given with `--netplay-config FILE`; a site host may edit
# dist/netplay.json (it is not precached, the page fetches it afresh).
NETPLAY_CONFIG = "netplay.json"
VENDOR_DIR = "vendor"
# Trystero's ES modules, copied from node_modules with their bare imports made relative (the
# page loads them as they are: no bundler). (source in node_modules, target in dist/vendor/)
TRYSTERO_FILES = (("@trystero-p2p/nostr/dist", "trystero/nostr"),
                  ("@trystero-p2p/core/dist", "trystero/core"),
                  ("@noble/secp256k1", "noble-secp256k1"))
TRYSTERO_IMPORTS = {"@noble/secp256k1": "../../noble-secp256k1/index.js",
                    "@trystero-p2p/core": "../core/index.mjs"}


def check_netplay_config(cfg, where: str) -> dict:
    """The configuration's shape, or sys.exit with what is wrong."""
    def bad(why: str):
        sys.exit(f"build: {where}: {why} (docs/netplay.md, \"Site configuration\")")
    if not isinstance(cfg, dict):
        bad("not a JSON object")
    ice, relays = cfg.get("iceServers", []), cfg.get("relays", [])
    if not isinstance(ice, list) or not isinstance(relays, list):
        bad("'iceServers' and 'relays' are lists")
    for s in ice:
        urls = s.get("urls") if isinstance(s, dict) else None
        urls = [urls] if isinstance(urls, str) else urls
        if not urls or not all(isinstance(u, str) and re.match(r"^(stuns?|turns?):\S+$", u)
                               for u in urls):
            bad(f"an ICE server's 'urls' are stun:, stuns:, turn: or turns: URLs: {s!r}")
        if any(u.startswith("turn") for u in urls) and not (
                isinstance(s.get("username"), str) and isinstance(s.get("credential"), str)):
            bad(f"a TURN server needs 'username' and 'credential': {s!r}")
    for r in relays:
        if not isinstance(r, str) or not re.match(r"^wss?://[^\s/]+(/\S*)?$", r):
            bad(f"a relay is a ws:// or wss:// URL: {r!r}")
    return {**cfg, "iceServers": ice, "relays": relays}


def write_netplay_config(site: Path, source: Path | None = None) -> dict:
    """dist/netplay.json from `source` (the build option) or web/netplay.json, checked."""
    src = source or WEB / NETPLAY_CONFIG
    try:
        cfg = json.loads(Path(src).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        sys.exit(f"build: cannot read the play-with-friends configuration {src}: {exc}")
    cfg = check_netplay_config(cfg, str(src))
    (site / NETPLAY_CONFIG).write_text(json.dumps(cfg, indent=1) + "\n", encoding="utf-8")
    return cfg


def netplay_relays(site: Path) -> list[str]:
    """The relays of site/netplay.json (none when it is missing or unreadable)."""
    try:
        relays = json.loads((site / NETPLAY_CONFIG).read_text(encoding="utf-8")).get("relays")
    except (OSError, ValueError, AttributeError):
        return []
    return [r for r in relays if isinstance(r, str)] if isinstance(relays, list) else []


def vendor_trystero(site: Path) -> None:
    """Trystero's nostr strategy, its core and @noble/secp256k1 into site/vendor/ (with their
    licences), bare imports rewritten to relative paths; source maps left out."""
    for src, dst in TRYSTERO_FILES:
        pkg = NODE_MODULES / src
        if not pkg.is_dir():
            sys.exit(f"build: {pkg} is missing (npm ci installs trystero from package-lock.json)")
        out = site / VENDOR_DIR / dst
        out.mkdir(parents=True, exist_ok=True)
        for f in sorted(pkg.iterdir()):
            if f.suffix not in (".mjs", ".js") or f.name.endswith((".d.mts", ".d.ts")):
                continue
            text = f.read_text(encoding="utf-8")
            text = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", text)
            for bare, rel in TRYSTERO_IMPORTS.items():
                text = text.replace(f'from "{bare}"', f'from "{rel}"')
            if re.search(r'from "[^./]', text):
                sys.exit(f"build: {f} has a bare import the build does not map")
            (out / f.name).write_text(text, encoding="utf-8")
        lic = pkg.parent / "LICENSE" if pkg.name == "dist" else pkg / "LICENSE"
        if lic.exists():
            shutil.copyfile(lic, out / "LICENSE")


# --- serving ---------------------------------------------------------------------------------
# What a production static host does that the standard library's handler does not (GitHub
# Pages, Netlify, Cloudflare Pages...): compressible types are sent with Content-Encoding (gzip
# made on the fly; a precompressed `.br` or `.gz` beside the file where the host serves those),
# and every response carries a strong ETag, so a revalidation (`If-None-Match`) is a 304.
# Content-addressed: the tag is a hash of the file's bytes and the encoding.
COMPRESSIBLE_SUFFIXES = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest",
                         ".wasm", ".txt", ".map")
ON_THE_FLY_GZIP_LEVEL = 6  # what hosts use on the fly (nginx's default is 1, Pages' is about 6)


def accepted_encodings(header: str | None) -> set[str]:
    """The content codings an Accept-Encoding header allows (q=0 refuses one)."""
    out = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        q = re.search(r"q=([0-9.]+)", params)
        if name and not (q and float(q.group(1) or 0) == 0):
            out.add(name.strip().lower())
    return out


_ENCODED: dict = {}  # (path, mtime_ns, size, coding) -> (bytes, etag); a few MB at most


def encoded_file(path: Path, accept: set[str], precompressed: bool = True) -> tuple[bytes, str | None, str]:
    """(body, content coding or None, ETag) for `path` as a host sends it to a browser that
    accepts `accept`: a precompressed sibling (`.br`, then `.gz`) when `precompressed` and it is
    there, else gzip made on the fly for a compressible type, else the bytes as they are."""
    st = path.stat()
    choices = []
    if path.suffix in COMPRESSIBLE_SUFFIXES:
        if precompressed:
            choices += [("br", path.with_name(path.name + ".br")), ("gzip", path.with_name(path.name + ".gz"))]
        choices.append(("gzip", None))
    coding, source = None, None
    for name, sibling in choices:
        if name in accept and (sibling is None or sibling.is_file()):
            coding, source = name, sibling
            break
    key = (str(path), st.st_mtime_ns, st.st_size, coding, str(source))
    if key not in _ENCODED:
        import gzip
        data = path.read_bytes()
        if source is not None:
            body = source.read_bytes()
        elif coding == "gzip":
            body = gzip.compress(data, ON_THE_FLY_GZIP_LEVEL, mtime=0)
        else:
            body = data
        etag = '"' + hashlib.sha256(data).hexdigest()[:24] + ("-" + coding if coding else "") + '"'
        if len(_ENCODED) > 64:
            _ENCODED.clear()
        _ENCODED[key] = (body, etag)
    body, etag = _ENCODED[key]
    return body, coding, etag


def send_encoded(handler, path: Path, precompressed: bool = True):
    """Answers a GET/HEAD for the regular file `path` like a production host: 304 for a
    matching If-None-Match, else 200 with Content-Encoding, Vary, ETag. Returns the body as a
    file object (or None after a 304), as SimpleHTTPRequestHandler.send_head does."""
    import io
    body, coding, etag = encoded_file(path, accepted_encodings(handler.headers.get("Accept-Encoding")),
                                      precompressed)
    tags = [t.strip() for t in (handler.headers.get("If-None-Match") or "").split(",")]
    vary = path.suffix in COMPRESSIBLE_SUFFIXES
    if etag in tags or "*" in tags:
        handler.send_response(304)
        handler.send_header("ETag", etag)
        if vary:
            handler.send_header("Vary", "Accept-Encoding")
        handler.end_headers()
        return None
    handler.send_response(200)
    handler.send_header("Content-Type", handler.guess_type(str(path)))
    handler.send_header("Content-Length", str(len(body)))
    if coding:
        handler.send_header("Content-Encoding", coding)
    if vary:
        handler.send_header("Vary", "Accept-Encoding")
    handler.send_header("ETag", etag)
    handler.send_header("Last-Modified", handler.date_time_string(path.stat().st_mtime))
    handler.end_headers()
    return io.BytesIO(body)


def make_handler(root: Path | str, prefix: str = "", quiet: bool = False, precompressed: bool = True):
    """A SimpleHTTPRequestHandler class serving `root` with the site's MIME types and CSP,
    compressed and validated as a production host does (send_encoded).

    `prefix` (e.g. "/some/sub/path/") serves the tree under that sub-path only; anything else
    is a 404 (the way a project page on a shared host looks). `precompressed=False` ignores the
    `.br`/`.gz` files beside the large ones (a host that only gzips on the fly: GitHub Pages).
    """
    root = str(Path(root).resolve())
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else ""

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
        protocol_version = "HTTP/1.1"

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=root, **kwargs)

        csp_cache: dict = {}
        relays = netplay_relays(Path(root))

        def send_head(self):
            # Which file answers (for the CSP of an HTML page with inline blocks).
            path = Path(self.translate_path(self.path))
            self._served = path / "index.html" if path.is_dir() else path
            url_path = self.path.split("?", 1)[0].split("#", 1)[0]
            if self._served.is_file() and (not path.is_dir() or url_path.endswith("/")):
                return send_encoded(self, self._served, precompressed)
            return super().send_head()

        def _csp(self) -> str:
            path = getattr(self, "_served", None)
            base = csp_with_relays(CSP, self.relays)
            if path is None or path.suffix != ".html":
                return base
            try:
                stat = path.stat()
            except OSError:
                return base
            key = (str(path), stat.st_mtime_ns, stat.st_size)
            if key not in self.csp_cache:
                self.csp_cache[key] = csp_with_relays(
                    csp_for_html(path.read_text(encoding="utf-8", errors="replace")), self.relays)
            return self.csp_cache[key]

        def end_headers(self):
            self.send_header("Content-Security-Policy", self._csp())
            for name, value in SITE_HEADERS.items():   # (also in _headers)
                self.send_header(name, value)
            self.send_header("Cache-Control", "no-cache")
            super().end_headers()

        def _route(self) -> bool:
            self._served = None
            if not prefix:
                return True
            path = self.path.split("?", 1)[0]
            if path + "/" == prefix:
                self.send_response(301)
                self.send_header("Location", prefix)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return False
            if not path.startswith(prefix):
                self.send_error(404, "outside the site's sub-path")
                return False
            self.path = "/" + self.path[len(prefix):]
            return True

        def do_GET(self):
            if self._route():
                super().do_GET()

        def do_HEAD(self):
            if self._route():
                super().do_HEAD()

        def log_message(self, fmt, *args):
            if not quiet:
                super().log_message(fmt, *args)

    return Handler


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that goes away mid-answer (a page closed while it loads) is no error of
        the server's: no traceback for it; any other exception is reported as usual."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(root: Path | str, port: int = 0, prefix: str = "", quiet: bool = True,
                host: str = "127.0.0.1", precompressed: bool = True,
                handler_mixin: type | None = None) -> http.server.ThreadingHTTPServer:
    """A threading server on `root` (make_handler); `handler_mixin` goes before the handler
    class (e2e/netshape.py shapes the link that way)."""
    handler = make_handler(root, prefix, quiet, precompressed)
    if handler_mixin is not None:
        handler = type("ShapedHandler", (handler_mixin, handler), {})
    server = _Server((host, port), handler)
    server.daemon_threads = True
    return server


def serve(port: int, prefix: str, netplay_config_file: Path | None = None) -> None:
    build(netplay_config_file=netplay_config_file)
    try:
        server = make_server(DIST, port, prefix, quiet=False)
    except OSError as exc:
        sys.exit(f"build: cannot listen on 127.0.0.1:{port} ({exc.strerror}); try --port N")
    sub = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    log(f"serving dist/ on http://127.0.0.1:{server.server_address[1]}{sub}  (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --- test ------------------------------------------------------------------------------------
def _run(cmd: list, env: dict | None = None) -> int:
    print(f"\n[test] $ {' '.join(map(str, cmd))}", flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, env={**os.environ, **(env or {})}).returncode


def _names_paths(extra: list[str]) -> bool:
    """Whether extra pytest args name test files/dirs (then they replace the default)."""
    return any(not a.startswith("-") and (ROOT / a.split("::")[0]).exists() for a in extra)


def _pytest(default: list[str], extra: list[str], env: dict | None = None) -> int:
    target = [] if _names_paths(extra) else default
    return _run([venv_python(), "-m", "pytest", *target, "-p", "no:cacheprovider", *extra], env)


def _offline_prefix() -> list[str]:
    """`unshare -n` where it works (root on Linux): the in-Pyodide run gets no network at all,
    which proves that everything comes from local files."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"],
                                                  capture_output=True).returncode == 0:
        return ["unshare", "-n"]
    return []


def stage_cpython(extra: list[str]) -> int:
    return _pytest(["tests", "--ignore=tests/pyodide", "--doctest-modules", ENGINE_PKG,
                    "research"], extra)


def stage_types(extra: list[str]) -> int:
    return _run([venv_python(), "-m", "mypy"])  # files and options: pyproject.toml [tool.mypy]


def stage_pyodide(extra: list[str]) -> int:
    if not shutil.which("node"):
        print("[test] node is missing: install Node.js 20", flush=True)
        return 2
    # The tests import the whole engine (tools included): a wheel of all of it, and a lock
    # file of the same kind as the site's, beside it.
    engine = CACHE / "test-engine"
    shutil.rmtree(engine, ignore_errors=True)
    write_app_lock(pyodide_runtime(), build_wheel(engine), engine / "app-lock.json")
    return _run([*_offline_prefix(), "node", ROOT / "tests" / "pyodide" / "run.mjs",
                 "--runtime", pyodide_runtime(), "--lock", engine / "app-lock.json",
                 "--wheels", pyodide_test_wheels(), "--tests", ROOT / "tests", "--", *extra])


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
    return _run([venv_python(), ROOT / "e2e" / "netns_run.py", "--", *extra],
                {"SAMBA_DIST_BUILT": "1"})


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
    "cpython": Stage("pytest tests and the docstring examples of py_engine", stage_cpython,
                     (_test_tools,)),
    "types": Stage("mypy py_engine", stage_types, (_test_tools,), takes_pytest_args=False),
    "pyodide": Stage("the engine's tests inside Pyodide under Node", stage_pyodide,
                     (_test_tools, pyodide_test_wheels)),
    "e2e": Stage("Playwright driving Debian's Chromium", stage_e2e, (_test_tools, ensure_chromium)),
    "netplay": Stage("play with friends: stock Chromium over WebRTC across NATs (namespaces, "
                     "coturn, a Nostr relay)",
                     stage_netplay, (_test_tools, ensure_chromium)),
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


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    netplay_help = "play-with-friends configuration (ICE servers, relays) instead of web/netplay.json"
    ap.add_argument("--netplay-config", type=Path, default=None, help=netplay_help)
    bdp = sub.add_parser("build", help="build dist/ (the default)")
    bdp.add_argument("--out", type=Path, default=DIST, help="build into this folder instead")
    sp = sub.add_parser("serve", help="build, then serve dist/")
    sp.add_argument("--port", type=int, default=8000)
    sp.add_argument("--prefix", default="", help="serve under this sub-path, e.g. /samba/")
    tp = sub.add_parser("test", help="set up what the tests need, build, run the test stages")
    tp.add_argument("--only", action="append", choices=list(STAGES), default=[],
                    help="run only this stage (repeatable)")
    bp = sub.add_parser("bench", help="boot benchmark in Chromium (e2e/bench_boot.py)")
    bp.add_argument("--runs", type=int, default=None)
    bp.add_argument("--first-visit", action="store_true",
                    help="a phone on Fast 4G and Slow 4G, site vs bare page (e2e/bench_first_visit.py)")
    args = ap.parse_args(argv)

    if args.cmd in (None, "build"):
        build(netplay_config_file=args.netplay_config,
              out=getattr(args, "out", DIST).resolve())
        return 0
    if args.cmd == "serve":
        serve(args.port, args.prefix, args.netplay_config)
        return 0
    if args.cmd == "test":
        return test(args.only, extra)
    if args.cmd == "bench":
        python = _test_tools()
        if not ensure_chromium():
            return 2
        build(quiet=True)
        script = "bench_first_visit.py" if args.first_visit else "bench_boot.py"
        runs = args.runs if args.runs is not None else (1 if args.first_visit else 3)
        return subprocess.run([str(python), str(ROOT / "e2e" / script),
                               "--runs", str(runs), "--no-build"], cwd=ROOT).returncode
    return 2


if __name__ == "__main__":
    sys.exit(main())
