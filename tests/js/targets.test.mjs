// web/js/targets.js: what clicking each thing can do, read from the view's legal.targets, on the
// engine's own views (tests/js/engine_views.py). `node --test tests/js/` (the "js" stage).
import test from "node:test";
import assert from "node:assert/strict";

import { views, verb, CARD } from "./engine-views.mjs";
import {
  targetsOf, movesOf, moveKind, findMove, movesOfKind, ontoTargets, mergeTargets, canTakePile,
  wordMove, partsOf, write,
} from "../../web/js/targets.js";

// What each move does by its verb (docs/formats.md), against what moveKind tells from what it touches.
const KIND_OF_VERB = {
  draw: "stock", end: "stock", onto: "onto", take: "take", merge: "merge", meld: "meld",
  discard: "card", red3: "card", ask: "card", pass: "word", next: "word", answer: "word",
};

test("the engine's views hold every kind of move", () => {
  const seen = new Set(views.flatMap((v) => v.legal.targets.all.map(verb)));
  for (const v of Object.keys(KIND_OF_VERB)) {
    assert.ok(seen.has(v), `no view with a '${v}' move`);
  }
});

test("every legal move is described once, with its index and text", () => {
  for (const v of views) {
    const all = v.legal.targets.all;
    const moves = movesOf(v);
    assert.equal(moves.length, all.length);
    moves.forEach((m, i) => {
      assert.equal(m.i, i);
      assert.equal(m.text, all[i]);
      assert.equal(findMove(v, m.text), m);
      assert.equal(m.simple, v.legal.moves.includes(m.text));
    });
    assert.equal(movesOf(v), moves, "kept per view object");
    assert.equal(findMove(v, "discard ZZ"), null);
  }
});

test("moveKind tells each move by what it touches, as its verb says", () => {
  for (const v of views) {
    for (const m of movesOf(v)) {
      assert.equal(moveKind(m), KIND_OF_VERB[verb(m.text)], `${m.text} in ${JSON.stringify(m)}`);
    }
  }
  assert.equal(moveKind(null), null);
});

test("a move's cards are the hand cards its text names, each once", () => {
  for (const v of views) {
    const hand = new Set(v.hand.map((c) => c.c));
    for (const m of movesOf(v)) {
      for (const c of m.cards) assert.ok(hand.has(c), `${c} of ${m.text} is not in the hand`);
      const named = new Set(m.text.split(/[ ;]+/).filter((w) => CARD.test(w)));
      assert.deepEqual(new Set(m.cards), named, m.text);
      const melds = new Set(m.text.split(/[ ;]+/).filter((w) => /^m\d+$/.test(w)).map((w) => Number(w.slice(1))));
      assert.deepEqual(new Set(m.melds), melds, m.text);
    }
  }
});

test("partsOf and write give back the engine's own texts", () => {
  let n = 0;
  for (const v of views) {
    for (const text of v.legal.targets.all) {
      const parts = partsOf(text);
      const staged = parts.map((p) => ({ ...p, cards: p.cards.map((c) => ({ c })) }));
      const kind = verb(text);
      if (kind === "meld") assert.equal(write.meld(staged), text);
      else if (kind === "take") assert.equal(write.take(staged[0].cards, staged.slice(1)), text);
      else if (kind === "discard") assert.equal(write.discard(staged[0].cards[0]), text);
      else if (kind === "red3") assert.ok(movesOf(v).find((m) => m.text === text).red3, text);
      else if (kind === "ask") {
        const last = staged[staged.length - 1];
        const card = last && last.kind === "discard" ? last.cards[0] : null;
        assert.equal(write.ask(card ? staged.slice(0, -1) : staged, card), text);
      } else continue;
      n += 1;
    }
  }
  assert.ok(n > 100, `only ${n} texts written back`);
});

test("pile, meld and word targets follow the moves", () => {
  for (const v of views) {
    const all = v.legal.targets.all;
    assert.equal(canTakePile(v), all.some((t) => verb(t) === "take"));
    const onto = ontoTargets(v);
    assert.deepEqual([...onto.keys()].sort(), all.filter((t) => verb(t) === "onto").map((t) => Number(t.split(" m")[1])).sort());
    for (const [id, text] of onto) assert.ok(text.endsWith(` m${id}`));
    const merges = all.filter((t) => verb(t) === "merge").map((t) => t.split(" ").slice(1).map((w) => Number(w.slice(1))));
    assert.deepEqual([...mergeTargets(v, null).keys()].sort(), [...new Set(merges.flat())].sort());
    for (const [a, b] of merges) {
      assert.ok(mergeTargets(v, a).has(b) && mergeTargets(v, b).has(a));
      assert.ok(!mergeTargets(v, a).has(a));
    }
    for (const word of ["draw", "pass", "end", "next", "answer yes", "answer no"]) {
      assert.equal(wordMove(v, word), all.includes(word) ? word : null);
    }
    for (const kind of new Set(Object.values(KIND_OF_VERB))) {
      assert.deepEqual(movesOfKind(v, kind).map((m) => m.text), all.filter((t) => KIND_OF_VERB[verb(t)] === kind));
    }
  }
});

test("a viewer who may not act has no targets", () => {
  const v = views[0];
  const idle = { ...v, legal: null };
  assert.deepEqual(targetsOf(idle).all, []);
  assert.deepEqual(movesOf(idle), []);
  assert.equal(canTakePile(idle), false);
  assert.deepEqual(targetsOf(null).all, []);
});
