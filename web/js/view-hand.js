// The hand part of the renderer: the viewer's cards in rank groups, selected, staged away, and
// marked with what the view's targets say about them (discard, the melds each may join alone,
// the hinted move's cards).

import { el, $ } from "./dom.js";
import { rankKey } from "./cards.js";
import { cardEl } from "./card-el.js";

export function renderHand(f) {
  const { v, ui, legal, myTurn } = f;
  const hand = $("hand");
  if (ui.privacy !== null && ui.privacy !== undefined) { hand.replaceChildren(); return; }
  // The hinted move's cards: as many copies of each as the move names.
  const hinted = new Map(f.hintCards || []);
  const groups = [];
  let cur = null;
  for (const c of v.hand) {
    if (f.stagedIds.has(c.id)) continue;
    const k = rankKey(c.c);
    if (!cur || cur.key !== k) { cur = { key: k, cards: [] }; groups.push(cur); }
    cur.cards.push(c);
  }
  const nodes = [];
  for (const g of groups) {
    const ge = el("div", "group");
    ge.dataset.rank = g.key;
    g.cards.forEach((c, i) => {
      const e = cardEl(c);
      e.classList.remove("pending");
      e.style.setProperty("--i", String(i));
      if (ui.selected.has(c.id)) e.classList.add("selected");
      if (legal && myTurn) {
        if (legal.discard.includes(c.c)) e.dataset.legal = "discard";
        const adds = legal.adds[c.c];
        if (adds && adds.length) e.dataset.adds = adds.join(" ");
      }
      if (hinted.get(c.c) > 0) { e.classList.add("hint"); hinted.set(c.c, hinted.get(c.c) - 1); }
      e.tabIndex = 0;
      e.setAttribute("role", "button");
      e.setAttribute("aria-pressed", ui.selected.has(c.id) ? "true" : "false");
      ge.append(e);
    });
    nodes.push(ge);
  }
  hand.replaceChildren(...nodes);
  hand.dataset.count = String(v.hand.length);
  hand.dataset.size = v.hand.length > 15 ? "l" : "";
  hand.classList.toggle("inactive", !myTurn);
}
