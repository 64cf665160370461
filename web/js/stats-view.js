// The statistics dialog (a renderer part: DOM only): a table per rule set, player count and
// computer level with the totals, a chart of the last deals' scores, export to a file, import
// from one (a damaged file is refused with the reason, nothing changes), reset after asking.

import { el, $ } from "./dom.js";
import { t, num, has } from "./i18n.js";
import * as S from "./stats.js";
import { rulesName } from "./rules-data.js";

const NS = "http://www.w3.org/2000/svg";
let note = null;   // {make: () => text, kind} shown under the buttons, re-made in a new language

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(id, key, cls = "btn btn-ghost") {
  const b = el("button", cls, t(key));
  b.type = "button";
  b.id = id;
  return b;
}

function build() {
  const d = el("dialog", "dlg dlg-wide");
  d.id = "dlg-stats";
  d.setAttribute("aria-labelledby", "dlg-stats-title");
  const form = el("div", "dlg-form");
  const h = el("h2", null, t("stats.title"));
  h.id = "dlg-stats-title";
  const body = el("div", "dlg-body");
  body.id = "dlg-stats-body";
  const file = el("input");
  file.type = "file";
  file.accept = "application/json,.json";
  file.id = "stats-file";
  file.hidden = true;
  const buttons = el("div", "dlg-buttons stats-buttons");
  buttons.append(button("btn-stats-export", "stats.export"), button("btn-stats-import", "stats.import"),
    button("btn-stats-reset", "stats.reset"), file, button("btn-stats-close", "ui.close", "btn btn-primary"));
  form.append(h, body, buttons);
  d.append(form);
  document.body.append(d);
  $("btn-stats-close").addEventListener("click", () => d.close());
  $("btn-stats-export").addEventListener("click", exportFile);
  $("btn-stats-import").addEventListener("click", () => file.click());
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    file.value = "";
    if (!f) return;
    let text = "";
    try { text = await f.text(); } catch (err) { text = ""; }
    importText(text);
  });
  $("btn-stats-reset").addEventListener("click", () => { confirming = true; draw(); });
  d.addEventListener("close", () => { confirming = false; note = null; });
  return d;
}

let confirming = false;

function exportFile() {
  const blob = new Blob([S.exportText(S.readStats())], { type: "application/json" });
  const a = el("a");
  a.href = URL.createObjectURL(blob);
  a.download = "samba-statistics.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  note = { make: () => t("stats.exported"), kind: "ok" };
  draw();
}

/** Imports a file's text: replaces the statistics only when the whole file is valid. */
export function importText(text) {
  const res = S.parseImport(text);
  if (res.error) {
    const detail = String(res.detail || "").slice(0, 80);
    note = { make: () => t(`stats.import_error.${res.error}`, { detail }), kind: "error" };
  } else {
    S.writeStats(res.stats);
    const n = S.totals(res.stats).deals;
    note = { make: () => t("stats.imported", { n }), kind: "ok" };
  }
  draw();
}

function levelName(level) {
  return has(`level.${level}`) ? t(`level.${level}`) : level;
}

const STATS = ["games", "deals", "average", "best", "streak", "canastas", "sambas"];

function values(b) {
  return {
    games: t("stats.of", { a: num(b.games_won), b: num(b.games) }),
    deals: t("stats.of", { a: num(b.deals_won), b: num(b.deals) }),
    average: b.deals ? num(Math.round(b.points / b.deals)) : "–",
    best: b.best === null ? "–" : num(b.best),
    streak: t("stats.streak_of", { a: num(b.streak), b: num(b.best_streak) }),
    canastas: num(b.canastas),
    sambas: num(b.sambas),
  };
}

/** One column per rule set / player count / computer level, and one for all games. */
function table(stats) {
  const tb = el("table", "summary stats-table");
  tb.id = "stats-table";
  const buckets = Object.values(stats.buckets).sort((a, b) => (a.rules + a.players + a.level).localeCompare(b.rules + b.players + b.level));
  const cols = buckets.map((b) => ({
    key: S.bucketKey(b.rules, b.players, b.level),
    head: [rulesName(b.rules, t, has), t("stats.players", { n: b.players }), levelName(b.level)],
    v: values(b),
  }));
  cols.push({ key: "all", head: [t("stats.all")], v: values(S.totals(stats)) });
  const head = el("tr");
  head.append(el("th", null, ""));
  for (const c of cols) {
    const th = el("th", c.key === "all" ? "all" : "");
    th.dataset.bucket = c.key;
    th.scope = "col";
    c.head.forEach((line, i) => { if (i) th.append(el("br")); th.append(el("span", i ? "stats-sub" : null, line)); });
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const k of STATS) {
    const tr = el("tr");
    const th = el("th", null, t(`stats.col.${k}`));
    th.scope = "row";
    tr.append(th);
    for (const c of cols) {
      const td = el("td", c.key === "all" ? "all" : "", c.v[k]);
      td.dataset.bucket = c.key;
      td.dataset.stat = k;
      tr.append(td);
    }
    tbody.append(tr);
  }
  tb.append(thead, tbody);
  const wrap = el("div", "table-scroll");
  wrap.append(tb);
  return wrap;
}

