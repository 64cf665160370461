// Text the page makes from what the engine says, in the page's language: seat and side names,
// meld names, a move in words (the hint), a log entry's line (from its kind and facts), a hint's
// reasons and warnings. Presentation only: no rules, no DOM.

import { t, has } from "./i18n.js";
import { pretty, meldLabel } from "./cards.js";
import { findMove, moveKind, partsOf } from "./targets.js";

/** The rows of a deal's score table, [label key, part of a side's deal score]: the bonuses are
 *  canastas' alone in a rule set without sequences (so without sambas). */
export function dealRows(v) {
  const bonuses = v.rules && v.rules.sequences === false ? "deal.bonuses_canasta" : "deal.bonuses";
  return [
    ["deal.melds", "melds"], [bonuses, "bonuses"], ["deal.red_threes", "red_threes"],
    ["deal.going_out", "going_out"], ["deal.hands", "hands"], ["deal.penalty", "penalty"],
    ["deal.total", "total"],
  ];
}

/** What clicking a highlighted meld (`onto`: meld id -> move text, targets.ontoTargets) does in
 *  view `v`'s draw phase: the top card alone onto it (samba's sequences) or the whole pile
 *  (Crawford's melds), as the engine says (`targets.take_top`): its message key. */
export function ontoHint(onto, v) {
  return [...onto.values()].every((text) => findMove(v, text)?.top) ? "status.top_hint" : "status.take_onto_hint";
}

/** A seat's name; the viewer is "You", and another seat 0 is named (hotseat). */
export function seatName(seat, viewer = 0) {
  if (seat === 0 && viewer !== 0) return t("seat.name.0");
  return t(`seat.${seat}`);
}

export function sideName(view, side) {
  const seats = view.sides[side] || [];
  const name = (s) => seatName(s, view.seat);
  if (side === view.my_side) {
    const others = seats.filter((s) => s !== view.seat).map(name);
    return others.length ? t("ui.side_you_with", { names: others.join(" & ") }) : t("ui.side_you");
  }
  return seats.map(name).join(" & ");
}

/** Meld id -> its name in the view ("4♣–7♣", "sevens"); a meld no longer there: "?". */
export function meldNamer(v) {
  const byId = new Map();
  for (const side of v.melds || []) for (const m of side) byId.set(m.id, m);
  return (id) => (byId.has(id) ? meldLabel(byId.get(id)) : "?");
}

export const cardsText = (texts) => texts.map(pretty).join(" ");

/** A move's card parts for people: "7♠ 7♥ 7♦ · J♠ → 4♣–7♣". */
export function partsText(parts, v) {
  const mn = meldNamer(v);
  return parts.map((p) => (p.kind === "add" ? `${cardsText(p.cards)} → ${mn(p.meld)}` : cardsText(p.cards))).join(" · ");
}

const WORDS = {
  draw: "hint.draw", pass: "hint.pass", end: "hint.end", next: "hint.next",
  "answer yes": "hint.answer_yes", "answer no": "hint.answer_no",
};

/**
 * A legal move of view `v` in the player's words, as an instruction (the hint): found among the
 * view's targets and told by what it touches; null when it is not a legal move of `v`.
 */
export function moveInWords(text, v) {
  const m = findMove(v, text);
  if (!m) return null;
  if (WORDS[text]) return t(WORDS[text]);
  const mn = meldNamer(v);
  switch (moveKind(m)) {
    case "onto": {
      const meld = m.melds[0];
      return t(m.top ? "hint.top" : "hint.take_onto", { meld: mn(meld) });
    }
    case "take": return t("hint.take", { cards: partsText(partsOf(text), v) });
    case "merge": {
      const [a, b] = [...m.melds].sort((x, y) => x - y);
      return t("hint.merge", { a: mn(a), b: mn(b) });
    }
    case "meld": return t("hint.meld", { cards: partsText(partsOf(text), v) });
    case "card": {
      const card = m.cards[0];
      if (m.discard) return t("hint.discard", { card: pretty(card) });
      if (m.red3) return t("hint.red3", { card: pretty(card) });
      return t("hint.ask", { cards: partsText(partsOf(text), v) });
    }
    default: return text === "ask" ? t("hint.ask_all") : null;
  }
}

/**
 * One reason or warning of a hint (`{key: "why.blocks_pile", seat: 3, cards: 9, ...}`,
 * py_engine/ai/explain.py) in the page's language; its params named by the page: seats and
 * sides by name, ranks in the plural, cards by face, numbers in the language's digits.
 */
