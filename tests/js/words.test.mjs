// web/js/words.js: the page's words for moves, log entries and hint reasons, in every language
// of web/i18n, on the engine's own views (tests/js/engine_views.py). `node --test tests/js/`.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { views, verb, CARD } from "./engine-views.mjs";

// i18n.js loads a catalogue with fetch (a file: URL here, which Node's fetch does not read).
globalThis.fetch = async (url) => {
  const text = readFileSync(fileURLToPath(url), "utf-8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
};

const { LANGS, loadMessages, t, MISSING_OPEN } = await import("../../web/js/i18n.js");
const words = await import("../../web/js/words.js");
const { pretty } = await import("../../web/js/cards.js");

const warnings = [];
console.warn = (...args) => warnings.push(args.join(" "));

for (const lang of LANGS) {
  test(`every legal move and log entry in words (${lang})`, async () => {
    await loadMessages(lang);
    warnings.length = 0;
    let moves = 0;
    let lines = 0;
    for (const v of views) {
      for (const text of v.legal.targets.all) {
        const said = words.moveInWords(text, v);
        if (text === "ask") continue;
        assert.equal(typeof said, "string", `${text}: ${said}`);
        assert.ok(said.length > 0 && !said.includes(MISSING_OPEN) && !said.includes("{"), `${lang} ${text}: ${said}`);
        moves += 1;
      }
      assert.equal(words.moveInWords("discard ZZ", v), null);
      for (const e of v.log) {
        const line = words.logLine(e, v);
        assert.equal(typeof line, "string");
        assert.ok(!line.includes(MISSING_OPEN) && !line.includes("{"), `${lang} ${e.kind}: ${line}`);
        if (lang === "en") {
          const codes = line.split(/[\s,;.:()]+/).filter((w) => CARD.test(w) && w !== "JK");
          assert.deepEqual(codes, [], `card codes, not faces, in "${line}"`);
        }
        lines += 1;
      }
    }
    assert.deepEqual(warnings, [], "keys missing from the catalogue");
    assert.ok(moves > 500 && lines > 500, `${moves} moves, ${lines} log lines`);
  });
}

test("a discard in words names the card by its face", async () => {
  await loadMessages("en");
  const v = views.find((x) => x.legal.targets.all.some((m) => m.startsWith("discard ")));
  const text = v.legal.targets.all.find((m) => m.startsWith("discard "));
  const card = text.split(" ")[1];
  assert.equal(words.moveInWords(text, v), t("hint.discard", { card: pretty(card) }));
  assert.equal(pretty("7S"), "7♠");
  assert.equal(pretty("TH"), "10♥");
});

test("a discard, an ask with a discard, a top-card take and a take onto a meld are told apart as the engine says", async () => {
  await loadMessages("en");
  const { findMove, ontoTargets } = await import("../../web/js/targets.js");
  const seen = { discard: 0, ask1: 0, top: 0, take_onto: 0 };
  for (const v of views) {
    for (const text of v.legal.targets.all) {
      const m = findMove(v, text);
      const said = words.moveInWords(text, v);
      const card = m.cards[0];
      if (verb(text) === "discard") {
        assert.equal(said, t("hint.discard", { card: pretty(card) }), text);
        seen.discard += 1;
      } else if (verb(text) === "ask" && m.cards.length === 1) {
        assert.notEqual(said, t("hint.discard", { card: pretty(card) }), text);
        seen.ask1 += 1;
      } else if (verb(text) === "onto") {
        const top = text.startsWith("top ");
        assert.equal(said, t(top ? "hint.top" : "hint.take_onto", { meld: words.meldNamer(v)(m.melds[0]) }), text);
        assert.equal(words.ontoHint(new Map([[m.melds[0], text]]), v), top ? "status.top_hint" : "status.take_onto_hint");
        seen[top ? "top" : "take_onto"] += 1;
      }
    }
    const onto = ontoTargets(v);
    if (onto.size) {
      const allTop = [...onto.values()].every((x) => x.startsWith("top "));
      assert.equal(words.ontoHint(onto, v), allTop ? "status.top_hint" : "status.take_onto_hint");
    }
  }
  for (const [kind, n] of Object.entries(seen)) assert.ok(n > 0, `no ${kind} among the engine's views`);
});

test("a turn's meld parts: one item per meld, in the order first touched", async () => {
  await loadMessages("en");
  const names = { 3: "6s", 7: "4s" };
  const line = words.partsLine([
    { cards: ["6H"], meld: 3, new: false },
    { cards: ["4D", "4S", "JK"], meld: 7, new: true },
    { cards: ["6S"], meld: 3, new: false },
  ], (id) => names[id]);
  assert.equal(line, "6♥ 6♠ onto 6s; 4♦ 4♠ Joker as a new meld (4s)");
  assert.equal(words.partsLine([], (id) => names[id]), "");
});

test("one seat's melds of one turn join into one line, nothing else does", () => {
  const a = { kind: "meld", seat: 1, deal: 2, laid: ["7S"], parts: [{ cards: ["7S"], meld: 4, new: false }] };
  const b = { kind: "meld", seat: 1, deal: 2, laid: ["8S"], parts: [{ cards: ["8S"], meld: 5, new: false }] };
  assert.equal(words.joinsLine(a, b), true);
  assert.equal(words.joinsLine(null, b), false);
  assert.equal(words.joinsLine({ ...a, seat: 2 }, b), false);
  assert.equal(words.joinsLine({ ...a, kind: "discard" }, b), false);
  assert.equal(words.joinsLine({ ...a, deal: 1 }, b), false);
  assert.deepEqual(words.joinEntries(a, b).laid, ["7S", "8S"]);
  assert.equal(words.joinEntries(a, b).parts.length, 2);
});

test("a hint's reason names seats by name; an unknown key gives nothing", async () => {
  await loadMessages("en");
  const v = views.find((x) => x.players === 4 && x.seat === 0) || views[0];
  const cat = JSON.parse(readFileSync(new URL("../../web/i18n/en.json", import.meta.url), "utf-8"));
  const key = Object.keys(cat).find((k) => k.startsWith("why.") && typeof cat[k] === "string" && cat[k].includes("{seat}"));
  assert.ok(key, "a reason with a seat");
  const line = words.reasonLine({ key, seat: 1, rank: "J", cards: 9, points: 90 }, v);
  assert.ok(line.includes(words.seatName(1, v.seat)) && !line.includes("{seat}"), line);
  assert.equal(words.reasonLine({ key: "why.no_such_reason" }, v), null);
  assert.equal(words.reasonLine(null, v), null);
});
