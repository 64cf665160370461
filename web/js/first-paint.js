// The first frame of a returning visit: the saved table and the player's language, before any
// other module has loaded. index.html loads this module first, with `blocking="render"`
// (Chromium paints nothing until it has run; a browser that ignores the attribute runs it a
// moment later). It imports nothing, so it costs one small request.
//
// What it draws is a copy of the page's own drawing: while the game is played, the parts of the
// table that render.js redraws from each view (hand, melds, pile, seats, scores, actions,
// status) are copied into localStorage (`samba.paint.v1`) as a tree of tags, a few attributes
// and texts, together with the texts of the page's language; the copy is taken a moment after
// each save and when the page is hidden. It is tied to the saved game it shows (a hash of the
// save as stored, and the view's version), so a save changed since (another tab, a new game)
// is never shown with an old table.
//
// The copy is read back as untrusted data: only known tags, known attributes and plain text
// are rebuilt (createElement/textContent, never innerHTML), within size limits; anything else
// and the whole copy is ignored (nothing drawn, nothing changed, no error). The drawn table is
// inert until app.js has drawn it again from the saved view (boot-view.js `adoptFirstPaint`),
// so no click is lost in a table without listeners; if the page does not take it over by the
// time the engine is ready (a save the engine refused, say), the original shell comes back.
//
// A first visit (no copy yet) gets the shell's texts in the player's language all the same:
// the build puts the texts of the shell (its data-i18n keys and the progress line) of every
// language into index.html as a JSON data block (#boot-texts), copied from the catalogues.
//
// The build also inlines this file into index.html (an inline module with the same source), so
// the first frame needs no request; boot-view.js imports the file itself for adopt/undo. The
// two instances share their state through one global (window.__sambaFirstPaint): only the
// first one to run draws and watches.
//
// It also starts the engine's worker as soon as the first frame is on screen (Python begins
// restoring then, not when the page's module graph has loaded, nor while the first frame is
// still being drawn): bridge.js takes the worker over, with the messages it sent meanwhile
// (takeEarlyWorker).
//
// <html data-first-paint="table|text|none|adopted|undone"> says what happened (tests, bench).

const PAINT_KEY = "samba.paint.v1";
const SAVE_KEY = "samba.save.v1";   // save.js SAVE_KEY (not imported: no second request)
const SAVE_FORMAT = "samba-save/1"; // save.js FORMAT
const LANG_KEY = "samba.lang";      // i18n.js LANG_KEY
const FORMAT = "samba-paint/1";

// Elements render.js redraws completely from a view (children, and these attributes).
const PARTS = ["scoreboard", "seats", "their-melds", "my-melds", "stock-count", "pile-top",
  "pile-flags", "pile-count", "hand", "suggest", "actions", "status", "opening", "reminder"];
const PART_ATTRS = { stock: ["class", "data-legal"], pile: ["data-legal"], hand: ["class", "data-size"] };
const TAGS = new Set(["div", "span", "b", "i", "em", "strong", "small", "button", "p", "ul", "ol", "li", "kbd", "abbr"]);
const ATTR = /^(class|title|role|hidden|disabled|type|aria-(label|pressed|hidden|disabled|describedby)|data-[a-z][a-z0-9-]{0,30})$/;
const STYLE_VAR = /^--[a-z][a-z0-9-]{0,20}$/;
const STYLE_VALUE = /^-?\d{1,4}(\.\d{1,4})?$/;
const MAX_NODES = 6000;
const MAX_DEPTH = 16;
const MAX_TEXT = 4000;
const MAX_STORED = 400_000;

// undoList: [[element, children, {attr: value|null}]] while the copy is shown;
// i18n: the page's i18n module, once app.js has loaded it.
const G = (window.__sambaFirstPaint = window.__sambaFirstPaint
  || { started: false, undoList: null, i18n: null, captureTimer: null });

function store() {
  try { return window.localStorage; } catch (err) { return null; }
}

/** Whether this page is the plain table (the only mode that resumes the saved game). */
function plainTable() {
  const p = new URLSearchParams(location.search);
  return !["embed", "lesson", "net", "rules"].some((k) => p.has(k));
}

