// What the player means by a click or a key: each intent changes the page's state (store.js)
// and sends the move it found among the view's targets (targets.js), or one it wrote from the
// player's own choice of cards. The engine says what is legal.

import { t, reasonText, loadMessages, saveLanguage } from "./i18n.js";
import * as R from "./render.js";
import * as StatsView from "./stats-view.js";
import { ui, say, myTurn, selectedCards } from "./store.js";
import { MODE, params, modeHooks, engine, send, draw, applyView, playMove, runCheck, begin, languageListeners } from "./session.js";
import { findMove, movesOf, moveKind, ontoTargets, mergeTargets, partsOf, write, wordMove } from "./targets.js";
import { moveInWords, reasonLine, ontoHint } from "./words.js";
import { copyText, shareLink } from "./share.js";
import * as RD from "./rules-data.js";
import { saveSettings, menu, openSettings, gameStarted } from "./saving.js";

const CHOICES = RD.choices;
const SEED = params.has("seed") ? Number(params.get("seed")) : null;

function stage(part) {
  ui.staged.push(part);
  ui.selected.clear();
  say(null);
  draw();
  runCheck();
}

function notNow(key) {
  say(() => t(key), "info");
  draw();
}

/** The hint the engine gave for view `seen`, in words, with its reasons and warnings. */
function showHint(res, seen) {
  const reasons = Array.isArray(res.reasons) ? res.reasons : [];
  const warnings = Array.isArray(res.warnings) ? res.warnings : [];
  ui.hint = { move: res.move, view: seen, reasons, warnings };
  const words = () => moveInWords(res.move, seen) ?? t("hint.unknown");
  const details = () => ({
    why: reasons.map((r) => reasonLine(r, seen)).filter(Boolean),
    careful: warnings.map((r) => reasonLine(r, seen)).filter(Boolean),
  });
  const hint = ui.hint;
  say(() => t("status.hint", { move: words() }), "info", "hint", details);
  ui.hint = hint;
}

