// authors.html: the page's texts from the catalogue (keys authors.*, switchable with the
// language menu), snippets filled in with this site's own address, copy buttons, a live example;
// the rule sets and their player counts from the build's rules data, as the table's menus have
// them.
//
// The catalogue texts of this page may hold three marks, drawn as elements (never as HTML):
// `code`, **bold** and [a link](relative-href). Code snippets stay code, in the HTML.

import { copyText } from "./share.js";
import { $, el, fillLanguagePicker, keepTableRoles } from "./dom.js";
import { loadMessages, pickLanguage, saveLanguage, t } from "./i18n.js";
import { paceMs } from "./prefs.js";
import { choices, fetchRulesData, useRulesData } from "./rules-data.js";

const SITE = new URL("./", location.href).href;
const ORIGIN = location.origin;
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

// The texts' parameters: {players}, each rule set's player counts ("`samba` 2–4, …"), once the
// rules data is in; {pace}, a computer's pause at the Normal speed (the embedded table's default
// is the reader's speed setting, as on the site).
const params = { origin: ORIGIN, players: "", pace: paceMs({ speed: "normal" }) };

/** Player counts as a reader writes them: a run of three or more as "2–4" (word joiners keep
 *  it on one line: a phone broke "2–" from "6"), else "4, 6". */
function countsText(ns) {
  const run = ns.length > 2 && ns.every((n, i) => i === 0 || n === ns[i - 1] + 1);
  return run ? `${ns[0]}\u2060–\u2060${ns[ns.length - 1]}` : ns.join(", ");
}

function useRules(data) {
  useRulesData(data);
  params.players = choices.rules.map((name) => `\`${name}\` ${countsText(choices.players[name])}`).join(", ");
  $("au-rules").replaceChildren(...choices.rules.flatMap((name, i) => (i ? [", ", el("code", null, name)] : [el("code", null, name)])));
}

function drawText() {
  for (const node of document.querySelectorAll("[data-i18n]")) drawRich(node, t(node.dataset.i18n, params));
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  document.title = t("authors.page_title");
  const pick = $("lang-select");
  if (pick) fillLanguagePicker(pick);
}

for (const table of document.querySelectorAll("table.au-table")) keepTableRoles(table);
for (const code of document.querySelectorAll(".snippet code")) {
  code.textContent = code.textContent.replaceAll("{SITE}", SITE).replaceAll("{ORIGIN}", ORIGIN);
}
// A snippet wider than a phone scrolls sideways: it takes the keyboard's focus, so it can be
// scrolled without a pointer (and is read as a region named by its code).
for (const pre of document.querySelectorAll(".snippet pre")) pre.tabIndex = 0;
for (const note of document.querySelectorAll(".au-note code")) {
  note.textContent = note.textContent.replaceAll("{ORIGIN}", ORIGIN);
}

document.addEventListener("click", async (ev) => {
  const b = ev.target.closest(".snippet .copy");
  if (!b) return;
  const ok = await copyText(b.parentElement.querySelector("code").textContent);
  b.textContent = t(ok ? "authors.copied" : "authors.copy_failed");
  setTimeout(() => { b.textContent = t("authors.copy"); }, 2000);
});

const demoButton = $("demo-button");
demoButton.addEventListener("click", async () => {
  await import("./samba-table.js");
  const box = $("demo");
  const table = document.createElement("samba-table");
  table.setAttribute("src", SITE);
  table.setAttribute("scenario", "lessons/05-take-the-pile.json");
  table.setAttribute("levels", "easy");
  table.setAttribute("lang", document.documentElement.lang || "en");
  table.style.height = "100%";
  box.replaceChildren(table);
  box.hidden = false;
  demoButton.hidden = true;
});

async function main() {
  try { useRules(await fetchRulesData()); } catch (err) { /* the rule sets as the page lists them */ }
  try {
    await loadMessages(pickLanguage());
    drawText();
  } catch (err) { /* the page's English stays */ }
  $("lang-select")?.addEventListener("change", async (ev) => {
    try { await loadMessages(ev.target.value); } catch (err) { return; }
    saveLanguage(ev.target.value);
    drawText();
  });
  document.body.dataset.ready = "1";
}

main();
