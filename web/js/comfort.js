// Comfort panels (a renderer part: DOM only, no rules): the pile viewer, the score history
// (chart + per-deal table), the deal replay, the player's preferences, and the notice shown in
// the new-game dialog when a saved game could not be resumed. The dialogs are built here so the
// page shell stays small; every string comes from i18n keys (data-i18n on static labels, so a
// language switch that re-applies static text reaches them too).

import { el, $ } from "./dom.js";
import { t, num } from "./i18n.js";
import { scoreChart, chartLegend, cumulative } from "./chart.js";
import { renderReview, miniCard } from "./review.js";
import { SPEEDS } from "./prefs.js";
import { sideName } from "./render.js";
import { dealRows } from "./words.js";

function i18nEl(tag, cls, key) {
  const e = el(tag, cls, t(key));
  e.dataset.i18n = key;
  return e;
}

function btn(id, key, cls = "btn btn-ghost") {
  const b = i18nEl("button", cls, key);
  b.type = "button";
  if (id) b.id = id;
  return b;
}

function dialog(id, titleKey, extraCls = "") {
  const d = el("dialog", `dlg ${extraCls}`.trim());
  d.id = id;
  const form = el("div", "dlg-form");
  const h = i18nEl("h2", null, titleKey);
  h.id = `${id}-title`;
  d.setAttribute("aria-labelledby", h.id);
  const body = el("div", "dlg-body");
  body.id = `${id}-body`;
  const buttons = el("div", "dlg-buttons");
  const close = btn(null, "ui.close", "btn btn-primary");
  close.addEventListener("click", () => d.close());
  buttons.append(close);
  form.append(h, body, buttons);
  d.append(form);
  document.body.append(d);
  return d;
}

let handlers = {};

/**
 * Builds the buttons and dialogs once. `h` = {showPile(), showHistory(), showReview(),
 * reviewStep(i), setPrefs(prefs)}.
 */
export function install(h) {
  handlers = h;
  // Top bar: scores and preferences.
  const bar = document.querySelector(".topbar-actions");
  const bScores = btn("btn-scores", "chart.button");
  const bPrefs = btn("btn-prefs", "prefs.button");
  bScores.addEventListener("click", () => handlers.showHistory());
  bPrefs.addEventListener("click", () => handlers.showPrefs());
  if (bar) bar.prepend(bScores, bPrefs);

  // The pile: its label opens the viewer (a click on the cards still takes/discards);
  // a long press anywhere on the pile opens it too; and a small button for keyboards.
  const pile = $("pile");
  const label = /** @type {HTMLElement | null} */ (pile?.querySelector(".deck-label"));
  if (label) {
    label.classList.add("pile-label-view");
    label.title = t("pile.view");
    label.addEventListener("click", (ev) => { ev.stopPropagation(); handlers.showPile(); });
  }
  if (pile) {
    let timer = null;
    let long = false;
    pile.addEventListener("pointerdown", () => {
      long = false;
      timer = setTimeout(() => { long = true; handlers.showPile(); }, 550);
    });
    const cancel = () => { clearTimeout(timer); timer = null; };
    pile.addEventListener("pointerup", cancel);
    pile.addEventListener("pointerleave", cancel);
    pile.addEventListener("pointercancel", cancel);
    pile.addEventListener("contextmenu", (ev) => { ev.preventDefault(); });
    // Swallow the click that ends a long press.
    pile.addEventListener("click", (ev) => { if (long) { long = false; ev.stopImmediatePropagation(); } }, true);
    const view = btn("btn-pile-view", "pile.view", "btn btn-ghost btn-small pile-view");
    view.hidden = true; // until a game is on the table (render.js)
    view.addEventListener("click", () => handlers.showPile());
    pile.after(view);
  }

  dialog("dlg-pile", "pile.title", "dlg-pile");
  dialog("dlg-history", "chart.title", "dlg-wide");
  const rv = dialog("dlg-review", "review.title", "dlg-wide");
  rv.querySelector(".dlg-body").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-review]");
    if (!b || b.disabled) return;
    const cur = Number(rv.querySelector(".dlg-body").dataset.step || 0);
    const moves = { first: -1e9, prev: -1, next: 1, last: 1e9 };
    handlers.reviewStep(cur + moves[b.dataset.review]);
  });
  rv.querySelector(".dlg-body").addEventListener("input", (ev) => {
    if (ev.target.dataset.review === "slider") handlers.reviewStep(Number(ev.target.value));
  });
  rv.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT") return;
    const cur = Number(rv.querySelector(".dlg-body").dataset.step || 0);
    if (ev.key === "ArrowLeft") { ev.preventDefault(); handlers.reviewStep(cur - 1); }
    if (ev.key === "ArrowRight") { ev.preventDefault(); handlers.reviewStep(cur + 1); }
  });
  buildPrefs();
  $("form-new")?.addEventListener("submit", () => showNotice(null));

  // After a deal: the replay and the scores, from the deal and game-over summaries.
  for (const id of ["dlg-deal", "dlg-over"]) {
    const box = $(id)?.querySelector(".dlg-buttons");
    if (!box) continue;
    const r = btn(null, "review.button");
    r.dataset.comfort = "review";
    r.addEventListener("click", () => handlers.showReview());
    const s = btn(null, "chart.button");
    s.dataset.comfort = "history";
    s.addEventListener("click", () => handlers.showHistory());
    box.prepend(r, s);
  }
  // The way on stays the button a keyboard lands on when a deal ends.
  $("btn-next")?.setAttribute("autofocus", "");
}

