"""What the page can make Python do, run by tools/stdlib_modules.mjs inside Pyodide: the
standard-library modules it imports are the ones the site ships (docs/build.md, "The trimmed
standard library"). `_samba_imports` (set by the tool) lists the standard-library modules the
engine's import statements name; every one must import."""

import importlib
import json
import pkgutil

import py_engine

for _m in pkgutil.walk_packages(py_engine.__path__, "py_engine."):
    importlib.import_module(_m.name)
for _name in json.loads(_samba_imports):  # noqa: F821 (set by the tool, JSON)
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError:
        # `from package import name`: a module, or a name the package defines.
        _parent, _, _attr = _name.rpartition(".")
        if not (_parent and hasattr(importlib.import_module(_parent), _attr)):
            raise

from py_engine.bridge import Bridge  # noqa: E402


def _ask(bridge, req):
    return json.loads(bridge.handle(json.dumps(req)))


def _play(bridge, res, limit=400):
    """Bots (and the first legal move for a human seat) until the deal is over."""
    for _ in range(limit):
        view = res["view"]
        if view["phase"] in ("deal_over", "game_over"):
            return res
        if view["seats"][view["current"]] == "human":
            res = _ask(bridge, {"op": "hint", "level": "medium", "version": view["version"]})
            res = _ask(bridge, {"op": "move", "move": res["move"], "version": view["version"]})
        else:
            res = _ask(bridge, {"op": "bot", "version": view["version"]})
        assert res["ok"], res
        if "view" not in res:
            res = _ask(bridge, {"op": "view"})
    return res


for _rules, _players, _seats in (
    ("samba", 4, ["human", "random", "medium", "hard"]),
    ("canasta", 2, ["human", "hard"]),
):
    _b = Bridge()
    _r = _ask(
        _b, {"op": "new_game", "rules": _rules, "players": _players, "seed": 7, "seats": _seats}
    )
    assert _r["ok"], _r
    _ask(_b, {"op": "hint", "level": "hard"})
    _ask(_b, {"op": "check", "move": "draw"})
    _r = _play(_b, _r)
    _ask(_b, {"op": "deal_review"})
    _rec = _ask(_b, {"op": "record"})["record"]
    _ask(Bridge(), {"op": "load", "record": _rec})
    _ask(_b, {"op": "rules_data"})
    _ask(_b, {"op": "reasons"})
    _ask(_b, {"op": "nonsense"})
    _ask(_b, {"op": "net"})
del _b, _r, _rec, _rules, _players, _seats, _m, _name