/** Bars of the last deals' scores (above or below the zero line), won deals in green. */
function chart(stats) {
  const r = stats.recent;
  const W = 640; const H = 180; const L = 52; const B = 20; const T = 10;
  const max = Math.max(100, ...r.map((x) => x.score));
  const min = Math.min(0, ...r.map((x) => x.score));
  const y = (v) => T + (max - v) * (H - T - B) / (max - min || 1);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart stats-chart", role: "img" });
  s.setAttribute("aria-label", t("stats.chart_label", { n: r.length }));
  const grid = svg("g", { class: "chart-grid" });
  for (const v of [max, 0, min].filter((v, i, a) => a.indexOf(v) === i)) {
    grid.append(svg("line", { x1: L, x2: W - 4, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "" }));
    grid.append(svg("text", { x: L - 6, y: y(v) + 4, class: "tick-y" }, num(v)));
  }
  s.append(grid);
  const step = Math.min(32, (W - L - 8) / Math.max(r.length, 1));
  r.forEach((d, i) => {
    const top = Math.min(y(d.score), y(0));
    const h = Math.max(1, Math.abs(y(d.score) - y(0)));
    const w = Math.max(2, Math.min(28, step - 3));
    const bar = svg("rect", { x: L + 4 + i * step + (step - 3 - w) / 2, y: top, width: w, height: h, class: d.won ? "bar won" : "bar" });
    bar.append(svg("title", {}, `${rulesName(d.rules, t, has)}: ${num(d.score)}`));
    s.append(bar);
  });
  return s;
}

export function draw() {
  const d = $("dlg-stats");
  if (!d) return;
  const stats = S.readStats();
  const body = $("dlg-stats-body");
  $("dlg-stats-title").textContent = t("stats.title");
  for (const [id, key] of [["btn-stats-export", "stats.export"], ["btn-stats-import", "stats.import"], ["btn-stats-reset", "stats.reset"], ["btn-stats-close", "ui.close"]]) {
    $(id).textContent = t(key);
  }
  body.replaceChildren();
  const all = S.totals(stats);
  if (!all.deals) body.append(el("p", "stats-empty", t("stats.empty")));
  body.append(table(stats));
  if (stats.recent.length) {
    body.append(el("h3", null, t("stats.chart", { n: stats.recent.length })));
    const wrap = el("div", "chart-wrap");
    wrap.append(chart(stats));
    body.append(wrap);
  }
  if (confirming) {
    const box = el("div", "stats-confirm");
    box.setAttribute("role", "alertdialog");
    box.append(el("p", null, t("stats.reset_confirm")));
    const yes = button("btn-stats-reset-yes", "stats.reset_yes", "btn btn-primary");
    const no = button("btn-stats-reset-no", "stats.reset_no");
    yes.addEventListener("click", () => { S.resetStats(); confirming = false; note = { make: () => t("stats.reset_done"), kind: "ok" }; draw(); });
    no.addEventListener("click", () => { confirming = false; draw(); });
    box.append(yes, no);
    body.append(box);
  }
  if (note) {
    const p = el("p", `stats-note ${note.kind}`, note.make());
    p.id = "stats-note";
    p.setAttribute("role", note.kind === "error" ? "alert" : "status");
    p.dataset.kind = note.kind;
    body.append(p);
  }
}

/** Opens the dialog (built the first time). */
export function open() {
  const d = $("dlg-stats") || build();
  draw();
  if (!d.open) d.showModal();
}

/** A button that opens the statistics (for the new-game and game-over dialogs). */
export function openButton(id) {
  const b = el("button", "btn btn-ghost", t("stats.button"));
  b.type = "button";
  b.id = id;
  b.dataset.i18n = "stats.button";
  b.addEventListener("click", open);
  return b;
}
