// The frame's side of the postMessage API (docs/embedding.md). No DOM here.
//
// Every message is {type: "samba:v1:<name>", data: {...}}.
//   frame -> host: ready, move, deal_end, error
//   host -> frame: new_game, load_scenario
// The frame accepts commands only from its parent window and only from an allowed origin
// (the `origins=` URL parameter, comma-separated; default: the site's own origin), and posts
// events to the allowed origins only.

export const PROTOCOL = "samba:v1:";
export const EVENTS = ["ready", "move", "deal_end", "error"];
export const COMMANDS = ["new_game", "load_scenario"];

/**
 * Reads an `origins=` parameter: a list of origins ("https://rules.example", ...).
 * Returns {origins: [...]} or {error: the bad entry}.
 */
export function parseOrigins(text, own) {
  if (text === null || text === undefined || String(text).trim() === "") return { origins: [own] };
  const out = [];
  for (const raw of String(text).split(",")) {
    const item = raw.trim();
    if (!item) continue;
    let url;
    try { url = new URL(item); } catch (err) { return { error: item }; }
    if (!/^https?:$/.test(url.protocol) || url.origin === "null") return { error: item };
    // An origin only: no path, query or fragment beyond "/".
    if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username) return { error: item };
    if (!out.includes(url.origin)) out.push(url.origin);
  }
  return out.length ? { origins: out } : { error: String(text) };
}

export class HostChannel {
  /** `origins`: the allow-list; `onCommand(name, data)` handles accepted commands. */
  constructor(origins, onCommand) {
    this.origins = origins;
    this.onCommand = onCommand;
    this.framed = window.parent !== window;
    this.listener = (ev) => this.receive(ev);
    window.addEventListener("message", this.listener);
  }

  /** The origins to post to: the parent's own origin when the browser tells it. */
  targets() {
    const anc = window.location.ancestorOrigins;
    if (anc && anc.length) return this.origins.includes(anc[0]) ? [anc[0]] : [];
    return this.origins;
  }

  post(name, data = {}) {
    if (!this.framed) return;
    const msg = { type: PROTOCOL + name, data };
    for (const origin of this.targets()) {
      try { window.parent.postMessage(msg, origin); } catch (err) { /* a detached parent */ }
    }
  }

  receive(ev) {
    if (!this.framed || ev.source !== window.parent) return;
    if (!this.origins.includes(ev.origin)) return;
    const msg = ev.data;
    if (!msg || typeof msg !== "object" || typeof msg.type !== "string" || !msg.type.startsWith(PROTOCOL)) return;
    const name = msg.type.slice(PROTOCOL.length);
    if (!COMMANDS.includes(name)) {
      this.post("error", { code: "unknown_command", message: `unknown command ${msg.type}` });
      return;
    }
    this.onCommand(name, msg.data && typeof msg.data === "object" ? msg.data : {});
  }
}
