// The page side of the JSON bridge: one module Web Worker, one promise per request id.
// Boot events go to the callbacks given to `start`; the only DOM touched is
// <html data-engine-boot="snapshot|normal" data-engine-marks="{...}"> once ready (how the
// worker started and its steps' times, for tests and the benchmark).
//
// The worker is created with the client (a page constructs its client while its modules load,
// long before it has read its language file or saved game, so Python starts at once); events
// that happen before `start(events)` are kept and replayed to its callbacks. Requests may be
// sent at any time: the worker queues what arrives while Python boots.
// The service worker's registration waits until the engine has booted (sw-register.js
// `holdRegistration`), so that its precache finds the runtime in the HTTP cache instead of
// downloading it a second time on a first visit.

import { holdRegistration } from "./sw-register.js";

// A slow boot is not a failed one: the watchdog fails it only when nothing at all has happened
// for this long (no byte of the runtime arrived, no step began). On a phone network the boot
// takes minutes, with bytes arriving all along. A test may set `window.__sambaBootStallMs`
// (shorter) to see a slow boot outlast it.
// While Python starts (CPU work once every byte is in: seconds on a phone, minutes on a
// machine busy with other work) the worker's thread cannot speak: that step gets longer.
const BOOT_STALL_MS = 60000;
const CPU_STALL_MS = 300000;

function stallMs(stage) {
  const given = typeof window === "object" ? Number(window.__sambaBootStallMs) : NaN;
  const limit = Number.isFinite(given) && given > 0 ? given : BOOT_STALL_MS;
  return stage && stage !== "download" ? Math.max(limit, CPU_STALL_MS) : limit;
}

/**
 * The worker first-paint.js started before the page's modules loaded (once, for the first
 * client of the page), with the events it sent meanwhile; null if there is none.
 */
function takeEarlyWorker() {
  const fp = typeof window === "object" ? window.__sambaFirstPaint : null;
  if (!fp) return null;
  fp.claimed = true; // first-paint.js starts none after this
  const early = fp.engine;
  if (!early || !early.worker) return null;
  fp.engine = null;
  early.release();
  return early;
}

export class EngineClient {
  constructor() {
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map();
    this.ready = false;
    this.failed = false;
    this.watchdog = null;
    this.booted = false;   // ready at least once (a later failure means the worker died)
    this.restarts = 0;
    this.boot = null;      // "snapshot" | "normal" once ready
    this.events = null;
    this.missed = [];      // [callback name, args] that happened before start(events)
    this.spawnError = null;
    // Settles once the first boot is over (ready or failed), whatever the page does.
    this.settled = new Promise((resolve) => { this.settle = resolve; });
    holdRegistration(this.settled);
    this.spawn();
  }

  emit(name, ...args) {
    if (this.events) this.events[name]?.(...args);
    else this.missed.push([name, args]);
  }

  /** Creates the worker (Python starts booting at once), or takes over the one first-paint.js started. */
  spawn() {
    this.startedAt = performance.now();
    this.lastSign = this.startedAt;
    const early = takeEarlyWorker();
    if (early) {
      this.worker = early.worker;
      this.startedAt = early.at;
    } else {
      try {
        this.worker = new Worker(new URL("../worker.js", import.meta.url), { type: "module" });
      } catch (err) {
        this.worker = null;
        this.spawnError = String(err && err.message || err);
        return;
      }
    }
    const onError = (ev) => {
      ev.preventDefault?.();
      this.fail("load", ev.message || "");
    };
    const handlers = {
      message: (ev) => this.onMessage(ev.data),
      error: onError,
      messageerror: () => this.fail("error", "messageerror"),
    };
    for (const [type, fn] of Object.entries(handlers)) this.worker.addEventListener(type, fn);
    // What the early worker sent before this client existed, in order.
    if (early) for (const ev of early.events) handlers[ev.type]?.(ev);
  }

  /**
   * Ends the current worker (if any) and starts a fresh one with the same event callbacks.
   * Pending requests are rejected; the new worker must be given the game again (op `load`).
   */
  restart() {
    const old = this.worker;
    this.worker = null;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    try { old?.terminate(); } catch (err) { /* already gone */ }
    for (const { reject } of this.pending.values()) reject(new Error("engine restarted"));
    this.pending.clear();
    this.ready = false;
    this.failed = false;
    this.lastSign = performance.now();
    this.stage = null;
    this.restarts += 1;
    this.start(this.events);
  }

