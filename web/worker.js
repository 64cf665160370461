// Module Web Worker: starts Python and answers the page's requests with
// py_engine.bridge.Bridge().handle(json) -> json. Nothing comes from any other origin.
//
// Two ways to start, the fast one first:
// 1. Restore the memory snapshot this device made on an earlier visit (kept in the origin
//    private file system, else in a cache of this worker's own; ./snapshot.json names it after
//    the runtime, the engine wheel and this script). The heap comes back with the engine
//    imported and a Bridge waiting in __main__; the wheel is unpacked again into
//    site-packages (the file system is not in the snapshot) and `random` reseeded.
// 2. Boot Pyodide normally (a first visit: no snapshot is downloaded) with the engine wheel
//    (sha256-checked by the browser) unpacked into site-packages; once the page has been idle
//    for a moment, make the snapshot here and keep it for the next visit.
// Any failure of 1 (nothing kept, another Pyodide, a damaged file, a restore that throws or a
// bridge that does not answer) sets the kept snapshot aside and falls back to 2 without
// telling the page anything but `boot` in the ready message.
//
// Page -> worker: {type: "request", id, request}
// Worker -> page: {type: "progress", stage, pct, received, total}
//                                                   stage: "download" | "runtime" | "engine" | "bridge";
//                                                   received/total: bytes of the runtime's and
//                                                   the engine's files (decoded)
//                 {type: "ready", ms, pyodide, boot} ms since the worker started;
//                                                   boot: "snapshot" | "normal"
//                 {type: "response", id, response}  response: the bridge's JSON, parsed
//                 {type: "snapshot", state, where, message}  after a normal boot: "making" (begun),
//                                                   then "kept" (where: "opfs" | "cache"), "not kept"
//                                                   or "failed"
//                 {type: "error", message}          boot failure or uncaught error
// Requests that arrive while Python boots are queued and answered after "ready".

const T0 = performance.now();
const marks = {}; // ms since the worker started, per boot step (sent with "ready")
const mark = (name) => { marks[name] = Math.round(performance.now() - T0); };
marks.origin = performance.timeOrigin + T0; // when this script began (bridge.js makes it page time)
const PYODIDE_URL = new URL("./pyodide/pyodide.mjs", import.meta.url).href;
const LOCK_URL = new URL("./app-lock.json", import.meta.url).href;
const SNAPSHOT_INFO_URL = new URL("./snapshot.json", import.meta.url).href;
const WASM_URL = new URL("./pyodide/pyodide.asm.wasm", import.meta.url).href;
const ASM_URL = new URL("./pyodide/pyodide.asm.mjs", import.meta.url).href;
const INDEX_URL = new URL("./pyodide/", import.meta.url).href; // (else found from an Error's stack)
// The name the snapshot keeps the Bridge under in __main__ (WARM_UP below).
const SNAPSHOT_BRIDGE = "_samba_bridge";

let bridge = null; // PyProxy of the Bridge once booted
let bootFailed = null; // error message if the boot failed
const queue = [];

const realFetch = self.fetch; // (the wrapper below replaces self.fetch)

// What the boot downloads, counted as the bytes arrive (the decoded bytes: a host that gzips
// sends fewer), against the sizes snapshot.json gives; reported to the page as progress, so a
// slow link shows bytes moving, never a ticker. The files are also handed to the service
// worker's install (HANDOFF cache: it checks their sha256 and does not download them again).
const SIZES = {};    // URL -> bytes expected (from snapshot.json `sizes`)
const RECEIVED = {}; // URL -> bytes received so far
let onBytes = () => {};
function received(url, n) {
  RECEIVED[url] = n;
  onBytes();
}
const HANDOFF = "samba-handoff";

/** Keeps a copy of a response the boot fetched, for the service worker's install (written as
 * the body streams in, beside the boot's own reading of it). */
async function handOff(url, response) {
  if (!response.ok || response.status !== 200) return;
  try {
    if (await caches.match(url)) return; // a service worker's cache has it already
    await (await caches.open(HANDOFF)).put(url, response);
  } catch (err) { /* no Cache Storage here: the service worker downloads it */ }
}

