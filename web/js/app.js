// The controller: holds the page's UI state, turns intents into bridge requests, and asks the
// renderer to draw. It never decides what is legal: the engine's view and answers do.

import { EngineClient } from "./bridge.js";
import { loadMessages, t, reasonText, pickLanguage, saveLanguage } from "./i18n.js";
import * as R from "./render.js";
import * as C from "./comfort.js";
import * as A from "./animate.js";
import * as P from "./prefs.js";
import { readSave, writeSave, setAside } from "./save.js";
import { copyText, sharedSetup, shareLink } from "./share.js";
import { paintSavedView } from "./boot-view.js";
import * as RD from "./rules-data.js";
import * as Stats from "./stats.js";
import * as StatsView from "./stats-view.js";

// What the settings dialog offers comes from the build's rules data (js/rules-data.js), filled
// in at boot. "human" on a seat other than 0: several people share the device (hotseat).
const CHOICES = RD.choices;
const PLAYER_CHOICES = CHOICES.players;
const STORE_KEY = "samba.settings.v1";

const params = new URLSearchParams(location.search);
// ?pace=<ms> (tests) overrides the speed preference.
const PACE_OVERRIDE = params.has("pace") ? Math.max(0, Number(params.get("pace")) || 0) : null;
const SEED = params.has("seed") ? Number(params.get("seed")) : null;
// Page modes plug in through `modeHooks` (js/embed.js, js/lessons.js); "table" is the plain game.
// [netplay] ?net=host|join|reply: play with friends (js/netplay.js).
const MODE = params.has("embed") ? "embed" : params.has("lesson") ? "lesson" : params.has("net") ? "net" : "table";
const modeHooks = {
  start: null,        // () => void: replaces the settings dialog once the engine is ready
  moveRequest: null,  // (move, version) => request object sent instead of {op: "move"}
  moveAnswer: null,   // (response) => null when played, else {text, kind, code} (nothing changed)
  moved: null,        // ({seat, move, view}) => void after any seat's move was applied
  viewed: null,       // (view, prev) => void after every new view
  language: null,     // (lang) => void after the page's language changed
  send: null,         // [netplay] (request) => a promise of its response, or null: to the engine
};

const engine = new EngineClient();

const ui = {
  view: null,
  selected: new Set(),   // hand card ids
  staged: [],            // [{kind: "new", cards: [card]}, {kind: "add", meld: id, cards: [card]}]
  mergeFrom: null,       // meld id picked first for a merge
  check: null,           // the engine's answer for the staged melds
  message: null,         // {text, kind, code}
  busy: false,
  thinking: null,        // computer seat being asked to move
  showLog: false,
  privacy: null,         // hotseat: the seat whose hand is hidden until its player says so
  revealed: null,        // hotseat: the seat whose player last showed their hand
  shownDeal: null,
  shownOver: null,
};

let settings = null;  // loadSettings() once the rules data is in
let earlyResume = false; // the saved table was drawn before the engine was ready
let earlyStart = false;  // a game was asked for before the engine was ready
let botTimer = null;
let botFailures = 0;
let checkSeq = 0;

function loadSettings() {
  const rules = CHOICES.rules.includes("samba") ? "samba" : CHOICES.rules[0];
  const players = CHOICES.defaultPlayers[rules];
  const base = { rules, players, target: CHOICES.defaultTarget[rules], seats: ["human", ...Array(players - 1).fill("medium")] };
  try {
    const s = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
    if (s && PLAYER_CHOICES[s.rules] && PLAYER_CHOICES[s.rules].includes(s.players)) {
      const target = CHOICES.targets[s.rules].includes(s.target) ? s.target : CHOICES.defaultTarget[s.rules];
      return { ...base, ...s, target };
    }
  } catch (err) { /* private mode or corrupt: defaults */ }
  return base;
}

function menu() {
  return { rules: CHOICES.rules, players: PLAYER_CHOICES[settings.rules], targets: CHOICES.targets[settings.rules], levels: CHOICES.levels };
}

function saveSettings() {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(settings)); } catch (err) { /* ignore */ }
}

let prefs = P.loadPrefs();
let lastDrawn = null;   // the view drawn last (to tell who moved, for the card animation)
let skipping = false;   // "skip to my turn": the table stays still while computers play

