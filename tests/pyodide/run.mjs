// Runs the engine's pytest suite inside Pyodide under Node, from local files only.
//
//   node tests/pyodide/run.mjs --runtime DIR --lock dist/app-lock.json --wheels DIR \
//        --tests tests [-- extra pytest args]
//
// --runtime  the Pyodide npm package (build.py: node_modules/pyodide after `npm ci`; the `ws`
//            package that pyodide.mjs imports under Node sits beside it in node_modules/)
// --lock     the app lock file: the engine is loaded from the wheel it lists, as in the browser
// --wheels   micropip, pytest and pytest's dependencies as Python 3.14 wheels
// --tests    the test directory (pytest's argument)
// --repo     the repository, copied to /work in Pyodide's file system without py_engine/,
//            dist/, e2e/, dot-dirs (default: the parent of --tests)
//
// `python build.py test --only pyodide` passes all of these. Exit code = pytest's exit code.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

function parseArgs(argv) {
  const opts = { pytest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts.pytest = argv.slice(i + 1);
      break;
    }
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    opts[a.slice(2)] = argv[++i];
  }
  for (const key of ["runtime", "lock", "wheels", "tests"]) {
    if (!opts[key]) throw new Error(`missing --${key}`);
    opts[key] = path.resolve(opts[key]);
  }
  return opts;
}

// Top-level entries of the repository that are not copied into Pyodide: the engine must come
// from the built wheel (a copy at /work/py_engine would shadow it: "" is on sys.path), and
// build outputs, caches and the browser tests are not the engine suite's business.
const SKIP_TOP = new Set(["py_engine", "dist", "build", "node_modules", "e2e"]);
const MAX_FILE = 5 * 1024 * 1024;
const RUNNER_DIR = path.dirname(fileURLToPath(import.meta.url));

// Copy a host directory into the Emscripten FS (skipping caches, dot-files, this runner).
function copyTree(FS, src, dest, top = false) {
  FS.mkdirTree(dest);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
    if (top && SKIP_TOP.has(entry.name)) continue;
    const from = path.join(src, entry.name);
    const to = `${dest}/${entry.name}`;
    if (entry.isDirectory()) {
      if (path.resolve(from) === RUNNER_DIR) continue;
      copyTree(FS, from, to);
    } else if (entry.isFile() && fs.statSync(from).size <= MAX_FILE) {
      FS.writeFile(to, fs.readFileSync(from));
    }
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const { loadPyodide, version } = await import(pathToFileURL(path.join(opts.runtime, "pyodide.mjs")).href);

  // One `write` handler per stream so pytest's output is not split into lines by Pyodide.
  const writer = (stream) => ({
    write: (buf) => {
      stream.write(buf);
      return buf.length;
    },
  });
  const pyodide = await loadPyodide({
    indexURL: opts.runtime + path.sep,
    lockFileURL: opts.lock,
    packages: ["py_engine"],
    stdout: () => {},
    stderr: () => {},
  });
  pyodide.setStdout(writer(process.stdout));
  pyodide.setStderr(writer(process.stderr));
  console.log(`[pyodide] Pyodide ${version} (Python ${pyodide.runPython("import sys; sys.version.split()[0]")}) booted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // micropip from its wheel file, then pytest and its deps from local wheel files (emfs:).
  const wheels = fs.readdirSync(opts.wheels).filter((f) => f.endsWith(".whl")).sort();
  const micropipWheel = wheels.find((f) => f.startsWith("micropip-"));
  if (!micropipWheel) throw new Error(`no micropip wheel in ${opts.wheels}`);
  await pyodide.loadPackage(path.join(opts.wheels, micropipWheel), { messageCallback: () => {} });
  pyodide.FS.mkdirTree("/wheels");
  const others = wheels.filter((f) => f !== micropipWheel);
  for (const f of others) pyodide.FS.writeFile(`/wheels/${f}`, fs.readFileSync(path.join(opts.wheels, f)));
  const micropip = pyodide.pyimport("micropip");
  await micropip.install.callKwargs(others.map((f) => `emfs:/wheels/${f}`), { deps: false, index_urls: [] });
  micropip.destroy();

  // The repository (tests, their data, docs/, web/, pyproject.toml) under /work, minus the
  // engine sources: the engine is the one installed from the wheel.
  const repo = path.resolve(opts.repo || path.dirname(opts.tests));
  copyTree(pyodide.FS, repo, "/work", true);
  const testsRel = path.relative(repo, opts.tests).split(path.sep).join("/") || ".";
  pyodide.FS.chdir("/work");
  // Extra arguments that name test files/dirs replace the default (the whole suite).
  const namesPath = (a) => !a.startsWith("-") && fs.existsSync(path.join(repo, a.split("::")[0]));
  const target = opts.pytest.some(namesPath) ? [] : [testsRel];
  pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(["-p", "no:cacheprovider", ...target,
    `--ignore=${path.relative(repo, RUNNER_DIR).split(path.sep).join("/")}`, ...opts.pytest]));
  const code = await pyodide.runPythonAsync(`
import sys
sys.dont_write_bytecode = True
import py_engine, pytest
print(f"[pyodide] py_engine from {py_engine.__file__}; pytest {pytest.__version__}", flush=True)
int(pytest.main(list(PYTEST_ARGS)))
`);
  console.log(`[pyodide] pytest exit code ${code} (${((performance.now() - t0) / 1000).toFixed(1)} s in all)`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error("[pyodide] runner failed:", err);
    process.exit(3);
  },
);
