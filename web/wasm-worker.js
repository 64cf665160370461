// A helper of web/worker.js (a worker it starts, once per boot): compiles Python's wasm
// (compileStreaming: the browser's code cache for it is used and kept) and hands the module to
// the engine's worker, whose own thread meanwhile loads the runtime's JavaScript and reads the
// snapshot. Taking in the cached code of the 9.6 MB module and streaming it is about a quarter
// of a second of work on a busy machine (docs/build.md); on the engine's thread it came first.
//
// The bytes are counted as they stream in ({received} messages, the page's progress), and where
// no cache of the site's service worker holds the file yet (a first visit), a copy goes to the
// HANDOFF cache, which the service worker's install takes instead of downloading the 9.6 MB
// again (a private window's memory cache does not keep them).
//
// Worker -> engine worker: {received: bytes so far} (-1: all, from a cache), then a
// WebAssembly.Module, or {error} (the engine worker then compiles the wasm itself), then {done}
// once the copy is written (the engine worker ends this helper then).
const WASM_URL = new URL("./pyodide/pyodide.asm.wasm", import.meta.url).href;
const HANDOFF = "samba-handoff";
const EVERY_MS = 200;

let keep = () => Promise.resolve();

async function fetched() {
  const response = await fetch(WASM_URL);
  let cached = true;
  try {
    cached = Boolean(await caches.match(WASM_URL));
  } catch (err) { /* no Cache Storage here */ }
  if (cached || !response.ok || !response.body || typeof TransformStream !== "function") {
    // From the service worker's cache (a return visit): nothing to count or keep.
    self.postMessage({ received: -1 });
    return response;
  }
  const copy = response.clone();
  let n = 0;
  let last = 0;
  const counter = new TransformStream({
    transform(chunk, ctl) {
      n += chunk.byteLength;
      const now = performance.now();
      if (now - last >= EVERY_MS) { last = now; self.postMessage({ received: n }); }
      ctl.enqueue(chunk);
    },
    flush() { self.postMessage({ received: n }); },
  });
  // Written once the module is compiled (the tee keeps the copy in memory meanwhile): written
  // while it compiled, the 9.6 MB put delayed the compiled module by seconds on a phone
  // profile (docs/journal/2026-12-05-first-visit.md). The engine worker ends this helper on {done}.
  keep = () => caches.open(HANDOFF).then((cache) => cache.put(WASM_URL, copy)).catch(() => {});
  return new Response(response.body.pipeThrough(counter),
    { status: response.status, statusText: response.statusText, headers: response.headers });
}

WebAssembly.compileStreaming(fetched()).then(
  (module) => { self.postMessage(module); },
  (err) => { self.postMessage({ error: String(err && err.message || err) }); },
).then(() => keep()).then(() => { self.postMessage({ done: true }); });