function draw() {
  const v = ui.view;
  const botTurn = !!v && v.phase !== "deal_over" && v.phase !== "game_over" && isComputer(v, v.current);
  let catchUp = false;
  if (prefs.skip && PACE_OVERRIDE === null && botTurn) {
    if (skipping) return;
    skipping = true;
  } else if (skipping) {
    skipping = false;
    catchUp = true;
  }
  const prev = lastDrawn;
  lastDrawn = v;
  let fromSeat = null;
  if (prev && v && prev !== v && prev.deal === v.deal && v.version > prev.version
      && prev.phase !== "deal_over" && isComputer(prev, prev.current)) fromSeat = prev.current;
  // Only a new view moves cards: a selection (same view) must not animate, or the lifted card
  // would be drawn over its neighbour and take the next click meant for it.
  const ms = !v || !prev || prev === v || catchUp || prev.deal !== v.deal ? 0 : P.travelMs(prefs);
  const snap = ms ? A.capture() : null;
  R.render(ui);
  if (snap) A.play(snap, { ms, fromSeat });
}

/** Shows a message; `text` is a string or a function that makes it (re-run in a new language). */
function say(text, kind = "error", code = null) {
  ui.message = text ? { text: typeof text === "function" ? text : () => text, kind, code } : null;
}

// ---------------------------------------------------------------- talking to the engine

let queue = Promise.resolve();
/** Requests run one at a time, in order. */
function send(request) {
  const p = queue.then(() => (modeHooks.send && modeHooks.send(request)) || engine.request(request));
  queue = p.catch(() => {});
  return p;
}

function cardsText(cards) { return cards.map((c) => c.c).join(" "); }

function stagedParts() {
  return ui.staged.map((p) => (p.kind === "new" ? `new ${cardsText(p.cards)}` : `add m${p.meld} ${cardsText(p.cards)}`));
}

function resetTurnState() {
  ui.selected.clear();
  ui.staged = [];
  ui.mergeFrom = null;
  ui.check = null;
}

function applyView(view) {
  const prev = ui.view;
  ui.view = view;
  // A new deal or game invalidates the page's per-turn state.
  if (!prev || prev.deal !== view.deal || view.version < prev.version) resetTurnState();
  // Drop selections of cards no longer in hand.
  const ids = new Set(view.hand.map((c) => c.id));
  for (const id of [...ui.selected]) if (!ids.has(id)) ui.selected.delete(id);
  ui.staged = ui.staged.filter((p) => p.cards.every((c) => ids.has(c.id)));
  // Hotseat: when the view turns to another person's hand, hide it until they take the device.
  const humans = (view.seats || []).filter((s) => s === "human").length;
  ui.privacy = humans > 1 && ui.revealed !== view.seat ? view.seat : null;
  if (!prev || prev.version !== view.version) persist();
  countStats(view);
  draw();
  if (modeHooks.viewed) modeHooks.viewed(view, prev);
  scheduleBot();
}

/** Plays one move text for the human; on refusal shows the reason and changes nothing. */
async function playMove(move, { keepOnError = true } = {}) {
  if (!ui.view || ui.busy) return false;
  ui.busy = true;
  say(null);
  draw();
  let res;
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
    // Staged melds whose cards are still in hand survive (e.g. staged before drawing).
    ui.selected.clear();
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

async function refresh() {
  const res = await send({ op: "view" });
  if (res.ok && res.view) applyView(res.view);
}

function isComputer(view, seat) {
  if (seat === null || seat === undefined) return false;
  // [netplay] "remote": a friend's seat on another device, not a computer.
  return view.seats ? view.seats[seat] !== "human" && view.seats[seat] !== "remote" : seat !== view.seat;
}

function scheduleBot() {
  const v = ui.view;
  if (botTimer || !v) return;
  if (v.phase === "deal_over" || v.phase === "game_over") return;
  if (!isComputer(v, v.current)) { ui.thinking = null; return; }
  ui.thinking = v.current;
  draw();
  botTimer = setTimeout(runBot, P.paceMs(prefs, PACE_OVERRIDE));
}

async function runBot() {
  const v = ui.view;
  let res;
  try {
    res = await send({ op: "bot", version: v.version });
  } catch (err) {
    botTimer = null;
    ui.thinking = null;
    say(() => t("error.generic", { message: err.message }));
    draw();
    return;
  }
  botTimer = null;
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
    if (++botFailures <= 2) botTimer = setTimeout(() => { botTimer = null; scheduleBot(); }, 1500);
    return;
  }
  botFailures = 0;
}

