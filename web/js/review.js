// After a deal: every hand and the deal step by step (from the bridge's `deal_review`), so a
// player can see that nobody cheated. Presentation only (a renderer part).

import { el } from "./dom.js";
import { t, num, has } from "./i18n.js";
import { face, pretty } from "./cards.js";

/** A small card face: "7♠" in a box, coloured by suit (four-colour aware through data-card). */
export function miniCard(text) {
  const f = face(text);
  const e = el("span", `mcard ${f.color}`, text === "JK" ? "★" : f.rank + f.suit);
  e.dataset.card = text;
  e.title = pretty(text);
  return e;
}

export function miniCards(texts, cls = "mcards") {
  const box = el("span", cls);
  for (const c of texts) box.append(miniCard(c));
  return box;
}

const WORD_STEPS = { draw: "draw", pass: "pass", end: "end", "answer yes": "answer_yes", "answer no": "answer_no" };

/** How many of each card text `after` holds beyond `before` (both lists of card texts). */
function gained(before, after) {
  const left = new Map();
  for (const c of before) left.set(c, (left.get(c) || 0) + 1);
  const out = [];
  for (const c of after) {
    const n = left.get(c) || 0;
    if (n) left.set(c, n - 1); else out.push(c);
  }
  return out;
}

/**
 * One move of the deal in plain words ("Ava discards 4♥"), told from what changed between the
 * position before it (`prev`) and after it: the steps of `deal_review` carry the move's text
 * only, and the page does not read it (beyond the whole words draw, pass, end, answer yes/no).
 */
export function describeStep(step, prev, view) {
  if (step.seat === null || step.seat === undefined || !prev) return t("review.dealt");
  const name = t(`seat.${step.seat}`);
  // The viewer's own steps in the second person ("You discard 7♥", not "You discards").
  const you = !!view && step.seat === view.seat;
  const say = (key, params = {}) => t(you ? `review.you.${key}` : `review.move.${key}`, { name, ...params });
  if (WORD_STEPS[step.move]) return say(WORD_STEPS[step.move]);
  const side = view && view.side_of ? view.side_of[step.seat] : null;
  const flat = (st) => (side === null ? st.melds.flat(2) : (st.melds[side] || []).flat());
  const reds = gained(((prev.red_threes || [])[side] || []), ((step.red_threes || [])[side] || []));
  const laid = gained(flat(prev), flat(step));
  const hand = (st) => (st.hands[step.seat] || []).length;
  if (reds.length && !laid.length && step.pile.length === prev.pile.length) return say("red3", { cards: reds.map(pretty).join(" ") });
  if (step.pile.length < prev.pile.length) {
    const n = prev.pile.length - step.pile.length;
    return n === 1 && hand(step) === hand(prev) ? say("top") : say("take_pile", { n });
  }
  if (step.pile.length === prev.pile.length + 1) return say("discard", { cards: pretty(step.pile[step.pile.length - 1]) });
  if (laid.length) return say("meld", { cards: laid.map(pretty).join(" ") });
  const count = (st) => (side === null ? st.melds.flat().length : (st.melds[side] || []).length);
  if (count(step) < count(prev)) return say("merge");
  return say("ask");
}

/**
 * Fills `box` with step `i` of `review` (from `deal_review`); `view` gives seats and sides.
 * The controls carry data-review = first | prev | next | last | slider.
 */
export function renderReview(box, review, view, i) {
  const steps = review.steps || [];
  const n = steps.length - 1;
  const k = Math.max(0, Math.min(i, n));
  const st = steps[k];
  box.replaceChildren();
  box.dataset.step = String(k);

  const bar = el("div", "review-bar");
  const mk = (what, label, text, disabled) => {
    const b = el("button", "btn btn-ghost", text);
    b.type = "button";
    b.dataset.review = what;
    b.setAttribute("aria-label", label);
    b.title = label;
    b.disabled = disabled;
    return b;
  };
  const slider = el("input", "review-slider");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(n);
  slider.value = String(k);
  slider.dataset.review = "slider";
  slider.setAttribute("aria-label", t("review.slider"));
  bar.append(mk("first", t("review.first"), "«", k === 0), mk("prev", t("review.prev"), "◀", k === 0),
    slider, mk("next", t("review.next"), "▶", k === n), mk("last", t("review.last"), "»", k === n));
  box.append(bar);

  const head = el("p", "review-step");
  head.append(el("b", null, t("review.step", { i: num(k), n: num(n) })), " ", el("span", "review-move", describeStep(st, k > 0 ? steps[k - 1] : null, view)));
  box.append(head);

  const table = el("div", "review-table");
  const hands = el("div", "review-hands");
  st.hands.forEach((hand, seat) => {
    const row = el("div", `review-seat side-${view.side_of ? view.side_of[seat] : 0}`);
    if (st.seat === seat) row.classList.add("moved");
    const name = el("div", "review-name");
    name.append(el("b", null, t(`seat.${seat}`)), " ", el("span", "review-count", t("ui.cards", { n: hand.length })));
    row.append(name, miniCards(hand));
    hands.append(row);
  });
  table.append(hands);

  const mid = el("div", "review-mid");
  const decks = el("div", "review-decks");
  decks.append(el("span", null, t("review.stock", { n: num(st.stock) })));
  const pile = el("span", "review-pile");
  pile.append(t("review.pile", { n: num(st.pile.length) }), " ");
  if (st.pile.length) pile.append(miniCard(st.pile[st.pile.length - 1]));
  decks.append(pile);
  mid.append(decks);
  st.melds.forEach((melds, side) => {
    const sb = el("div", `review-side side-${side}`);
    const names = (view.sides && view.sides[side] || []).map((s) => t(`seat.${s}`)).join(" & ");
    const h = el("div", "review-side-name", names || String(side));
    const reds = (st.red_threes || [])[side] || [];
    if (reds.length) h.append(" ", miniCards(reds, "mcards reds"));
    sb.append(h);
    const row = el("div", "review-melds");
    if (!melds.length) row.append(el("span", "no-melds", t("ui.no_melds")));
    for (const m of melds) row.append(miniCards(m, "mcards meld-mini"));
    sb.append(row);
    mid.append(sb);
  });
  table.append(mid);
  box.append(table);
}
