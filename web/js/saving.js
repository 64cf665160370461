// What the page keeps in the browser: the settings dialog's choice, the game saved after every
// move (resumed at the next visit, given back to a new worker), and the personal statistics.

import { t, reasonText, has } from "./i18n.js";
import * as R from "./render.js";
import * as C from "./comfort.js";
import * as RD from "./rules-data.js";
import * as Stats from "./stats.js";
import * as StatsView from "./stats-view.js";
import { readSave, writeSave, setAside, writePending, readPending, clearPending, LEFT_KEY, keepLeft, swapLeft } from "./save.js";
import { ui, say, resetTurnState } from "./store.js";
import { params, send, draw, applyView, onView, onMoveSent, engine, begin } from "./session.js";

const CHOICES = RD.choices;
const STORE_KEY = "samba.settings.v1";

/** Only the plain table saves (not an embedded table, a lesson or a game with friends). */
export const MODE_SAVES = !params.has("embed") && !params.has("lesson") && !params.has("net");

const $id = (id) => document.getElementById(id);

// ---------------------------------------------------------------- settings

export function loadSettings() {
  const rules = CHOICES.rules.includes("samba") ? "samba" : CHOICES.rules[0];
  const players = CHOICES.defaultPlayers[rules];
  const base = { rules, players, target: CHOICES.defaultTarget[rules], seats: ["human", ...Array(players - 1).fill("medium")] };
  try {
    const s = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
    if (s && CHOICES.players[s.rules] && CHOICES.players[s.rules].includes(s.players)) {
      const target = CHOICES.targets[s.rules].includes(s.target) ? s.target : CHOICES.defaultTarget[s.rules];
      return { ...base, ...s, target };
    }
  } catch (err) { /* private mode or corrupt: defaults */ }
  return base;
}

export function saveSettings() {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(ui.settings)); } catch (err) { /* ignore */ }
}

/** What the settings dialog offers for the settings chosen (the build's rules data). */
export function menu() {
  const s = ui.settings;
  return { rules: CHOICES.rules, players: CHOICES.players[s.rules], targets: CHOICES.targets[s.rules], levels: CHOICES.levels,
    sides: (CHOICES.sides[s.rules] || {})[s.players] || null };
}

export function openSettings() {
  R.renderSettings(ui.settings, menu(), true);
  const back = $id("btn-left");
  if (back) back.hidden = !(MODE_SAVES === true && readSave(LEFT_KEY)?.record);
}

// ---------------------------------------------------------------- a share link's game

/** The game a share link asks for, or the saved one, in words (the question before a link's game). */
export function gameInWords(g, deal = null) {
  const rules = RD.rulesName(g.rules, t, has);
  const words = t("share.ask.game", { rules, n: g.players, target: g.target });
  return deal ? t("share.ask.game_deal", { game: words, deal }) : words;
}

/** Is `saved` (readSave()) a game still in progress, which a link's game would replace? */
export function inProgress(saved) {
  return !!(saved && saved.record && !(saved.view && saved.view.phase === "game_over"));
}

/** The player chose the link's game: the game in progress is kept to go back to. */
export function leaveForLink(saved) {
  keepLeft(saved.raw);
}

/**
 * Back to the game left for a share link's game (the new-game dialog's button): the two games
 * change places, so the link's game can be gone back to the same way. A left game the engine
 * refuses changes nothing.
 */
export async function backToLeft() {
  const left = readSave(LEFT_KEY);
  if (!left || !left.record) return;
  clearPending();
  swapLeft();
  const res = await begin({ op: "load", record: left.record });
  if (!res.ok) {
    swapLeft();
    say(() => reasonText(res.error), "error", res.error && res.error.code);
    draw();
    return;
  }
  Stats.resume(left.record);
  syncSettings(left.record);
  /** @type {HTMLDialogElement | null} */ ($id("dlg-new"))?.close();
  say(() => t("share.left.done"), "info");
  draw();
}

function syncSettings(rec) {
  if (!rec || !CHOICES.players[rec.rules] || !CHOICES.players[rec.rules].includes(rec.players)) return;
  const seats = Array.isArray(rec.seats) && rec.seats.length === rec.players ? [...rec.seats] : ui.settings.seats;
  seats[0] = "human";
  ui.settings = { ...ui.settings, rules: rec.rules, players: rec.players, target: rec.target || ui.settings.target, seats };
}

// ---------------------------------------------------------------- saved game and statistics

/** Personal statistics: the plain table's games with one person at it count (js/stats.js). */
function countStats(view) {
  if (MODE_SAVES !== true || (view.seats || []).filter((x) => x === "human").length !== 1) return;
  if (Stats.countView(view, view.seats) && /** @type {HTMLDialogElement | null} */ ($id("dlg-stats"))?.open) StatsView.draw();
}