async function runCheck() {
  const v = ui.view;
  const seq = ++checkSeq;
  if (!v || !ui.staged.length) { ui.check = null; draw(); return; }
  const parts = stagedParts();
  const sel = v.hand.filter((c) => ui.selected.has(c.id));
  let move;
  if (v.phase === "draw" && sel.length >= 2) move = [`take ${cardsText(sel)}`, ...parts].join("; ");
  else move = `meld ${parts.join("; ")}`;
  let res;
  try { res = await send({ op: "check", move }); } catch (err) { return; }
  if (seq !== checkSeq) return;
  if (!res.ok && res.error) {
    ui.check = { legal: false, reason: reasonText(res.error) };
  } else {
    ui.check = { ...res, reason: res.legal ? "" : reasonText({ code: res.code, message: res.message }) };
    // In the draw phase a meld is not yet playable; the count is what matters there.
    if (v.phase === "draw" && !sel.length && res.code === "wrong_phase") ui.check.reason = "";
  }
  draw();
}

// ---------------------------------------------------------------- intents

function myTurn() {
  const v = ui.view;
  return !!(v && v.legal && (v.current === v.seat || v.current === null));
}

function selectedCards() {
  const v = ui.view;
  return v ? v.hand.filter((c) => ui.selected.has(c.id)) : [];
}

function stage(part) {
  ui.staged.push(part);
  ui.selected.clear();
  say(null);
  draw();
  runCheck();
}

