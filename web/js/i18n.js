// Message catalogue: every visible string goes through t(key, params).
// Engine reason codes map one-to-one to keys "reason.<code>".
// Languages: the catalogue files in ../i18n/<lang>.json; the choice comes from the saved
// setting, else the browser's languages, else English. A missing key shows as ⟦key⟧ (and is
// logged once), so tests and people can see it.

export const LANGS = ["en", "fr", "ru", "nb"];
const LANG_KEY = "samba.lang";
export const MISSING_OPEN = "⟦";
export const MISSING_CLOSE = "⟧";

let messages = {};
let current = "en";
let numberFormat = null; // {lang, fmt}: num()'s formatter for the current language
const reported = new Set();

/** The language to use: saved choice, else the first supported browser language, else "en". */
export function pickLanguage(saved = readSaved(), wanted = browserLanguages()) {
  if (saved && LANGS.includes(saved)) return saved;
  for (const tag of wanted || []) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    // Norwegian: "no" and "nn" readers get Bokmål.
    const code = base === "no" || base === "nn" || base === "nb" ? "nb" : base;
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

function browserLanguages() {
  try {
    if (Array.isArray(navigator.languages) && navigator.languages.length) return navigator.languages;
    return navigator.language ? [navigator.language] : [];
  } catch (err) { return []; }
}

function readSaved() {
  try {
    const q = new URLSearchParams(location.search).get("lang");
    if (q && LANGS.includes(q)) return q;
    return localStorage.getItem(LANG_KEY);
  } catch (err) { return null; }
}

/** Remembers the player's choice of language. */
export function saveLanguage(lang) {
  try { localStorage.setItem(LANG_KEY, lang); } catch (err) { /* private mode: not kept */ }
}

export function language() {
  return current;
}

export async function loadMessages(lang = "en") {
  if (!LANGS.includes(lang)) lang = "en";
  const url = new URL(`../i18n/${lang}.json`, import.meta.url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`i18n ${lang}: HTTP ${res.status}`);
  messages = await res.json();
  current = lang;
  plural = new Intl.PluralRules(lang);
  reported.clear();
  try { document.documentElement.lang = lang; } catch (err) { /* no document (worker) */ }
  return messages;
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

let plural = new Intl.PluralRules("en");

/**
 * A message with plural forms is an object of CLDR categories ({"one": "{n} card", "other":
 * "{n} cards"}; Russian adds "few" and "many"): the form is chosen by Intl.PluralRules for the
 * number `n` of the params ("other" when there is none, or the language has no such form).
 */
function form(forms, n) {
  const cat = typeof n === "number" && Number.isFinite(n) ? plural.select(n) : "other";
  return typeof forms[cat] === "string" ? forms[cat] : forms.other;
}

export function t(key, params = {}) {
  let text;
  if (has(key)) text = messages[key];
  else {
    if (!reported.has(key)) {
      reported.add(key);
      console.warn(`i18n (${current}): missing key ${key}`);
    }
    return `${MISSING_OPEN}${key}${MISSING_CLOSE}`;
  }
  if (text && typeof text === "object") text = form(text, params.n);
  if (typeof text !== "string") return `${MISSING_OPEN}${key}${MISSING_CLOSE}`;
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    const v = params[name];
    if (v === undefined) return m;
    return typeof v === "number" ? num(v) : String(v);
  });
}

/** Plain-words reason for an engine/bridge error object {code, message}. */
export function reasonText(error) {
  if (!error) return "";
  const key = `reason.${error.code}`;
  if (error.code && has(key)) return t(key);
  return error.message || String(error.code || "");
}

// A number as String() writes it when num() can write it itself: a sign, digits, at most three
// decimals (what Intl.NumberFormat shows by default).
const PLAIN_NUMBER = /^(-?)(\d+)(?:\.(\d{1,3}))?$/;

/**
 * Formats a number the way the catalogue's language does (10,000 / 10 000 / 10 000 / 10 000),
 * with the catalogue's "number.group", "number.decimal" and "number.minus": what
 * Intl.NumberFormat(lang) writes (tests/js/i18n.test.mjs compares them; e2e/test_i18n.py in the
 * browser). A page's first Intl.NumberFormat costs a phone's main thread 60–120 ms (ICU's
 * number data, measured with the CPU 4× slower) just while a returning player's table is
 * drawn, so Intl is used only for what the separators cannot write (exponents, more decimals).
 * Negative zero is written "0".
 */
export function num(n) {
  const m = typeof n === "number" ? PLAIN_NUMBER.exec(String(n)) : null;
  const group = messages["number.group"];
  const decimal = messages["number.decimal"];
  const minus = messages["number.minus"];
  if (m && typeof group === "string" && typeof decimal === "string" && typeof minus === "string") {
    const whole = m[2].replace(/\B(?=(\d{3})+(?!\d))/g, group);
    return (m[1] ? minus : "") + whole + (m[3] ? decimal + m[3] : "");
  }
  // One formatter per language: constructing an Intl.NumberFormat costs far more than using one.
  if (!numberFormat || numberFormat.lang !== current) numberFormat = { lang: current, fmt: new Intl.NumberFormat(current) };
  return numberFormat.fmt.format(n);
}
