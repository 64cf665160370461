// The trimmed standard library compiled ahead: boots Pyodide under Node and writes a copy of a
// python_stdlib.zip whose modules are compiled code (`.pyc`, by the runtime's own Python, so the
// magic number is the browser's) instead of sources. A module imported from source is compiled
// on every first visit, in WebAssembly, on the player's device: with the code compiled here the
// runtime's start-up (finalizeBootstrap) and the engine's imports take a fraction of the time
// (docs/build.md, "The trimmed standard library"). Docstrings and asserts are left out
// (optimize=2: the zip is smaller) except in Pyodide's own packages, whose start-up reads their
// functions' docstrings.
//
//   node tools/compile_stdlib.mjs --runtime DIR --in ZIP --out ZIP
//
// zipimport takes a `name.pyc` with no `name.py` beside it as it is (no timestamp to check).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith("--") || argv[i + 1] === undefined) throw new Error(`bad argument ${argv[i]}`);
    opts[argv[i].slice(2)] = path.resolve(argv[i + 1]);
  }
  for (const key of ["runtime", "in", "out"]) if (!opts[key]) throw new Error(`missing --${key}`);
  return opts;
}

const COMPILE = `
import importlib.util, io, marshal, zipfile

KEEP_DOCS = ("_pyodide/", "pyodide/")

def _compile(data):
    src = zipfile.ZipFile(io.BytesIO(bytes(data)))
    out = io.BytesIO()
    n = 0
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if not info.filename.endswith(".py"):
                dst.writestr(info, body, compress_type=info.compress_type)
                continue
            opt = 0 if info.filename.startswith(KEEP_DOCS) else 2
            code = compile(body, info.filename, "exec", dont_inherit=True, optimize=opt)
            # A timestamp pyc with no source beside it: zipimport checks nothing.
            pyc = importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code)
            entry = zipfile.ZipInfo(info.filename + "c", date_time=info.date_time)
            entry.external_attr = info.external_attr
            dst.writestr(entry, pyc, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
            n += 1
    return out.getvalue(), n
`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { loadPyodide } = await import(pathToFileURL(path.join(opts.runtime, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: opts.runtime + path.sep, stdout: () => {},
                                      stderr: (line) => process.stderr.write(line + "\n") });
  pyodide.runPython(COMPILE);
  const result = pyodide.globals.get("_compile")(new Uint8Array(fs.readFileSync(opts.in)));
  const [bytes, n] = result.toJs({ depth: 1 });
  result.destroy();
  fs.writeFileSync(opts.out, bytes.getBuffer ? bytes.getBuffer().data : bytes);
  console.log(JSON.stringify({ compiled: n, bytes: fs.statSync(opts.out).size }));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error("compile_stdlib failed:", err);
    process.exit(1);
  },
);
