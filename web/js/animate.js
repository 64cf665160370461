// Card movement (FLIP): before a render, remember where every card element is (elements are
// keyed by card id and reused by render.js); after it, play each moved card from its old place.
// Cards that were not on the table before (an opponent's meld or discard, a drawn card) travel
// from the seat that played them, or from the stock/pile. Presentation only.

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

function rect(node) {
  return node ? node.getBoundingClientRect() : null;
}

/** Where things are now (call just before rendering). */
export function capture() {
  const table = document.getElementById("table");
  const cards = new Map();
  if (!table) return { cards };
  const inHand = new Set();
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (table.querySelectorAll(".card[data-id]"))) {
    const r = e.getBoundingClientRect();
    if (r.width) cards.set(e.dataset.id, r);
    if (e.closest("#hand")) inHand.add(e.dataset.id);
  }
  const seats = new Map();
  for (const s of /** @type {NodeListOf<HTMLElement>} */ (table.querySelectorAll("#seats .seat[data-seat]"))) seats.set(s.dataset.seat, s.getBoundingClientRect());
  return {
    cards, seats, inHand,
    stock: rect(document.getElementById("stock")),
    pile: rect(document.getElementById("pile-top")),
    stockCount: document.getElementById("stock-count")?.textContent || "",
  };
}

/**
 * Plays the moves since `snap`. opts: {ms, fromSeat} (fromSeat: the computer seat that just
 * moved, whose new cards come from its panel). ms 0: nothing moves.
 */
export function play(snap, { ms = 0, fromSeat = null } = {}) {
  if (!snap || !ms || reduced() || !snap.cards.size && !snap.seats?.size) return;
  const table = document.getElementById("table");
  if (!table) return;
  const drew = (document.getElementById("stock-count")?.textContent || "") !== snap.stockCount;
  const seatRect = fromSeat !== null && fromSeat !== undefined ? snap.seats.get(String(fromSeat)) : null;
  // One travel per card: a travel still under way (the next move came before it ended) is
  // replaced, never stacked (its offset, measured from the card's place before this render,
  // would push the card off its new place). The card's new travel starts where it was seen
  // (`snap` measured it with the old travel applied); where it now lies is measured without.
  const cards = [.../** @type {NodeListOf<HTMLElement>} */ (table.querySelectorAll(".card[data-id]"))];
  for (const e of cards) stopTravel(e);
  let n = 0;
  for (const e of cards) {
    const last = e.getBoundingClientRect();
    if (!last.width) continue;
    let first = snap.cards.get(e.dataset.id);
    if (!first) {
      if (seatRect) first = seatRect;
      else if (e.closest("#hand")) first = drew ? snap.stock : snap.pile;
    }
    if (!first) continue;
    const dx = first.left + first.width / 2 - (last.left + last.width / 2);
    const dy = first.top + first.height / 2 - (last.top + last.height / 2);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    const s = Math.max(0.3, Math.min(2.5, first.width / last.width || 1));
    if (typeof e.animate !== "function") return;
    // A card that stays in the hand slides under its neighbours (as it lies), never over them.
    const z = snap.inHand && snap.inHand.has(e.dataset.id) && e.closest("#hand") ? "auto" : 50;
    // Until its turn (the delay) the card waits where it was (fill backwards), not at its place.
    const a = e.animate(
      [{ translate: `${dx}px ${dy}px`, scale: `${s}`, zIndex: z }, { translate: "0 0", scale: "1", zIndex: z }],
      { duration: ms, easing: "cubic-bezier(.2,.75,.25,1)", delay: Math.min(n, 12) * (ms / 30), fill: "backwards" },
    );
    a.id = TRAVEL;
    n += 1;
  }
}

const TRAVEL = "samba-travel";

/** Ends a card's travel under way, if any (the card is then drawn at its place). */
function stopTravel(e) {
  if (typeof e.getAnimations !== "function") return;
  for (const a of e.getAnimations()) if (a.id === TRAVEL) a.cancel();
}
