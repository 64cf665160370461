// The action side of the renderer: the status line, the opening count and the message (a hint
// with its reasons), the engine's suggestions, and the action buttons. Every button comes from
// a move the view's targets hold; its data-arg is that move's text, sent as it is.

import { el, $ } from "./dom.js";
import { t } from "./i18n.js";
import { KEY_OF } from "./keyboard.js";
import { pretty } from "./cards.js";
import { movesOf, movesOfKind, partsOf, wordMove } from "./targets.js";
import { seatName, partsText, ontoHint } from "./words.js";

/** Whether the cards of a part text are all in the hand (not staged already). */
function partCardsAvailable(text, hand, stagedIds) {
  const pool = new Map();
  for (const c of hand) if (!stagedIds.has(c.id)) pool.set(c.c, (pool.get(c.c) || 0) + 1);
  for (const part of partsOf(text)) {
    for (const c of part.cards) {
      const n = pool.get(c) || 0;
      if (!n) return false;
      pool.set(c, n - 1);
    }
  }
  return true;
}

const cardCount = (text) => partsOf(text).reduce((n, p) => n + p.cards.length, 0);

export function renderSuggest(f) {
  const { v, ui, legal, myTurn } = f;
  const box = $("suggest");
  box.replaceChildren();
  if (!legal || !myTurn || (ui.privacy !== null && ui.privacy !== undefined)) return;
  if (v.phase === "draw") {
    // The engine's ways to take the pile, fewest cards first: a chip picks the cards (and
    // stages the other melds), as a meld suggestion stages its melds; "Take the pile" takes it.
    const takes = distinct(movesOfKind(v, "take").map((m) => m.text))
      .sort((a, b) => cardCount(a) - cardCount(b)).slice(0, 6);
    chips(box, t("action.take"), takes, "take", v);
    return;
  }
  if (!legal.melds || !legal.melds.length) return;
  const parts = distinct(legal.melds.filter((p) => partCardsAvailable(p, v.hand, f.stagedIds))).slice(0, 8);
  chips(box, t("action.suggest"), parts, "part", v);
}

/**
 * One suggestion per distinct choice: suggestions whose parts differ only in which of the
 * same-rank cards of a group they use (7♠ 7♥ or 7♦ 7♥ for the sevens) look alike to a player
 * and play alike; the first of each is kept. A part whose cards are of several ranks (a
 * sequence) is told by its cards themselves.
 */
