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

/** Card codes written in prose (a lesson's text: "take 8S 8H") shown as faces ("8♠ 8♥"). */
export function prettyProse(text) {
  return text.replace(/\b(JK|[2-9TJQKA][CDHS])\b/g, (m) => pretty(m));
}

export function rankKey(text) {
  return text === "JK" ? "JK" : text[0];
}

/** A short name for a meld in the page's language: "10s" / "groupe de 10", "4♣–7♣". */
export function meldLabel(meld) {
  if (!meld) return "";
  const cards = meld.cards.map((c) => c.c);
  if (meld.type === "sequence" && cards.length) {
    return `${pretty(cards[0])}–${pretty(cards[cards.length - 1])}`;
  }
  if (meld.type === "black3") return t("meld.black_threes");
  if (meld.rank) return t("meld.group", { rank: RANKS[meld.rank] || meld.rank });
  return t("meld.group", { rank: "?" });
}
