// Module Web Worker: boots Pyodide from ./pyodide/, loads the engine wheel through the app lock
// file (./app-lock.json, sha256-checked by the browser, nothing from any other origin) and
// answers the page's requests with py_engine.bridge.Bridge().handle(json) -> json.
//
// Page -> worker: {type: "request", id, request}
// Worker -> page: {type: "progress", stage, pct}   stage: "runtime" | "engine" | "bridge"
//                 {type: "ready", ms, pyodide}      ms since the worker started
//                 {type: "response", id, response}  response: the bridge's JSON, parsed
//                 {type: "error", message}          boot failure or uncaught error
// Requests that arrive while Python boots are queued and answered after "ready".

const T0 = performance.now();
const PYODIDE_URL = new URL("./pyodide/pyodide.mjs", import.meta.url).href;
const LOCK_URL = new URL("./app-lock.json", import.meta.url).href;

let bridge = null; // PyProxy of the Bridge once booted
let bootFailed = null; // error message if the boot failed
const queue = [];

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

async function boot() {
  let pct = 0;
  const progress = (name, p) => {
    stage = name;
    pct = Math.max(pct, p);
    post({ type: "progress", stage, pct: Math.round(pct) });
  };
  progress("runtime", 2);
  const { loadPyodide, version } = await import(PYODIDE_URL);
  progress("runtime", 10);

  // loadPyodide reports no progress of its own: creep towards 60 % while it works.
  const ticker = setInterval(() => progress("runtime", Math.min(60, pct + (60 - pct) * 0.08)), 150);
  let failBoot;
  const failed = new Promise((_, reject) => (failBoot = reject));
  const unwatch = watchWasmFailure(failBoot);
  let pyodide;
  try {
    pyodide = await Promise.race([loadPyodide({ lockFileURL: LOCK_URL }), failed]);
  } finally {
    clearInterval(ticker);
    unwatch();
  }

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
  bridge = mod.Bridge();
  mod.destroy?.();
  progress("bridge", 100);
  post({ type: "ready", ms: Math.round(performance.now() - T0), pyodide: version });
}

boot().then(
  () => {
    for (const msg of queue.splice(0)) handle(msg);
  },
  (err) => {
    reportError(err);
    bootFailed = errorText(err);
    for (const msg of queue.splice(0)) handle(msg);
  },
);