export function reasonLine(r, v) {
  if (!r || typeof r.key !== "string" || !has(r.key)) return null;
  const p = {};
  for (const [k, x] of Object.entries(r)) {
    if (k === "key") continue;
    if (k === "seat" && Number.isInteger(x)) p.seat = seatName(x, v.seat);
    else if (k === "side" && Number.isInteger(x)) p.side = v.sides[x] ? sideName(v, x) : String(x);
    else if (k === "rank" && typeof x === "string") p.rank = has(`rankpl.${x}`) ? t(`rankpl.${x}`) : x;
    else if (k === "card" && typeof x === "string") p.card = pretty(x);
    else if (typeof x === "number") p[k] = x;
  }
  // The plural form follows the count the text names.
  p.n = typeof r.cards === "number" ? r.cards : typeof r.points === "number" ? r.points : undefined;
  return t(r.key, p);
}

/**
 * A turn's meld parts ([{cards, meld, new}], the log's facts) in words: one item per meld, in
 * the order they were first touched ("6♥ 6♠ onto 6s; 4♦ 4♠ JK as a new meld (4s)").
 */
export function partsLine(parts, mn) {
  const byMeld = new Map();
  for (const p of parts) {
    const got = byMeld.get(p.meld);
    if (got) got.cards.push(...p.cards);
    else byMeld.set(p.meld, { meld: p.meld, new: !!p.new, cards: [...p.cards] });
  }
  const items = [...byMeld.values()]
    .map((p) => t(p.new ? "log.part.new" : "log.part.add", { cards: cardsText(p.cards), meld: mn(p.meld) }));
  return items.length ? items.reduce((a, b) => t("log.and", { a, b })) : "";
}

/** Entries of one turn drawn as one line: a seat's melds one after another (docs/frontend.md). */
export function joinsLine(prev, e) {
  return !!prev && prev.kind === "meld" && e.kind === "meld" && prev.seat === e.seat && prev.deal === e.deal;
}

/** Two meld entries of one turn as one. */
export function joinEntries(prev, e) {
  return { ...e, laid: [...(prev.laid || []), ...(e.laid || [])], parts: [...(prev.parts || []), ...(e.parts || [])] };
}

/** A log entry's line, from its kind and facts (docs/bridge.md), never from its text. */
export function logLine(e, v) {
  const you = e.seat !== null && e.seat !== undefined && e.seat === v.seat;
  const say = (key, params) => t(you && has(key.replace("log.", "log.you.")) ? key.replace("log.", "log.you.") : key, params);
  const name = e.seat === null || e.seat === undefined ? "" : seatName(e.seat, v.seat);
  const mn = meldNamer(v);
  switch (e.kind) {
    case "deal": return t("log.deal", { n: e.deal });
    case "deal_end": return t("log.deal_end");
    case "scenario": return t("log.scenario");
    case "draw":
      return Array.isArray(e.cards) ? say("log.draw_cards", { name, cards: cardsText(e.cards) })
        : say("log.draw", { name, n: e.n ?? 1 });
    case "red3": return say("log.red3", { name, card: e.card ? pretty(e.card) : "" });
    case "take_top": return say("log.top", { name, card: e.card ? pretty(e.card) : "", meld: mn(e.meld) });
    case "take_pile": {
      const n = e.size ?? (Array.isArray(e.pile) ? e.pile.length : 0);
      const card = e.card ? pretty(e.card) : "";
      let line;
      if (e.meld !== undefined && e.meld !== null) line = say("log.take_onto", { name, n, card, meld: mn(e.meld) });
      else if (Array.isArray(e.with)) line = say("log.take_with", { name, n, card, cards: cardsText(e.with), meld: mn(e.group) });
      else line = say("log.take", { name, n });
      if (Array.isArray(e.parts) && e.parts.length) line = t("log.and", { a: line, b: partsLine(e.parts, mn) });
      const rest = Array.isArray(e.pile) ? e.pile.slice(0, -1) : [];
      if (rest.length) line = t("log.and", { a: line, b: t("log.take_rest", { cards: cardsText(rest) }) });
      return line;
    }
    case "meld":
      return say("log.meld", { name, cards: Array.isArray(e.parts) && e.parts.length ? partsLine(e.parts, mn) : cardsText(e.laid || []) });
    case "discard": return say("log.discard", { name, card: e.card ? pretty(e.card) : "" });
    case "merge": return say("log.merge", { name });
    case "pass": return say("log.pass", { name });
    case "end": return say("log.end", { name });
    case "ask": return say("log.ask", { name });
    case "answer": return say(e.yes ? "log.answer_yes" : "log.answer_no", { name });
    default: return has(`log.${e.kind}`) ? say(`log.${e.kind}`, { name }) : name;
  }
}
