// web/js/i18n.js num(): the catalogue's separators write numbers exactly as Intl.NumberFormat
// does in each language of web/i18n (the page avoids Intl's first, costly use where it can).
// `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// i18n.js loads a catalogue with fetch (a file: URL here, which Node's fetch does not read).
globalThis.fetch = async (url) => {
  const text = readFileSync(fileURLToPath(url), "utf-8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
};

const { LANGS, loadMessages, num } = await import("../../web/js/i18n.js");

// Scores, counts, percentages and sizes the page shows, and numbers num() leaves to Intl.
const VALUES = [
  0, 1, 7, 12, 99, 100, 999, 1000, 1234, 9999, 10000, 12345, 99999, 100000, 123456, 1000000,
  1234567890, -1, -5, -280, -999, -1000, -1500, -10000, -123456, 2.5, 12.5, 0.1, 0.25, 1.125,
  -3.75, 1234.5, -9876.25, 0.1 + 0.2, 2 / 3, 1e21, -1e-7, Number.MAX_SAFE_INTEGER,
];

for (const lang of LANGS) {
  test(`num() writes numbers as Intl.NumberFormat does (${lang})`, async () => {
    await loadMessages(lang);
    const intl = new Intl.NumberFormat(lang);
    for (const v of VALUES) assert.equal(num(v), intl.format(v), `${lang}: ${v}`);
  });
}

test("num() writes whole numbers without constructing an Intl.NumberFormat", async () => {
  const Real = Intl.NumberFormat;
  let made = 0;
  Intl.NumberFormat = function (...args) { made += 1; return new Real(...args); };
  try {
    for (const lang of LANGS) {
      await loadMessages(lang);
      for (const v of [0, 1, 999, 1000, -280, 10000, 12.5, -3.75, 1234567]) num(v);
    }
  } finally {
    Intl.NumberFormat = Real;
  }
  assert.equal(made, 0);
});

test("num() writes negative zero as 0, in every language", async () => {
  for (const lang of LANGS) {
    await loadMessages(lang);
    assert.equal(num(-0), "0");
    assert.equal(num(Math.round(-0.4)), "0");
  }
});
