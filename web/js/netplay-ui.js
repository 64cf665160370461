// Play with friends, the page side (docs/netplay.md): what the host's and a friend's pages share,
// the friends' panel and its dialogs, fields and badge, the names kept for the table, the STUN
// setting, the protocol's refusals in the player's language.

import { $, el } from "./dom.js";
import { has, t } from "./i18n.js";
import { thirdParties } from "./netplay-relay.js";

export const BC_NAME = "samba-net";

/** A text of play with friends: the page's catalogue's "net.<key>" (web/i18n/*.json, loaded
 *  before js/netplay.js), its `{name}`s filled from `params`; a seat (`{seat}`) is shown as
 *  players count seats, from 1 (the host's is 1). */
export function nt(key, params = {}) {
  return t(`net.${key}`, params.seat === undefined ? params : { ...params, seat: params.seat + 1 });
}

/** Whether a key exists (for codes from the protocol: "err.<code>", "problem.<code>"). */
export function ntHas(key) {
  return has(`net.${key}`);
}

/**
 * One plain line on who learns what when friends connect (docs/netplay.md, "What each third
 * party sees"): the STUN server learns network addresses, the relays pass encrypted connection
 * data on, a TURN server carries the (encrypted) game when no direct path exists.
 */
export function disclosure(cfg, mode, sameNetworkOnly) {
  const who = thirdParties(cfg);
  const parts = [];
  if (mode === "relay" && who.relays.length) parts.push(nt("say.relays", { relays: who.relays.join(", ") }));
  if (sameNetworkOnly) parts.push(nt("say.local"));
  else {
    if (who.stun.length) parts.push(nt("say.stun", { stun: who.stun.join(", ") }));
    if (who.turn.length) parts.push(nt("say.turn", { turn: who.turn.join(", ") }));
  }
  if (mode === "private" && (sameNetworkOnly || !who.stun.length && !who.turn.length)) parts.push(nt("say.none"));
  return parts.join(" ");
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    if (button) { button.textContent = nt("panel.copied"); setTimeout(() => { button.textContent = nt("panel.copy"); }, 1500); }
  } catch (err) { /* the text stays selectable in its field */ }
}

export function field(labelText, value, cls) {
  const wrap = el("label", `net-field ${cls || ""}`);
  wrap.append(el("span", "net-label", labelText));
  const input = el("input", "net-input");
  input.type = "text";
  input.readOnly = true;
  input.value = value;
  input.addEventListener("focus", () => input.select());
  const btn = el("button", "btn btn-ghost net-copy", nt("panel.copy"));
  btn.type = "button";
  btn.addEventListener("click", () => copy(input.value, btn));
  const row = el("div", "net-row");
  row.append(input, btn);
  wrap.append(row);
  return wrap;
}

/** The friends' dialog `id` (made the first time), emptied.
 *  @returns {HTMLDialogElement} */
export function dialog(id) {
  let d = /** @type {HTMLDialogElement} */ ($(id));
  if (!d) {
    d = /** @type {HTMLDialogElement} */ (el("dialog", "dlg net-dlg"));
    d.id = id;
    document.body.append(d);
  }
  d.replaceChildren();
  return d;
}

export function panel() {
  let p = $("net-panel");
  if (!p) {
    p = el("aside", "net-panel");
    p.id = "net-panel";
    p.setAttribute("aria-label", nt("panel.title"));
    document.body.append(p);
  }
  return p;
}

/** The panel's title bar with its hide button; a "Friends" button in the top bar shows it. */
export function foldHead(p) {
  const head = el("div", "net-head");
  const btn = el("button", "btn btn-ghost net-toggle", nt("panel.hide"));
  btn.type = "button";
  btn.addEventListener("click", () => { p.classList.add("net-folded"); syncFold(p); });
  head.append(el("h2", null, nt("panel.title")), btn);
  topButton(p);
  return head;
}

function topButton(p) {
  let b = /** @type {HTMLButtonElement} */ ($("btn-net-panel"));
  if (b) return b;
  b = /** @type {HTMLButtonElement} */ (el("button", "btn btn-ghost net-top", nt("panel.title")));
  b.type = "button";
  b.id = "btn-net-panel";
  b.setAttribute("aria-controls", "net-panel");
  b.addEventListener("click", () => { p.classList.toggle("net-folded"); syncFold(p); });
  const bar = document.querySelector(".topbar-actions");
  if (bar) bar.prepend(b); else document.body.append(b);
  syncFold(p);
  return b;
}

export function syncFold(p) {
  const b = $("btn-net-panel");
  if (b) b.setAttribute("aria-expanded", p.classList.contains("net-folded") ? "false" : "true");
}

/** A mark on the top bar's Friends button: "ok", "warn", "attention" or "". */
export function badge(kind) {
  const b = $("btn-net-panel");
  if (b) { if (kind) b.dataset.badge = kind; else delete b.dataset.badge; }
}

/**
 * The players' names instead of the renderer's seat names ("Ava", "Ben", …) in what the table
 * shows: seat chips, status, sides, log, deal summary. Text nodes are rewritten once each.
 */
export function keepNames(getNames, getViewer) {
  const done = new WeakMap();
  let busy = false;
  const skip = (node) => node.parentElement && node.parentElement.closest("#net-panel, .net-dlg, script, style, option");
  const apply = () => {
    if (busy) return;
    const names = getNames() || [];
    const viewer = getViewer();
    const map = new Map();
    names.forEach((n, seat) => {
      if (!n || seat === viewer) return;
      const d = seat === 0 && viewer !== 0 ? t("seat.name.0") : t(`seat.${seat}`);
      if (d && d !== n && !d.startsWith("\u27e6")) map.set(d, n);
    });
    if (!map.size) return;
    const esc = [...map.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(${esc.join("|")})(?![\\p{L}\\p{N}])`, "gu");
    busy = true;
    try {
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        const text = node.nodeValue;
        if (!text || done.get(node) === text || skip(node)) continue;
        const out = text.replace(re, (m) => map.get(m));
        if (out !== text) node.nodeValue = out;
        done.set(node, out);
      }
    } finally { busy = false; }
  };
  new MutationObserver(apply).observe(document.body, { childList: true, subtree: true, characterData: true });
  return apply;
}

export function errorOf(res, fallback) {
  const e = (res && res.error) || { code: "internal", message: fallback || "" };
  // The protocol's refusals in the player's language (the engine's reasons are the app's).
  return e.code && ntHas(`err.${e.code}`) ? { ...e, message: nt(`err.${e.code}`) } : e;
}
