// Runs the engine's pytest suite inside Pyodide under Node, from local files only.
//
//   node tests/pyodide/run.mjs --runtime DIR --lock dist/app-lock.json --wheels DIR \
//        --tests tests [-- extra pytest args]
//
// --runtime  the unpacked Pyodide npm package (build.py: .cache/pyodide-<v>/package; the
//            `ws` package that pyodide.mjs imports under Node sits in ../node_modules)
// --lock     the app lock file: the engine is loaded from the wheel it lists, as in the browser
// --wheels   micropip, pytest and pytest's dependencies as Python 3.14 wheels
// --tests    the test directory, copied into the Pyodide file system (tests/pyodide skipped)
//
// `python build.py test --only pyodide` passes all of these. Exit code = pytest's exit code.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

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

// Copy a host directory into the Emscripten FS (skipping caches and this runner's folder).
function copyTree(FS, src, dest) {
  FS.mkdirTree(dest);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
    const from = path.join(src, entry.name);
    const to = `${dest}/${entry.name}`;
    if (entry.isDirectory()) {
      if (path.resolve(from) === path.resolve(path.dirname(new URL(import.meta.url).pathname))) continue;
      copyTree(FS, from, to);
    } else if (entry.isFile()) {
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

  // The tests (and the repo's pytest configuration) under /work; the engine comes from the wheel.
  const repo = path.dirname(opts.tests);
  copyTree(pyodide.FS, opts.tests, "/work/tests");
  for (const name of ["pyproject.toml", "pytest.ini", "conftest.py", "setup.cfg", "tox.ini"]) {
    const p = path.join(repo, name);
    if (fs.existsSync(p)) pyodide.FS.writeFile(`/work/${name}`, fs.readFileSync(p));
  }
  pyodide.FS.chdir("/work");
  pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(["-p", "no:cacheprovider", "tests", ...opts.pytest]));
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