function buildPrefs() {
  const d = dialog("dlg-prefs", "prefs.title");
  const body = d.querySelector(".dlg-body");
  const speed = el("fieldset", "field");
  speed.append(i18nEl("legend", null, "prefs.speed"));
  const seg = el("div", "segmented");
  for (const s of SPEEDS) {
    const lab = el("label");
    const inp = el("input");
    inp.type = "radio"; inp.name = "pref-speed"; inp.value = s;
    lab.append(inp, " ", i18nEl("span", null, `prefs.speed.${s}`));
    seg.append(lab);
  }
  speed.append(seg);
  const check = (name, key) => {
    const lab = el("label", "check-row");
    const inp = el("input");
    inp.type = "checkbox"; inp.name = name;
    lab.append(inp, " ", i18nEl("span", null, key));
    return lab;
  };
  body.append(speed, check("pref-skip", "prefs.skip"), check("pref-four", "prefs.four_colour"),
    check("pref-animate", "prefs.animate"), check("pref-warn", "prefs.warn"));
  body.addEventListener("change", () => {
    const val = (n) => /** @type {HTMLInputElement} */ (body.querySelector(`input[name="${n}"]`));
    handlers.setPrefs({
      speed: /** @type {HTMLInputElement | null} */ (body.querySelector('input[name="pref-speed"]:checked'))?.value || "normal",
      skip: val("pref-skip").checked,
      fourColour: val("pref-four").checked,
      animate: val("pref-animate").checked,
      warn: val("pref-warn").checked,
    });
  });
}

/** Shows the preferences (and applies them to the page: the four-colour deck is a body class). */
export function renderPrefs(p, open = false) {
  document.body.classList.toggle("four-colour", !!p.fourColour);
  document.body.dataset.speed = p.skip ? "skip" : p.speed;
  const d = /** @type {HTMLDialogElement} */ ($("dlg-prefs"));
  if (!d) return;
  const input = (sel) => /** @type {HTMLInputElement} */ (d.querySelector(sel));
  for (const r of /** @type {NodeListOf<HTMLInputElement>} */ (d.querySelectorAll('input[name="pref-speed"]'))) r.checked = r.value === p.speed;
  input('input[name="pref-skip"]').checked = !!p.skip;
  input('input[name="pref-four"]').checked = !!p.fourColour;
  input('input[name="pref-animate"]').checked = !!p.animate;
  input('input[name="pref-warn"]').checked = !!p.warn;
  if (open && !d.open) d.showModal();
}

/** The public contents of the discard pile, bottom to top. */
export function renderPile(view, open = true) {
  const d = /** @type {HTMLDialogElement} */ ($("dlg-pile"));
  const body = $("dlg-pile-body");
  body.replaceChildren();
  const cards = (view && view.pile && view.pile.cards) || [];
  const p = el("p", "pile-note", cards.length ? t("pile.count", { n: num(cards.length) }) : t("pile.empty"));
  body.append(p);
  if (cards.length) {
    const list = el("ol", "pile-list");
    list.setAttribute("aria-label", t("pile.title"));
    cards.forEach((c, i) => {
      const li = el("li");
      li.append(miniCard(c.c));
      if (i === cards.length - 1) { li.classList.add("top"); li.append(el("span", "pile-top-tag", t("pile.top"))); }
      list.append(li);
    });
    body.append(list);
    const flags = [];
    if (view.pile.frozen) flags.push(t("ui.frozen"));
    if (view.pile.blocked) flags.push(t("ui.blocked"));
    if (flags.length) body.append(el("p", "pile-note", flags.join(" · ")));
  }
  if (open && !d.open) d.showModal();
}