/** The response with its body counted as it streams (the bytes go to `received`). */
function counted(url, response) {
  if (!response.body || typeof TransformStream !== "function") return response;
  let n = 0;
  const counter = new TransformStream({
    transform(chunk, ctl) { n += chunk.byteLength; received(url, n); ctl.enqueue(chunk); },
  });
  return new Response(response.body.pipeThrough(counter),
    { status: response.status, statusText: response.statusText, headers: response.headers });
}

// Compile Python's wasm at once, while the snapshot is fetched and unpacked: loadPyodide only
// starts compiling once it has the snapshot's bytes. The worker fetches the wasm once, itself;
// loadPyodide's own fetch of that URL gets an empty stand-in, and its instantiateStreaming of
// the stand-in gets the module compiled here (a failed fetch or compile fails it the same way
// as before: Pyodide's "wasm instantiation failed" warning, watched below). Any other fetch
// or wasm goes to the real functions.
const compiledWasm = compileWasm();
compiledWasm.then(() => mark("wasm_compiled"), () => {});

/**
 * The wasm module, compiled by a helper worker (web/wasm-worker.js) so that this thread is
 * free for the runtime's JavaScript and the snapshot meanwhile; compiled here where there is no
 * helper (no nested workers) or it failed.
 */
function compileWasm() {
  const here = () => WebAssembly.compileStreaming(realFetch.call(self, WASM_URL));
  let helper;
  try {
    helper = new Worker(new URL("./wasm-worker.js", import.meta.url), { type: "module" });
  } catch (err) {
    return here();
  }
  const end = () => helper.terminate();
  let failsafe = null; // after the module: the copy for the service worker is not worth more
  return new Promise((resolve, reject) => {
    helper.addEventListener("message", (ev) => {
      const data = ev.data;
      if (data && typeof data.received === "number") {
        received(WASM_URL, data.received < 0 ? SIZES[WASM_URL] || 0 : data.received);
      } else if (data && data.done) {
        clearTimeout(failsafe);
        end();
      } else if (data instanceof WebAssembly.Module) {
        failsafe = setTimeout(end, 30000);
        resolve(data);
      }
      else reject(new Error(data && data.error || "no module"));
    });
    helper.addEventListener("error", (ev) => { ev.preventDefault(); reject(new Error("wasm helper failed")); });
    helper.addEventListener("messageerror", () => { reject(new Error("wasm module not received")); });
  }).catch((err) => {
    clearTimeout(failsafe);
    end();
    console.info(`samba worker: compiling the wasm here (${errorText(err)})`);
    return here();
  });
}
const standIns = new WeakSet();
self.fetch = function (input, init) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input?.url;
  if (url && new URL(url, self.location.href).href === WASM_URL) {
    const standIn = new Response(null, { status: 200, headers: { "Content-Type": "application/wasm" } });
    standIns.add(standIn);
    return Promise.resolve(standIn);
  }
  const p = realFetch.call(this, input, init);
  if (!url) return p;
  const href = new URL(url, self.location.href).href;
  const n = url.split("/").pop().split("?")[0];
  p.then(() => mark("got_" + n), () => {});
  if (!(href in SIZES)) return p;
  return p.then((response) => {
    handOff(href, response.clone());
    return counted(href, response);
  });
};
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async function (source, imports) {
  const response = await source;
  if (standIns.has(response)) {
    mark("instantiate_asked");
    const module = await compiledWasm;
    const instance = await WebAssembly.instantiate(module, imports);
    mark("instantiated");
    return { module, instance };
  }
  return instantiateStreaming.call(WebAssembly, response, imports);
};

function post(msg) {
  self.postMessage(msg);
}

function errorText(err) {
  if (err == null) return "unknown error";
  if (typeof err === "string") return err;
  const msg = err.message || String(err);
  return err.name && !msg.startsWith(err.name) ? `${err.name}: ${msg}` : msg;
}

// What the boot is doing, to say what failed ("" once ready).
const STAGE_TEXT = { download: "downloading the Python runtime", runtime: "loading the Python runtime",
                     engine: "loading the game engine",
                     bridge: "starting the game engine" };
