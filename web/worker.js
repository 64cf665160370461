// Module Web Worker: starts Python and answers the page's requests with
// py_engine.bridge.Bridge().handle(json) -> json. Nothing comes from any other origin.
//
// Two ways to start, the fast one first:
// 1. Restore the memory snapshot made at build time (./snapshot.json describes it: the file,
//    its sha256, the Pyodide version and the engine wheel it was made with). The heap comes
//    back with the engine imported and a Bridge waiting in __main__; the wheel is unpacked
//    again into site-packages (the file system is not in the snapshot) and `random` reseeded.
// 2. Boot Pyodide normally and load the engine wheel through the app lock file
//    (./app-lock.json, sha256-checked by the browser).
// Any failure of 1 (no snapshot.json, another Pyodide, a damaged or refused file, no
// DecompressionStream, a restore that throws or a bridge that does not answer) falls back to 2
// without telling the page anything but `boot` in the ready message.
//
// Page -> worker: {type: "request", id, request}
// Worker -> page: {type: "progress", stage, pct}   stage: "runtime" | "engine" | "bridge"
//                 {type: "ready", ms, pyodide, boot} ms since the worker started;
//                                                   boot: "snapshot" | "normal"
//                 {type: "response", id, response}  response: the bridge's JSON, parsed
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
// The name tools/make_snapshot.mjs gives the Bridge in __main__.
const SNAPSHOT_BRIDGE = "_samba_bridge";

let bridge = null; // PyProxy of the Bridge once booted
let bootFailed = null; // error message if the boot failed
const queue = [];

