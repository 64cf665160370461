// The session with the engine: requests in order, each new view taken in (and drawn), the
// player's moves, the computers' turns, the staged melds' check, a new game. It never decides
// what is legal: the engine's view and answers do.

import { EngineClient } from "./bridge.js";
import { t, reasonText } from "./i18n.js";
import * as R from "./render.js";
import * as A from "./animate.js";
import * as P from "./prefs.js";
import { ui, say, resetTurnState, selectedCards } from "./store.js";
import { write } from "./targets.js";

export const params = new URLSearchParams(location.search);
// ?pace=<ms> (tests) overrides the speed preference.
export const PACE_OVERRIDE = params.has("pace") ? Math.max(0, Number(params.get("pace")) || 0) : null;
// Page modes plug in through `modeHooks` (js/embed.js, js/lessons.js); "table" is the plain game.
// [netplay] ?net=host|join|reply: play with friends (js/netplay.js).
export const MODE = params.has("embed") ? "embed" : params.has("lesson") ? "lesson" : params.has("net") ? "net" : "table";
export const modeHooks = {
  start: null,        // () => void: replaces the settings dialog once the engine is ready
  moveRequest: null,  // (move, version) => request object sent instead of {op: "move"}
  moveAnswer: null,   // (response) => null when played, else {text, kind, code} (nothing changed)
  moved: null,        // ({seat, move, view}) => void after any seat's move was applied
  viewed: null,       // (view, prev) => void after every new view
  language: null,     // (lang) => void after the page's language changed
  send: null,         // [netplay] (request) => a promise of its response, or null: to the engine
};

export const engine = new EngineClient();

// Listeners of every new view (saving.js: the save and the statistics).
const viewListeners = [];
export function onView(fn) { viewListeners.push(fn); }
// Listeners of the player's moves as they are sent, before the engine has them (saving.js: a
// move is kept until its save is written).
const moveListeners = [];
export function onMoveSent(fn) { moveListeners.push(fn); }
// Listeners of a new language, once its words are in (app.js: an open deal review is written
// again).
export const languageListeners = [];
export function onLanguage(fn) { languageListeners.push(fn); }

export function isComputer(view, seat) {
  if (seat === null || seat === undefined) return false;
  // [netplay] "remote": a friend's seat on another device, not a computer.
  return view.seats ? view.seats[seat] !== "human" && view.seats[seat] !== "remote" : seat !== view.seat;
}

/** Draws the page from the state (animating cards that moved since the last view). */
export function draw() {
  const v = ui.view;
  const botTurn = !!v && v.phase !== "deal_over" && v.phase !== "game_over" && isComputer(v, v.current);
  let catchUp = false;
  if (ui.prefs && ui.prefs.skip && PACE_OVERRIDE === null && botTurn) {
    if (ui.skipping) return;
    ui.skipping = true;
  } else if (ui.skipping) {
    ui.skipping = false;
    catchUp = true;
  }
  const prev = ui.drawn;
  ui.drawn = v;
  let fromSeat = null;
  if (prev && v && prev !== v && prev.deal === v.deal && v.version > prev.version
      && prev.phase !== "deal_over" && isComputer(prev, prev.current)) fromSeat = prev.current;
  // Only a new view moves cards: a selection (same view) must not animate, or the lifted card
  // would be drawn over its neighbour and take the next click meant for it.
  // The same version of the same deal (the engine's answer to the saved game, say) moved
  // nothing either: no measuring of every card (a forced layout) for it.
  const ms = !v || !prev || prev === v || catchUp || prev.deal !== v.deal || prev.version === v.version
    ? 0 : P.travelMs(ui.prefs);
  const snap = ms ? A.capture() : null;
  R.render(ui);
  if (snap) A.play(snap, { ms, fromSeat });
}

// ---------------------------------------------------------------- requests

let queue = Promise.resolve();
/** Requests run one at a time, in order. */
export function send(request) {
  const p = queue.then(() => (modeHooks.send && modeHooks.send(request)) || engine.request(request));
  queue = p.catch(() => {});
  return p;
}

/** A new worker: what was queued for the old one is dropped. */
export function restartEngine() {
  queue = Promise.resolve();
  engine.restart();
}

export function stopBot() {
  if (ui.bot.timer) { clearTimeout(ui.bot.timer); ui.bot.timer = null; }
}

/** Takes in a view from the engine: the page's per-turn state follows it, then it is drawn. */
export function applyView(view) {
  const prev = ui.view;
  ui.view = view;
  // A new deal or game invalidates the page's per-turn state.
  if (!prev || prev.deal !== view.deal || view.version < prev.version) resetTurnState();
  if (ui.hint && ui.hint.view.version !== view.version) say(null);
  // Drop selections of cards no longer in hand.
  const ids = new Set(view.hand.map((c) => c.id));
  for (const id of [...ui.selected]) if (!ids.has(id)) ui.selected.delete(id);
  ui.staged = ui.staged.filter((p) => p.cards.every((c) => ids.has(c.id)));
  // Hotseat: when the view turns to another person's hand, hide it until they take the device.
  const humans = (view.seats || []).filter((s) => s === "human").length;
  ui.privacy = humans > 1 && ui.revealed !== view.seat ? view.seat : null;
  for (const fn of viewListeners) fn(view, prev);
  draw();
  if (modeHooks.viewed) modeHooks.viewed(view, prev);
  scheduleBot();
}

