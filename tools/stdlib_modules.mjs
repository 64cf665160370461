// Which modules of Python's standard library the site needs: boots Pyodide under Node, unpacks
// the site's engine wheel as the browser's worker does, and runs what the page can make Python
// do (tools/stdlib_exercise.py: every module of the wheel imported, the standard-library modules
// the engine's import statements name, a game played by every bot level with hints, records, a
// reload and a review, an exception's traceback); prints the modules that came from the
// standard library's zip as one JSON line: {"modules": [...], "files": [zip entries]}.
//
//   node tools/stdlib_modules.mjs --runtime DIR --wheel WHEEL --imports a,b,c [--stdlib ZIP]
//
// --runtime  the Pyodide npm package (node_modules/pyodide)
// --wheel    the site's engine wheel
// --imports  standard-library modules named by the engine's import statements (build.py
//            finds them); each must import
// --stdlib   boot with this python_stdlib.zip instead of the runtime's (the trimmed one: a
//            missing module then fails the run, exit code 1)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith("--") || argv[i + 1] === undefined) throw new Error(`bad argument ${argv[i]}`);
    opts[argv[i].slice(2)] = argv[i + 1];
  }
  for (const key of ["runtime", "wheel"]) {
    if (!opts[key]) throw new Error(`missing --${key}`);
    opts[key] = path.resolve(opts[key]);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { loadPyodide } = await import(pathToFileURL(path.join(opts.runtime, "pyodide.mjs")).href);
  const options = { indexURL: opts.runtime + path.sep, stdout: () => {},
                    stderr: (line) => process.stderr.write(line + "\n") };
  if (opts.stdlib) options.stdLibURL = path.resolve(opts.stdlib);
  // As the site's worker boots on a first visit (it makes the snapshot afterwards).
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  const site = pyodide.runPython("import sysconfig; \"/\" + sysconfig.get_path(\"purelib\").lstrip(\"/\")");
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(opts.wheel)), "wheel", { extractDir: site });
  pyodide.globals.set("_samba_imports", JSON.stringify((opts.imports || "").split(",").filter(Boolean)));
  pyodide.runPython(fs.readFileSync(path.join(HERE, "stdlib_exercise.py"), "utf8"));
  // A Python exception that reaches JavaScript (the worker formats its traceback).
  try { pyodide.runPython("def _samba_fail():\n    raise ValueError('exercise')\n_samba_fail()"); } catch (err) { /* expected */ }
  // What the worker does after the boot: the snapshot (never written here).
  pyodide.makeMemorySnapshot();
  const out = pyodide.runPython(`
import json, sys
_zip = next(p for p in sys.path if p.endswith(".zip"))
_mods, _files = [], set()
for _name, _m in sorted(sys.modules.items()):
    _f = getattr(_m, "__file__", None) or ""
    if _f.startswith(_zip + "/"):
        _mods.append(_name)
        _files.add(_f[len(_zip) + 1:])
json.dumps({"modules": _mods, "files": sorted(_files), "zip": _zip})
`);
  console.log(out);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error("stdlib_modules failed:", err);
    process.exit(1);
  },
);