/** Which language the page will pick (the inputs of i18n.js pickLanguage). */
function languageInputs() {
  let saved = null;
  try { saved = localStorage.getItem(LANG_KEY); } catch (err) { /* none */ }
  let nav = "";
  try { nav = (navigator.languages || [navigator.language]).join(","); } catch (err) { /* none */ }
  return JSON.stringify([new URLSearchParams(location.search).get("lang"), saved, nav]);
}

/** FNV-1a over the UTF-16 code units, with the length: ties a copy to one save. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length}:${h.toString(16)}`;
}

function savedGame(s) {
  let raw = null;
  try { raw = s.getItem(SAVE_KEY); } catch (err) { return null; }
  if (!raw) return null;
  try {
    const data = JSON.parse(raw);
    // The shape save.js readSave accepts (a save it would set aside draws nothing here).
    const rec = data && data.format === SAVE_FORMAT ? data.record : null;
    if (!rec || typeof rec !== "object" || !Array.isArray(rec.moves) || typeof rec.format !== "string"
        || typeof rec.check !== "string") return null;
    const v = data.view;
    if (!v || typeof v !== "object" || !Number.isInteger(v.version)) return null;
    // Never a game with several people on this device: their hands wait for the privacy screen.
    if (!Array.isArray(v.seats) || v.seats.filter((x) => x === "human").length !== 1) return null;
    return { raw, version: v.version };
  } catch (err) {
    return null;
  }
}

// ---------------------------------------------------------------- copying the drawn table

function copyNode(node, budget, depth) {
  if (node.nodeType === 3) return node.data.slice(0, MAX_TEXT);
  if (node.nodeType !== 1 || depth > MAX_DEPTH || --budget.n < 0) return null;
  const tag = node.localName;
  if (!TAGS.has(tag)) return null;
  const attrs = {};
  for (const a of node.attributes) {
    if (ATTR.test(a.name)) attrs[a.name] = a.value.slice(0, MAX_TEXT);
  }
  const vars = {};
  for (const name of node.style) {
    const value = node.style.getPropertyValue(name).trim();
    if (STYLE_VAR.test(name) && STYLE_VALUE.test(value)) vars[name] = value;
  }
  const kids = [];
  for (const child of node.childNodes) {
    const c = copyNode(child, budget, depth + 1);
    if (c !== null) kids.push(c);
  }
  return [tag, attrs, vars, kids];
}

function copyPart(el, budget) {
  const attrs = {};
  for (const name of PART_ATTRS[el.id] || []) {
    if (el.hasAttribute(name)) attrs[name] = el.getAttribute(name);
  }
  const kids = [];
  if (PARTS.includes(el.id)) {
    for (const child of el.childNodes) {
      const c = copyNode(child, budget, 1);
      if (c !== null) kids.push(c);
    }
  }
  return { attrs, kids };
}

/** The language's texts for the shell ([data-i18n] keys) and the progress line. */
function copyTexts() {
  const i18n = G.i18n;
  if (!i18n || typeof i18n.t !== "function" || typeof i18n.has !== "function") return null;
  const texts = {};
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n], [data-i18n-aria]"))) {
    for (const key of [node.dataset.i18n, node.dataset.i18nAria]) {
      if (key && i18n.has(key)) texts[key] = String(i18n.t(key));
    }
  }
  const boot = i18n.has("boot.shuffling") ? String(i18n.t("boot.shuffling", { pct: 0 })) : null;
  // The language picker's options (filled by dom.js), so that it is not an empty box.
  const pick = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang-select"));
  const picker = pick ? [...pick.options].map((o) => [o.value, o.textContent]) : [];
  return { lang: i18n.language(), inputs: languageInputs(), title: document.title, boot, texts, picker };
}

