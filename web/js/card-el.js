// Card elements of the renderer: one element per physical card, keyed by its id and reused across
// renders (so moves can animate), and the fanned row of a meld. Presentation only.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { face } from "./cards.js";
import * as A11y from "./a11y.js";

const cardEls = new Map(); // card id -> element

/** The element for one physical card, created once and reused (keyed by card id). */
export function cardEl(card) {
  let e = cardEls.get(card.id);
  if (!e || e.dataset.card !== card.c) {
    const f = face(card.c);
    e = el("div", `card face ${f.color}`);
    e.dataset.id = String(card.id);
    e.dataset.card = card.c;
    const corner = el("span", "corner");
    corner.append(el("span", "rank", f.rank), el("span", "suit", f.suit));
    e.append(corner);
    if (f.joker) {
      e.append(el("span", "joker-word", "JOKER"));
    } else {
      e.append(el("span", "pip", f.pip));
    }
    cardEls.set(card.id, e);
  }
  // Clear per-render state (the hand makes its cards focusable buttons again).
  e.classList.remove("selected", "hint", "dim", "pending");
  e.setAttribute("aria-label", A11y.cardName(card.c));
  if (card.c === "JK") e.querySelector(".joker-word").textContent = t("card.joker");
  e.removeAttribute("tabindex");
  e.removeAttribute("role");
  e.removeAttribute("aria-pressed");
  delete e.dataset.legal;
  delete e.dataset.adds;
  e.style.removeProperty("--i");
  return e;
}

/** A meld's fanned cards, the staged ones (not yet laid) after them. */
export function fan(cards, pendingCards) {
  const f = el("div", "fan");
  const all = cards.length + pendingCards.length;
  f.style.setProperty("--n", String(all));
  let i = 0;
  for (const c of cards) { const e = cardEl(c); e.style.setProperty("--i", String(i++)); f.append(e); }
  for (const c of pendingCards) {
    const e = cardEl(c); e.classList.add("pending"); e.style.setProperty("--i", String(i++)); f.append(e);
  }
  return f;
}