  /** Terminates the worker as if it had died (used by the restart test hook). */
  kill() {
    try { this.worker?.terminate(); } catch (err) { /* ignore */ }
    this.fail("dead", "the game engine stopped");
  }

  /**
   * Connects the page to the worker (created by the constructor; after a failure to create it,
   * reports that now). `events` = {onProgress(stage, pct, received, total), onReady(ms),
   * onError(kind, message), onSnapshot(msg)}. kind is "error" (the worker reported one),
   * "timeout" (nothing happened for the stall time: message = its seconds; the worker is ended)
   * or "load" (script failed).
   */
  start(events) {
    this.events = events;
    if (!this.worker && !this.spawnError && !this.failed) this.spawn();
    if (this.spawnError) {
      const message = this.spawnError;
      this.spawnError = null;
      this.fail("load", message);
      return;
    }
    for (const [name, args] of this.missed.splice(0)) this.emit(name, ...args);
    if (this.ready || this.failed) return;
    this.lastSign = Math.max(this.lastSign || 0, this.startedAt);
    this.armWatchdog();
  }

  /** (Re)arms the stall watchdog from the boot's last sign of life. */
  armWatchdog() {
    if (this.watchdog) clearTimeout(this.watchdog);
    const limit = stallMs(this.stage);
    const left = limit - (performance.now() - (this.lastSign || this.startedAt));
    this.watchdog = setTimeout(() => {
      if (this.ready || this.failed) return;
      if (performance.now() - this.lastSign < stallMs(this.stage)) { this.armWatchdog(); return; }
      // Stuck: end this worker (a late answer must not revive a page that said it failed).
      try { this.worker?.terminate(); } catch (err) { /* gone */ }
      this.fail("timeout", String(Math.round(stallMs(this.stage) / 1000)));
    }, Math.max(0, left));
  }

  fail(kind, message) {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.failed = true;
    this.settle();
    for (const { reject } of this.pending.values()) reject(new Error(message));
    this.pending.clear();
    this.emit("onError", kind, message);
  }

  onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    switch (msg.type) {
      case "progress":
        if (this.failed || this.ready) break; // (a late byte count after a failure says nothing)
        this.lastSign = performance.now(); // bytes arrived or a step began: not stalled
        this.stage = msg.stage;
        this.emit("onProgress", msg.stage, msg.pct, msg.received, msg.total);
        break;
      case "snapshot":
        // "making" (begun: <html data-engine-snapshot-making>), then how it ended.
        try {
          const root = globalThis.document?.documentElement;
          if (msg.state === "making") root?.setAttribute("data-engine-snapshot-making", "");
          else {
            // (how the making went, for tests and the benchmark: its steps and times)
            const { type, state, ...about } = msg;
            root?.setAttribute("data-engine-snapshot-about", JSON.stringify(about));
            root?.setAttribute("data-engine-snapshot", String(state));
          }
        } catch (err) { /* no DOM */ }
        this.emit("onSnapshot", msg);
        break;
      case "ready":
        this.ready = true;
        this.booted = true;
        this.boot = msg.boot || null;
        this.settle();
        try {
          const root = globalThis.document?.documentElement;
          root?.setAttribute("data-engine-boot", String(this.boot));
          const marks = { start: Math.round(this.startedAt), ...msg.marks };
          // The worker's steps are in ms after its script began; `origin` says when that was.
          if (typeof marks.origin === "number") marks.origin = Math.round(marks.origin - performance.timeOrigin);
          root?.setAttribute("data-engine-marks", JSON.stringify(marks));
        } catch (err) { /* no DOM: fine */ }
        if (this.watchdog) clearTimeout(this.watchdog);
        this.watchdog = null;
        this.emit("onReady", msg.ms);
        break;
      case "error":
        if (msg.id !== undefined && this.pending.has(msg.id)) {
          const { reject } = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          reject(new Error(msg.message));
        } else if (this.ready) {
          // A worker error after the boot: report it, keep the session.
          this.emit("onError", "runtime", msg.message || "");
        } else {
          this.fail("error", msg.message || "");
        }
        break;
      case "response": {
        const entry = this.pending.get(msg.id);
        if (!entry) return;
        this.pending.delete(msg.id);
        let response = msg.response;
        if (typeof response === "string") {
          try { response = JSON.parse(response); } catch (err) { entry.reject(err); return; }
        }
        entry.resolve(response);
        break;
      }
      default:
        break;
    }
  }

  /** Sends one request object; resolves with the response object ({ok, ...}). */
  request(request) {
    if (this.failed || !this.worker) return Promise.reject(new Error("engine unavailable"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "request", id, request });
    });
  }
}
