// After a deal: every hand and the deal step by step (from the bridge's `deal_review`), so a
// player can see that nobody cheated. Presentation only (a renderer part).

import { el } from "./dom.js";
import { t, num, has } from "./i18n.js";
import { face, pretty, prettyMove, prettyParts } from "./cards.js";

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

/** One move of the record in plain words: "Ava discards 4♥". */
export function describeStep(step) {
  if (step.seat === null || step.seat === undefined) return t("review.dealt");
  const name = t(`seat.${step.seat}`);
  const m = /^(\S+)\s*(.*)$/.exec(step.move || "") || [];
  const verb = m[1] || "";
  const rest = m[2] || "";
  const key = `review.move.${verb}`;
  let cards = rest;
  if (verb === "meld" || verb === "ask") cards = prettyParts(rest);
  else if (verb === "take") cards = /^m\d+$/.test(rest) ? rest : prettyParts("new " + rest);
  else cards = prettyMove(rest);
  if (has(key)) return t(key, { name, cards });
  return t("review.move.other", { name, move: prettyMove(step.move || "") });
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
  head.append(el("b", null, t("review.step", { i: num(k), n: num(n) })), " ", el("span", "review-move", describeStep(st)));
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
