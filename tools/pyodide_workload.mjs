// node tools/pyodide_workload.mjs <pyodide package dir> <project root> <workload> <reps> [warm] [cpu]
// Runs tools/engine_workload.py's workload inside Pyodide, with py_engine mounted from the tree;
// prints the workload's JSON line. With "warm", the workload runs once untimed first, on other games (Node
// compiles the WebAssembly in tiers: a short run measures the warm-up, not the engine). With "cpu",
// the workload is timed by the Node process's CPU time (process.cpuUsage: every thread of the
// process, the compiler's and the garbage collector's too) instead of elapsed time.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, root, workload, reps, ...flags] = process.argv.slice(2);
const warm = flags.includes("warm");
const cpu = flags.includes("cpu");
const { loadPyodide } = await import(pathToFileURL(join(pkg, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pkg + "/", stdout: () => {}, stderr: () => {} });

function copyTree(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const dest = "/work/" + relative(root, p);
    if (statSync(p).isDirectory()) {
      if (name === "__pycache__") continue;
      py.FS.mkdirTree(dest);
      copyTree(p);
    } else if (name.endsWith(".py")) {
      py.FS.writeFile(dest, readFileSync(p));
    }
  }
}
py.FS.mkdirTree("/work/py_engine");
py.FS.mkdirTree("/work/tools");
copyTree(join(root, "py_engine"));
py.FS.writeFile("/work/tools/engine_workload.py", readFileSync(join(root, "tools", "engine_workload.py")));
const out = py.runPython(`
import sys, json
sys.path.insert(0, "/work"); sys.path.insert(0, "/work/tools")
import engine_workload, time
engine_workload.clock = time.perf_counter
if ${cpu ? "True" : "False"}:
    import js
    def _cpu_seconds():
        u = js.process.cpuUsage()
        return (u.user + u.system) / 1e6
    engine_workload.clock = _cpu_seconds
if ${warm ? "True" : "False"}:
    engine_workload.WORKLOADS[${JSON.stringify(workload)}](${Number(reps)}, "samba", 4, offset=500)
json.dumps(engine_workload.WORKLOADS[${JSON.stringify(workload)}](${Number(reps)}, "samba", 4))
`);
console.log(out);
