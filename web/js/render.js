// The renderer's entry: the only part of the page that touches the DOM. It draws the table from
// the page's one state object (store.js: the engine's view plus the selection, staged melds and
// message), reading it and never changing it, through its parts: view-table.js (scores, seats,
// melds, stock and pile), view-hand.js, view-actions.js (status, message, suggestions, buttons),
// view-log.js, view-dialogs.js, and view-input.js (listeners that call intents).

import { $, fillLanguagePicker, translateMeta } from "./dom.js";
import { t, num } from "./i18n.js";
import * as A11y from "./a11y.js";
import { el } from "./dom.js";
import { findMove, ontoTargets, mergeTargets, canTakePile, movesOf, moveKind, partsOf } from "./targets.js";
import { renderScoreboard, renderSeats, renderSides, renderDecks } from "./view-table.js";
import { renderHand } from "./view-hand.js";
import { renderSuggest, renderActions, renderStatus } from "./view-actions.js";
import { renderLog, relabelLog } from "./view-log.js";
import { renderDialogs, renderSettings } from "./view-dialogs.js";
import { bindInputs as bind } from "./view-input.js";

export { sideName, moveInWords } from "./words.js";
export { renderSettings };

// ---------------------------------------------------------------- static text and input

export function applyStaticText() {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) {
    node.textContent = t(node.dataset.i18n);
  }
  document.title = t("app.title");
  translateMeta();
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n-aria]"))) {
    node.setAttribute("aria-label", t(node.dataset.i18nAria));
  }
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-num]"))) node.textContent = num(Number(node.dataset.num));
  const pick = $("lang-select");
  if (pick) {
    fillLanguagePicker(pick);
  }
  // Log lines are drawn once each: write them all again in the new language. What the live
  // region read out is past news: it is emptied rather than left in the old language.
  relabelLog();
  if ($("live")) $("live").textContent = "";
}

/** The board's shades: more of it above or below the part on screen (it scrolls). */
export function shadeBoard() {
  const b = $("board");
  if (!b) return;
  b.dataset.moreAbove = b.scrollTop > 2 ? "1" : "0";
  b.dataset.moreBelow = b.scrollTop + b.clientHeight < b.scrollHeight - 2 ? "1" : "0";
}

let shadePending = false;

/**
 * shadeBoard before the next frame, not at once: measuring the board right after a render
 * forces a layout of the whole page in the middle of the script (the frame lays it out anyway).
 */
function shadeSoon() {
  if (shadePending) return;
  shadePending = true;
  const run = () => { if (shadePending) { shadePending = false; shadeBoard(); } };
  requestAnimationFrame(run);
  setTimeout(run, 250); // a hidden tab runs no animation frames
}

/** Installs the (delegated) listeners once; each calls one intent. */
export function bindInputs(intents) {
  bind(intents, shadeBoard);
}

export function renderBoot(boot) {
  const box = $("boot-status");
  box.textContent = boot.text;
  box.dataset.state = boot.state;
  if (boot.state === "ready") document.body.dataset.ready = "1";
  if (boot.retry) {
    // A failed boot offers a new try at once (a new worker; no reload).
    const button = document.createElement("button");
    button.type = "button";
    button.id = "boot-retry";
    button.className = "boot-retry";
    button.textContent = t("boot.retry");
    button.addEventListener("click", boot.retry, { once: true });
    box.append(" ", button);
  }
}

// ---------------------------------------------------------------- the table

/** Draws the table; the element that had the keyboard focus keeps it (or its redrawn twin). */
export function render(ui) {
  const key = A11y.focusKey(document.activeElement);
  renderTable(ui);
  A11y.restoreFocus(key);
  shadeSoon();
}

/** What every part draws from: the view, the state, and what the view's targets say now. */
function frameOf(ui) {
  const v = ui.view;
  const legal = v.legal || null;
  const myTurn = !!legal && (v.current === v.seat || v.current === null);
  const selCards = v.hand.filter((c) => ui.selected.has(c.id));
  // Melds every selected card may join (the engine's legal.adds).
  let addTargets = new Set();
  if (legal && selCards.length) {
    let first = true;
    for (const c of selCards) {
      const ids = new Set(legal.adds[c.c] || []);
      addTargets = first ? ids : new Set([...addTargets].filter((x) => ids.has(x)));
      first = false;
    }
  }
  // The hint shown, when it is for this view: the cards (as many of each as it names), melds,
  // pile or stock it touches.
  const hint = ui.hint && ui.hint.view === v ? findMove(v, ui.hint.move) : null;
  let hintCards = null;
  if (hint) {
    const named = new Map();
    for (const p of partsOf(hint.text)) for (const c of p.cards) named.set(c, (named.get(c) || 0) + 1);
    hintCards = hint.cards.map((c) => [c, named.get(c) || 1]);
  }
  return {
    v, ui, legal, myTurn, selCards,
    oneSel: selCards.length === 1 ? selCards[0] : null,
    stagedIds: new Set(ui.staged.flatMap((p) => p.cards.map((c) => c.id))),
    addTargets,
    onto: ontoTargets(v),
    merges: mergeTargets(v, ui.mergeFrom),
    canTake: canTakePile(v),
    stockMove: movesOf(v).some((m) => moveKind(m) === "stock"),
    hint, hintCards,
  };
}

function renderTable(ui) {
  const v = ui.view;
  const body = document.body;
  body.classList.toggle("show-log", !!ui.showLog);
  // "See the pile" once there is a pile to see.
  const pileView = $("btn-pile-view");
  if (pileView) pileView.hidden = !v;
  if (!v) {
    $("status").textContent = t("status.no_game");
    return;
  }
  const f = frameOf(ui);
  const share = $("btn-share");
  if (share) share.hidden = !!ui.noShare;
  body.dataset.phase = v.phase;
  const privacy = ui.privacy !== null && ui.privacy !== undefined;
  body.dataset.privacy = privacy ? "1" : "0";
  $("privacy").hidden = !privacy;
  if (privacy) {
    const who = v.seat === 0 ? t("seat.name.0") : t(`seat.${v.seat}`);
    $("privacy-title").textContent = t("pass.title", { name: who });
    $("btn-reveal").textContent = t("pass.show", { name: who });
  }
  body.dataset.current = String(v.current);
  body.dataset.myTurn = f.myTurn ? "1" : "0";
  body.dataset.version = String(v.version);
  body.dataset.busy = ui.busy ? "1" : "0";
  body.dataset.staged = String(ui.staged.length);
  if (f.hint) body.dataset.hint = f.hint.text; else delete body.dataset.hint;

  renderScoreboard(v);
  renderSeats(v, ui);
  renderSides(f);
  renderDecks(f);
  renderHand(f);
  renderSuggest(f);
  renderActions(f);
  renderStatus(f);
  renderLog(v);
  A11y.renderReminder($("reminder"), v, el);
  A11y.announce($("live"), v, f.myTurn, $("status").textContent);
  renderDialogs(v, ui);
}
