// A helper of web/worker.js (a worker it starts, once per boot): compiles Python's wasm
// (compileStreaming: the browser's code cache for it is used and kept) and hands the module to
// the engine's worker, whose own thread meanwhile loads the runtime's JavaScript and reads the
// snapshot. Taking in the cached code of the 9.6 MB module and streaming it is about a quarter
// of a second of work on a busy machine (docs/build.md); on the engine's thread it came first.
//
// Worker -> engine worker: a WebAssembly.Module, or {error} (the engine worker then compiles
// the wasm itself).
const WASM_URL = new URL("./pyodide/pyodide.asm.wasm", import.meta.url).href;

WebAssembly.compileStreaming(fetch(WASM_URL)).then(
  (module) => { self.postMessage(module); },
  (err) => { self.postMessage({ error: String(err && err.message || err) }); },
);
