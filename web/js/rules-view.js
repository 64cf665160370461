// The rules page's drawing (rules.html): short explanations per section (from the catalogue) and
// a table of how the rule sets differ, built from the rule-set data itself (py_engine/rulesdoc.py,
// dist/rules-data.json), so it cannot disagree with the engine. Only this module draws the page:
// rules-page.js runs it in the browser, and the build runs it under Node (tools/prerender.mjs) to
// write the page's text into dist/rules.html in the default language.

import { el, $, fillLanguagePicker, keepTableRoles, translateMeta } from "./dom.js";
import { has, num, t } from "./i18n.js";
import { rulesName, useRulesData } from "./rules-data.js";

const SECTIONS = ["cards", "deal", "turn", "pile", "melds", "opening", "out", "threes", "score"];
const KEYS = ["tab", "arrows", "enter", "c", "d", "p", "n", "m", "x", "b", "h", "esc", "l", "help"];

function yesNo(v) { return v ? t("help.yes") : t("help.no"); }

/** One rule set's value of one row, in words and local numbers. */
function valueNode(row, value) {
  switch (row.kind) {
    case "bool":
      return el("span", value ? "v-yes" : "v-no", yesNo(value));
    case "int":
      return el("span", "v-num", num(value));
    case "list":
      return el("span", "v-num", value.map((x) => num(x)).join(", "));
    case "pairs": {
      // [[players, cards], ...] -> "2, 3, 4 players: 15" grouped by the number of cards.
      const byCards = new Map();
      for (const [players, cards] of value) {
        if (!byCards.has(cards)) byCards.set(cards, []);
        byCards.get(cards).push(players);
      }
      const ul = el("ul", "v-list");
      for (const [cards, players] of byCards) {
        ul.append(el("li", null, t("help.hand_size", { players: players.map((p) => num(p)).join(", "), cards: num(cards) })));
      }
      return ul;
    }
    case "bands": {
      const ul = el("ul", "v-list");
      for (const [score, minimum] of value) ul.append(el("li", null, t("help.band", { score: num(score), minimum: num(minimum) })));
      return ul;
    }
    default:
      return el("span", null, JSON.stringify(value));
  }
}

function drawTable(data) {
  const table = $("rules-table");
  table.replaceChildren();
  if (!data) return;
  const presets = data.presets.map((p) => p.name);
  const titles = presets.map((name) => rulesName(name, t, has));
  const head = el("tr");
  head.append(el("th", "rp-rule", t("help.rule")));
  for (const title of titles) {
    const th = el("th", null, title);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const row of data.rows) {
    const tr = el("tr", row.differs ? "differs" : "same");
    tr.dataset.field = row.field;
    const th = el("th", "rp-rule", t(row.label));
    th.scope = "row";
    tr.append(th);
    presets.forEach((name, i) => {
      const td = el("td");
      td.dataset.set = titles[i];   // its rule set's name, shown over the value on a phone
      td.append(valueNode(row, row.values[name]));
      tr.append(td);
    });
    tbody.append(tr);
  }
  table.append(thead, tbody);
  keepTableRoles(table);
  table.dataset.rows = String(data.rows.length);
}

function drawSections() {
  const box = $("sections");
  box.replaceChildren();
  const toc = $("toc");
  toc.replaceChildren();
  for (const s of SECTIONS) {
    const sec = el("section", "rp-section");
    sec.id = `rule-${s}`;
    const h = el("h2", null, t(`help.s.${s}.title`));
    h.id = `rule-${s}-title`;
    sec.setAttribute("aria-labelledby", h.id);
    sec.append(h, el("p", null, t(`help.s.${s}.body`)));
    box.append(sec);
  }
  for (const [id, key] of [...SECTIONS.map((s) => [`rule-${s}`, `help.s.${s}.title`]),
    ["differences", "help.table_title"], ["reminder", "help.reminder_title"], ["keyboard", "keys.title"]]) {
    const li = el("li");
    const a = el("a", null, t(key));
    a.href = `#${id}`;
    li.append(a);
    toc.append(li);
  }
  const keys = $("keys");
  keys.replaceChildren();
  for (const k of KEYS) {
    const text = t(`keys.${k}`);
    const li = el("li");
    const cut = text.indexOf(": ");
    if (cut > 0) li.append(el("kbd", null, text.slice(0, cut)), el("span", null, text.slice(cut + 1)));
    else li.textContent = text;
    keys.append(li);
  }
}

function drawStatic() {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) node.textContent = t(node.dataset.i18n);
  translateMeta();
  document.title = `${t("app.title")}: ${t("help.title")}`;
  const pick = $("lang-select");
  fillLanguagePicker(pick);
}

/**
 * Draws the whole page in the current language (i18n.js) from the rules data (`data`; null while
 * it loads): the texts, the sections, the table, and the status line (`statusKey`, else hidden).
 * Without the data, a table already drawn (by the build: <table data-rows>) is kept as it is
 * until the data is in: a language chosen meanwhile changes its words then, and the reader never
 * sees the table give way to a "loading" line.
 */
export function drawAll(data, statusKey, params) {
  if (data) useRulesData(data);   // (the rule sets' titles, for rulesName)
  drawStatic();
  drawSections();
  const drawn = !data && $("rules-table").dataset.rows;
  if (!drawn) drawTable(data);
  const status = $("rules-status");
  if (statusKey) { status.hidden = false; status.textContent = t(statusKey, params); }
  else status.hidden = true;
}

/** The build's drawing of the page (tools/prerender.mjs): the default language, the data in. */
export function prerender(data) {
  drawAll(data, null);
}