/** The score history: chart, one row per deal (deal score and running total), last breakdown. */
export function renderHistory(view, open = true) {
  const d = /** @type {HTMLDialogElement} */ ($("dlg-history"));
  const body = $("dlg-history-body");
  body.replaceChildren();
  if (!view) { body.append(el("p", null, t("status.no_game"))); if (open && !d.open) d.showModal(); return; }
  const names = view.sides.map((_, s) => sideName(view, s));
  const history = view.history || [];
  const wrap = el("div", "chart-wrap");
  wrap.append(scoreChart({ history, target: view.target, names, mine: view.my_side }));
  body.append(wrap, chartLegend(names, history));
  if (!history.length) body.append(el("p", "pile-note", t("chart.none")));
  else {
    const tbl = el("table", "summary history-table");
    const head = el("tr");
    head.append(el("th", null, t("chart.deal")));
    names.forEach((n, s) => head.append(el("th", s === view.my_side ? "mine" : "", n)));
    const thead = el("thead"); thead.append(head);
    const tbody = el("tbody");
    const run = cumulative(history, names.length);
    history.forEach((row, i) => {
      const tr = el("tr");
      tr.append(el("th", null, num(i + 1)));
      row.forEach((x, s) => {
        const td = el("td");
        td.append(el("span", "deal-pts", (x > 0 ? "+" : "") + num(x)), el("span", "run-pts", num(run[i + 1][s])));
        tr.append(td);
      });
      tbody.append(tr);
    });
    tbl.append(thead, tbody);
    const sc = el("div", "table-scroll"); sc.append(tbl);
    body.append(i18nEl("h3", null, "chart.per_deal"), sc);
  }
  const dr = view.deal_result;
  const per = dr && (Array.isArray(dr) ? dr : dr.sides);
  if (per && per.length) {
    body.append(el("h3", null, t("chart.breakdown", { n: num(history.length || view.deal) })));
    const tbl = el("table", "summary");
    const head = el("tr");
    head.append(el("th", null, t("deal.side")));
    names.forEach((n, s) => head.append(el("th", s === view.my_side ? "mine" : "", n)));
    const thead = el("thead"); thead.append(head);
    const tbody = el("tbody");
    for (const [key, field] of dealRows(view)) {
      const tr = el("tr", field === "total" ? "total" : "");
      tr.append(el("th", null, t(key)));
      per.forEach((r) => tr.append(el("td", null, num(r[field] || 0))));
      tbody.append(tr);
    }
    tbl.append(thead, tbody);
    const sc = el("div", "table-scroll"); sc.append(tbl);
    body.append(sc);
  }
  if (open && !d.open) d.showModal();
}

/** The deal replay at step `i` (`review` from the bridge's deal_review). */
export function renderReviewDialog(review, view, i, open = true) {
  const d = /** @type {HTMLDialogElement} */ ($("dlg-review"));
  const title = $("dlg-review-title");
  title.textContent = t("review.title_n", { n: num(review.deal) });
  renderReview($("dlg-review-body"), review, view, i);
  if (open && !d.open) d.showModal();
}

/** A plain-words notice at the top of the new-game dialog (null clears it). */
export function showNotice(text) {
  const form = $("form-new");
  if (!form) return;
  let box = $("save-notice");
  if (!text) { box?.remove(); return; }
  if (!box) {
    box = el("p", "save-notice");
    box.id = "save-notice";
    box.setAttribute("role", "alert");
    const h = form.querySelector("h2");
    if (h) h.after(box); else form.prepend(box);
  }
  box.textContent = text;
}

/**
 * A share link's game while a game is in progress: asks first. `link` and `mine` are the two
 * games in words; `dropped`, the game left earlier for a link's game, which the link's game
 * would replace as the kept one (one is kept). Resolves "link" (play the link's game; the game in progress is kept) or
 * "mine" (back to the game in progress; the link is dropped). Escape means "mine".
 */
export function askShared(link, mine, dropped = null) {
  let d = /** @type {HTMLDialogElement} */ ($("dlg-share-ask"));
  if (!d) {
    d = /** @type {HTMLDialogElement} */ (el("dialog", "dlg"));
    d.id = "dlg-share-ask";
    const form = el("div", "dlg-form");
    const h = i18nEl("h2", null, "share.ask.title");
    h.id = "dlg-share-ask-title";
    d.setAttribute("aria-labelledby", h.id);
    const body = el("p", "dlg-body");
    body.id = "share-ask-body";
    const buttons = el("div", "dlg-buttons");
    const mineBtn = btn("btn-share-mine", "share.ask.mine");
    const linkBtn = btn("btn-share-link", "share.ask.link", "btn btn-primary");
    buttons.append(mineBtn, linkBtn);
    form.append(h, body, buttons);
    d.append(form);
    document.body.append(d);
  }
  $("share-ask-body").textContent = t("share.ask.body", { link, mine })
    + (dropped ? ` ${t("share.ask.drops_left", { game: dropped })}` : "");
  return new Promise((resolve) => {
    const done = (choice) => {
      d.removeEventListener("cancel", onCancel);
      if (d.open) d.close();
      resolve(choice);
    };
    const onCancel = (ev) => { ev.preventDefault(); done("mine"); };
    d.addEventListener("cancel", onCancel);
    $("btn-share-mine").onclick = () => done("mine");
    $("btn-share-link").onclick = () => done("link");
    d.showModal();
  });
}

/** A short status for the engine restart (shown in the boot line). */
export function engineState(state) {
  if (state) document.body.dataset.engine = state; else delete document.body.dataset.engine;
}

/** Marks the version last saved (tests and curious players can see it on <body>). */
export function markSaved(version) {
  document.body.dataset.saved = String(version);
}
