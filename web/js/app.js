// The page's entry module: boots the page (messages, rules data, the engine), installs the
// page mode (embed, lessons, friends) and hands each module its part. The state lives in
// store.js; session.js talks to the engine, intents.js turns clicks into moves, saving.js keeps
// games, settings and statistics; render.js draws.
//
// Imports run one way: app -> intents, saving -> session -> render -> view-* -> words, targets
// -> cards, i18n; every module reads the one state object of store.js, only the controller's
// modules change it.

import "./style-fallback.js";   // first: a host policy that refused the inline styles
import { EngineClient } from "./bridge.js";
import { loadMessages, t, reasonText, pickLanguage, num } from "./i18n.js";
import * as R from "./render.js";
import * as C from "./comfort.js";
import * as P from "./prefs.js";
import { sharedSetup } from "./share.js";
import { LEFT_KEY } from "./save.js";
import { paintSavedView } from "./boot-view.js";
import * as RD from "./rules-data.js";
import * as StatsView from "./stats-view.js";
import { renderCoach, askBlunder } from "./coach-view.js";
import { ui, say } from "./store.js";
import { MODE, params, modeHooks, engine, send, begin, draw, applyView, stopBot, restartEngine, onLanguage, beforeMove, onView } from "./session.js";
import { intents } from "./intents.js";
import { MODE_SAVES, loadSettings, readSave, resumeSaved, onEngineReady, gameInWords, inProgress, leaveForLink, backToLeft } from "./saving.js";

const $id = (id) => document.getElementById(id);
ui.prefs = P.loadPrefs();

/** The rules data from the engine (the build's file is missing): a worker of its own, once. */
async function engineRulesData() {
  const probe = new EngineClient();
  try {
    await new Promise((resolve, reject) => {
      probe.start({ onReady: resolve, onError: (kind, message) => reject(new Error(message || kind)) });
    });
    const res = await probe.request({ op: "rules_data" });
    return res.ok ? res.rules_data : null;
  } catch (err) {
    return null;
  } finally {
    if (probe.worker) probe.worker.terminate();
  }
}

/** What mode modules (embed, lessons, friends) and boot-view.js may use. */
const controller = {
  ui, intents, modeHooks, params, send, begin, draw, say, applyView, engine,
  choices: RD.choices,
};

/** The worker died (or reported an error after its boot): start a new one and restore. */
async function engineDied(kind) {
  if (kind === "runtime") {
    // It reported an error but may still answer: ask it before replacing it.
    const alive = await Promise.race([
      engine.request({ op: "view" }).then(() => true, () => false),
      new Promise((resolve) => { setTimeout(() => resolve(false), 5000); }),
    ]);
    if (alive) return;
  }
  if (engine.restarts >= 5) {
    R.renderBoot({ state: "error", text: t("save.restart_failed") });
    return;
  }
  stopBot();
  ui.busy = false;
  ui.thinking = null;
  C.engineState("restarting");
  R.renderBoot({ state: "loading", text: t("save.restarting") });
  say(() => t("save.restarting"), "info");
  draw();
  restartEngine();
}

/** A request whose failure (the worker gone, say) comes back as an error reply. */
async function ask(request) {
  try { return await send(request); } catch (err) { return { ok: false, error: { code: "internal", message: err.message } }; }
}

// The coach (docs/frontend.md, "The coach"): the player starts it from the deal review; the
// worker weighs a few samples a request (docs/bridge.md, "The coach"), and each request waits
// until the page is waiting on nothing else (no move on its way, no computer about to play), so
// the page answers at once. Play moving on (the next deal, a new game) stops it.
// Browser tests may give the coach more work (?testhooks=1&coach_budget=seconds per decision).
const COACH_BUDGET = params.has("testhooks") && Number(params.get("coach_budget")) > 0
  ? Number(params.get("coach_budget")) : null;

function coachStop() {
  const run = ui.coach;
  if (!run || run.state !== "running") return;
  run.state = "stopped";
  send({ op: "coach", action: "stop" }).catch(() => {});
  drawCoach();
}

const coachHandlers = {
  start() { coachRun(); },
  stop: coachStop,
  jump(step) { if (step >= 0) comfort.reviewStep(step); },
};

onView((view) => {
  const run = ui.coach;
  if (run && run.state === "running" && (run.game !== ui.game || view.deal !== run.deal)) coachStop();
});

function drawCoach() {
  const r = ui.review;
  // A friend's page has no game of its own to replay (the host's device runs it).
  if (!r || MODE === "net") return;
  renderCoach(ui.coach && ui.coach.game === ui.game ? ui.coach : null, r.data, r.view, r.step, coachHandlers);
}

