// For a page the build drew in the default language (<html data-prerendered="en">,
// tools/prerender.mjs): when the reader's language is another one, the page is hidden from the
// first frame (html[data-relang], the page's css) until its script has drawn it in that language
// and calls `reveal()`, so that no English text is shown and then moved by the reader's own. Loaded
// as a render-blocking module (<script type="module" src="js/lang-gate.js" blocking="render">):
// the frame waits for it and i18n.js, which the page needs anyway.

import { loadMessages, pickLanguage } from "./i18n.js";

const root = document.documentElement;
const wanted = pickLanguage();
if (root.dataset.prerendered && wanted !== root.dataset.prerendered) {
  root.dataset.relang = wanted;
  // The page's script failed or is slow: show the text there is rather than nothing.
  setTimeout(reveal, 3000);
}

/** Shows the page (its script has drawn it in the reader's language, or gave up). */
export function reveal() {
  delete root.dataset.relang;
}

/** The language the reader chose in the page's menu (drawn by the build) before the page's
 *  script was listening, if any: the change event came too early to be heard. */
export function earlyChoice() {
  const pick = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang-select"));
  const drawn = root.dataset.prerendered;
  return drawn && pick && pick.value && pick.value !== drawn ? pick.value : null;
}

/** @type {Promise<unknown>} */
let loading = Promise.resolve();

/** Loads a language's catalogue after every load asked for before it, so that the last choice
 *  is the one in force (two fetches may answer in any order). */
export function loadLanguage(lang) {
  loading = loading.catch(() => {}).then(() => loadMessages(lang));
  return loading;
}