let stage = "download";

function reportError(err) {
  const text = errorText(err);
  const where = bridge === null && bootFailed === null ? STAGE_TEXT[stage] : "";
  post({ type: "error", message: where ? `${where}: ${text}` : text });
}

self.addEventListener("error", (ev) => {
  reportError(ev.error || ev.message);
});
self.addEventListener("unhandledrejection", (ev) => {
  reportError(ev.reason);
});

function handle({ id, request }) {
  let response;
  if (bootFailed !== null) {
    response = { ok: false, error: { code: "boot_failed", message: bootFailed } };
  } else {
    try {
      response = JSON.parse(bridge.handle(JSON.stringify(request)));
    } catch (err) {
      // A Python exception escaping the bridge: answer the request, keep the worker alive.
      const text = errorText(err);
      const lines = text.trim().split("\n");
      response = {
        ok: false,
        error: { code: "internal", message: lines[lines.length - 1], detail: { traceback: text } },
      };
    }
  }
  post({ type: "response", id, response });
}

self.addEventListener("message", (ev) => {
  const msg = ev.data;
  if (!msg || msg.type !== "request") return;
  idleHook?.();
  if (bridge === null && bootFailed === null) queue.push(msg);
  else handle(msg);
});

// Pyodide only console.warn()s when the wasm cannot be fetched or instantiated, then waits
// forever; turn that warning into a boot failure so the page can say so at once.
function watchWasmFailure(fail) {
  const warn = console.warn.bind(console);
  let armed = false;
  console.warn = (...args) => {
    warn(...args);
    const text = args.map((a) => errorText(a)).join(" ");
    if (armed) fail(text);
    else if (text.includes("wasm instantiation failed")) {
      armed = true;
      setTimeout(() => fail("WebAssembly instantiation failed"), 0);
    }
  };
  return () => {
    console.warn = warn;
  };
}

// The snapshot's description and its bytes, fetched at once (in parallel with the runtime's
// own files). Resolves to null when there is no usable snapshot (the reason goes to `why`).
async function snapshotInfo() {
  const res = await fetch(SNAPSHOT_INFO_URL);
  if (!res.ok) throw new Error(`snapshot.json: HTTP ${res.status}`);
  const info = await res.json();
  for (const key of ["file", "pyodide", "wheel", "wheel_integrity", "site_packages"]) {
    if (typeof info[key] !== "string") throw new Error(`snapshot.json: no ${key}`);
  }
  if (info.sizes && typeof info.sizes === "object") {
    for (const [rel, n] of Object.entries(info.sizes)) {
      if (Number.isFinite(n) && n > 0) SIZES[new URL(rel, import.meta.url).href] = n;
    }
  }
  return info;
}

