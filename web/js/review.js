// After a deal: every hand and the deal step by step (from the bridge's `deal_review`), so a
// player can see that nobody cheated. Presentation only (a renderer part).

import { el } from "./dom.js";
import { t, num } from "./i18n.js";
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

/** What the review says for each kind of log entry (docs/bridge.md "log"): review.move.<word>. */
const WORD_OF_KIND = {
  draw: "draw", pass: "pass", end: "end", ask: "ask", merge: "merge", take_top: "top",
  discard: "discard", red3: "red3", take_pile: "take_pile", meld: "meld",
};

/**
 * One move of the deal in plain words ("Ava discards 4♥"), from the engine's log entry of the
 * move (the step's first entry: its `kind` and facts; events the move set off follow it).
 * `view` gives the viewer's seat: the viewer's own steps are in the second person.
 */
export function describeStep(step, view) {
  const e = (step.entries || [])[0];
  if (step.seat === null || step.seat === undefined || !e) return t("review.dealt");
  const name = t(`seat.${step.seat}`);
  // The viewer's own steps in the second person ("You discard 7♥", not "You discards").
  const you = !!view && step.seat === view.seat;
  const say = (key, params = {}) => t(you ? `review.you.${key}` : `review.move.${key}`, { name, ...params });
  const cards = (list) => (list || []).map(pretty).join(" ");
  if (e.kind === "answer") return say(e.yes ? "answer_yes" : "answer_no");
  const word = WORD_OF_KIND[e.kind];
  if (!word) return t("log.line", { name, text: e.text || e.kind });
  if (e.kind === "discard" || e.kind === "red3") return say(word, { cards: cards([e.card]) });
  if (e.kind === "meld") return say(word, { cards: cards(e.laid) });
  if (e.kind === "take_pile") return say(word, { n: Array.isArray(e.pile) ? e.pile.length : e.size });
  return say(word);
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
  head.append(el("b", null, t("review.step", { i: num(k), n: num(n) })), " ", el("span", "review-move", describeStep(st, view)));
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
