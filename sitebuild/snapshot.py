"""dist/snapshot.json: what the worker needs to make and restore its memory snapshot on the
device (the snapshot's name, which depends on everything the snapshot holds; the wheel it
unpacks; the sizes of the boot's files, for progress)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from sitebuild.config import PYODIDE_INTEGRITY, PYODIDE_VERSION, WEB, _sri
from sitebuild.install import pyodide_runtime

SNAPSHOT_INFO = "snapshot.json"  # in dist/: what web/worker.js reads first
# The worker makes the snapshot itself after a first normal boot (docs/build.md): its name
# depends on the runtime, the wheel, the standard library shipped and the worker's code.
SNAPSHOT_TOOL = WEB / "worker.js"


def snapshot_key(
    wheel_bytes: bytes,
    pyodide: str = PYODIDE_VERSION,
    integrity: str = PYODIDE_INTEGRITY,
    tool: bytes | None = None,
    stdlib: bytes = b"",
) -> str:
    """What a snapshot depends on: the runtime (version and tarball hash), the engine wheel's
    bytes, the standard library shipped and the worker that makes it. Part of its name: a
    snapshot another build made is never restored (the worker removes it)."""
    tool = SNAPSHOT_TOOL.read_bytes() if tool is None else tool
    parts = [
        pyodide.encode(),
        integrity.encode(),
        hashlib.sha256(wheel_bytes).digest(),
        tool,
        hashlib.sha256(stdlib).digest(),
    ]
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
    info = {
        "file": f"snapshot-{PYODIDE_VERSION}-{key}",
        "made": "device",
        "pyodide": PYODIDE_VERSION,
        "python": lock_info["python"],
        "wheel": wheel.name,
        "wheel_integrity": _sri(wheel_bytes),
        "site_packages": f"/lib/python{major_minor}/site-packages",
        "sizes": sizes,
    }
    (site / SNAPSHOT_INFO).write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    return info
