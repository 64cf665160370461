// What clicking each thing can do, read from the view's `legal.targets` (docs/bridge.md): for
// every hand card (by text), every meld (by id), the pile and the stock, the indices in `all` of
// the legal moves it belongs to. The page reads no move text: it tells moves apart by what they
// touch, and sends the text it found here (or one it wrote from the player's own choice of
// cards, docs/formats.md). No rules here.

const EMPTY = { all: [], cards: {}, melds: {}, pile: [], stock: [], red3: [], discard: [], take_top: [] };

/** The view's targets (an empty set when the viewer may not act). */
export function targetsOf(v) {
  return (v && v.legal && v.legal.targets) || EMPTY;
}

/**
 * Every legal move of the view with what it touches: `{i, text, cards: [card texts], melds:
 * [meld ids], pile, stock, red3, discard, top, simple}` (as the engine says: `red3`, it lays a
 * red three; `discard`, it discards a card, not an ask with a discard; `top` (`take_top`), it
 * takes the pile's top card alone onto a meld, not the whole pile; `simple`: a complete move
 * among `legal.moves`, not a meld).
 * Kept per view object (views are never changed once received).
 */
const described = new WeakMap();
export function movesOf(v) {
  if (!v || !v.legal) return [];
  let list = described.get(v);
  if (list) return list;
  const t = targetsOf(v);
  const simple = new Set(v.legal.moves || []);
  list = t.all.map((text, i) => ({ i, text, cards: [], melds: [], pile: false, stock: false, red3: false, discard: false, top: false, simple: simple.has(text) }));
  for (const [card, ids] of Object.entries(t.cards)) for (const i of ids) list[i]?.cards.push(card);
  for (const [meld, ids] of Object.entries(t.melds)) for (const i of ids) list[i]?.melds.push(Number(meld));
  for (const i of t.pile) if (list[i]) list[i].pile = true;
  for (const i of t.stock) if (list[i]) list[i].stock = true;
  for (const i of t.red3 || []) if (list[i]) list[i].red3 = true;
  for (const i of t.discard || []) if (list[i]) list[i].discard = true;
  for (const i of t.take_top || []) if (list[i]) list[i].top = true;
  described.set(v, list);
  return list;
}

/** What a move does, from what it touches (not from its text). */
export function moveKind(m) {
  if (!m) return null;
  if (m.stock) return "stock";                                  // draw (or end the deal)
  if (m.pile && m.cards.length) return "take";                  // the pile, with cards from the hand
  if (m.pile && m.melds.length) return "onto";                  // the pile's top (or the pile) onto a meld
  if (!m.pile && !m.cards.length && m.melds.length >= 2) return "merge";
  if (m.cards.length && !m.simple) return "meld";
  if (m.cards.length) return "card";                            // discard, red three, ask with a discard
  return "word";                                                // pass, end, answer, next: a whole word
}

/** The described legal move whose text is `text` (null when it is not legal now). */
export function findMove(v, text) {
  return movesOf(v).find((m) => m.text === text) || null;
}

/** Moves of a kind, optionally touching meld `meld`. */
export function movesOfKind(v, kind, meld = null) {
  return movesOf(v).filter((m) => moveKind(m) === kind && (meld === null || m.melds.includes(meld)));
}

/** Melds the pile's top card (or the pile) can go onto now: meld id -> the move. */
export function ontoTargets(v) {
  const out = new Map();
  for (const m of movesOfKind(v, "onto")) for (const id of m.melds) out.set(id, m.text);
  return out;
}

/** Merges now: with nothing picked, every meld that can merge (-> null); with `from` picked, the
 *  melds it merges with (-> the move). */
export function mergeTargets(v, from) {
  const out = new Map();
  for (const m of movesOfKind(v, "merge")) {
    if (from === null || from === undefined) for (const id of m.melds) out.set(id, null);
    else if (m.melds.includes(from)) for (const id of m.melds) if (id !== from) out.set(id, m.text);
  }
  return out;
}

/** Whether the pile can be taken with cards from the hand now. */
export function canTakePile(v) {
  return movesOfKind(v, "take").length > 0;
}

/** The whole-word move `word` ("draw", "pass", "end", "next", "answer yes"), when legal. */
export function wordMove(v, word) {
  const m = findMove(v, word);
  return m ? m.text : null;
}

/**
 * An engine move text's card parts, for staging a suggestion and for naming its cards:
 * `[{kind: "new"|"add"|"discard", meld: id|null, cards: [texts]}]`. The targets name each card
 * once (three decks hold several 7♠) and do not say which cards go to which new meld, so a
 * suggested multi-part meld, a take, or a partner's proposal is split here at its "; " and
 * its words (docs/formats.md): the one place the page reads the words of a move text.
 */
export function partsOf(text) {
  const out = [];
  for (const part of String(text).split(";")) {
    const words = part.trim().split(" ").filter(Boolean);
    if (words[0] === "meld" || words[0] === "ask") words.shift();
    const head = words[0];
    if (head === "new" || (head === "take" && words.length > 2)) out.push({ kind: "new", meld: null, cards: words.slice(1) });
    else if (head === "add" && words.length > 2) out.push({ kind: "add", meld: Number(words[1].slice(1)), cards: words.slice(2) });
    else if (head === "discard") out.push({ kind: "discard", meld: null, cards: words.slice(1) });
  }
  return out;
}

/** A move text the page writes from the player's own choice of cards (docs/formats.md). */
const texts = (cards) => cards.map((c) => c.c).join(" ");
export const write = {
  parts: (staged) => staged.map((p) => (p.kind === "add" ? `add m${p.meld} ` : "new ") + texts(p.cards)),
  meld: (staged) => `meld ${write.parts(staged).join("; ")}`,
  take: (cards, staged) => [`take ${texts(cards)}`, ...write.parts(staged)].join("; "),
  discard: (card) => `discard ${card.c}`,
  ask: (staged, card) => `ask ${[...write.parts(staged), ...(card ? [`discard ${card.c}`] : [])].join("; ")}`,
};