const intents = {
  card(id) {
    if (!ui.view || ui.busy) return;
    if (ui.selected.has(id)) ui.selected.delete(id); else ui.selected.add(id);
    ui.mergeFrom = null;
    say(null);
    draw();
    if (ui.staged.length && ui.view.phase === "draw") runCheck();
  },

  stock() {
    if (!myTurn()) { say(() => t("error.not_your_turn"), "info"); draw(); return; }
    playMove("draw");
  },

  pile() {
    const v = ui.view;
    if (!myTurn()) { say(() => t("error.not_your_turn"), "info"); draw(); return; }
    const sel = selectedCards();
    if (v.phase === "draw") {
      if (!sel.length) {
        // Nothing selected: the pile's top card onto a meld (`top m<id>`, crawford `take m<id>`)
        // when that is the one way; with several target melds, say to click one.
        const onto = v.legal.moves.filter((m) => /^(top|take) m\d+$/.test(m));
        if (onto.length === 1 && !ui.staged.length) { playMove(onto[0]); return; }
        say(() => t(onto.length ? "status.top_hint" : "error.select_cards"), "info"); draw(); return;
      }
      playMove([`take ${cardsText(sel)}`, ...stagedParts()].join("; "));
    } else if (v.phase === "meld") {
      intents.action("discard");
    }
  },

  meld(id, mine) {
    const v = ui.view;
    if (!mine || !myTurn() || ui.busy) return;
    const sel = selectedCards();
    if (sel.length) {
      const existing = ui.staged.find((p) => p.kind === "add" && p.meld === id);
      if (existing) { existing.cards.push(...sel); ui.selected.clear(); draw(); runCheck(); }
      else stage({ kind: "add", meld: id, cards: sel });
      return;
    }
    const moves = v.legal.moves;
    if (v.phase === "draw") {
      const top = moves.find((m) => m === `top m${id}` || m === `take m${id}`);
      if (top) playMove(top);
      return;
    }
    if (ui.mergeFrom === null) {
      if (moves.some((m) => new RegExp(`^merge (m${id} m\\d+|m\\d+ m${id})$`).test(m))) { ui.mergeFrom = id; draw(); }
      return;
    }
    if (ui.mergeFrom === id) { ui.mergeFrom = null; draw(); return; }
    const a = ui.mergeFrom;
    const m = moves.find((x) => x === `merge m${a} m${id}` || x === `merge m${id} m${a}`);
    ui.mergeFrom = null;
    if (m) playMove(m); else draw();
  },

  staged(index) {
    const part = ui.staged[index];
    if (!part || ui.busy) return;
    const sel = selectedCards();
    if (sel.length && part.kind === "new") { part.cards.push(...sel); ui.selected.clear(); }
    else ui.staged.splice(index, 1);
    draw();
    runCheck();
  },

  /** Stages an engine-suggested meld text ("new 7S 7H 7D; add m3 JS"): one or more parts. */
  suggest(meldText) {
    const v = ui.view;
    if (!myTurn() || ui.busy) return;
    const used = new Set(ui.staged.flatMap((p) => p.cards.map((c) => c.id)));
    const parts = [];
    for (const partText of meldText.split(";")) {
      const toks = partText.trim().split(/\s+/);
      const isAdd = toks[0] === "add";
      const texts = isAdd ? toks.slice(2) : toks.slice(1);
      const cards = [];
      for (const tx of texts) {
        const c = v.hand.find((h) => h.c === tx && !used.has(h.id));
        if (!c) return;
        used.add(c.id);
        cards.push(c);
      }
      parts.push(isAdd ? { kind: "add", meld: Number(toks[1].slice(1)), cards } : { kind: "new", cards });
    }
    for (const p of parts) for (const c of p.cards) ui.selected.delete(c.id);
    ui.staged.push(...parts);
    say(null);
    draw();
    runCheck();
  },

  async action(name, arg) {
    const v = ui.view;
    if (!v || ui.busy) return;
    const sel = selectedCards();
    switch (name) {
      case "move":
        await playMove(arg);
        break;
      case "take":
        intents.pile();
        break;
      case "new":
        if (!sel.length) { say(() => t("error.select_cards"), "info"); draw(); return; }
        stage({ kind: "new", cards: sel });
        break;
      case "confirm":
        if (ui.staged.length) await playMove(`meld ${stagedParts().join("; ")}`);
        break;
      case "takeback":
        ui.staged = [];
        ui.check = null;
        say(null);
        draw();
        break;
      case "hint": {
        const res = await send({ op: "hint", level: "medium" });
        const seen = ui.view;
        if (res.ok) say(() => t("status.hint", { move: R.moveInWords(res.move, seen) }), "info");
        else say(() => reasonText(res.error), "error", res.error && res.error.code);
        draw();
        break;
      }
      case "clear":
        ui.selected.clear();
        ui.mergeFrom = null;
        draw();
        break;
      case "discard": {
        if (sel.length !== 1) { say(() => t("error.select_one"), "info"); draw(); return; }
        const card = sel[0];
        if (ui.staged.length) {
          // Lay the staged melds first; stop if the engine refuses them.
          const ok = await playMove(`meld ${stagedParts().join("; ")}`);
          if (!ok) return;
          if (!ui.view.hand.some((c) => c.id === card.id)) return;
        }
        await playMove(`discard ${card.c}`);
        break;
      }
      case "ask": {
        // `ask [<parts>;] discard <card>`, or `ask <parts>` when everything is melded.
        if (sel.length > 1 || (!sel.length && !ui.staged.length)) { say(() => t("error.select_one"), "info"); draw(); return; }
        const bits = stagedParts();
        if (sel.length) bits.push(`discard ${sel[0].c}`);
        await playMove(`ask ${bits.join("; ")}`);
        break;
      }
      default:
        break;
    }
  },

  async nextDeal() {
    const v = ui.view;
    if (!v || ui.busy) return;
    if (v.legal && v.legal.moves.includes("next")) {
      await playMove("next");
    } else {
      const res = await send({ op: "bot", version: v.version });
      if (res.ok) applyView(res.view); else { say(() => reasonText(res.error)); draw(); }
    }
  },

  openSettings() {
    R.renderSettings(settings, menu(), true);
  },

  settingsChanged(s) {
    // Another rule set: its own default player count and target (crawford is for 6).
    if (s.rules !== settings.rules || !PLAYER_CHOICES[s.rules].includes(s.players)) s.players = CHOICES.defaultPlayers[s.rules];
    if (s.rules !== settings.rules && !CHOICES.targets[s.rules].includes(s.target)) s.target = CHOICES.defaultTarget[s.rules];
    const seats = ["human"];
    for (let i = 1; i < s.players; i++) seats.push(s.seats[i] || settings.seats[i] || "medium");
    settings = { ...s, seats };
    R.renderSettings(settings, menu(), false);
  },

  async startGame(s) {
    settings = s;
    if (MODE === "table") saveSettings();
    if (!engine.ready) earlyStart = true; // sent now, dealt as soon as the engine is ready
    const req = { op: "new_game", rules: s.rules, players: s.players, target: s.target, seats: s.seats };
    const seed = s.seed ?? SEED;
    if (seed !== null && !Number.isNaN(seed)) req.seed = seed;
    const res = await begin(req);
    if (!res.ok) { say(() => reasonText(res.error)); draw(); }
  },

  /** Copies a link that starts this game's setup (rule set, options, seed) again. */
  async share() {
    if (!ui.view) return;
    const res = await send({ op: "record" });
    if (!res.ok) { say(() => reasonText(res.error)); draw(); return; }
    const url = shareLink(res.record, location.href);
    const copied = await copyText(url);
    say(() => t(copied ? "share.copied" : "share.copy_this", { url }), "info", null);
    draw();
  },

  toggleLog() {
    ui.showLog = !ui.showLog;
    draw();
  },

  /** Hotseat: the player to act has the device and shows their hand. */
  reveal() {
    if (!ui.view) return;
    ui.revealed = ui.view.seat;
    ui.privacy = null;
    draw();
  },

  /** Switches the page's language (kept for the next visit). */
  async setLanguage(lang) {
    try { await loadMessages(lang); } catch (err) { return; }
    saveLanguage(lang);
    R.applyStaticText();
    if (settings) R.renderSettings(settings, menu(), false);
    if ($id("dlg-stats")?.open) StatsView.draw();
    if (ui.view) draw();
    else R.render(ui);
    if (modeHooks.language) modeHooks.language(lang);
  },
};

