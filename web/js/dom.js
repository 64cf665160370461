// Small DOM helpers shared by the modules that draw (render, comfort, review, lessons, rules).

import { LANGS, language, t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

/** A new element with an optional class and text. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

/** Fill a <select> with the languages, the current one selected. */
export function fillLanguagePicker(pick) {
  pick.replaceChildren(...LANGS.map((code) => {
    const o = el("option", null, t(`lang.${code}`));
    o.value = code;
    o.lang = code;
    o.selected = code === language();
    return o;
  }));
  pick.setAttribute("aria-label", t("ui.language"));
}

/** The page's description (<meta name="description" data-i18n-content="key">) in the current
 *  language, for a page whose language can be switched. */
export function translateMeta() {
  for (const meta of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("meta[data-i18n-content]"))) {
    meta.setAttribute("content", t(meta.dataset.i18nContent));
  }
}

/** Add the stylesheet at `href` (relative to js/) once. */
export function loadStyles(href) {
  const url = new URL(href, import.meta.url).href;
  const links = /** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll('link[rel="stylesheet"]'));
  if ([...links].some((l) => l.href === url)) return;
  // (already in the page's inline copy of its stylesheets: build.py inline_first_frame)
  const copy = /** @type {HTMLStyleElement | null} */ (document.querySelector("style[data-sheets]"));
  if (copy && copy.sheet && copy.dataset.sheets.split(/\s+/).some((h) => new URL(h, document.baseURI).href === url)) return;
  const link = el("link");
  link.rel = "stylesheet";
  link.href = url;
  document.head.append(link);
}

/**
 * Give a table explicit ARIA roles: on a phone its rows are laid out as grids (css), and some
 * screen readers (Safari's) then stop reading it as a table.
 */
export function keepTableRoles(table) {
  table.setAttribute("role", "table");
  for (const g of table.querySelectorAll("thead, tbody")) g.setAttribute("role", "rowgroup");
  for (const r of table.querySelectorAll("tr")) r.setAttribute("role", "row");
  for (const c of table.querySelectorAll("th, td")) {
    const inHead = c.parentElement.parentElement.tagName === "THEAD";
    c.setAttribute("role", c.tagName === "TD" ? "cell"
      : inHead || c.scope === "col" ? "columnheader" : "rowheader");
  }
}
