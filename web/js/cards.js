// Card text (docs/formats.md: rank 2..9 T J Q K A, suit C D H S, joker JK) -> what a face shows.
// Presentation only: no rules here.

import { t } from "./i18n.js";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = { T: "10" };

export function face(text) {
  if (text === "JK") return { rank: "★", suit: "", pip: "★", color: "joker", joker: true, rankKey: "JK" };
  const r = text[0];
  const s = text[1];
  return {
    rank: RANKS[r] || r,
    suit: SUITS[s] || s,
    pip: SUITS[s] || s,
    color: s === "D" || s === "H" ? "red" : "black",
    joker: false,
    rankKey: r,
  };
}

/** "7S" -> "7♠", "JK" -> "★" (for log lines and labels). */
export function pretty(text) {
  if (text === "JK") return t("card.joker");
  const f = face(text);
  return f.rank + f.suit;
}

/** Replaces card tokens in a move text with their pretty forms. */
export function prettyMove(text) {
  return text.replace(/\b(JK|[2-9TJQKA][CDHS])\b/g, (m) => pretty(m));
}

export function rankKey(text) {
  return text === "JK" ? "JK" : text[0];
}

/** A move's meld parts for people: "new 7S 7H 7D; add m3 JS" -> "7♠ 7♥ 7♦ · J♠ → m3". */
export function prettyParts(text, meldName = (id) => id) {
  return text.split(";").map((part) => {
    const toks = part.trim().split(/\s+/);
    if (toks[0] === "new") return prettyMove(toks.slice(1).join(" "));
    if (toks[0] === "add") return `${prettyMove(toks.slice(2).join(" "))} → ${meldName(toks[1])}`;
    return prettyMove(part.trim());
  }).join(" · ");
}

/** A short name for a meld in the page's language: "10s" / "groupe de 10", "4♣–7♣". */
export function meldLabel(meld) {
  if (!meld) return "";
  const cards = meld.cards.map((c) => c.c);
  if (meld.type === "sequence" && cards.length) {
    return `${pretty(cards[0])}–${pretty(cards[cards.length - 1])}`;
  }
  if (meld.rank && meld.rank !== "3") return t("meld.group", { rank: RANKS[meld.rank] || meld.rank });
  if (meld.type === "black3" || meld.rank === "3") return t("meld.black_threes");
  return t("meld.group", { rank: "?" });
}
