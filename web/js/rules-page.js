// The rules page in the browser: loads the language and the rules data, and draws the page with
// rules-view.js. The data comes from ./rules-data.json (written at build time); without that file
// the page asks the engine in the worker (bridge op "rules_data").
//
// The build has already drawn the page in the default language (<html data-prerendered="en">,
// tools/prerender.mjs), so nothing is cleared while the data loads: the page is drawn again once
// the data is in (the same text in the default language, nothing moves; another language's words
// otherwise).

import { $ } from "./dom.js";
import { pickLanguage, saveLanguage } from "./i18n.js";
import { EngineClient } from "./bridge.js";
import { drawAll } from "./rules-view.js";
import { earlyChoice, loadLanguage, reveal } from "./lang-gate.js";

let data = null;

/** The rule data: the build's JSON file, else the engine itself. */
async function loadData() {
  try {
    const res = await fetch(new URL("../rules-data.json", import.meta.url));
    if (res.ok) {
      const json = await res.json();
      if (json && Array.isArray(json.rows)) return json;
    }
  } catch (err) { /* fall back to the engine */ }
  const engine = new EngineClient();
  await new Promise((resolve, reject) => {
    engine.start({ onReady: resolve, onError: (kind, message) => reject(new Error(message || kind)) });
  });
  const res = await engine.request({ op: "rules_data" });
  if (engine.worker) engine.worker.terminate();
  if (!res.ok) throw new Error(res.error ? res.error.code : "rules_data");
  return res.rules_data;
}

async function main() {
  const pick = /** @type {HTMLSelectElement | null} */ ($("lang-select"));
  // Listening at once: a choice made while the page loads is drawn (the menu is in the HTML).
  pick.addEventListener("change", async () => {
    const lang = pick.value;
    try { await loadLanguage(lang); } catch (err) { return; }
    saveLanguage(lang);
    // Before the data is in, the build's table stays (drawAll keeps it) and says nothing more.
    const kept = !data && $("rules-table").dataset.rows;
    drawAll(data, data || kept ? null : "help.loading");
  });
  const early = earlyChoice();
  if (early) saveLanguage(early);
  await loadLanguage(early || pickLanguage()).catch(() => loadLanguage("en"));
  // A page the build drew keeps its text (and its table) until the data is in.
  if (!document.documentElement.dataset.prerendered) drawAll(null, "help.loading");
  try {
    data = await loadData();
    drawAll(data, null);
    reveal();
    document.body.dataset.ready = "1";
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  } catch (err) {
    drawAll(data, "help.error", { message: err.message });
    reveal();
    document.body.dataset.ready = "error";
  }
}

main();