function pageIdle() {
  return !ui.busy && !ui.thinking && !ui.bot.timer;
}

async function whenPageIdle() {
  while (!pageIdle()) await new Promise((resolve) => { setTimeout(resolve, 100); });
}

async function coachRun() {
  const r = ui.review;
  if (!r) return;
  const run = { game: ui.game, deal: r.data.deal, state: "running", done: 0, total: 0, items: [], error: null };
  ui.coach = run;
  drawCoach();
  await whenPageIdle();
  if (ui.coach !== run || run.state !== "running") return;
  const start = { op: "coach", action: "start", deal: run.deal };
  if (COACH_BUDGET) start.budget = COACH_BUDGET;
  let res = await ask(start);
  while (ui.coach === run && run.state === "running") {
    if (!res.ok) { run.state = "error"; run.error = res.error; break; }
    if (res.entry) run.items.push({ entry: res.entry, view: res.view });
    run.done = res.coach.done;
    run.total = res.coach.total;
    if (res.coach.finished) { run.state = "done"; break; }
    drawCoach();
    await whenPageIdle();
    if (ui.coach !== run || run.state !== "running") return;
    res = await ask({ op: "coach", action: "step" });
  }
  if (ui.coach === run) drawCoach();
}

const comfort = {
  showPile() { if (ui.view) C.renderPile(ui.view); },
  showHistory() { C.renderHistory(ui.view); },
  async showReview() {
    if (!ui.view) return;
    let res;
    try { res = await send({ op: "deal_review" }); } catch (err) { res = { ok: false, error: { code: "internal", message: err.message } }; }
    if (!res.ok) { say(() => reasonText(res.error), "error", res.error && res.error.code); draw(); return; }
    const last = res.review.steps.length - 1;
    ui.review = { data: res.review, view: ui.view, step: last };
    C.renderReviewDialog(res.review, ui.view, last);
    drawCoach();
  },
  reviewStep(i) {
    const r = ui.review;
    if (!r) return;
    r.step = Math.max(0, Math.min(r.data.steps.length - 1, i));
    C.renderReviewDialog(r.data, r.view, r.step, false);
    drawCoach();
  },
  showPrefs() { C.renderPrefs(ui.prefs, true); },
  setPrefs(p) {
    ui.prefs = p;
    P.savePrefs(p);
    C.renderPrefs(ui.prefs);
    if (!p.skip && ui.skipping) draw();
  },
};

// "Warn me before a blunder" (off by default): the coach weighs the player's move before it is
// sent; a blunder asks first. Not in lessons (the lesson checks each move) nor in a game with
// friends (the host's device runs it).
beforeMove.check = async (move, view) => {
  if (!ui.prefs || !ui.prefs.warn || (MODE !== "table" && MODE !== "embed")) return true;
  const res = await ask({ op: "coach", action: "check", move, version: view.version });
  // The check failed (the move is refused, say): the move goes its way and says why.
  if (!res.ok || !res.entry || res.entry.mark !== "blunder") return true;
  return askBlunder(res.entry, view);
};

// An open deal review (and the coach's part of it) in the new language.
onLanguage(() => {
  const d = /** @type {HTMLDialogElement | null} */ ($id("dlg-review"));
  if (ui.review && d && d.open) comfort.reviewStep(ui.review.step);
});

// ---------------------------------------------------------------- boot

/**
 * Resolves once the browser has produced the page's first frame (the HTML's own, which
 * first-paint.js completed): this module's drawing then never delays it. At most 200 ms
 * (a hidden tab runs no animation frames).
 */
function afterFirstFrame() {
  return new Promise((resolve) => {
    setTimeout(resolve, 200);
    requestAnimationFrame(() => { setTimeout(resolve, 0); });
  });
}

/** The boot's progress in words: the bytes of the download (of the total), then the steps. */
function bootText(stage, pct, received, total) {
  const p = Math.round(Number(pct) || 0);
  if (stage === "download" && total > 0) {
    const mb = (n) => num(Math.round(n / 1e5) / 10);
    return t("boot.download", { done: mb(received), total: mb(total), pct: p });
  }
  if (stage === "runtime") return t("boot.python", { pct: p });
  return t("boot.shuffling", { pct: p });
}

