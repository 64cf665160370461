"""`build()`: dist/ from web/, the Pyodide runtime and the engine, every step in order, built in
a scratch directory and swapped in."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from sitebuild.compress import precompress
from sitebuild.config import CACHE, DIST, PYODIDE_RUNTIME_FILES, PYODIDE_VERSION, WEB, log
from sitebuild.hosting import HEADERS_FILE, HOSTING_FILE, fill_hosting_readme, write_headers_file
from sitebuild.install import pyodide_runtime
from sitebuild.netplay import NETPLAY_CONFIG, write_netplay_config
from sitebuild.pages import (
    _i18n_catalogues,
    add_meta_csp,
    fill_descriptions,
    inline_first_frame,
    prerender_pages,
)
from sitebuild.pyodide_patch import compile_hint, lazy_sleep_memory, share_wrapper_modules
from sitebuild.service_worker import SW_NAME, SW_TEMPLATE, write_service_worker
from sitebuild.snapshot import SNAPSHOT_INFO, write_snapshot_info
from sitebuild.stdlib import STDLIB_ZIP, compile_stdlib, stdlib_files, trim_stdlib
from sitebuild.vendor import VENDOR_DIR, vendor_trystero
from sitebuild.wheel import build_wheel, site_modules, write_app_lock, write_rules_data


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
    if not lazy_sleep_memory(stage / "pyodide" / "pyodide.asm.mjs"):
        log("note: pyodide.asm.mjs is not the text expected; its sleep memory is made at start-up")
    shutil.copytree(
        WEB,
        stage,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns("__pycache__", ".*", SW_TEMPLATE),
    )
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
    policies = add_meta_csp(stage)  # after every other change to the pages
    snapshot = write_snapshot_info(stage, wheel)
    fill_hosting_readme(stage)
    sw = write_service_worker(stage)
    header_rules = write_headers_file(stage, policies)  # (sw.js exists: its own rule)
    precompressed = precompress(stage)  # (after every other file; _headers names none of them)
    # Swap the new tree in (a server running on dist/ keeps working apart from a short gap).
    old = CACHE / f"dist-old-{os.getpid()}"
    if out.exists():
        shutil.move(out, old)
    shutil.move(stage, out)  # (a rename, unless `out` lies on another file system)
    shutil.rmtree(old, ignore_errors=True)

    if not quiet:
        files = [p for p in out.rglob("*") if p.is_file()]
        sha = next(iter(lock["packages"].values()))["sha256"]
        log(f"pyodide {PYODIDE_VERSION} (npm ci, integrity checked by npm) -> dist/pyodide/")
        log(
            f"engine wheel dist/{wheel.name} ({(out / wheel.name).stat().st_size} bytes, "
            f"sha256 {sha[:16]}...)"
        )
        log(
            "app lock dist/app-lock.json (engine only)"
            + ("; dist/rules-data.json from py_engine.rulesdoc" if rules_data else "")
        )
        log(f"dist/{SNAPSHOT_INFO}: the worker keeps its snapshot as {snapshot['file']}")
        if stdlib is not None:
            log(
                f"standard library: {stdlib_kept[0]} of {stdlib_kept[1]} entries "
                f"({(out / 'pyodide' / STDLIB_ZIP).stat().st_size / 1e6:.2f} MB"
                + (", compiled)" if stdlib_compiled else ", sources)")
            )
        log(f"precompressed .gz/.br beside {precompressed} files")
        log(
            f"pages drawn in the build: {', '.join(prerendered) or 'none'}; each page's CSP in a "
            f"<meta>; dist/{HEADERS_FILE} ({header_rules} rules) and dist/{HOSTING_FILE} for hosts"
        )
        log(
            f"play with friends: dist/{NETPLAY_CONFIG} ({len(netplay['iceServers'])} ICE "
            f"server(s), {len(netplay['relays'])} relay(s)); dist/{VENDOR_DIR}/ (trystero)"
        )
        log(f"service worker dist/{SW_NAME}: version {sw[0]}, {sw[1]} precached URLs")
        log(
            f"dist/: {len(files)} files, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB, "
            f"built in {time.perf_counter() - t0:.2f} s"
        )
    return out
