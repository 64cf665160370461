// The score history chart: one SVG line per side of the running game score after each deal, an
// axis with the target line. Presentation only (a renderer part): numbers in, SVG out.

import { t, num } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Running totals: [[0, 0], [d1a, d1b], [d1a+d2a, ...], ...] from per-deal scores. */
export function cumulative(history, sides) {
  const rows = [new Array(sides).fill(0)];
  for (const deal of history || []) {
    const last = rows[rows.length - 1];
    rows.push(last.map((x, i) => x + (Number(deal[i]) || 0)));
  }
  return rows;
}

/** A "nice" step for about `n` ticks over `span`. */
function niceStep(span, n) {
  const raw = Math.max(1, span / n);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * The chart for `history` (per deal, per side), `target` and `names` (one per side).
 * `mine` is the viewer's side (drawn thicker).
 */
export function scoreChart({ history, target, names, mine = 0 }) {
  const sides = names.length;
  const rows = cumulative(history, sides);
  const W = 560; const H = 260;
  const L = 58; const R = 16; const T = 16; const B = 34;
  const all = rows.flat();
  let lo = Math.min(0, ...all);
  let hi = Math.max(target || 0, ...all);
  const step = niceStep(hi - lo, 5);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi === lo) hi = lo + step;
  const deals = Math.max(1, rows.length - 1);
  const x = (i) => L + (i / deals) * (W - L - R);
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);

  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img" });
  root.append(svg("title", {}, t("chart.title")));
  const grid = svg("g", { class: "chart-grid" });
  for (let v = lo; v <= hi + step / 2; v += step) {
    grid.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "" }));
    grid.append(svg("text", { x: L - 6, y: y(v) + 4, class: "tick-y" }, num(v)));
  }
  const every = Math.ceil(deals / 10);
  for (let i = 0; i <= deals; i += every) {
    grid.append(svg("text", { x: x(i), y: H - B + 16, class: "tick-x" }, num(i)));
  }
  grid.append(svg("text", { x: (L + W - R) / 2, y: H - 4, class: "axis-label" }, t("chart.deals")));
  root.append(grid);
  if (target) {
    const g = svg("g", { class: "chart-target" });
    g.append(svg("line", { x1: L, x2: W - R, y1: y(target), y2: y(target) }));
    g.append(svg("text", { x: W - R - 4, y: y(target) - 5 }, t("chart.target", { n: num(target) })));
    root.append(g);
  }
  for (let s = 0; s < sides; s++) {
    const g = svg("g", { class: `chart-side side-${s}${s === mine ? " mine" : ""}` });
    const pts = rows.map((r, i) => `${x(i).toFixed(1)},${y(r[s]).toFixed(1)}`).join(" ");
    g.append(svg("polyline", { points: pts }));
    rows.forEach((r, i) => {
      const c = svg("circle", { cx: x(i).toFixed(1), cy: y(r[s]).toFixed(1), r: i === rows.length - 1 ? 4.5 : 3 });
      c.append(svg("title", {}, `${names[s]} · ${t("chart.after_deal", { n: i })}: ${num(r[s])}`));
      g.append(c);
    });
    root.append(g);
  }
  return root;
}

/** The legend: one swatch per side with the current total. */
export function chartLegend(names, history) {
  const rows = cumulative(history, names.length);
  const last = rows[rows.length - 1];
  const ul = document.createElement("ul");
  ul.className = "chart-legend";
  names.forEach((n, s) => {
    const li = document.createElement("li");
    li.className = `side-${s}`;
    const sw = document.createElement("span");
    sw.className = "swatch";
    const b = document.createElement("b");
    b.textContent = num(last[s]);
    li.append(sw, ` ${n} `, b);
    ul.append(li);
  });
  return ul;
}