/** Copies the drawn table (and the language's texts) into localStorage, when it shows the save. */
export function capture() {
  const s = store();
  if (!s || !plainTable()) return false;
  const out = { format: FORMAT, language: copyTexts(), table: null };
  const body = document.body;
  const saved = savedGame(s);
  if (saved && body && body.dataset.ready === "1" && body.dataset.privacy !== "1"
      && !G.undoList && body.dataset.version === String(saved.version)) {
    const budget = { n: MAX_NODES };
    const parts = {};
    for (const id of [...PARTS, ...Object.keys(PART_ATTRS)]) {
      const el = document.getElementById(id);
      if (el) parts[id] = copyPart(el, budget);
    }
    if (budget.n >= 0 && parts.hand) out.table = { save: hash(saved.raw), version: saved.version, parts };
  }
  // What cannot be copied now (the copy still on screen, the language file not read yet) is
  // kept from the last copy while it still fits: the same save, the same language choice.
  let last = null;
  try { last = JSON.parse(s.getItem(PAINT_KEY) || "null"); } catch (err) { /* replaced */ }
  if (last && typeof last === "object" && last.format === FORMAT) {
    if (!out.table && saved && last.table && last.table.save === hash(saved.raw)) out.table = last.table;
    if (!out.language && last.language && last.language.inputs === languageInputs()) out.language = last.language;
  }
  if (!out.language && !out.table) return false;
  try {
    const text = JSON.stringify(out);
    if (text.length > MAX_STORED) { s.removeItem(PAINT_KEY); return false; }
    s.setItem(PAINT_KEY, text);
    return true;
  } catch (err) {
    return false; // quota: the next visit draws the table a moment later, as before
  }
}

function scheduleCapture() {
  clearTimeout(G.captureTimer);
  // After the save, the page draws the view it saved: copy a moment later (the next save or
  // the page being hidden copies again anyway).
  G.captureTimer = setTimeout(capture, 150);
}

// ---------------------------------------------------------------- drawing the copy

/** Rebuilds one stored node, or throws: anything unexpected rejects the whole copy. */
function buildNode(x, budget, depth) {
  if (typeof x === "string") {
    if (x.length > MAX_TEXT) throw new Error("text");
    return document.createTextNode(x);
  }
  if (!Array.isArray(x) || x.length !== 4 || depth > MAX_DEPTH || --budget.n < 0) throw new Error("node");
  const [tag, attrs, vars, kids] = x;
  if (typeof tag !== "string" || !TAGS.has(tag)) throw new Error("tag");
  if (!attrs || typeof attrs !== "object" || !vars || typeof vars !== "object" || !Array.isArray(kids)) throw new Error("shape");
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (!ATTR.test(name) || typeof value !== "string" || value.length > MAX_TEXT) throw new Error("attr");
    el.setAttribute(name, value);
  }
  for (const [name, value] of Object.entries(vars)) {
    if (!STYLE_VAR.test(name) || typeof value !== "string" || !STYLE_VALUE.test(value)) throw new Error("style");
    el.style.setProperty(name, value);
  }
  for (const k of kids) el.append(buildNode(k, budget, depth + 1));
  return el;
}

function buildParts(parts) {
  if (!parts || typeof parts !== "object" || !parts.hand) throw new Error("parts");
  const budget = { n: MAX_NODES };
  const out = [];
  for (const [id, part] of Object.entries(parts)) {
    const allowed = PART_ATTRS[id] || [];
    if (!PARTS.includes(id) && !allowed.length) throw new Error("part");
    const el = document.getElementById(id);
    if (!el || !part || typeof part !== "object" || !Array.isArray(part.kids)) throw new Error("part");
    const attrs = part.attrs && typeof part.attrs === "object" ? part.attrs : {};
    for (const [name, value] of Object.entries(attrs)) {
      if (!allowed.includes(name) || typeof value !== "string" || value.length > 200) throw new Error("part attr");
    }
    const frag = document.createDocumentFragment();
    for (const k of part.kids) frag.append(buildNode(k, budget, 1));
    out.push([el, frag, attrs, PARTS.includes(id)]);
  }
  return out;
}

