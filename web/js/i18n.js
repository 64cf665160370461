// Message catalogue: every visible string goes through t(key, params).
// Engine reason codes map one-to-one to keys "reason.<code>".

let messages = {};

export async function loadMessages(lang = "en") {
  const url = new URL(`../i18n/${lang}.json`, import.meta.url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`i18n ${lang}: HTTP ${res.status}`);
  messages = await res.json();
  return messages;
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

export function t(key, params = {}) {
  const text = has(key) ? messages[key] : key;
  return text.replace(/\{(\w+)\}/g, (m, name) =>
    params[name] === undefined ? m : String(params[name]));
}

/** Plain-words reason for an engine/bridge error object {code, message}. */
export function reasonText(error) {
  if (!error) return "";
  const key = `reason.${error.code}`;
  if (error.code && has(key)) return t(key);
  return error.message || String(error.code || "");
}

/** Formats a number the way the catalogue's language does. */
export function num(n) {
  return new Intl.NumberFormat("en").format(n);
}