// A check before each of the player's moves (app.js: "warn me before a blunder"): resolves to
// false when the player takes the move back; nothing is sent then.
export const beforeMove = { check: null };

/** Plays one move text for the human; on refusal shows the reason and changes nothing. */
export async function playMove(move, { keepOnError = true } = {}) {
  if (!ui.view || ui.busy) return false;
  ui.busy = true;
  say(null);
  draw();
  if (beforeMove.check && !(await beforeMove.check(move, ui.view))) {
    ui.busy = false;
    draw();
    return false;
  }
  let res;
  // The cards chosen for this move; cards tapped while it is on its way are the next choice.
  const chosen = new Set(ui.selected);
  for (const fn of moveListeners) fn(move, ui.view.version);
  try {
    res = await send(modeHooks.moveRequest ? modeHooks.moveRequest(move, ui.view.version)
      : { op: "move", move, version: ui.view.version });
  } catch (err) {
    ui.busy = false;
    say(() => t("error.generic", { message: err.message }));
    draw();
    return false;
  }
  ui.busy = false;
  const refusal = res.ok && modeHooks.moveAnswer ? modeHooks.moveAnswer(res) : null;
  if (refusal) {
    say(refusal.text, refusal.kind || "error", refusal.code || null);
    if (!keepOnError) resetTurnState();
    draw();
    return false;
  }
  if (res.ok) {
    const seat = ui.view.current;
    // Staged melds whose cards are still in hand survive (e.g. staged before drawing), and so
    // do cards tapped while the move was on its way (applyView drops any no longer in hand).
    for (const id of chosen) ui.selected.delete(id);
    ui.mergeFrom = null;
    ui.check = null;
    applyView(res.view);
    if (modeHooks.moved) modeHooks.moved({ seat, move: res.move || move, view: res.view });
    if (ui.staged.length) runCheck();
    return true;
  }
  if (res.error && res.error.code === "stale_version") await refresh();
  say(() => reasonText(res.error), "error", res.error && res.error.code);
  if (!keepOnError) resetTurnState();
  draw();
  return false;
}

export async function refresh() {
  const res = await send({ op: "view" });
  if (res.ok && res.view) applyView(res.view);
}

// ---------------------------------------------------------------- the computers' turns

function scheduleBot() {
  const v = ui.view;
  if (ui.bot.timer || !v) return;
  if (v.phase === "deal_over" || v.phase === "game_over") return;
  if (!isComputer(v, v.current)) { ui.thinking = null; return; }
  ui.thinking = v.current;
  draw();
  ui.bot.timer = setTimeout(runBot, P.paceMs(ui.prefs, PACE_OVERRIDE));
}

async function runBot() {
  const v = ui.view;
  let res;
  try {
    res = await send({ op: "bot", version: v.version });
  } catch (err) {
    ui.bot.timer = null;
    ui.thinking = null;
    say(() => t("error.generic", { message: err.message }));
    draw();
    return;
  }
  ui.bot.timer = null;
  ui.thinking = null;
  if (res.ok) {
    applyView(res.view);
    if (modeHooks.moved) modeHooks.moved({ seat: res.seat, move: res.move, view: res.view });
  } else if (res.error && res.error.code === "stale_version") {
    await refresh();
  } else {
    // A computer that could not move: say why, and try again a couple of times.
    say(() => reasonText(res.error), "error", res.error && res.error.code);
    draw();
    if (++ui.bot.failures <= 2) ui.bot.timer = setTimeout(() => { ui.bot.timer = null; scheduleBot(); }, 1500);
    return;
  }
  ui.bot.failures = 0;
}

// ---------------------------------------------------------------- the staged melds' check

/** Asks the engine whether the staged melds (with the selected pair in the draw phase) are a
 *  legal move, and their opening count. Only while the viewer is to draw or meld: a proposal
 *  waiting for the partner's answer is no meld to check. */
export async function runCheck() {
  const v = ui.view;
  const seq = ++ui.checkSeq;
  const acting = v && v.legal && v.current === v.seat && (v.phase === "draw" || v.phase === "meld");
  if (!acting || !ui.staged.length) { ui.check = null; draw(); return; }
  const sel = selectedCards();
  const move = v.phase === "draw" && sel.length >= 2 ? write.take(sel, ui.staged) : write.meld(ui.staged);
  let res;
  try { res = await send({ op: "check", move }); } catch (err) { return; }
  if (seq !== ui.checkSeq || ui.view !== v) return;
  if (!res.ok && res.error) {
    ui.check = { legal: false, reason: reasonText(res.error) };
  } else {
    ui.check = { ...res, reason: res.legal ? "" : reasonText({ code: res.code, message: res.message }) };
    // In the draw phase a meld is not yet playable; the count is what matters there.
    if (v.phase === "draw" && !sel.length && res.code === "wrong_phase") ui.check.reason = "";
  }
  draw();
}

/** Starts a game from a request (new_game, scenario, lesson): resets the page's state. */
export async function begin(request, onStarted = null) {
  stopBot();
  ui.busy = true;
  let res;
  try { res = await send(request); } catch (err) { res = { ok: false, error: { code: "internal", message: err.message } }; }
  ui.busy = false;
  if (res.ok) {
    if (onStarted) onStarted(request);
    ui.view = null;
    ui.game += 1;
    ui.revealed = null;
    resetTurnState();
    say(null);
    applyView(res.view);
  }
  return res;
}