async function main() {
  const setBoot = (state, text, retry) => { R.renderBoot({ state, text, retry }); };
  // A boot that failed (stalled, refused): a new worker, without reloading the page.
  const retry = () => {
    setBoot("loading", t("boot.shuffling", { pct: 0 }));
    restartEngine();
  };
  // Started at once; the page's own drawing waits for the first frame.
  const messages = loadMessages(pickLanguage()).catch(() => loadMessages("en"));
  const rulesData = RD.fetchRulesData().then(RD.useRulesData, () => null);
  await afterFirstFrame();
  try {
    await messages;
    R.applyStaticText();
  } catch (err) {
    // The shell's English defaults stay; keep going.
  }
  // The menus' rule sets, player counts and targets: the build's rules data, else the engine's.
  if (!await rulesData) {
    const res = await engineRulesData();
    if (res) RD.useRulesData(res);
  }
  if (!RD.choices.rules.length) {
    setBoot("error", t("boot.error", { message: "rules-data.json" }));
    return;
  }
  ui.settings = loadSettings();
  R.bindInputs(intents);
  C.install(comfort);
  if (MODE === "table") {
    $id("form-new")?.querySelector(".dlg-buttons")?.prepend(StatsView.openButton("btn-stats"));
    $id("dlg-over")?.querySelector(".dlg-buttons")?.prepend(StatsView.openButton("btn-over-stats"));
    // Back to the game a share link's game replaced (shown when there is one).
    const back = document.createElement("button");
    Object.assign(back, { type: "button", id: "btn-left", className: "btn btn-ghost", hidden: true, textContent: t("share.left.button") });
    back.dataset.i18n = "share.left.button";
    back.addEventListener("click", () => { backToLeft(); });
    $id("form-new")?.querySelector(".dlg-buttons")?.prepend(back);
  }
  C.renderPrefs(ui.prefs);
  if (params.has("testhooks")) {
    // Browser tests: end the worker as if it had crashed; or let no request reach it any more
    // (as when the tab closes before the engine has a move).
    document.body.addEventListener("samba-kill-worker", () => engine.kill());
    document.body.addEventListener("samba-hold-engine", () => { engine.request = () => new Promise(() => {}); });
  }
  if (MODE !== "table") {
    try {
      const mod = await import(MODE === "embed" ? "./embed.js" : MODE === "net" ? "./netplay.js" : "./lessons.js");
      await mod.install(controller);
    } catch (err) {
      setBoot("error", t("boot.error", { message: err.message }));
      return;
    }
  }
  let shared = MODE === "table" ? sharedSetup(params, controller.choices) : null;
  // A share link while a game is in progress: ask first. The game in progress is kept either
  // way (played on, or kept to go back to from the new-game dialog).
  if (shared && !shared.errors.length && MODE_SAVES) {
    const saved = readSave();
    if (inProgress(saved)) {
      const left = readSave(LEFT_KEY);
      const choice = await C.askShared(gameInWords(shared), gameInWords(saved.record, saved.view && saved.view.deal),
        left && left.record ? gameInWords(left.record, left.view && left.view.deal) : null);
      if (choice === "link") leaveForLink(saved);
      else {
        for (const k of ["rules", "players", "target", "seed", "levels"]) params.delete(k);
        try { history.replaceState(null, "", location.pathname + (params.toString() ? `?${params}` : "") + location.hash); } catch (err) { /* keep the address */ }
        shared = null;
      }
    }
  }
  setBoot("loading", t("boot.shuffling", { pct: 0 }));
  // A returning player: the saved table now, the engine gets the game as soon as it can.
  if (MODE_SAVES && MODE === "table" && !params.has("rules") && !(shared && !shared.errors.length)) {
    const saved = readSave();
    if (paintSavedView(controller, saved)) { ui.early.resume = true; resumeSaved(saved); }
  }
  engine.start({
    onProgress(stage, pct, received, total) {
      setBoot("loading", bootText(stage, pct, received, total));
    },
    onReady() {
      setBoot("ready", t("boot.ready"));
      if (onEngineReady()) return;
      if (modeHooks.start) modeHooks.start();
      else if (shared && !shared.errors.length) intents.startGame(shared);
      else {
        // Bad link parameters: the dialog shows what the link asked for, every problem named.
        if (shared) ui.settings = { rules: shared.rules, players: shared.players, target: shared.target, seats: shared.seats };
        intents.openSettings();
        if (shared) C.showNotice(shared.errors.map((e) => t(e.key, e.params)).join(" "));
      }
    },
    onError(kind, message) {
      if (engine.booted && kind !== "timeout") { engineDied(kind); return; }
      if (kind === "timeout") setBoot("error", t("boot.stalled", { seconds: message }), retry);
      else if (kind === "load" && !message) setBoot("error", t("boot.worker_failed"), retry);
      else setBoot("error", t("boot.error", { message }), retry);
    },
  });
}

main();
