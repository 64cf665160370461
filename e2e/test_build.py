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
    sources = {
        p.relative_to(build.ROOT).as_posix()
        for p in (build.ROOT / "py_engine").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    assert sources <= names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert "py_engine-0.1.0.dist-info/METADATA" in names or any(
        n.endswith(".dist-info/METADATA") for n in names
    )


def test_npm_dependencies_are_pinned():
    pkg = json.loads((build.ROOT / "package.json").read_text())
    lock = json.loads((build.ROOT / "package-lock.json").read_text())
    for name, version in pkg["dependencies"].items():
        assert all(c.isdigit() or c == "." for c in version), f"{name} {version} is not exact"
        entry = lock["packages"][f"node_modules/{name}"]
        assert entry["version"] == version and entry["integrity"].startswith("sha512-")
    assert build.PYODIDE_VERSION == pkg["dependencies"]["pyodide"]
    assert (build.pyodide_runtime() / "package.json").exists()


def test_site_wheel_holds_what_the_bridge_imports_and_no_tools(tmp_path):
    """The site's wheel (dist/) is built from the modules py_engine.bridge reaches by its
    imports: a bridge made from that wheel alone plays (every module imports, a game is dealt,
    the hard and medium bots answer), and the tool modules are not in it."""
    import subprocess
    import sys

    modules = build.site_modules()
    assert "py_engine.bridge" in modules and "py_engine" in modules
    every = set(build._module_files())
    left_out = every - modules
    assert left_out, "the site wheel would be the whole engine"
    for tool in (
        "py_engine.ai.tournament",
        "py_engine.ai.judge",
        "py_engine.soak",
        "py_engine.cli",
    ):
        if tool in every:
            assert tool in left_out, tool
    wheel = build.build_wheel(tmp_path / "site", modules)
    with zipfile.ZipFile(wheel) as zf:
        names = {n for n in zf.namelist() if n.endswith(".py")}
        zf.extractall(tmp_path / "unpacked")
    files = build._module_files()
    assert names == {files[m].relative_to(build.ROOT).as_posix() for m in modules}
    # A bridge from the unpacked wheel alone (not the sources: cwd and path are the unpacked tree).
    code = (
        "import json, pkgutil, importlib, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "import py_engine\n"
        "for m in pkgutil.walk_packages(py_engine.__path__, 'py_engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "from py_engine.bridge import Bridge\n"
        "b = Bridge()\n"
        "def ask(**req):\n"
        "    res = json.loads(b.handle(json.dumps(req)))\n"
        "    assert res.get('ok'), (req, res)\n"
        "    return res\n"
        "ask(op='new_game', rules='samba', players=4, seed=3, seats=['human', 'hard', 'medium', 'easy'])\n"
        "ask(op='view')\n"
        "ask(op='hint', level='hard')\n"
        "ask(op='record')\n"
        "assert all(m.startswith(sys.argv[1]) for m in (sys.modules['py_engine'].__file__,))\n"
        "print('ok')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-c", code, str(tmp_path / "unpacked")],
        cwd=tmp_path / "unpacked",
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-3000:]
    shipped = next(build.DIST.glob("py_engine-*.whl"), None)
    if shipped is not None:
        with zipfile.ZipFile(shipped) as zf:
            assert {n for n in zf.namelist() if n.endswith(".py")} == names


def test_the_server_is_quiet_about_a_browser_that_went_away_only(tmp_path, capsys):
    """A connection the browser dropped mid-answer (a page closed while it loads) prints no
    traceback; any other exception in a request still does."""
    server = build.make_server(tmp_path, 0)
    try:
        for exc, printed in (
            (ConnectionResetError(104, "reset by peer"), False),
            (BrokenPipeError(32, "broken pipe"), False),
            (ValueError("a bug"), True),
        ):
            try:
                raise exc
            except Exception:
                server.handle_error(None, ("127.0.0.1", 1))
            err = capsys.readouterr().err
            assert ("Traceback" in err) == printed, (exc, err)
    finally:
        server.server_close()