function applyTexts(lang) {
  if (!lang || typeof lang !== "object" || lang.inputs !== languageInputs()) return false;
  const texts = lang.texts && typeof lang.texts === "object" ? lang.texts : {};
  const text = (key) => (typeof texts[key] === "string" && texts[key].length <= MAX_TEXT ? texts[key] : null);
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) {
    const s = text(node.dataset.i18n);
    if (s !== null) node.textContent = s;
  }
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n-aria]"))) {
    const s = text(node.dataset.i18nAria);
    if (s !== null) node.setAttribute("aria-label", s);
  }
  if (typeof lang.title === "string" && lang.title.length <= 200) document.title = lang.title;
  if (typeof lang.lang === "string" && /^[a-z]{2,3}$/.test(lang.lang)) document.documentElement.lang = lang.lang;
  const boot = document.getElementById("boot-status");
  if (boot && typeof lang.boot === "string" && lang.boot.length <= 200) boot.textContent = lang.boot;
  const pick = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang-select"));
  const items = Array.isArray(lang.picker) ? lang.picker : [];
  if (pick && !pick.options.length && items.length <= 12 && items.every((x) => Array.isArray(x)
      && /^[a-z]{2,3}$/.test(x[0]) && typeof x[1] === "string" && x[1].length <= 100)) {
    for (const [code, label] of items) {
      const o = document.createElement("option");
      o.value = code;
      o.lang = code;
      o.textContent = label;
      o.selected = code === lang.lang;
      pick.append(o);
    }
  }
  return true;
}

/** i18n.js pickLanguage among `langs`: ?lang=, the saved choice, the browser's languages. */
function pickLanguage(langs) {
  let wanted = [];
  try {
    const q = new URLSearchParams(location.search).get("lang");
    if (q && langs.includes(q)) return q;
    const saved = localStorage.getItem(LANG_KEY);
    if (saved && langs.includes(saved)) return saved;
  } catch (err) { /* no storage */ }
  try {
    wanted = Array.isArray(navigator.languages) && navigator.languages.length ? navigator.languages
      : navigator.language ? [navigator.language] : [];
  } catch (err) { /* none */ }
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    const code = base === "no" || base === "nn" || base === "nb" ? "nb" : base;
    if (langs.includes(code)) return code;
  }
  return "en";
}

/** The shell's texts in the player's language, from the build's #boot-texts (first visits). */
function applyBootTexts() {
  const block = document.getElementById("boot-texts");
  if (!block) return false;
  const all = JSON.parse(block.textContent);
  if (!all || typeof all !== "object") return false;
  const lang = pickLanguage(Object.keys(all));
  const texts = all[lang];
  if (!texts || typeof texts !== "object") return false;
  const boot = typeof texts["boot.shuffling"] === "string" ? texts["boot.shuffling"].replace("{pct}", "0") : null;
  const title = typeof texts["app.title"] === "string" ? texts["app.title"] : null;
  // The language picker: every language, named in this one (dom.js fillLanguagePicker).
  const picker = Object.keys(all).map((code) => [code, texts[`lang.${code}`]]);
  return applyTexts({ inputs: languageInputs(), lang, texts, boot, title, picker });
}

function applyTable(table, s) {
  if (!table || typeof table !== "object") return false;
  const saved = savedGame(s);
  if (!saved || table.save !== hash(saved.raw) || table.version !== saved.version) return false;
  let built;
  try { built = buildParts(table.parts); } catch (err) { return false; }
  G.undoList = [];
  for (const [el, frag, attrs, children] of built) {
    const before = {};
    for (const name of PART_ATTRS[el.id] || []) before[name] = el.getAttribute(name);
    G.undoList.push([el, children ? [...el.childNodes] : null, before]);
    for (const name of PART_ATTRS[el.id] || []) {
      if (name in attrs) el.setAttribute(name, attrs[name]); else el.removeAttribute(name);
    }
    if (children) el.replaceChildren(frag);
  }
  const table0 = document.getElementById("table");
  if (table0) table0.inert = true;
  return true;
}

/** Draws the stored copy, if it matches this page and its saved game. */
function firstPaint() {
  const root = document.documentElement;
  root.dataset.firstPaint = "none";
  const s = store();
  const shell = () => { try { applyBootTexts(); } catch (err) { /* the shell's own texts stay */ } };
  if (!s || !plainTable() || !document.getElementById("hand")) { shell(); return; }
  let data = null;
  try { data = JSON.parse(s.getItem(PAINT_KEY) || "null"); } catch (err) { shell(); return; }
  if (!data || typeof data !== "object" || data.format !== FORMAT) { shell(); return; }
  let texts = false;
  try { texts = applyTexts(data.language); } catch (err) { /* the shell's own texts stay */ }
  if (!texts) shell();
  let table = false;
  try { table = applyTable(data.table, s); } catch (err) { undo(); }
  root.dataset.firstPaint = table ? "table" : texts ? "text" : "none";
}