export const intents = {
  card(id) {
    // Also while a move is on its way (busy): choosing cards asks the engine nothing, and a tap
    // made then is the player's next choice (playMove keeps it).
    if (!ui.view) return;
    if (ui.selected.has(id)) ui.selected.delete(id); else ui.selected.add(id);
    ui.mergeFrom = null;
    if (!ui.hint) say(null);
    draw();
    if (ui.staged.length && ui.view.phase === "draw") runCheck();
  },

  stock() {
    if (!myTurn()) { notNow("error.not_your_turn"); return; }
    const draw_ = movesOf(ui.view).find((m) => moveKind(m) === "stock");
    playMove(draw_ ? draw_.text : "draw");
  },

  pile() {
    const v = ui.view;
    if (!myTurn()) { notNow("error.not_your_turn"); return; }
    const sel = selectedCards();
    if (v.phase === "draw") {
      if (!sel.length) {
        // Nothing selected: the pile's top card onto a meld when that is the one way; with
        // several target melds, say to click one.
        const onto = [...new Set(ontoTargets(v).values())];
        if (onto.length === 1 && !ui.staged.length) { playMove(onto[0]); return; }
        notNow(onto.length ? ontoHint(ontoTargets(v), v) : "error.select_cards");
        return;
      }
      playMove(write.take(sel, ui.staged));
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
    if (v.phase === "draw") {
      const onto = ontoTargets(v).get(id);
      if (onto) playMove(onto);
      return;
    }
    if (ui.mergeFrom === null) {
      if (mergeTargets(v, null).has(id)) { ui.mergeFrom = id; draw(); }
      return;
    }
    if (ui.mergeFrom === id) { ui.mergeFrom = null; draw(); return; }
    const m = mergeTargets(v, ui.mergeFrom).get(id);
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

  /**
   * An engine-suggested pile take (a take move of the view): picks the hand cards it takes the
   * pile with and stages its other melds, in place of what was picked and staged; "Take the
   * pile" then takes it (as a meld suggestion is staged, then confirmed).
   */
  suggestTake(text) {
    const v = ui.view;
    if (!myTurn() || ui.busy || v.phase !== "draw" || !findMove(v, text)) return;
    const used = new Set();
    const pick = (texts) => {
      const cards = [];
      for (const tx of texts) {
        const c = v.hand.find((h) => h.c === tx && !used.has(h.id));
        if (!c) return null;
        used.add(c.id);
        cards.push(c);
      }
      return cards;
    };
    const [first, ...rest] = partsOf(text);
    const pair = first && pick(first.cards);
    if (!pair) return;
    const staged = [];
    for (const part of rest) {
      const cards = pick(part.cards);
      if (!cards) return;
      staged.push(part.kind === "add" ? { kind: "add", meld: part.meld, cards } : { kind: "new", cards });
    }
    ui.selected.clear();
    for (const c of pair) ui.selected.add(c.id);
    ui.staged = staged;
    ui.mergeFrom = null;
    say(null);
    draw();
    runCheck();
  },

  /** Stages an engine-suggested meld (a text of `legal.melds`): one or more parts. */
  suggest(meldText) {
    const v = ui.view;
    if (!myTurn() || ui.busy || !findMove(v, `meld ${meldText}`)) return;
    const used = new Set(ui.staged.flatMap((p) => p.cards.map((c) => c.id)));
    const parts = [];
    for (const part of partsOf(meldText)) {
      const cards = [];
      for (const tx of part.cards) {
        const c = v.hand.find((h) => h.c === tx && !used.has(h.id));
        if (!c) return;
        used.add(c.id);
        cards.push(c);
      }
      parts.push(part.kind === "add" ? { kind: "add", meld: part.meld, cards } : { kind: "new", cards });
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
        if (!sel.length) { notNow("error.select_cards"); return; }
        stage({ kind: "new", cards: sel });
        break;
      case "confirm":
        if (ui.staged.length) await playMove(write.meld(ui.staged));
        break;
      case "takeback":
        ui.staged = [];
        ui.check = null;
        say(null);
        draw();
        break;
      case "hint": {
        const seen = ui.view;
        // The engine's own choice of level (its best, "hard", with the reasons in words).
        let res;
        try { res = await send({ op: "hint" }); } catch (err) { res = { ok: false, error: { code: "internal", message: err.message } }; }
        if (ui.view !== seen) break;   // the table moved on meanwhile: that hint is for the past
        if (res.ok && typeof res.move === "string") showHint(res, seen);
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
        if (sel.length !== 1) { notNow("error.select_one"); return; }
        const card = sel[0];
        if (ui.staged.length) {
          // Lay the staged melds first; stop if the engine refuses them.
          const ok = await playMove(write.meld(ui.staged));
          if (!ok) return;
          if (!ui.view.hand.some((c) => c.id === card.id)) return;
        }
        await playMove(write.discard(card));
        break;
      }
      case "ask": {
        // `ask [<parts>;] discard <card>`, or `ask <parts>` when everything is melded.
        if (sel.length > 1 || (!sel.length && !ui.staged.length)) { notNow("error.select_one"); return; }
        // The proposal goes to the partner whole: what was staged is in it, not left to check.
        if (await playMove(write.ask(ui.staged, sel[0] || null))) { ui.staged = []; ui.check = null; draw(); }
        break;
      }
      default:
        break;
    }
  },

  async nextDeal() {
    const v = ui.view;
    if (!v || ui.busy) return;
    const next = wordMove(v, "next");
    if (next) {
      await playMove(next);
    } else {
      const res = await send({ op: "bot", version: v.version });
      if (res.ok) applyView(res.view); else { say(() => reasonText(res.error)); draw(); }
    }
  },

  openSettings() {
    openSettings();
  },

  settingsChanged(s) {
    const cur = ui.settings;
    // Another rule set: its own default player count (crawford is for 6). The target follows
    // the rule set's default for the player count (canasta 5,000, bolivia 15,000) unless the
    // player chose another one that the rule set offers too (as the friends' setup does).
    const defaultTarget = (rules, players) => {
      const t = (CHOICES.defaultTargetFor[rules] || {})[players];
      return CHOICES.targets[rules].includes(t) ? t : CHOICES.defaultTarget[rules];
    };
    const wasDefault = s.target === defaultTarget(cur.rules, cur.players);
    if (s.rules !== cur.rules || !CHOICES.players[s.rules].includes(s.players)) s.players = CHOICES.defaultPlayers[s.rules];
    if (wasDefault || !CHOICES.targets[s.rules].includes(s.target)) s.target = defaultTarget(s.rules, s.players);
    const seats = ["human"];
    for (let i = 1; i < s.players; i++) seats.push(s.seats[i] || cur.seats[i] || "medium");
    ui.settings = { ...s, seats };
    R.renderSettings(ui.settings, menu(), false);
  },

  async startGame(s) {
    ui.settings = s;
    if (MODE === "table") saveSettings();
    if (!engine.ready) ui.early.start = true; // sent now, dealt as soon as the engine is ready
    const req = { op: "new_game", rules: s.rules, players: s.players, target: s.target, seats: s.seats };
    const seed = s.seed ?? SEED;
    if (seed !== null && !Number.isNaN(seed)) req.seed = seed;
    const res = await begin(req, gameStarted);
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
    if (ui.settings) R.renderSettings(ui.settings, menu(), false);
    if (/** @type {HTMLDialogElement | null} */ (document.getElementById("dlg-stats"))?.open) StatsView.draw();
    if (ui.view) draw();
    else R.render(ui);
    for (const fn of languageListeners) fn(lang);
    if (modeHooks.language) modeHooks.language(lang);
  },
};