function distinct(texts) {
  const seen = new Set();
  const out = [];
  const rank = (c) => (c === "JK" ? "JK" : c.slice(0, -1));
  for (const text of texts) {
    const key = partsOf(text).map((p) => {
      const ranks = p.cards.map(rank);
      const natural = ranks.filter((r) => r !== "JK" && r !== "2");
      const group = natural.length && natural.every((r) => r === natural[0]);
      const cards = group ? p.cards.map((c) => (rank(c) === natural[0] ? natural[0] : c)) : p.cards;
      return `${p.kind}:${p.meld ?? ""}:${[...cards].sort().join(" ")}`;
    }).sort().join(";");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

/** A labelled row of chips, one per move text (`data-<attr>` holds the text): each stages it. */
function chips(box, label, texts, attr, v) {
  if (!texts.length) return;
  box.append(el("span", "suggest-label", label));
  for (const text of texts) {
    const b = el("button", "chip", partsText(partsOf(text), v));
    b.type = "button";
    b.dataset[attr] = text;
    box.append(b);
  }
}

function button(action, label, opts = {}) {
  const b = el("button", `btn ${opts.cls || ""}`.trim(), label);
  b.type = "button";
  b.dataset.action = action;
  if (opts.arg) b.dataset.arg = opts.arg;
  if (opts.disabled) b.disabled = true;
  const key = KEY_OF[action === "move" ? opts.arg : action];
  if (key) b.setAttribute("aria-keyshortcuts", key);
  return b;
}

/** A red three to lay: a move the engine lists as one (`targets.red3`). */
function isRed3(m) {
  return m.red3 && m.cards.length === 1;
}

export function renderActions(f) {
  const { v, ui, legal, myTurn, selCards } = f;
  const box = $("actions");
  box.replaceChildren();
  const moves = legal ? legal.moves : [];
  box.dataset.moves = moves.join("|");
  if (!myTurn || (ui.privacy !== null && ui.privacy !== undefined)) return;
  const busy = ui.busy;
  const word = (w, label, cls) => {
    const m = wordMove(v, w);
    if (m) box.append(button("move", t(label), { arg: m, cls, disabled: busy }));
  };
  if (v.phase === "answer") {
    word("answer yes", "action.answer_yes", "btn-primary");
    word("answer no", "action.answer_no");
    return;
  }
  if (v.phase === "deal_over" || v.phase === "game_over") {
    word("next", "action.next", "btn-primary");
    return;
  }
  const hasSel = selCards.length > 0;
  if (v.phase === "draw") word("draw", "action.draw");
  if (v.phase === "draw" && f.canTake) {
    box.append(button("take", t("action.take"), { cls: selCards.length >= 2 ? "btn-primary" : "", disabled: busy || selCards.length < 2 }));
  }
  box.append(button("new", t("action.new_meld"), { disabled: busy || !hasSel }));
  if (ui.staged.length) {
    if (v.phase === "meld") box.append(button("confirm", t("action.confirm"), { cls: "btn-primary", disabled: busy }));
    box.append(button("takeback", t("action.take_back"), { disabled: busy }));
  }
  if (v.phase === "meld") {
    box.append(button("discard", t("action.discard"), { cls: ui.staged.length ? "" : "btn-primary", disabled: busy || selCards.length !== 1 }));
    if (legal.can_ask) box.append(button("ask", t("action.ask"), { disabled: busy || selCards.length > 1 || (!selCards.length && !ui.staged.length) }));
  }
  if (hasSel) box.append(button("clear", t("action.clear"), { cls: "btn-ghost", disabled: busy }));
  box.append(button("hint", t("action.hint"), { cls: "btn-ghost", disabled: busy }));
  for (const m of movesOf(v)) {
    if (m.text === wordMove(v, "pass")) box.append(button("move", t("action.pass"), { arg: m.text, disabled: busy }));
    else if (m.text === wordMove(v, "end")) box.append(button("move", t("action.end"), { arg: m.text, cls: "btn-primary", disabled: busy }));
    else if (isRed3(m)) box.append(button("move", t("action.red3", { card: pretty(m.cards[0]) }), { arg: m.text, disabled: busy }));
  }
}

export function renderStatus(f) {
  const { v, ui, myTurn, selCards } = f;
  const name = (s) => seatName(s, v.seat);
  const status = $("status");
  let text;
  if (v.phase === "deal_over") text = t("status.deal_over");
  else if (v.phase === "game_over") text = t("status.game_over");
  else if (v.phase === "answer" && myTurn) {
    const asker = v.turn && v.turn.asker >= 0 ? v.turn.asker : v.current;
    text = t("status.answer", { name: name(asker) });
    const pending = v.turn && v.turn.pending;
    if (pending) text += " " + t("status.proposal", { move: partsText(partsOf(pending), v) });
  } else if (!myTurn) {
    text = v.phase === "answer" ? t("status.waiting_answer", { name: name(v.current) })
      : t("status.waiting", { name: name(v.current) });
  } else if (ui.mergeFrom !== null) text = t("status.merge_pick");
  else if (v.phase === "draw") {
    // The pile can be taken with a pair only when the engine offers a way (not blocked, frozen
    // against the hand, ...): otherwise the status does not suggest it.
    text = t(f.canTake ? "status.your_draw" : "status.your_draw_stock")
      + (f.onto.size ? " " + t(ontoHint(f.onto, v)) : "");
  } else text = v.rules.pass_with_one ? t("status.your_meld_dutch") : t("status.your_meld");
  status.textContent = text;
  status.classList.toggle("mine", myTurn);

  const opening = $("opening");
  opening.replaceChildren();
  if (ui.staged.length && ui.check) {
    const c = ui.check;
    if (!v.opened[v.my_side] && c.minimum !== undefined && c.minimum !== null) {
      if (v.phase === "draw" && selCards.length < 2) {
        // Before drawing, an opening takes the pile: its count needs the pair it is taken with.
        opening.append(el("span", "count low", t("status.opening_pick_pair", { minimum: c.minimum })));
      } else {
        const ok = (c.opening_points || 0) >= c.minimum;
        opening.append(el("span", `count ${ok ? "ok" : "low"}`, t("status.opening", { points: c.opening_points || 0, minimum: c.minimum })));
      }
    }
    if (c.legal) opening.append(el("span", "check ok", t("status.legal_staged")));
    else if (c.reason) opening.append(el("span", "check bad", c.reason));
  }
  if (selCards.length > 1) opening.append(el("span", "selcount", t("status.selected", { n: selCards.length })));
  renderMessage(ui.message);
}

/** The message (its text made again in the page's language now); a hint adds its reasons. */
function renderMessage(m) {
  const msg = $("message");
  const text = m ? (typeof m.text === "function" ? m.text() : String(m.text ?? "")) : "";
  const details = m && m.details ? m.details() : null;
  if (details && (details.why.length || details.careful.length)) {
    const lists = [el("span", "msg-main", text)];
    if (details.why.length) lists.push(reasonList("why", t("hint.why"), details.why));
    if (details.careful.length) lists.push(reasonList("careful", t("hint.careful"), details.careful));
    msg.replaceChildren(...lists);
  } else {
    msg.textContent = text;
  }
  msg.dataset.kind = m ? m.kind : "";
  if (m && m.code) msg.dataset.code = m.code; else delete msg.dataset.code;
}

function reasonList(cls, label, lines) {
  const box = el("div", `hint-${cls}`);
  const list = el("ul");
  for (const line of lines) list.append(el("li", null, line));
  box.append(el("span", "hint-label", label), list);
  return box;
}