/** Puts the shell back as it was before the copy was drawn. */
export function undo() {
  if (!G.undoList) return;
  for (const [el, kids, attrs] of G.undoList) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null) el.removeAttribute(name); else el.setAttribute(name, value);
    }
    if (kids) el.replaceChildren(...kids);
  }
  G.undoList = null;
  const table = document.getElementById("table");
  if (table) table.inert = false;
  document.documentElement.dataset.firstPaint = "undone";
}

/** The page drew the table itself (over the copy): the table is live. */
export function adopt() {
  if (!G.undoList) return;
  G.undoList = null;
  const table = document.getElementById("table");
  if (table) table.inert = false;
  document.documentElement.dataset.firstPaint = "adopted";
}

/** Whether the copy is on screen (drawn and not yet taken over). */
export function showing() {
  return G.undoList !== null;
}

function watch() {
  if (!plainTable() || !document.body) return;
  new MutationObserver(() => {
    const b = document.body;
    // The engine is ready and the page never drew over the copy: the shell comes back.
    if (G.undoList && b.dataset.ready === "1" && b.dataset.save !== "drawn") undo();
    if (b.dataset.saved) scheduleCapture();
  }).observe(document.body, { attributes: true, attributeFilter: ["data-saved", "data-ready", "data-save"] });
  const hidden = () => { if (document.visibilityState === "hidden") capture(); };
  document.addEventListener("visibilitychange", hidden);
  addEventListener("pagehide", () => capture());
  // The language's texts come from the page's i18n module (already loaded by app.js then).
  addEventListener("load", () => {
    // By the document's URL: the same module app.js imports, from the inline copy as well.
    import(new URL("js/i18n.js", document.baseURI).href).then((m) => { G.i18n = m; }, () => {});
  }, { once: true });
}

/**
 * Starts the engine's worker once the first frame is on screen (started before, its start
 * competed with the first frame's drawing: the frame is committed at its animation frame but
 * rastered and shown only later); its events are kept until bridge.js takes it over. If
 * bridge.js asked first (`claimed`), it made its own and nothing is started here.
 */
function startEngine() {
  if (typeof Worker !== "function" || !document.getElementById("hand")) return;
  requestAnimationFrame(() => { afterFirstPaint(() => setTimeout(spawnEngine, 0)); });
}

/** Calls `fn` once the page's first paint has been shown (its paint timing entry), or at the
 * latest FIRST_PAINT_WAIT_MS after the first frame began (a browser without paint timing). */
const FIRST_PAINT_WAIT_MS = 1000;
function afterFirstPaint(fn) {
  let done = false;
  let observer = null;
  const go = () => {
    if (done) return;
    done = true;
    if (observer) observer.disconnect();
    fn();
  };
  setTimeout(go, FIRST_PAINT_WAIT_MS);
  try {
    if (performance.getEntriesByType("paint").length) { go(); return; }
    observer = new PerformanceObserver(go);
    observer.observe({ type: "paint" });
  } catch (err) {
    /* no paint timing: the bound */
  }
}

function spawnEngine() {
  if (G.claimed) return;
  let worker;
  try {
    worker = new Worker(new URL("worker.js", document.baseURI), { type: "module" });
  } catch (err) {
    return; // bridge.js creates its own (and reports the error)
  }
  const early = { worker, at: performance.now(), events: [] };
  const keep = (ev) => {
    if (ev.type === "error") ev.preventDefault();  // reported by bridge.js, as its own
    early.events.push(ev);
  };
  for (const type of ["message", "error", "messageerror"]) worker.addEventListener(type, keep);
  early.release = () => {
    for (const type of ["message", "error", "messageerror"]) worker.removeEventListener(type, keep);
  };
  G.engine = early;
}

if (!G.started) {
  G.started = true;
  // The embedded table (session.js MODE "embed") has its own layout (css/embed.css, inlined):
  // from the first frame, so that nothing moves when embed-view.js sets the class again.
  if (new URLSearchParams(location.search).has("embed")) document.body.classList.add("embed");
  firstPaint();
  watch();
  startEngine();
}