/** Starts a game from a request (new_game, scenario, lesson): resets the page's state. */
async function begin(request) {
  if (botTimer) { clearTimeout(botTimer); botTimer = null; }
  ui.busy = true;
  let res;
  try { res = await send(request); } catch (err) { res = { ok: false, error: { code: "internal", message: err.message } }; }
  ui.busy = false;
  if (res.ok) {
    if (MODE_SAVES && request.op === "new_game") Stats.newGame();
    ui.view = null;
    ui.shownDeal = null;
    ui.shownOver = null;
    ui.revealed = null;
    resetTurnState();
    say(null);
    applyView(res.view);
  }
  return res;
}

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

/** What mode modules (embed, lessons) may use: the controller's own functions. */
const controller = {
  ui, intents, modeHooks, params, send, begin, draw, say, applyView, engine,
  choices: CHOICES,
};

// ---------------------------------------------------------------- saved games and comfort

/** Personal statistics: the plain table's games with one person at it count (js/stats.js). */
function countStats(view) {
  if (MODE_SAVES !== true || (view.seats || []).filter((x) => x === "human").length !== 1) return;
  if (Stats.countView(view, view.seats) && $id("dlg-stats")?.open) StatsView.draw();
}
const $id = (id) => document.getElementById(id);

/** Saves the game (the engine's record) after every move; only the plain table saves. */
function persist() {
  if (MODE_SAVES !== true || !ui.view) return;
  send({ op: "record" }).then((res) => {
    const view = ui.view && ui.view.version === res?.version ? ui.view : null;
    if (res && res.ok && res.record && writeSave(res.record, view)) C.markSaved(res.version);
    if (res && res.ok && res.record) Stats.adopt(res.record);
  }, () => {});
}
const MODE_SAVES = !params.has("embed") && !params.has("lesson") && !params.has("net");

function syncSettings(rec) {
  if (!rec || !PLAYER_CHOICES[rec.rules] || !PLAYER_CHOICES[rec.rules].includes(rec.players)) return;
  const seats = Array.isArray(rec.seats) && rec.seats.length === rec.players ? [...rec.seats] : settings.seats;
  seats[0] = "human";
  settings = { ...settings, rules: rec.rules, players: rec.players, target: rec.target || settings.target, seats };
}

/** A save that cannot be resumed: keep it aside, say so in plain words, offer a new game. */
function brokenSave(raw, reason, error) {
  setAside(raw, error ? `${reason}: ${error.message || error.code}` : reason);
  document.body.dataset.save = "broken";
  const text = `${t(`save.broken.${reason}`)} ${t("save.set_aside")}`;
  say(text, "error", "bad_record");
  intents.openSettings();
  C.showNotice(text);
  draw();
}

async function loadRecord(record) {
  try { return await send({ op: "load", record }); } catch (err) {
    return { ok: false, error: { code: "internal", message: err.message } };
  }
}

/** At boot: resume the saved game (mid-deal included), or set a broken one aside. */
async function resumeSaved(saved) {
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
    return;
  }
  if (res.error && res.error.code === "bad_record") brokenSave(saved.raw, "engine", res.error);
  else { intents.openSettings(); C.showNotice(reasonText(res.error)); }
}

