#!/usr/bin/env python3
"""Build, serve, test and benchmark the Samba static site (standard library only).

    python build.py                 build dist/
    python build.py serve [--port 8000] [--prefix /sub/path/]
    python build.py test [--only cpython|pyodide|e2e] [-- extra pytest args]
    python build.py bench [--runs 5]

See docs/build.md for the layout, the caches and the decisions behind them.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
WEB = ROOT / "web"
ENGINE_PKG = "py_engine"
CACHE = Path(os.environ.get("SAMBA_BUILD_CACHE", ROOT / ".cache")).resolve()

# --- pinned inputs ---------------------------------------------------------------------------
PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
# Files of the npm package that loadPyodide needs in a browser (the stock pyodide-lock.json is
# left out on purpose: it points unknown packages at a CDN; the app uses dist/app-lock.json).
PYODIDE_RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# pyodide.mjs does `import("ws")` when it runs under Node; the Node test runner gets the real
# package from npm, pinned the same way (it is never copied into dist/).
WS_VERSION = "8.18.3"
WS_INTEGRITY = (
    "sha512-PEIGCY5tSlUt50cqyMXfCzX+oOPqN0vuGqWzbcJ2xvnkzkq46oOpz7dQaTDBdfICb4N14+GARUDw2XV2N4tvzg=="
)
# Pure-Python wheels for the in-Pyodide test run (Python 3.14), with their sha256.
PYODIDE_TEST_WHEELS = {
    "micropip-0.11.1-py3-none-any.whl": "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
    "pytest-9.0.3-py3-none-any.whl": "2c5efc453d45394fdd706ade797c0a81091eccd1d6e4bccfcd476e2b8e0ab5d9",
    "pluggy-1.7.0-py3-none-any.whl": "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec",
    "iniconfig-2.3.1-py3-none-any.whl": "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7",
    "packaging-26.4-py3-none-any.whl": "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2",
    "pygments-2.21.0-py3-none-any.whl": "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9",
}
# Python packages the CPython and browser stages need (installed with pip where missing).
HOST_TEST_PACKAGES = {"pytest": "pytest>=8", "playwright": "playwright>=1.40"}
# A fixed default so that two builds give the same wheel bytes (1980-01-01, the zip epoch).
DEFAULT_SOURCE_DATE_EPOCH = 315532800

CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "connect-src 'self'; img-src 'self' data:; style-src 'self'; object-src 'none'; "
    "base-uri 'none'"
)
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


# --- npm tarballs ----------------------------------------------------------------------------
def _sri_ok(data: bytes, integrity: str) -> bool:
    algo, _, b64 = integrity.partition("-")
    return base64.b64encode(hashlib.new(algo, data).digest()).decode() == b64


def fetch_npm_tarball(name: str, version: str, integrity: str) -> Path:
    """`npm pack name@version` into the cache (once); verify the tarball's SRI hash."""
    dest_dir = CACHE / "npm"
    dest_dir.mkdir(parents=True, exist_ok=True)
    tarball = dest_dir / f"{name}-{version}.tgz"
    if tarball.exists() and _sri_ok(tarball.read_bytes(), integrity):
        return tarball
    tarball.unlink(missing_ok=True)
    if not shutil.which("npm"):
        sys.exit("build: npm is needed to fetch the Pyodide runtime (install Node.js 20 and npm)")
    log(f"npm pack {name}@{version} ...")
    subprocess.run(["npm", "pack", f"{name}@{version}", "--pack-destination", str(dest_dir),
                    "--loglevel=error"], check=True, stdout=subprocess.DEVNULL)
    if not tarball.exists():
        sys.exit(f"build: npm pack did not produce {tarball}")
    if not _sri_ok(tarball.read_bytes(), integrity):
        tarball.unlink()
        sys.exit(f"build: integrity check FAILED for {name}@{version} (expected {integrity})")
    return tarball


