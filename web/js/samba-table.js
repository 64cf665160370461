// <samba-table>: one tag that embeds a live Samba table in any page.
//
//   <script type="module" src="https://cards.example/samba/js/samba-table.js"></script>
//   <samba-table src="https://cards.example/samba/" rules="samba" players="2" seed="7"
//                levels="easy" scenario="lessons/05-take-the-pile.json"></samba-table>
//
// Attributes: src (the site's base URL; default: the folder this script came from), rules,
// players, target, seed, lang, levels ("easy" or "easy,medium,hard"), scenario (inline JSON, or
// a path on the site), pace (ms between computer moves), title (the frame's accessible name).
// Events (DOM CustomEvents, bubbling, detail = the message's data): samba-ready, samba-move,
// samba-deal-end, samba-error. Methods: newGame({rules, players, ...}), loadScenario(object).
// Messages are checked: only from this element's frame (event.source) and the site's origin.

const PREFIX = "samba:v1:";
const EVENT_NAMES = { ready: "samba-ready", move: "samba-move", deal_end: "samba-deal-end", error: "samba-error" };
const PASSED = ["rules", "players", "target", "seed", "lang", "levels", "pace"];
const SCRIPT_BASE = new URL("../", import.meta.url).href;

function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export class SambaTable extends HTMLElement {
  static get observedAttributes() { return ["src", "scenario", ...PASSED]; }

  constructor() {
    super();
    this.frame = null;
    this.siteOrigin = null;
    this.onMessage = (ev) => this.receive(ev);
  }

  connectedCallback() {
    window.addEventListener("message", this.onMessage);
    this.build();
  }

  disconnectedCallback() {
    window.removeEventListener("message", this.onMessage);
  }

  attributeChangedCallback() {
    if (this.frame) this.build();
  }

  /** The frame's URL from the attributes. */
  frameUrl() {
    const site = new URL(this.getAttribute("src") || SCRIPT_BASE, document.baseURI);
    if (!site.pathname.endsWith("/")) site.pathname += "/";
    const url = new URL("embed.html", site);
    const q = url.searchParams;
    for (const name of PASSED) if (this.hasAttribute(name)) q.set(name, this.getAttribute(name));
    const scenario = (this.getAttribute("scenario") || "").trim();
    if (scenario.startsWith("{")) q.set("scenario", base64url(scenario));
    else if (scenario) q.set("scenario_url", scenario);
    q.set("origins", location.origin);
    return url;
  }

  build() {
    const url = this.frameUrl();
    this.siteOrigin = url.origin;
    if (!this.frame) {
      this.frame = document.createElement("iframe");
      this.frame.setAttribute("allow", "clipboard-write");
      this.frame.style.border = "0";
      this.frame.style.width = "100%";
      this.frame.style.height = "100%";
      this.frame.style.display = "block";
      if (!this.style.display) this.style.display = "block";
      this.append(this.frame);
    }
    this.frame.title = this.getAttribute("title") || "Samba card table";
    if (this.frame.src !== url.href) this.frame.src = url.href;
  }

  receive(ev) {
    if (!this.frame || ev.source !== this.frame.contentWindow || ev.origin !== this.siteOrigin) return;
    const msg = ev.data;
    if (!msg || typeof msg !== "object" || typeof msg.type !== "string" || !msg.type.startsWith(PREFIX)) return;
    const name = EVENT_NAMES[msg.type.slice(PREFIX.length)];
    if (!name) return;
    this.dispatchEvent(new CustomEvent(name, { detail: msg.data || {}, bubbles: true, composed: true }));
  }

  send(name, data) {
    if (!this.frame || !this.frame.contentWindow) return;
    this.frame.contentWindow.postMessage({ type: PREFIX + name, data }, this.siteOrigin);
  }

  /** Starts a new game in the frame: {rules, players, target, seed, levels}. */
  newGame(options = {}) { this.send("new_game", options); }

  /** Sets up a position (the scenario format of docs/formats.md): {scenario, levels}. */
  loadScenario(scenario, options = {}) { this.send("load_scenario", { ...options, scenario }); }
}

if (!customElements.get("samba-table")) customElements.define("samba-table", SambaTable);
