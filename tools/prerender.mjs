// Draws the text of the site's static pages into their HTML at build time, with the pages' own
// drawing modules: a page whose <html> names one (`data-prerender="js/rules-view.js"`) is parsed
// with linkedom (a DOM for Node), the module's `prerender(rulesData)` draws it in the default
// language (English) from the build's files (i18n/en.json, rules-data.json), and the page is
// written back with `<html data-prerendered="en">`. So a crawler, a reader without JavaScript
// and the first frame all have the text, and the page's script only draws it again (the same
// text in English: nothing moves; the reader's language otherwise).
//
//   node tools/prerender.mjs SITE        (SITE: the dist/ tree being built)
//
// Prints one JSON line: {"pages": [...]} ; exit code 1 on failure (the build stops).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseHTML } from "linkedom";

const LANG = "en";
const site = path.resolve(process.argv[2] || "");
if (!process.argv[2] || !fs.existsSync(path.join(site, "index.html"))) {
  console.error("usage: node tools/prerender.mjs SITE (a built site with index.html)");
  process.exit(2);
}

// The modules fetch their files relative to their own URL (file: here): read them from SITE only.
globalThis.fetch = async (url) => {
  const u = new URL(String(url));
  const file = u.protocol === "file:" ? fileURLToPath(u) : "";
  if (!file.startsWith(site + path.sep) || !fs.existsSync(file)) return new Response("", { status: 404 });
  return new Response(fs.readFileSync(file), { status: 200 });
};

// Two gaps of linkedom 0.18.15 that the pages' code meets, filled as a browser has them:
// `dataset` (its name conversion turns data-i18n into "i1-8n"), and the `scope` of a table cell
// (not reflected to the attribute, so it was lost in the HTML).
function patchDom(window) {
  const attr = (name) => `data-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  const camel = (name) => name.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  Object.defineProperty(window.HTMLElement.prototype, "dataset", {
    configurable: true,
    get() {
      const el = this;
      return new Proxy({}, {
        get: (_, name) => (typeof name === "string" && el.hasAttribute(attr(name)) ? el.getAttribute(attr(name)) : undefined),
        set: (_, name, value) => { el.setAttribute(attr(name), String(value)); return true; },
        deleteProperty: (_, name) => { el.removeAttribute(attr(name)); return true; },
        has: (_, name) => el.hasAttribute(attr(name)),
        ownKeys: () => el.getAttributeNames().filter((n) => n.startsWith("data-")).map(camel),
        getOwnPropertyDescriptor: (_, name) => (el.hasAttribute(attr(name))
          ? { value: el.getAttribute(attr(name)), enumerable: true, configurable: true, writable: true } : undefined),
      });
    },
  });
  Object.defineProperty(window.HTMLElement.prototype, "scope", {
    configurable: true,
    get() { return this.getAttribute("scope") || ""; },
    set(value) { this.setAttribute("scope", value); },
  });
}

const rulesData = JSON.parse(fs.readFileSync(path.join(site, "rules-data.json"), "utf8"));
const done = [];
for (const name of fs.readdirSync(site).filter((f) => f.endsWith(".html")).sort()) {
  const file = path.join(site, name);
  const html = fs.readFileSync(file, "utf8");
  const m = /<html\b[^>]*\bdata-prerender="([\w./-]+\.js)"/.exec(html);
  if (!m) continue;
  const { window, document } = parseHTML(html);
  patchDom(window);
  globalThis.window = window;
  globalThis.document = document;
  const i18n = await import(pathToFileURL(path.join(site, "js", "i18n.js")).href);
  await i18n.loadMessages(LANG);
  const view = await import(pathToFileURL(path.join(site, m[1])).href);
  if (typeof view.prerender !== "function") throw new Error(`${m[1]} exports no prerender()`);
  view.prerender(rulesData);
  document.documentElement.removeAttribute("data-prerender");
  document.documentElement.setAttribute("data-prerendered", LANG);
  let out = document.toString();
  if (/^<!doctype html>/i.test(html)) out = out.replace(/^<!DOCTYPE html>/, html.slice(0, 15));
  fs.writeFileSync(file, out.endsWith("\n") ? out : `${out}\n`);
  done.push(name);
}
console.log(JSON.stringify({ pages: done }));
