"""The build's own promises (no browser): the engine wheel is made by the build backend that
pyproject.toml declares and is reproducible (same sources and SOURCE_DATE_EPOCH, same bytes);
the npm dependencies are the pinned ones."""
from __future__ import annotations

import json
import tomllib
import zipfile

import build


def test_two_wheel_builds_give_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    a = build.build_wheel(tmp_path / "a")
    b = build.build_wheel(tmp_path / "b")
    assert a.name == b.name and a.read_bytes() == b.read_bytes()
    # The timestamp is really taken from SOURCE_DATE_EPOCH (so the test could fail).
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1600000000")
    c = build.build_wheel(tmp_path / "c")
    assert c.read_bytes() != a.read_bytes()
    with zipfile.ZipFile(a) as zf:
        assert {i.date_time[:3] for i in zf.infolist()} == {(2023, 11, 14)}


def test_wheel_holds_the_engine_and_its_metadata(tmp_path):
    wheel = build.build_wheel(tmp_path)
    meta = tomllib.loads((build.ROOT / "pyproject.toml").read_text())
    assert meta["build-system"]["build-backend"] == "flit_core.buildapi"
    assert wheel.name == f"py_engine-{meta['project']['version']}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    sources = {p.relative_to(build.ROOT).as_posix() for p in (build.ROOT / "py_engine").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert sources <= names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert "py_engine-0.1.0.dist-info/METADATA" in names or any(
        n.endswith(".dist-info/METADATA") for n in names)


def test_npm_dependencies_are_pinned():
    pkg = json.loads((build.ROOT / "package.json").read_text())
    lock = json.loads((build.ROOT / "package-lock.json").read_text())
    for name, version in pkg["dependencies"].items():
        assert all(c.isdigit() or c == "." for c in version), f"{name} {version} is not exact"
        entry = lock["packages"][f"node_modules/{name}"]
        assert entry["version"] == version and entry["integrity"].startswith("sha512-")
    assert build.PYODIDE_VERSION == pkg["dependencies"]["pyodide"]
    assert (build.pyodide_runtime() / "package.json").exists()

