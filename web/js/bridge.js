// The page side of the JSON bridge: one module Web Worker, one promise per request id.
// No DOM here: boot events go to the callbacks given to `start`.

const BOOT_TIMEOUT_MS = 60000;

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
    this.restarts += 1;
    this.start(this.events);
  }

  /** Terminates the worker as if it had died (used by the restart test hook). */
  kill() {
    try { this.worker?.terminate(); } catch (err) { /* ignore */ }
    this.fail("dead", "the game engine stopped");
  }

  /**
   * Starts the worker. `events` = {onProgress(stage, pct), onReady(ms), onError(kind, message)}.
   * kind is "error" (the worker reported one), "timeout" (watchdog) or "load" (script failed).
   */
  start(events) {
    this.events = events;
    const url = new URL("../worker.js", import.meta.url);
    try {
      this.worker = new Worker(url, { type: "module" });
    } catch (err) {
      this.fail("load", String(err && err.message || err));
      return;
    }
    this.watchdog = setTimeout(() => {
      if (!this.ready) this.fail("timeout", String(BOOT_TIMEOUT_MS / 1000));
    }, BOOT_TIMEOUT_MS);
    this.worker.addEventListener("message", (ev) => this.onMessage(ev.data));
    this.worker.addEventListener("error", (ev) => {
      ev.preventDefault?.();
      this.fail("load", ev.message || "");
    });
    this.worker.addEventListener("messageerror", () => this.fail("error", "messageerror"));
  }

  fail(kind, message) {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.failed = true;
    for (const { reject } of this.pending.values()) reject(new Error(message));
    this.pending.clear();
    this.events?.onError?.(kind, message);
  }

  onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    switch (msg.type) {
      case "progress":
        this.events?.onProgress?.(msg.stage, msg.pct);
        break;
      case "ready":
        this.ready = true;
        this.booted = true;
        if (this.watchdog) clearTimeout(this.watchdog);
        this.watchdog = null;
        this.events?.onReady?.(msg.ms);
        break;
      case "error":
        if (msg.id !== undefined && this.pending.has(msg.id)) {
          const { reject } = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          reject(new Error(msg.message));
        } else if (this.ready) {
          // A worker error after the boot: report it, keep the session.
          this.events?.onError?.("runtime", msg.message || "");
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
    if (this.failed) return Promise.reject(new Error("engine unavailable"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "request", id, request });
    });
  }
}