const realFetch = self.fetch; // (the wrapper below replaces self.fetch)

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
  return new Promise((resolve, reject) => {
    helper.addEventListener("message", (ev) => {
      if (ev.data instanceof WebAssembly.Module) resolve(ev.data);
      else reject(new Error(ev.data && ev.data.error || "no module"));
    });
    helper.addEventListener("error", (ev) => { ev.preventDefault(); reject(new Error("wasm helper failed")); });
    helper.addEventListener("messageerror", () => { reject(new Error("wasm module not received")); });
  }).finally(() => helper.terminate()).catch((err) => {
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
  if (url) { const n = url.split("/").pop().split("?")[0]; p.then(() => mark("got_" + n), () => {}); }
  return p;
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
const STAGE_TEXT = { runtime: "loading the Python runtime", engine: "loading the game engine",
                     bridge: "starting the game engine" };
let stage = "runtime";

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
  for (const key of ["file", "integrity", "pyodide", "wheel", "wheel_integrity", "site_packages"]) {
    if (typeof info[key] !== "string") throw new Error(`snapshot.json: no ${key}`);
  }
  return info;
}

async function fetchBytes(rel, integrity) {
  const res = await fetch(new URL(rel, import.meta.url).href, { integrity });
  if (!res.ok) throw new Error(`${rel}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

// The snapshot file is gzip (static hosts send unknown types uncompressed); a host that
// decoded it on the way already (Content-Encoding) gives the raw bytes. Unpacking 31 MB takes
// a good part of a second, so the worker keeps the raw bytes in a cache of its own
// (RAW_CACHE, one entry, keyed by the snapshot's file name: a new build has another name) and
// the next visit reads them from there.
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
    const read = size === info.raw_bytes ? handle.read(head, { at: 0 }) : -1;
    const words = read >= 16 ? new Uint32Array(head.buffer, 0, 3) : null;
    if (words && words[0] === MAGIC && words[1] >= 16 && words[1] <= read) {
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

/** Writes the raw bytes to OPFS (other builds' files removed); false where it cannot. */
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
    if (data.length === info.raw_bytes && new Uint32Array(data.buffer, 0, 1)[0] === MAGIC) return data;
    await cache.delete(rawKey(info));
  } catch (err) { /* no Cache Storage here (an opaque origin, a refused frame): unpack */ }
  return null;
}

/** Keeps the raw bytes for the next visit: in OPFS, else in the cache (drops other builds'). */
async function keepRaw(info, data) {
  if (await keepOpfs(info, data)) {
    try { await caches.delete(RAW_CACHE); } catch (err) { /* none */ }
    return;
  }
  try {
    const cache = await caches.open(RAW_CACHE);
    for (const req of await cache.keys()) if (req.url !== rawKey(info)) await cache.delete(req);
    await cache.put(rawKey(info), new Response(data, { headers: { "Content-Type": "application/octet-stream" } }));
  } catch (err) { /* quota, no Cache Storage: the next visit unpacks again */ }
}

async function forgetRaw(info) {
  try { await (await caches.open(RAW_CACHE)).delete(rawKey(info)); } catch (err) { /* none */ }
  try { await (await navigator.storage.getDirectory()).removeEntry(opfsName(info)); } catch (err) { /* none */ }
}

let keepAfterBoot = null; // () => Promise, run once the worker is ready
const AFTER_READY_MS = 3000;
let afterReady = null;    // () => void, run once the queued requests are answered

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
  const data = await fetchBytes(info.file, info.integrity);
  mark("snapshot_gz");
  let raw = data;
  if (data[0] === 0x1f && data[1] === 0x8b) {
    if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream");
    const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"));
    raw = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  keepAfterBoot = () => keepRaw(info, raw);
  return raw;
}

// pyodide.asm.mjs (1.2 MB of JavaScript) is imported at once too, not after pyodide.mjs has
// loaded and loadPyodide asked for it (its createPyodideModule is handed to loadPyodide).
const asmModule = import(ASM_URL);
asmModule.then(() => mark("asm_mjs"), () => {});

async function createPyodideModule(settings) {
  const create = (await asmModule).default;
  const module = await create(settings);
  mark("module_created");
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
      const pyodide = finalize.apply(this, args);
      mark("finalizeBootstrap_out");
      return pyodide;
    };
  }
  return module;
}

async function loadRuntime(loadPyodide, options, progress) {
  // loadPyodide reports no progress of its own: creep towards 60 % while it works.
  const ticker = setInterval(() => progress("runtime", -1), 150);
  let failBoot;
  const failed = new Promise((_, reject) => (failBoot = reject));
  const unwatch = watchWasmFailure(failBoot);
  try {
    return await Promise.race([loadPyodide({ indexURL: INDEX_URL, lockFileURL: LOCK_URL, createPyodideModule, ...options }), failed]);
  } finally {
    clearInterval(ticker);
    unwatch();
  }
}

// The snapshot's bytes and the wheel, asked for as soon as snapshot.json is there (while
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
  const pyodide = await loadRuntime(loadPyodide, { _loadSnapshot: bytes }, progress);
  mark("restored");
  progress("engine", 70);
  // The file system is not part of the heap: put the engine's files back (modules the snapshot
  // did not import, data files), and give this visitor their own random numbers.
  const wheelBytes = await wheel;
  mark("wheel_fetched");
  pyodide.runPython("import random; random.seed(); del random");
  mark("reseeded");
  const putFilesBack = () => {
    pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: info.site_packages });
    // (importlib.invalidate_caches() would re-read the stdlib zip's index: about a second.)
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
  };
  if (info.engine_imported === true) {
    // Every module is in the heap: the files go back after the first answers (tracebacks,
    // anything that reads them later).
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

async function normalBoot(loadPyodide, progress) {
  const pyodide = await loadRuntime(loadPyodide, {}, progress);
  progress("engine", 65);
  const loadErrors = [];
  await pyodide.loadPackage(["py_engine"], {
    messageCallback: () => {},
    errorCallback: (m) => loadErrors.push(m),
    checkIntegrity: true,
  });
  if (loadErrors.length) throw new Error(loadErrors.join("; "));
  progress("bridge", 90);
  const mod = pyodide.pyimport("py_engine.bridge");
  const made = mod.Bridge();
  mod.destroy?.();
  return made;
}

async function boot() {
  let pct = 0;
  const progress = (name, p) => {
    stage = name;
    pct = p < 0 ? Math.min(60, pct + (60 - pct) * 0.08) : Math.max(pct, p);
    post({ type: "progress", stage, pct: Math.round(pct) });
  };
  const info = snapshotInfo();
  info.catch(() => {});
  const fetched = fetchSnapshot(info);
  progress("runtime", 2);
  const { loadPyodide, version } = await import(PYODIDE_URL);
  mark("pyodide_mjs");
  progress("runtime", 10);
  let how = "snapshot";
  try {
    bridge = await restoreSnapshot(loadPyodide, version, info, fetched, progress);
  } catch (err) {
    // No snapshot, or one that cannot be used: boot the long way. Not an error for anyone.
    console.info(`samba worker: normal boot (${errorText(err)})`);
    closeHeapFile();
    info.then(forgetRaw, () => {});
    how = "normal";
    stage = "runtime";
    bridge = await normalBoot(loadPyodide, progress);
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