def _extract_all(tf: tarfile.TarFile, dest: Path) -> None:
    try:
        tf.extractall(dest, filter="data")
    except TypeError:  # Python < 3.11.4 has no extraction filters; check the names ourselves
        for m in tf.getmembers():
            if m.name.startswith("/") or ".." in Path(m.name).parts or not (m.isfile() or m.isdir()):
                sys.exit(f"build: unsafe member {m.name!r} in {tf.name}")
        tf.extractall(dest)


def runtime_files_from_tarball(dest: Path) -> None:
    """Copy the browser runtime files straight out of the verified tarball into dest/."""
    tgz = fetch_npm_tarball("pyodide", PYODIDE_VERSION, PYODIDE_INTEGRITY)
    wanted = {f"package/{name}": name for name in PYODIDE_RUNTIME_FILES}
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tgz) as tf:
        for member in tf:
            if member.name in wanted and member.isfile():
                with tf.extractfile(member) as src, open(dest / wanted.pop(member.name), "wb") as out:
                    shutil.copyfileobj(src, out, 1 << 20)
    if wanted:
        sys.exit(f"build: {tgz.name} lacks {sorted(wanted)}")


def _unpack(tarball: Path, dest: Path) -> Path:
    """Unpack an npm tarball into dest/ (once); returns dest/package."""
    stamp = dest / ".unpacked"
    if not stamp.exists():
        tmp = dest.with_name(dest.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        with tarfile.open(tarball) as tf:
            _extract_all(tf, tmp)
        (tmp / ".unpacked").write_text(tarball.name)
        shutil.rmtree(dest, ignore_errors=True)
        tmp.rename(dest)
    return dest / "package"


def pyodide_runtime() -> Path:
    """The unpacked Pyodide npm package (cache), with `ws` beside it for the Node runner."""
    tgz = fetch_npm_tarball("pyodide", PYODIDE_VERSION, PYODIDE_INTEGRITY)
    pkg = _unpack(tgz, CACHE / f"pyodide-{PYODIDE_VERSION}")
    return pkg


def node_runtime() -> Path:
    """Runtime dir usable under Node: the Pyodide package plus node_modules/ws next to it."""
    pkg = pyodide_runtime()
    ws_dir = pkg.parent / "node_modules" / "ws"
    if not (ws_dir / "package.json").exists():
        tgz = fetch_npm_tarball("ws", WS_VERSION, WS_INTEGRITY)
        src = _unpack(tgz, CACHE / f"ws-{WS_VERSION}")
        ws_dir.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(src, ws_dir, dirs_exist_ok=True)
    return pkg


# --- the engine wheel ------------------------------------------------------------------------
def _project_meta() -> dict:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {
        "name": meta["name"],
        "version": meta["version"],
        "summary": meta.get("description", ""),
        "requires_python": meta.get("requires-python", ""),
    }


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _engine_files() -> list[tuple[str, bytes]]:
    pkg = ROOT / ENGINE_PKG
    if not (pkg / "__init__.py").exists():
        sys.exit(f"build: {pkg}/__init__.py is missing: no engine to package")
    files = []
    for path in sorted(pkg.rglob("*")):
        rel = path.relative_to(ROOT)
        if path.is_dir() or "__pycache__" in rel.parts or path.suffix in (".pyc", ".pyo"):
            continue
        if any(part.startswith(".") for part in rel.parts):
            continue
        files.append((rel.as_posix(), path.read_bytes()))
    return files


def build_wheel(out_dir: Path) -> Path:
    """Write the engine as a pure-Python wheel with fixed timestamps and sorted entries."""
    meta = _project_meta()
    dist_name = meta["name"].replace("-", "_")
    version = meta["version"]
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", DEFAULT_SOURCE_DATE_EPOCH))
    date_time = time.gmtime(max(epoch, DEFAULT_SOURCE_DATE_EPOCH))[:6]
    info = f"{dist_name}-{version}.dist-info"
    files = _engine_files()
    metadata = (
        "Metadata-Version: 2.1\n"
        f"Name: {meta['name']}\n"
        f"Version: {version}\n"
        f"Summary: {meta['summary']}\n"
        + (f"Requires-Python: {meta['requires_python']}\n" if meta["requires_python"] else "")
    )
    wheel = ("Wheel-Version: 1.0\nGenerator: samba-build.py\nRoot-Is-Purelib: true\n"
             "Tag: py3-none-any\n")
    files += [(f"{info}/METADATA", metadata.encode()), (f"{info}/WHEEL", wheel.encode()),
              (f"{info}/top_level.txt", f"{ENGINE_PKG}\n".encode())]
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in files)
    record += f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{dist_name}-{version}-py3-none-any.whl"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files:
            zi = zipfile.ZipInfo(name, date_time=date_time)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = (0o100644 << 16)
            zi.create_system = 3
            zf.writestr(zi, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    path.write_bytes(buf.getvalue())
    return path


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
                "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
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


# --- the memory snapshot ---------------------------------------------------------------------
SNAPSHOT_INFO = "snapshot.json"  # in dist/: what web/worker.js reads first
SNAPSHOT_TOOL = ROOT / "tools" / "make_snapshot.mjs"
SNAPSHOT_GZIP_LEVEL = 6  # -9 saves 1 % more and takes four times as long (docs/build.md)


def _sri(data: bytes, algo: str = "sha256") -> str:
    return f"{algo}-" + base64.b64encode(hashlib.new(algo, data).digest()).decode()


def snapshot_key(wheel_bytes: bytes, pyodide: str = PYODIDE_VERSION,
                 integrity: str = PYODIDE_INTEGRITY, tool: bytes | None = None) -> str:
    """What a snapshot depends on: the runtime (version and tarball hash), the engine wheel's
    bytes and the tool that makes it. Part of the shipped file's name and the cache key."""
    tool = SNAPSHOT_TOOL.read_bytes() if tool is None else tool
    parts = [pyodide.encode(), integrity.encode(), hashlib.sha256(wheel_bytes).digest(), tool]
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


def _prune_snapshot_cache(cache_dir: Path, keep: int = 4) -> None:
    entries = sorted(cache_dir.glob("*.bin.gz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[keep:]:
        old.unlink(missing_ok=True)
        old.with_name(old.name.replace(".bin.gz", ".json")).unlink(missing_ok=True)


def write_snapshot(site: Path, wheel: Path) -> dict | None:
    """The Pyodide memory snapshot (runtime booted, engine imported, a Bridge ready), made by
    tools/make_snapshot.mjs under Node from the wheel being shipped, gzipped, written to site/
    under a name carrying the Pyodide version and a hash of its inputs, and described by
    site/snapshot.json. Cached in .cache/snapshots/ by that hash. Returns the description, or
    None (with a warning) when it cannot be made: the site then boots Python the long way."""
    import gzip
    wheel_bytes = wheel.read_bytes()
    key = snapshot_key(wheel_bytes)
    cache_dir = CACHE / "snapshots"
    cached, meta_path = cache_dir / f"{key}.bin.gz", cache_dir / f"{key}.json"
    if not (cached.exists() and meta_path.exists()):
        if not shutil.which("node"):
            log("WARNING: node is missing: no memory snapshot (the site boots Python the long way)")
            return None
        cache_dir.mkdir(parents=True, exist_ok=True)
        raw = cache_dir / f"{key}.bin.tmp{os.getpid()}"
        proc = subprocess.run(["node", str(SNAPSHOT_TOOL), "--runtime", str(node_runtime()),
                               "--wheel", str(wheel), "--out", str(raw)],
                              capture_output=True, text=True)
        if proc.returncode != 0 or not raw.exists():
            raw.unlink(missing_ok=True)
            log("WARNING: no memory snapshot (the site boots Python the long way): "
                + (proc.stderr.strip() or proc.stdout.strip())[-2000:])
            return None
        made = json.loads(proc.stdout.strip().splitlines()[-1])
        data = raw.read_bytes()
        raw.unlink()
        tmp = cached.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(gzip.compress(data, SNAPSHOT_GZIP_LEVEL, mtime=0))
        meta_path.write_text(json.dumps({"raw_bytes": len(data), "python": made["python"],
                                         "site_packages": made["site_packages"],
                                         "made_ms": made["ms"]}))
        tmp.replace(cached)
        _prune_snapshot_cache(cache_dir)
    meta = json.loads(meta_path.read_text())
    gz = cached.read_bytes()
    name = f"snapshot-{PYODIDE_VERSION}-{key}.bin.gz"
    (site / name).write_bytes(gz)
    info = {"file": name, "integrity": _sri(gz), "bytes": len(gz), "raw_bytes": meta["raw_bytes"],
            "pyodide": PYODIDE_VERSION, "python": meta["python"], "wheel": wheel.name,
            "wheel_integrity": _sri(wheel_bytes), "site_packages": meta["site_packages"]}
    (site / SNAPSHOT_INFO).write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    return info


# --- the service worker ----------------------------------------------------------------------
SW_TEMPLATE = "sw.template.js"  # in web/; filled in and written as dist/sw.js, not shipped
SW_NAME = "sw.js"
# Files of dist/ that are not precached (the worker itself; source maps nobody needs offline).
SW_EXCLUDE_SUFFIXES = (".map",)


def precache_list(site: Path) -> list[str]:
    """Every file under `site` a visitor needs offline, as URLs relative to the site root (plus
    "./", the directory URL that serves index.html), sorted; sw.js itself is left out."""
    urls = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if (path.is_dir() or rel == SW_NAME or path.suffix in SW_EXCLUDE_SUFFIXES
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
    fills = {'"__SW_VERSION__"': json.dumps(version),
             '["__SW_PRECACHE__"]': json.dumps(urls, indent=2)}
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


# --- app icons (PNG, drawn here: no image library) --------------------------------------------
# The drawing of web/img/icon.svg (64-unit square): felt, two cards, a heart. `python build.py
# icons` redraws web/img/icon-*.png; the files are committed, the build only copies them.
ICONS = {"icon-192.png": (192, False), "icon-512.png": (512, False),
         "icon-maskable-512.png": (512, True), "apple-touch-icon.png": (180, True)}
_FELT, _CARD, _EDGE, _HEART = (0x1d, 0x6b, 0x3c), (0xff, 0xfd, 0xf7), (0xb9, 0xb2, 0xa2), (0xc4, 0x16, 0x1c)


def _in_round_rect(x: float, y: float, cx: float, cy: float, w: float, h: float, r: float) -> bool:
    dx, dy = abs(x - cx) - (w / 2 - r), abs(y - cy) - (h / 2 - r)
    if dx > r or dy > r:
        return False
    return dx <= 0 or dy <= 0 or dx * dx + dy * dy <= r * r


def _icon_colour(x: float, y: float, full_bleed: bool):
    """RGBA of the point (x, y) in the 64-unit drawing."""
    import math
    if not full_bleed and not _in_round_rect(x, y, 32, 32, 64, 64, 12):
        return None
    if full_bleed:  # maskable: the drawing shrunk into the 80 % safe zone
        x, y = 32 + (x - 32) / 0.8, 32 + (y - 32) / 0.8
    colour = _FELT
    a = math.radians(10)  # card 1: rotated -10 degrees about (29, 31)
    rx = 29 + (x - 29) * math.cos(a) - (y - 31) * math.sin(a)
    ry = 31 + (x - 29) * math.sin(a) + (y - 31) * math.cos(a)
    if _in_round_rect(rx, ry, 29, 31, 30, 42, 4):
        colour = _CARD
    if _in_round_rect(x, y, 37, 33, 30, 42, 4):
        colour = _CARD if _in_round_rect(x, y, 37, 33, 28.6, 40.6, 3.3) else _EDGE
        u, v = (x - 37) / 7.0, -(y - 34.5) / 7.0
        if (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0:
            colour = _HEART
    return colour


def draw_icon(size: int, full_bleed: bool, ss: int = 3) -> bytes:
    """The app icon as an RGBA PNG of size x size pixels (ss x ss samples a pixel)."""
    import struct
    import zlib
    rows = []
    step = 64 / size / ss
    for py in range(size):
        row = bytearray(b"\0")  # filter type 0
        for px in range(size):
            r = g = b = n = 0
            for sy in range(ss):
                for sx in range(ss):
                    c = _icon_colour((px * ss + sx + 0.5) * step, (py * ss + sy + 0.5) * step,
                                     full_bleed)
                    if c:
                        r, g, b, n = r + c[0], g + c[1], b + c[2], n + 1
            k = ss * ss
            row += bytes((r // n, g // n, b // n, 255 * n // k)) if n else b"\0\0\0\0"
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def write_icons(dest: Path = WEB / "img") -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for name, (size, full_bleed) in ICONS.items():
        (dest / name).write_bytes(draw_icon(size, full_bleed))
        log(f"{dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}/{name} ({size} px)")


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


def build(quiet: bool = False) -> Path:
    """Build dist/ and return its path. Builds into a scratch dir, then swaps it in."""
    t0 = time.perf_counter()
    runtime = pyodide_runtime()
    CACHE.mkdir(parents=True, exist_ok=True)
    _remove_stale_scratch()
    stage = CACHE / f"dist-build-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    runtime_files_from_tarball(stage / "pyodide")
    if WEB.is_dir():
        shutil.copytree(WEB, stage, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", ".*", SW_TEMPLATE))
    wheel = build_wheel(stage)
    rules_data = write_rules_data(stage / "rules-data.json")
    lock = write_app_lock(runtime, wheel, stage / "app-lock.json")
    snapshot = write_snapshot(stage, wheel)
    sw = write_service_worker(stage) if (WEB / SW_TEMPLATE).exists() else None
    # Swap the new tree in (a server running on dist/ keeps working apart from a short gap).
    old = CACHE / f"dist-old-{os.getpid()}"
    if DIST.exists():
        DIST.rename(old)
    stage.rename(DIST)
    shutil.rmtree(old, ignore_errors=True)
    wheel = DIST / wheel.name

    if not quiet:
        total = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
        n_files = sum(1 for p in DIST.rglob("*") if p.is_file())
        sha = next(iter(lock["packages"].values()))["sha256"]
        log(f"pyodide {PYODIDE_VERSION} (integrity ok) -> dist/pyodide/ "
            f"({len(PYODIDE_RUNTIME_FILES)} files)")
        log(f"engine wheel dist/{wheel.name} ({wheel.stat().st_size} bytes, sha256 {sha[:16]}...)")
        log("app lock dist/app-lock.json (engine only)"
            + ("; dist/rules-data.json from py_engine.rulesdoc" if rules_data else ""))
        if snapshot:
            log(f"memory snapshot dist/{snapshot['file']} ({snapshot['bytes'] / 1e6:.1f} MB gzip, "
                f"{snapshot['raw_bytes'] / 1e6:.1f} MB raw)")
        log(f"front end: {'web/ copied' if WEB.is_dir() else 'web/ MISSING'}")
        if sw:
            log(f"service worker dist/{SW_NAME}: version {sw[0]}, {sw[1]} precached URLs")
        log(f"dist/: {n_files} files, {total / 1e6:.1f} MB, built in {time.perf_counter() - t0:.2f} s")
    return DIST


# --- serving ---------------------------------------------------------------------------------
def make_handler(root: Path | str, prefix: str = "", quiet: bool = False):
    """A SimpleHTTPRequestHandler class serving `root` with the site's MIME types and CSP.

    `prefix` (e.g. "/some/sub/path/") serves the tree under that sub-path only; anything else
    is a 404 (the way a project page on a shared host looks).
    """
    root = str(Path(root).resolve())
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else ""

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
        protocol_version = "HTTP/1.1"

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=root, **kwargs)

        def end_headers(self):
            self.send_header("Content-Security-Policy", CSP)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("Cache-Control", "no-cache")
            # Public static files, like GitHub Pages: a host page on another site may load
            # js/samba-table.js as a module script (a CORS request).
            self.send_header("Access-Control-Allow-Origin", "*")
            super().end_headers()

        def _route(self) -> bool:
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


def make_server(root: Path | str, port: int = 0, prefix: str = "", quiet: bool = True,
                host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer((host, port), make_handler(root, prefix, quiet))
    server.daemon_threads = True
    return server


def serve(port: int, prefix: str) -> None:
    build()
    try:
        server = make_server(DIST, port, prefix, quiet=False)
    except OSError as exc:
        sys.exit(f"build: cannot listen on 127.0.0.1:{port} ({exc.strerror}); try --port N")
    url = f"http://127.0.0.1:{server.server_address[1]}{'/' + prefix.strip('/') + '/' if prefix.strip('/') else '/'}"
    log(f"serving dist/ on {url}  (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --- test ------------------------------------------------------------------------------------
def _pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args], check=True)


def ensure_host_packages(modules=tuple(HOST_TEST_PACKAGES)) -> None:
    import importlib.util
    missing = [HOST_TEST_PACKAGES[mod] for mod in modules if importlib.util.find_spec(mod) is None]
    if missing:
        log(f"pip install {' '.join(missing)}")
        try:
            _pip("install", "-q", *missing)
        except subprocess.CalledProcessError:
            # A distribution's own Python refuses (PEP 668) unless told otherwise.
            log("pip install failed; retrying with --break-system-packages")
            _pip("install", "-q", "--break-system-packages", *missing)
        importlib.invalidate_caches()


def ensure_chromium() -> str | None:
    """Path of Debian's Chromium; installs it with apt as root where missing."""
    path = shutil.which("chromium")
    if path:
        return path
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        log("apt-get install -y chromium")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
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
        return p.exists() and hashlib.sha256(p.read_bytes()).hexdigest() == PYODIDE_TEST_WHEELS[name]

    missing = [n for n in PYODIDE_TEST_WHEELS if not ok(n)]
    if missing:
        reqs = ["{}=={}".format(*n.split("-")[:2]) for n in missing]
        log(f"pip download (Python 3.14 wheels): {' '.join(reqs)}")
        _pip("download", "-q", "--no-deps", "--python-version", "3.14", "--only-binary=:all:",
             "-d", str(dest), *reqs)
        bad = [n for n in missing if not ok(n)]
        if bad:
            sys.exit(f"build: sha256 mismatch or missing wheel(s): {bad}")
    return dest


def _run_stage(cmd: list[str], env: dict | None = None) -> int:
    print(f"\n[test] $ {' '.join(cmd)}", flush=True)
    return subprocess.run(cmd, cwd=ROOT, env={**os.environ, **(env or {})}).returncode


def _names_paths(extra: list[str]) -> bool:
    """Whether extra pytest args name test files/dirs (then they replace the default)."""
    return any(not a.startswith("-") and (ROOT / a.split("::")[0]).exists() for a in extra)


def stage_cpython(extra: list[str]) -> int:
    target = [] if _names_paths(extra) else ["tests"]
    return _run_stage([sys.executable, "-m", "pytest", *target, "--ignore=tests/pyodide",
                       "-p", "no:cacheprovider", *extra])


def _offline_prefix() -> list[str]:
    """`unshare -n` where it works (root on Linux): the in-Pyodide run gets no network at all,
    which proves that everything comes from local files."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"],
                                                  capture_output=True).returncode == 0:
        return ["unshare", "-n"]
    return []


def stage_pyodide(extra: list[str]) -> int:
    runtime = node_runtime()
    wheels = pyodide_test_wheels()
    if not shutil.which("node"):
        print("[test] node is missing: install Node.js 20", flush=True)
        return 2
    return _run_stage([*_offline_prefix(), "node", str(ROOT / "tests" / "pyodide" / "run.mjs"),
                       "--runtime", str(runtime), "--lock", str(DIST / "app-lock.json"),
                       "--wheels", str(wheels), "--tests", str(ROOT / "tests"), "--", *extra])


def stage_e2e(extra: list[str]) -> int:
    if not ensure_chromium():
        return 2
    target = [] if _names_paths(extra) else ["e2e"]
    return _run_stage([sys.executable, "-m", "pytest", *target, "-p", "no:cacheprovider",
                       "-p", "no:playwright", *extra], env={"SAMBA_DIST_BUILT": "1"})


STAGES = {"cpython": stage_cpython, "pyodide": stage_pyodide, "e2e": stage_e2e}


def test(only: list[str], extra: list[str]) -> int:
    stages = [s for s in STAGES if s in only] or list(STAGES)
    # (a) what the tests need; a failure here is reported by the stage that needs it.
    prep = [partial(ensure_host_packages, ["pytest"] + (["playwright"] if "e2e" in stages else []))]
    if "pyodide" in stages:
        prep += [pyodide_test_wheels, node_runtime]
    if "e2e" in stages:
        prep.append(ensure_chromium)
    for step in prep:
        try:
            step()
        except (subprocess.CalledProcessError, SystemExit, OSError) as exc:
            print(f"[test] {getattr(step, '__name__', step)} failed: {exc}", flush=True)
    # (b) dist/
    build()
    results = []
    for name in stages:
        t0 = time.perf_counter()
        try:
            rc = STAGES[name](extra)
        except (subprocess.CalledProcessError, SystemExit, OSError) as exc:
            print(f"[test] stage {name} could not run: {exc}", flush=True)
            rc = 2
        results.append((name, rc, time.perf_counter() - t0))
    print("\n stage     | result   | exit | time")
    print("-----------+----------+------+--------")
    for name, rc, secs in results:
        verdict = "PASS" if rc == 0 else ("NO TESTS" if rc == 5 else "FAIL")
        print(f" {name:<9} | {verdict:<8} | {rc:>4} | {secs:6.1f}s")
    failed = [name for name, rc, _ in results if rc != 0]
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
    sub.add_parser("build", help="build dist/ (the default)")
    sp = sub.add_parser("serve", help="build, then serve dist/")
    sp.add_argument("--port", type=int, default=8000)
    sp.add_argument("--prefix", default="", help="serve under this sub-path, e.g. /samba/")
    tp = sub.add_parser("test", help="install what the tests need, build, run all test stages")
    tp.add_argument("--only", action="append", choices=list(STAGES), default=[],
                    help="run only this stage (repeatable)")
    sub.add_parser("icons", help="redraw the app icons web/img/icon-*.png")
    bp = sub.add_parser("bench", help="boot benchmark in Chromium (e2e/bench_boot.py)")
    bp.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)

    if args.cmd in (None, "build"):
        build()
        return 0
    if args.cmd == "serve":
        serve(args.port, args.prefix)
        return 0
    if args.cmd == "test":
        return test(args.only, extra)
    if args.cmd == "icons":
        write_icons()
        return 0
    if args.cmd == "bench":
        ensure_host_packages()
        if not ensure_chromium():
            return 2
        build(quiet=True)  # stdout carries only the benchmark's JSON
        return subprocess.run([sys.executable, str(ROOT / "e2e" / "bench_boot.py"),
                               "--runs", str(args.runs), "--no-build"], cwd=ROOT).returncode
    return 2


if __name__ == "__main__":
    sys.exit(main())
