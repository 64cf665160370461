// authors.html in the browser: the page's texts (authors-view.js; switchable with the language
// menu), snippets filled in with this site's own address, copy buttons, a live example.
//
// The build has already drawn the texts in the default language (<html data-prerendered="en">,
// tools/prerender.mjs); they are drawn again here in the reader's language, with this site's
// address.

import { copyText } from "./share.js";
import { $ } from "./dom.js";
import { pickLanguage, saveLanguage, t } from "./i18n.js";
import { fetchRulesData } from "./rules-data.js";
import { drawText, params, useRules } from "./authors-view.js";
import { earlyChoice, loadLanguage, reveal } from "./lang-gate.js";

const SITE = new URL("./", location.href).href;
const ORIGIN = location.origin;
params.origin = ORIGIN;

for (const code of document.querySelectorAll(".snippet code")) {
  code.textContent = code.textContent.replaceAll("{SITE}", SITE).replaceAll("{ORIGIN}", ORIGIN);
}
// A snippet wider than a phone scrolls sideways: it takes the keyboard's focus, so it can be
// scrolled without a pointer (and is read as a region named by its code).
for (const pre of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".snippet pre"))) pre.tabIndex = 0;
// (the text as the build drew it, if the catalogue cannot be loaded)
for (const code of document.querySelectorAll(".au-note code")) {
  code.textContent = code.textContent.replaceAll("{ORIGIN}", ORIGIN).replaceAll("{origin}", ORIGIN);
}

document.addEventListener("click", async (ev) => {
  const b = /** @type {Element} */ (ev.target).closest(".snippet .copy");
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
  const pick = /** @type {HTMLSelectElement} */ ($("lang-select"));
  // Listening at once: a choice made while the page loads is drawn (the menu is in the HTML).
  pick?.addEventListener("change", async () => {
    const lang = pick.value;
    try { await loadLanguage(lang); } catch (err) { return; }
    saveLanguage(lang);
    drawText();
  });
  const early = earlyChoice();
  if (early) saveLanguage(early);
  const messages = loadLanguage(early || pickLanguage());
  try { useRules(await fetchRulesData()); } catch (err) { /* the rule sets as the page lists them */ }
  try {
    await messages;
    drawText();
  } catch (err) { /* the page's text as the build drew it stays */ }
  reveal();
  document.body.dataset.ready = "1";
}

main();
