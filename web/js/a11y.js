// Accessibility helpers of the renderer (render.js calls them; they touch only the elements it
// passes in, plus the focus): spoken names for cards and melds, keeping the keyboard focus
// across redraws, the "you need" reminder, and the polite live region that reads out what
// the other players did. No rules here: every fact comes from the view.

import { t } from "./i18n.js";

/** "7S" -> "seven of spades" (in the page's language); "JK" -> "Joker". */
export function cardName(text) {
  if (text === "JK") return t("card.joker");
  return t("a11y.card", { rank: t(`rank.${text[0]}`), suit: t(`suit.${text[1]}`) });
}

/** A meld for a screen reader: "group of sevens, 4 cards, needs 3 more" / "..., natural canasta". */
export function meldName(m) {
  const cards = m.cards.map((c) => c.c);
  let name;
  if (m.type === "sequence" && cards.length) {
    const first = cards[0];
    const last = cards[cards.length - 1];
    name = t("a11y.sequence", {
      suit: t(`suit.${first[1]}`), from: t(`rank.${first[0]}`), to: t(`rank.${last[0]}`), n: m.size,
    });
  } else if (m.rank) {
    name = t("a11y.group", { rank: t(`rankpl.${m.rank}`), n: m.size });
  } else {
    name = t("a11y.group", { rank: t("rankpl.3"), n: m.size });
  }
  const state = m.canasta ? t(`canasta.${m.canasta}`) : t("a11y.needs", { n: m.needs });
  return `${name}, ${state}`;
}

// ---------------------------------------------------------------- focus across redraws

/** A selector that finds the focused element again after the renderer rebuilt it. */
export function focusKey(active) {
  if (!active || active === document.body || !(active instanceof Element)) return null;
  const esc = (s) => String(s).replace(/["\\]/g, "\\$&");
  if (active.id) return `#${CSS.escape(active.id)}`;
  const data = /** @type {HTMLElement} */ (active).dataset;
  if (active.matches("#hand .card[data-id]")) return `#hand .card[data-id="${esc(data.id)}"]`;
  if (active.matches("[data-meld]")) return `[data-meld="${esc(data.meld)}"][data-mine="1"]`;
  if (active.matches("[data-staged]")) return `[data-staged="${esc(data.staged)}"]`;
  if (active.matches("#actions button[data-action]")) {
    const arg = data.arg ? `[data-arg="${esc(data.arg)}"]` : "";
    return { sel: `#actions button[data-action="${esc(data.action)}"]${arg}`, fallback: "#actions button:not(:disabled)" };
  }
  if (active.matches("#suggest button")) return { sel: "#suggest button", fallback: "#hand .card[data-id]" };
  return null;
}

/** Puts the focus back where it was, when the redraw took it away. */
export function restoreFocus(key) {
  if (!key) return;
  const active = document.activeElement;
  if (active && active !== document.body && document.contains(active)) return;
  const sel = typeof key === "string" ? key : key.sel;
  let target = document.querySelector(sel);
  if (!target && typeof key !== "string" && key.fallback) target = document.querySelector(key.fallback);
  // A hand card that left the hand (discarded, melded): the hand's first card.
  if (!target && sel.startsWith("#hand")) target = document.querySelector("#hand .card[data-id]");
  if (target && !target.closest("[hidden]")) target.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- reminder

/** What a side lacks to go out (the view's requirement_missing entry) in words. */
export function lackText(lack) {
  if (lack.sequence) return lack.canastas ? t("remind.canastas_seq", { n: lack.canastas }) : t("remind.sequence");
  return t("remind.canastas", { n: lack.canastas });
}

/** "You need: 50 points to open · 2 more canastas to go out" for the viewer's side (only
 *  what is missing), or "enough canastas to go out". */
export function renderReminder(box, v, el) {
  box.replaceChildren();
  if (!v || v.phase === "deal_over" || v.phase === "game_over") return;
  const side = v.my_side;
  const opened = v.opened[side];
  // What the side still lacks to go out is the engine's word (requirement_missing: how many
  // more canastas, and whether one must be an escalera); a view without it: the count alone.
  const lack = Array.isArray(v.requirement_missing) ? v.requirement_missing[side]
    : { canastas: Math.max(0, v.requirement - v.canastas[side]), sequence: false };
  const missing = lack.canastas;
  // Only what is still needed follows "You need:"; with nothing left, it says so alone.
  const needs = [];
  if (!opened) needs.push(el("span", "reminder-item", t("remind.opening", { n: v.minimum[side] })));
  if (missing || lack.sequence) needs.push(el("span", "reminder-item", lackText(lack)));
  if (needs.length) box.append(el("span", "reminder-label", t("remind.label")), ...needs);
  else box.append(el("span", "reminder-item ok", t("remind.ready")));
  box.dataset.opened = opened ? "1" : "0";
  box.dataset.missing = String(missing);
  box.dataset.sequence = lack.sequence ? "1" : "0";
}

// ---------------------------------------------------------------- live region

/** Reads out the other players' new log lines, and "Your turn" when it comes (what was read
 *  out last is kept on the live region itself). */
export function announce(box, v, myTurn, statusText) {
  const lastCount = Number(box.dataset.lines || 0);
  const wasMyTurn = box.dataset.myTurn === "1";
  const lines = [];
  const items = document.querySelectorAll("#log-list li");
  const fresh = items.length - lastCount;
  // A handful of new lines is what the others just did; many at once is a redrawn log
  // (new deal, new language, another hotseat player), which is not news.
  if (fresh > 0 && fresh <= 12) {
    for (let i = lastCount; i < items.length; i++) {
      const li = items[i];
      if (!li.classList.contains("me") && li.textContent) lines.push(li.textContent);
    }
  }
  box.dataset.lines = String(items.length);
  if (myTurn && !wasMyTurn) lines.push(`${t("a11y.your_turn")} ${statusText}`);
  box.dataset.myTurn = myTurn ? "1" : "0";
  if (lines.length) box.textContent = lines.join(". ");
}
