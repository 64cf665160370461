// A lesson's texts in the page's language: the optional per-language "i18n" block of the lesson
// file (docs/lessons.md), each text falling back to the English one at the top level. Card codes
// in the texts ("8S 8H 2C") are shown as the cards read (8♠ 8♥ 2♣, the joker by its name).

import { prettyProse } from "./cards.js";

function pick(own, base) {
  return prettyProse(typeof own === "string" && own.trim() ? own : String(base ?? ""));
}

/** {title, intro, steps: [{goal, success, wrong}]} of lesson `L` in `lang`. */
export function lessonTexts(L, lang) {
  const block = (L && L.i18n && typeof L.i18n === "object" && L.i18n[lang]) || {};
  const own = Array.isArray(block.steps) ? block.steps : [];
  return {
    title: pick(block.title, L.title),
    intro: pick(block.intro, L.intro || ""),
    steps: (L.steps || []).map((s, i) => {
      const o = (own[i] && typeof own[i] === "object") ? own[i] : {};
      return { goal: pick(o.goal, s.goal), success: pick(o.success, s.success), wrong: pick(o.wrong, s.wrong) };
    }),
  };
}
