// The authors page's drawing (authors.html): its texts from the catalogue (keys authors.*), and
// the rule sets and their player counts from the build's rules data, as the table's menus have
// them. Only this module draws the texts: authors.js runs it in the browser (and on a language
// switch), and the build runs it under Node (tools/prerender.mjs) to write the texts into
// dist/authors.html in the default language.
//
// The catalogue texts of this page may hold three marks, drawn as elements (never as HTML):
// `code`, **bold** and [a link](relative-href). Code snippets stay code, in the HTML.

import { $, el, fillLanguagePicker, keepTableRoles, translateMeta } from "./dom.js";
import { t } from "./i18n.js";
import { paceMs } from "./prefs.js";
import { choices, useRulesData } from "./rules-data.js";

const MARKS = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([\w./?=#-]+)\)/g;

/** Fills `node` with `text`, its marks drawn as <code>, <b> and <a>. */
function drawRich(node, text) {
  const parts = [];
  let pos = 0;
  for (const m of text.matchAll(MARKS)) {
    if (m.index > pos) parts.push(document.createTextNode(text.slice(pos, m.index)));
    if (m[1] !== undefined) parts.push(el("code", null, m[1]));
    else if (m[2] !== undefined) parts.push(el("b", null, m[2]));
    else {
      const a = el("a", null, m[3]);
      a.href = m[4];
      parts.push(a);
    }
    pos = m.index + m[0].length;
  }
  if (pos < text.length) parts.push(document.createTextNode(text.slice(pos)));
  node.replaceChildren(...parts);
}

// The texts' parameters: {origin}, this site's (set by authors.js; the build leaves it as
// written); {players}, each rule set's player counts ("`samba` 2–4, …"), once the rules data is
// in; {pace}, a computer's pause at the Normal speed (the embedded table's default is the
// reader's speed setting, as on the site).
export const params = { players: "", pace: paceMs({ speed: "normal" }) };

/** Player counts as a reader writes them: a run of three or more as "2–4" (word joiners keep
 *  it on one line: a phone broke "2–" from "6"), else "4, 6". */
function countsText(ns) {
  const run = ns.length > 2 && ns.every((n, i) => i === 0 || n === ns[i - 1] + 1);
  return run ? `${ns[0]}\u2060–\u2060${ns[ns.length - 1]}` : ns.join(", ");
}

/** Takes the rule sets and their player counts from rules data (dist/rules-data.json). */
export function useRules(data) {
  useRulesData(data);
  params.players = choices.rules.map((name) => `\`${name}\` ${countsText(choices.players[name])}`).join(", ");
  $("au-rules").replaceChildren(...choices.rules.flatMap((name, i) => (i ? [", ", el("code", null, name)] : [el("code", null, name)])));
}

/** Draws the page's texts in the current language (i18n.js). */
export function drawText() {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) drawRich(node, t(node.dataset.i18n, params));
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n-label]"))) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  document.title = t("authors.page_title");
  translateMeta();
  const pick = $("lang-select");
  if (pick) fillLanguagePicker(pick);
  for (const table of document.querySelectorAll("table.au-table")) keepTableRoles(table);
}

/** The build's drawing of the page (tools/prerender.mjs): the default language, the data in. */
export function prerender(data) {
  useRules(data);
  drawText();
}