async function fetchBytes(rel, integrity) {
  const res = await fetch(new URL(rel, import.meta.url).href, { integrity });
  if (!res.ok) throw new Error(`${rel}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

// The snapshot is made on this device (31 MB: downloading it cost a first visit more than
// booting does) and kept in OPFS, else in a cache of this worker's own (RAW_CACHE, one entry,
// keyed by the snapshot's name: a new build has another name).
const RAW_CACHE = "pyodide-snapshot-raw";
const MAGIC = 1886286592; // a Pyodide snapshot's first uint32

function rawKey(info) {
  return new URL(`${info.file}?raw`, import.meta.url).href;
}

// The raw bytes live first in the origin private file system (OPFS): a dedicated worker reads a
// file there with a synchronous access handle straight into its buffer, which is several times
// faster than a 31 MB Cache Storage response (measured: docs/build.md). One file, named after
// the snapshot (`<file>.raw`), checked like the cache's entry (length and magic); the cache is
// the fallback where there is no OPFS (older browsers, some frames) or its file is locked
// (another tab reading it).
const OPFS_PREFIX = "snapshot-";

function opfsName(info) {
  return `${info.file}.raw`;
}

// The heap is not read into a buffer of its own: only the snapshot's header is (its magic, the
// offset of the heap, the build id and a little JSON), and the heap goes straight from the file
// into the runtime's memory when Pyodide restores it (restoreSnapshot, wrapped below), which
// saves a 31 MB buffer and a copy of it. The file stays open (and locked) until then.
const HEAD_BYTES = 4096; // the header is 144 bytes in Pyodide 314
let heapFromFile = null;  // {header, handle, at, bytes} between opfsRaw and the restore

function closeHeapFile() {
  if (!heapFromFile) return;
  try { heapFromFile.handle.close(); } catch (err) { /* closed */ }
  heapFromFile = null;
}

// Its root, asked for at once (while snapshot.json is on its way).
const opfsRoot = self.navigator && navigator.storage && navigator.storage.getDirectory
  ? navigator.storage.getDirectory() : null;
opfsRoot?.then(() => mark("opfs_root"), () => {});

/** The snapshot's header, its heap to follow from the file; null where there is none. */
async function opfsRaw(info) {
  if (!opfsRoot) return null;
  let handle = null;
  try {
    const dir = await opfsRoot;
    const file = await dir.getFileHandle(opfsName(info));
    mark("opfs_file");
    if (typeof file.createSyncAccessHandle !== "function") return null;
    handle = await file.createSyncAccessHandle();
    mark("opfs_handle");
    const size = handle.getSize();
    const head = new Uint8Array(Math.min(size, HEAD_BYTES));
    const read = size > HEAD_BYTES ? handle.read(head, { at: 0 }) : -1;
    const words = read >= 16 ? new Uint32Array(head.buffer, 0, 3) : null;
    if (words && words[0] === MAGIC && words[1] >= 16 && words[1] <= read && (size - words[1]) % 65536 === 0) {
      // Exactly the header: Pyodide's own copy of "the rest" is then empty, and its length
      // (which sizes the runtime's memory) says the whole file's.
      const header = head.slice(0, words[1]);
      Object.defineProperty(header, "length", { value: size });
      heapFromFile = { header, handle, at: words[1], bytes: size - words[1] };
      handle = null;
      return header;
    }
    handle.close();
    handle = null;
    await dir.removeEntry(opfsName(info));
  } catch (err) { /* none yet, locked, or no OPFS here: the cache, else unpack */ }
  finally {
    try { handle?.close(); } catch (err) { /* closed */ }
  }
  return null;
}

/** After Pyodide's restoreSnapshot(header): the heap, read from the file into the memory. */
function readHeapFromFile(module, snapshot) {
  const heap = heapFromFile;
  if (!heap || heap.header !== snapshot) return;
  try {
    const memory = new Uint8Array(module.HEAP8.buffer);
    if (memory.length < heap.bytes) throw new Error("snapshot: the runtime's memory is too small");
    const read = heap.handle.read(memory.subarray(0, heap.bytes), { at: heap.at });
    if (read !== heap.bytes) throw new Error("snapshot: short read from OPFS");
  } finally {
    closeHeapFile();
  }
}

/** Writes the snapshot to OPFS (other builds' files removed); false where it cannot. */
async function keepOpfs(info, data) {
  if (!(self.navigator && navigator.storage && navigator.storage.getDirectory)) return false;
  let handle = null;
  try {
    const dir = await navigator.storage.getDirectory();
    for await (const name of dir.keys()) {
      if (name.startsWith(OPFS_PREFIX) && name !== opfsName(info)) await dir.removeEntry(name);
    }
    const file = await dir.getFileHandle(opfsName(info), { create: true });
    if (typeof file.createSyncAccessHandle !== "function") return false;
    handle = await file.createSyncAccessHandle();
    handle.truncate(0);
    const written = handle.write(data, { at: 0 });
    handle.flush();
    if (written !== data.length) throw new Error("short write");
    return true;
  } catch (err) {
    try { handle?.close(); handle = null; } catch (err2) { /* closed */ }
    try { await (await navigator.storage.getDirectory()).removeEntry(opfsName(info)); } catch (err2) { /* none */ }
    return false;
  } finally {
    try { handle?.close(); } catch (err) { /* closed */ }
  }
}

async function cachedRaw(info) {
  try {
    const cache = await caches.open(RAW_CACHE);
    const hit = await cache.match(rawKey(info));
    if (!hit) return null;
    const data = new Uint8Array(await hit.arrayBuffer());
    const words = data.length > HEAD_BYTES ? new Uint32Array(data.buffer, 0, 2) : null;
    if (words && words[0] === MAGIC && (data.length - words[1]) % 65536 === 0) return data;
    await cache.delete(rawKey(info));
  } catch (err) { /* no Cache Storage here (an opaque origin, a refused frame): unpack */ }
  return null;
}

/** Keeps the snapshot for the next visit: in OPFS, else in the cache (drops other builds');
 * says where ("opfs", "cache") or null where it could not (storage full or denied). */
async function keepRaw(info, data) {
  if (await keepOpfs(info, data)) {
    try { await caches.delete(RAW_CACHE); } catch (err) { /* none */ }
    return "opfs";
  }
  try {
    const cache = await caches.open(RAW_CACHE);
    for (const req of await cache.keys()) if (req.url !== rawKey(info)) await cache.delete(req);
    await cache.put(rawKey(info), new Response(data, { headers: { "Content-Type": "application/octet-stream" } }));
    return "cache";
  } catch (err) {
    // Quota or no Cache Storage: nothing kept (a half-written entry is dropped); the next
    // visit boots the long way and tries again.
    try { await (await caches.open(RAW_CACHE)).delete(rawKey(info)); } catch (err2) { /* none */ }
    return null;
  }
}

async function forgetRaw(info) {
  try { await (await caches.open(RAW_CACHE)).delete(rawKey(info)); } catch (err) { /* none */ }
  try { await (await navigator.storage.getDirectory()).removeEntry(opfsName(info)); } catch (err) { /* none */ }
}

let keepAfterBoot = null; // () => Promise, run once the worker is ready
const AFTER_READY_MS = 3000;
let afterReady = null;    // () => void, run once the queued requests are answered

/** The snapshot this device kept (its header from OPFS, or the bytes from the cache); throws
 * where there is none (a first visit). */
async function snapshotBytes(info) {
  const file = await opfsRaw(info);
  if (file) {
    marks.snapshot_from = "opfs";
    return file;
  }
  const cached = await cachedRaw(info);
  if (cached) {
    marks.snapshot_from = "raw cache";
    // Moved to OPFS after the boot, where it can be (the next visit reads it faster).
    keepAfterBoot = () => keepRaw(info, cached);
    return cached;
  }
  throw new Error("no snapshot kept on this device yet");
}

// pyodide.asm.mjs (1.2 MB of JavaScript) is imported at once too, not after pyodide.mjs has
// loaded and loadPyodide asked for it (its createPyodideModule is handed to loadPyodide).
const asmModule = import(ASM_URL);
asmModule.then(() => mark("asm_mjs"), () => {});

// Signs of life for the page's watchdog while Python starts (CPU work: no bytes arrive then).
let step = () => {};

async function createPyodideModule(settings) {
  const create = (await asmModule).default;
  const module = await create(settings);
  mark("module_created");
  step("runtime", 82);
  const api = module.API;
  const restore = api.restoreSnapshot;
  if (typeof restore === "function") {
    api.restoreSnapshot = function (snapshot) {
      mark("restoreSnapshot_in");
      const config = restore.call(this, snapshot);
      readHeapFromFile(module, snapshot);
      mark("restoreSnapshot_out");
      return config;
    };
  }
  const finalize = api.finalizeBootstrap;
  if (typeof finalize === "function") {
    api.finalizeBootstrap = function (...args) {
      mark("finalizeBootstrap_in");
      step("runtime", 84);
      const pyodide = finalize.apply(this, args);
      mark("finalizeBootstrap_out");
      return pyodide;
    };
  }
  return module;
}

async function loadRuntime(loadPyodide, options) {
  let failBoot;
  const failed = new Promise((_, reject) => (failBoot = reject));
  const unwatch = watchWasmFailure(failBoot);
  try {
    return await Promise.race([loadPyodide({ indexURL: INDEX_URL, lockFileURL: LOCK_URL, createPyodideModule, ...options }), failed]);
  } finally {
    unwatch();
  }
}

// The kept snapshot and the wheel, asked for as soon as snapshot.json is there (while
// pyodide.mjs loads and the wasm compiles).
function fetchSnapshot(infoPromise) {
  const bytes = infoPromise.then((info) => { mark("snapshot_info"); return snapshotBytes(info); });
  const wheel = infoPromise.then((info) => fetchBytes(info.wheel, info.wheel_integrity));
  bytes.catch(() => {});
  wheel.catch(() => {});
  return { bytes, wheel };
}

async function restoreSnapshot(loadPyodide, version, infoPromise, { bytes, wheel }, progress) {
  const info = await infoPromise;
  if (info.pyodide !== version) throw new Error(`snapshot made with Pyodide ${info.pyodide}, runtime is ${version}`);
  bytes.then(() => mark("snapshot_fetched"), () => {});
  const pyodide = await loadRuntime(loadPyodide, { _loadSnapshot: bytes });
  mark("restored");
  progress("engine", 85);
  // The file system is not part of the heap: put the engine's files back (modules the snapshot
  // did not import, data files), and give this visitor their own random numbers.
  const wheelBytes = await wheel;
  mark("wheel_fetched");
  pyodide.runPython("import random; random.seed(); del random");
  mark("reseeded");
  const putFilesBack = () => unpackWheel(pyodide, info, wheelBytes);
  if (info.made === "device" || info.engine_imported === true) {
    // Every module is in the heap (the worker keeps a snapshot only when all imported): the
    // files go back after the first answers (tracebacks, anything that reads them later).
    afterReady = () => {
      try { putFilesBack(); } catch (err) { console.info(`samba worker: wheel not unpacked (${errorText(err)})`); }
    };
  } else {
    putFilesBack();
    mark("unpacked");
  }
  progress("bridge", 90);
  const restored = pyodide.globals.get(SNAPSHOT_BRIDGE);
  if (!restored || typeof restored.handle !== "function") throw new Error("no bridge in the snapshot");
  const answer = JSON.parse(restored.handle(JSON.stringify({ op: "view" })));
  if (!answer || typeof answer.ok !== "boolean") throw new Error("the restored bridge does not answer");
  return restored;
}

/** The engine wheel's files into site-packages, and the import caches of site-packages only
 * invalidated (importlib.invalidate_caches() would re-read the stdlib zip's index). */
function unpackWheel(pyodide, info, wheelBytes) {
  pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: info.site_packages });
  pyodide.globals.set("_samba_site", info.site_packages);
  pyodide.runPython(`
def _samba_after_unpack(site):
    import sys
    for path, finder in list(sys.path_importer_cache.items()):
        if path.startswith(site) and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()
_samba_after_unpack(_samba_site)
del _samba_after_unpack, _samba_site
`);
}

// Made on this device after a normal boot, once the page has left the engine alone for
// SNAPSHOT_IDLE_MS: every module of the wheel imported (so a restored heap needs none of its
// files before it answers), a throwaway Bridge given the requests a table makes at its start
// (modules they import lazily), then a fresh Bridge kept in __main__ under SNAPSHOT_BRIDGE.
// The making is a row of short steps (one module, one request, the heap's copy) with the worker's
// thread free between them: a player's request that arrives meanwhile is answered before the
// next step, and the rest of the making waits for the next idle moment (a phone takes seconds
// over the whole; a tap must not).
const SNAPSHOT_IDLE_MS = 2000;
const MODULES = `
import pkgutil, py_engine
_samba_result = [m.name for m in pkgutil.walk_packages(py_engine.__path__, "py_engine.")]
del pkgutil, py_engine
_samba_result
`;
const WARM_UP_REQUESTS = [
  { op: "new_game", rules: "samba", players: 4, seed: 1, seats: ["human", "medium", "medium", "medium"] },
  { op: "view" }, { op: "hint", level: "medium" }, { op: "record" },
];
const WARM_UP_BRIDGE = `
import py_engine.bridge as _bridge_module
_samba_warm = _bridge_module.Bridge()
del _bridge_module
`;
const WARM_UP_ONE = `
def _samba_warm_one(text):
    import json
    try:
        json.loads(_samba_warm.handle(text))
    except Exception:
        pass
`;
const WARM_UP_END = `
import gc
import py_engine.bridge as _bridge_module
del _samba_warm, _samba_warm_one
${SNAPSHOT_BRIDGE} = _bridge_module.Bridge()
del _bridge_module
gc.collect()
`;

let idleHook = null; // called on every request while a snapshot waits for an idle moment

/** A turn of the worker's event loop: a request waiting to be read is answered meanwhile. */
function yieldToRequests() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Makes the snapshot once the page has been idle for a moment, and keeps it. */
function snapshotWhenIdle(pyodide, info) {
  let timer = null;
  let making = false;
  let asked = false;  // a request came while making: the rest waits for the next idle moment
  let done = 0;       // steps done
  let yielded = 0;    // times the making stood aside for a request
  let longest = 0;    // ms of the longest step
  let steps = null;
  let t0 = 0;
  const importStep = (name) => () => {
    pyodide.globals.set("_samba_name", name);
    const ok = pyodide.runPython(`
import importlib
try:
    importlib.import_module(_samba_name)
    _samba_result = True
except Exception:
    _samba_result = False
del importlib, _samba_name
_samba_result`) === true;
    pyodide.runPython("del _samba_result");
    if (!ok) throw new Error("a module of the engine did not import");
  };
  const plan = () => {
    const names = pyodide.runPython(MODULES);
    const list = names.toJs();
    names.destroy();
    pyodide.runPython("del _samba_result");
    return [
      ...list.map(importStep),
      () => { pyodide.runPython(WARM_UP_BRIDGE); pyodide.runPython(WARM_UP_ONE); },
      ...WARM_UP_REQUESTS.map((req) => () => {
        const warm = pyodide.globals.get("_samba_warm_one");
        try { warm(JSON.stringify(req)); } finally { warm.destroy(); }
      }),
      () => pyodide.runPython(WARM_UP_END),
    ];
  };
  const make = async () => {
    making = true;
    asked = false;
    if (done === 0) {
      t0 = performance.now();
      post({ type: "snapshot", state: "making" });
    }
    try {
      if (steps === null) steps = plan();
      while (done < steps.length) {
        const t = performance.now();
        steps[done]();
        longest = Math.max(longest, performance.now() - t);
        done += 1;
        await yieldToRequests();
        if (asked) {
          // A player's request was answered meanwhile: go on once the page is idle again.
          yielded += 1;
          making = false;
          idleHook = arm;
          arm();
          return;
        }
      }
      idleHook = null;
      const t = performance.now();
      let data = pyodide.makeMemorySnapshot();
      longest = Math.max(longest, performance.now() - t);
      const made = Math.round(performance.now() - t0);
      const where = await keepRaw(info, data);
      data = null;
      // ms: from the first idle moment to the heap's copy (pauses included); steps: how many,
      // the longest (what a request could wait), and how often the making stood aside.
      post({ type: "snapshot", state: where ? "kept" : "not kept", where, ms: made,
             total_ms: Math.round(performance.now() - t0),
             steps: steps.length + 1, longest_step_ms: Math.round(longest), yielded });
    } catch (err) {
      idleHook = null;
      console.info(`samba worker: no snapshot made (${errorText(err)})`);
      post({ type: "snapshot", state: "failed", message: errorText(err) });
    }
    making = false;
  };
  const arm = () => {
    if (making) { asked = true; return; }
    clearTimeout(timer);
    timer = setTimeout(make, SNAPSHOT_IDLE_MS);
  };
  idleHook = arm;
  arm();
}

async function normalBoot(loadPyodide, info, wheel, progress) {
  if (info === null) return lockFileBoot(loadPyodide, progress);
  const pyodide = await loadRuntime(loadPyodide, { _makeSnapshot: true });
  progress("engine", 90);
  unpackWheel(pyodide, info, await wheel);
  progress("bridge", 95);
  const mod = pyodide.pyimport("py_engine.bridge");
  const made = mod.Bridge();
  mod.destroy?.();
  afterReady = () => snapshotWhenIdle(pyodide, info);
  return made;
}

// Without snapshot.json (a build without it): the engine through the app lock file.
async function lockFileBoot(loadPyodide, progress) {
  const pyodide = await loadRuntime(loadPyodide, {});
  progress("engine", 90);
  const loadErrors = [];
  await pyodide.loadPackage(["py_engine"], {
    messageCallback: () => {},
    errorCallback: (m) => loadErrors.push(m),
    checkIntegrity: true,
  });
  if (loadErrors.length) throw new Error(loadErrors.join("; "));
  progress("bridge", 95);
  const mod = pyodide.pyimport("py_engine.bridge");
  const made = mod.Bridge();
  mod.destroy?.();
  return made;
}

// Progress: the bytes of the boot's files as they arrive (up to DOWNLOAD_PCT), then the steps.
const DOWNLOAD_PCT = 80;
const BYTES_EVERY_MS = 200;

async function boot() {
  let pct = 0;
  let lastBytes = 0;
  let bytesTimer = null;
  const totals = () => {
    let got = 0, total = 0;
    for (const [url, n] of Object.entries(SIZES)) { total += n; got += Math.min(n, RECEIVED[url] || 0); }
    return { got, total };
  };
  const progress = (name, p) => {
    stage = name;
    const { got, total } = totals();
    pct = Math.max(pct, p);
    post({ type: "progress", stage, pct: Math.round(pct), received: got, total });
  };
  step = (name, p) => { if (stage === "download" || stage === "runtime") progress(name, p); };
  onBytes = () => {
    // At most one message per BYTES_EVERY_MS (a message for every chunk would flood the page).
    if (bytesTimer !== null) return;
    bytesTimer = setTimeout(() => {
      bytesTimer = null;
      const { got, total } = totals();
      if (got === lastBytes || !total) return;
      lastBytes = got;
      // Everything in: Python starts (CPU work, no bytes) until the engine's step.
      const next = stage !== "download" && stage !== "runtime" ? stage : got >= total ? "runtime" : "download";
      progress(next, Math.round(DOWNLOAD_PCT * got / total));
    }, BYTES_EVERY_MS);
  };
  const info = snapshotInfo();
  info.catch(() => {});
  const fetched = fetchSnapshot(info);
  progress("download", 2);
  asmModule.then(() => received(ASM_URL, SIZES[ASM_URL] || 0), () => {});
  const { loadPyodide, version } = await import(PYODIDE_URL);
  mark("pyodide_mjs");
  // A snapshot kept on this device, or none (a first visit): decided before Python loads, so
  // that a first visit does not start loading the runtime twice.
  const kept = await fetched.bytes.then(() => true, (err) => err);
  let how = "snapshot";
  try {
    if (kept !== true) throw kept;
    bridge = await restoreSnapshot(loadPyodide, version, info, fetched, progress);
  } catch (err) {
    // Nothing kept, or a snapshot that cannot be used (set aside): boot the long way. Not an
    // error for anyone.
    console.info(`samba worker: normal boot (${errorText(err)})`);
    closeHeapFile();
    if (kept === true) info.then(forgetRaw, () => {});
    how = "normal";
    const usable = await info.then((i) => (i.pyodide === version ? i : null), () => null);
    bridge = await normalBoot(loadPyodide, usable, fetched.wheel, progress);
  }
  mark("bridge");
  progress("bridge", 100);
  post({ type: "ready", ms: Math.round(performance.now() - T0), pyodide: version, boot: how, marks });
  if (how === "snapshot" && keepAfterBoot) setTimeout(keepAfterBoot, 500);
}

boot().then(
  () => {
    for (const msg of queue.splice(0)) handle(msg);
    // Not at once: the page is drawing the engine's first answers then, and a busy phone has
    // few cores (unpacking runs Python's zipfile: a few hundred ms of CPU). A request that
    // arrives first is answered first; the files are only for tracebacks and late readers.
    if (afterReady) setTimeout(afterReady, AFTER_READY_MS);
  },
  (err) => {
    reportError(err);
    bootFailed = errorText(err);
    for (const msg of queue.splice(0)) handle(msg);
  },
);