/** Saves the game (the engine's record) after every move; a kept move the save holds is dropped. */
function persist() {
  if (MODE_SAVES !== true || !ui.view) return;
  send({ op: "record" }).then((res) => {
    const view = ui.view && ui.view.version === res?.version ? ui.view : null;
    if (res && res.ok && res.record && writeSave(res.record, view)) {
      C.markSaved(res.version);
      const kept = readPending();
      if (kept && kept.version < res.version) clearPending();
    }
    if (res && res.ok && res.record) Stats.adopt(res.record);
  }, () => {});
}

onView((view, prev) => {
  if (!prev || prev.version !== view.version) persist();
  countStats(view);
});

// The player's move is kept from the moment it is sent until a save holds it.
onMoveSent((move, version) => { if (MODE_SAVES === true) writePending(move, version); });

/** A new game of the plain table starts counting (and a move kept from the last one is dropped). */
export function gameStarted(request) {
  if (MODE_SAVES && request.op === "new_game") {
    clearPending();
    Stats.newGame();
  }
}

// The kept move found at boot, an earlier visit's: only that one is played on the resumed game
// (a move this page sends while the engine loads is its own, and is sent as any other).
let bootKept = MODE_SAVES === true ? readPending() : null;

/**
 * After a saved game was loaded and drawn (its view `view`): the move `kept` (readPending()), sent
 * when the tab closed or the worker died before its save, is played if the game is at the version
 * it was made at, and its view drawn. A kept move that does not fit (another version, or one the
 * engine refuses) is dropped and changes nothing.
 */
async function playKept(kept, view) {
  if (!kept) return;
  let res = null;
  if (kept.version === view.version) {
    try { res = await send({ op: "move", move: kept.move, version: view.version }); } catch (err) { res = null; }
  }
  const now = readPending();
  if (now && now.version === kept.version && now.move === kept.move) clearPending();
  if (res && res.ok && res.view) applyView(res.view);
}

/** A save that cannot be resumed: keep it aside, say so in plain words, offer a new game. */
function brokenSave(raw, reason, error) {
  setAside(raw, error ? `${reason}: ${error.message || error.code}` : reason);
  document.body.dataset.save = "broken";
  const text = `${t(`save.broken.${reason}`)} ${t("save.set_aside")}`;
  say(text, "error", "bad_record");
  openSettings();
  C.showNotice(text);
  draw();
}

async function loadRecord(record) {
  try { return await send({ op: "load", record }); } catch (err) {
    return { ok: false, error: { code: "internal", message: err.message } };
  }
}

/** At boot: resume the saved game (mid-deal included), or set a broken one aside. */
export async function resumeSaved(saved) {
  if (saved.broken) { brokenSave(saved.raw, saved.broken); return; }
  const res = await loadRecord(saved.record);
  if (res.ok) {
    Stats.resume(saved.record);
    syncSettings(saved.record);
    // Keep what the player selected on the table drawn from the save while the engine loaded.
    const drawn = document.body.dataset.save === "drawn" && ui.view && ui.view.version === res.view.version;
    document.body.dataset.save = "resumed";
    if (!drawn) { ui.view = null; resetTurnState(); }
    say(() => t("save.resumed"), "info");
    applyView(res.view);
    const kept = bootKept;
    bootKept = null;
    await playKept(kept, res.view);
    return;
  }
  if (res.error && res.error.code === "bad_record") brokenSave(saved.raw, "engine", res.error);
  else { openSettings(); C.showNotice(reasonText(res.error)); }
}

/** After a new worker booted: give it the game back from the save. */
async function restoreGame() {
  const saved = readSave();
  C.engineState("restored");
  if (!saved || saved.broken) {
    openSettings();
    return;
  }
  const res = await loadRecord(saved.record);
  if (res.ok) {
    ui.view = null;
    resetTurnState();
    say(() => t("save.restored"), "info");
    applyView(res.view);
    await playKept(readPending(), res.view);
  } else if (res.error && res.error.code === "bad_record") brokenSave(saved.raw, "engine", res.error);
  else { say(() => reasonText(res.error)); draw(); }
}

/** Called when the engine is ready; true when this module took over (resume or restore). */
export function onEngineReady() {
  if (engine.restarts > 0) { restoreGame(); return true; }
  if (ui.early.resume || ui.early.start) return true; // the saved game or a new one is on its way
  if (!MODE_SAVES || params.has("rules")) return false;
  const saved = readSave();
  if (!saved) return false;
  resumeSaved(saved);
  return true;
}

export { readSave };
