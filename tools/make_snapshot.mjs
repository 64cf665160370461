// Makes the Pyodide memory snapshot that the site's worker restores instead of booting Python:
// the runtime booted, the engine unpacked from the built wheel into site-packages (as the worker
// does after restoring: loadPackage would leave JS state a snapshot cannot hold), `py_engine.bridge`
// imported, a Bridge constructed and warmed with a few requests,
// then a fresh Bridge kept in `__main__` under the name the worker looks up.
//
//   node tools/make_snapshot.mjs --runtime DIR --wheel SITE/py_engine-*.whl --out FILE
//
// --runtime  the Pyodide npm package (node_modules/pyodide after `npm ci`)
// --wheel    the engine wheel of the site being built
// --out      where to write the raw snapshot (build.py compresses it and writes snapshot.json)
//
// Nothing here knows the engine's insides beyond `py_engine.bridge.Bridge().handle(json)`: the
// warm-up requests are tried and their answers ignored (an engine that renamed an op still gets
// a snapshot). Prints one JSON line: {"bytes", "ms", "python", "site_packages"}. Exit code 0, or 1
// on failure.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The worker finds the bridge under this name in __main__ (web/worker.js: SNAPSHOT_BRIDGE).
const BRIDGE_NAME = "_samba_bridge";

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith("--") || argv[i + 1] === undefined) throw new Error(`bad argument ${argv[i]}`);
    opts[argv[i].slice(2)] = argv[i + 1];
  }
  for (const key of ["runtime", "wheel", "out"]) {
    if (!opts[key]) throw new Error(`missing --${key}`);
    opts[key] = path.resolve(opts[key]);
  }
  return opts;
}

// Every module of the wheel imported, so that a restored heap needs none of its files before
// it answers (the worker then puts the files back after its first answers).
const IMPORT_ALL = `
import importlib, pkgutil, py_engine
_samba_all = True
for _samba_m in pkgutil.walk_packages(py_engine.__path__, "py_engine."):
    try:
        importlib.import_module(_samba_m.name)
    except Exception:
        _samba_all = False
_samba_result = _samba_all
del importlib, pkgutil, py_engine, _samba_all, _samba_m
_samba_result
`;

const WARM_UP = `
import gc, json, sys
import py_engine.bridge as _bridge_module

def _warm():
    # Requests a table makes at its start, so the modules they import lazily are in the heap.
    b = _bridge_module.Bridge()
    for req in ({"op": "new_game", "rules": "samba", "players": 4, "seed": 1,
                 "seats": ["human", "medium", "medium", "medium"]},
                {"op": "view"}, {"op": "hint", "level": "medium"}, {"op": "record"}):
        try:
            json.loads(b.handle(json.dumps(req)))
        except Exception:
            pass

_warm()
del _warm
${BRIDGE_NAME} = _bridge_module.Bridge()
del _bridge_module
gc.collect()
sys.version.split()[0]
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(opts.runtime, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: opts.runtime + path.sep,
    _makeSnapshot: true,
    stdout: () => {},
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  const sitePackages = pyodide.runPython("import sysconfig; \"/\" + sysconfig.get_path(\"purelib\").lstrip(\"/\")");
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(opts.wheel)), "wheel", { extractDir: sitePackages });
  const allImported = pyodide.runPython(IMPORT_ALL) === true;
  pyodide.runPython("del _samba_result");
  const python = pyodide.runPython(WARM_UP);
  const snapshot = pyodide.makeMemorySnapshot();
  fs.writeFileSync(opts.out, snapshot);
  console.log(JSON.stringify({ bytes: snapshot.length, ms: Math.round(performance.now() - t0), python,
    site_packages: sitePackages, all_imported: allImported }));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error("make_snapshot failed:", err);
    process.exit(1);
  },
);