/** After a new worker booted: give it the game back from the save. */
async function restoreGame() {
  const saved = readSave();
  C.engineState("restored");
  if (!saved || saved.broken) {
    intents.openSettings();
    return;
  }
  const res = await loadRecord(saved.record);
  if (res.ok) {
    ui.view = null;
    resetTurnState();
    say(() => t("save.restored"), "info");
    applyView(res.view);
  } else if (res.error && res.error.code === "bad_record") brokenSave(saved.raw, "engine", res.error);
  else { say(() => reasonText(res.error)); draw(); }
}

/** Called when the engine is ready; true when this module took over (resume or restore). */
function onEngineReady() {
  if (engine.restarts > 0) { restoreGame(); return true; }
  if (earlyResume || earlyStart) return true; // the saved game or a new one is on its way
  if (!MODE_SAVES || params.has("rules")) return false;
  const saved = readSave();
  if (!saved) return false;
  resumeSaved(saved);
  return true;
}

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
  if (botTimer) { clearTimeout(botTimer); botTimer = null; }
  ui.busy = false;
  ui.thinking = null;
  C.engineState("restarting");
  R.renderBoot({ state: "loading", text: t("save.restarting") });
  say(() => t("save.restarting"), "info");
  draw();
  queue = Promise.resolve();
  engine.restart();
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
  },
  reviewStep(i) {
    const r = ui.review;
    if (!r) return;
    r.step = Math.max(0, Math.min(r.data.steps.length - 1, i));
    C.renderReviewDialog(r.data, r.view, r.step, false);
  },
  showPrefs() { C.renderPrefs(prefs, true); },
  setPrefs(p) {
    prefs = p;
    P.savePrefs(p);
    C.renderPrefs(prefs);
    if (!p.skip && skipping) draw();
  },
};

// ---------------------------------------------------------------- boot

async function main() {
  let bootText = "";
  const setBoot = (state, text) => { bootText = text; R.renderBoot({ state, text }); };
  try {
    await loadMessages(pickLanguage()).catch(() => loadMessages("en"));
    R.applyStaticText();
  } catch (err) {
    // The shell's English defaults stay; keep going.
  }
  // The menus' rule sets, player counts and targets: the build's rules data, else the engine's.
  const rulesData = RD.fetchRulesData().then(RD.useRulesData, () => null);
  if (!await rulesData) {
    const res = await engineRulesData();
    if (res) RD.useRulesData(res);
  }
  if (!CHOICES.rules.length) {
    setBoot("error", t("boot.error", { message: "rules-data.json" }));
    return;
  }
  settings = loadSettings();
  R.bindInputs(intents);
  C.install(comfort);
  if (MODE === "table") {
    $id("form-new")?.querySelector(".dlg-buttons")?.prepend(StatsView.openButton("btn-stats"));
    $id("dlg-over")?.querySelector(".dlg-buttons")?.prepend(StatsView.openButton("btn-over-stats"));
  }
  C.renderPrefs(prefs);
  if (params.has("testhooks")) {
    // Browser tests: end the worker as if it had crashed.
    document.body.addEventListener("samba-kill-worker", () => engine.kill());
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
  const shared = MODE === "table" ? sharedSetup(params, controller.choices) : null;
  setBoot("loading", t("boot.shuffling", { pct: 0 }));
  // A returning player: the saved table now, the engine gets the game as soon as it can.
  if (MODE_SAVES && MODE === "table" && !params.has("rules") && !(shared && !shared.errors.length)) {
    const saved = readSave();
    if (paintSavedView(controller, saved)) { earlyResume = true; resumeSaved(saved); }
  }
  engine.start({
    onProgress(_stage, pct) {
      setBoot("loading", t("boot.shuffling", { pct: Math.round(Number(pct) || 0) }));
    },
    onReady() {
      setBoot("ready", t("boot.ready"));
      if (onEngineReady()) return;
      if (modeHooks.start) modeHooks.start();
      else if (shared && !shared.errors.length) intents.startGame(shared);
      else {
        // Bad link parameters: the dialog shows what the link asked for, every problem named.
        if (shared) settings = { rules: shared.rules, players: shared.players, target: shared.target, seats: shared.seats };
        intents.openSettings();
        if (shared) C.showNotice(shared.errors.map((e) => t(e.key, e.params)).join(" "));
      }
    },
    onError(kind, message) {
      if (engine.booted && kind !== "timeout") { engineDied(kind, message); return; }
      if (kind === "timeout") setBoot("error", t("boot.timeout", { seconds: message }));
      else if (kind === "load" && !message) setBoot("error", t("boot.worker_failed"));
      else setBoot("error", t("boot.error", { message }));
    },
  });
  void bootText;
}

main();
