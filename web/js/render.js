// The renderer: the only module that touches the DOM. It draws the table from one view object
// plus the page's UI state (selection, staged melds, messages) and forwards input as intents.

import { el, $, fillLanguagePicker } from "./dom.js";
import { t, num, has } from "./i18n.js";
import { installKeyboard, KEY_OF } from "./keyboard.js";
import * as A11y from "./a11y.js";
import { rulesName } from "./rules-data.js";

const tr = t;
import { face, meldLabel, prettyMove, prettyParts, rankKey } from "./cards.js";

const cardEls = new Map(); // card id -> element, reused across renders

/** The element for one physical card, created once and reused (keyed by card id). */
function cardEl(card) {
  let e = cardEls.get(card.id);
  if (!e || e.dataset.card !== card.c) {
    const f = face(card.c);
    e = el("div", `card face ${f.color}`);
    e.dataset.id = String(card.id);
    e.dataset.card = card.c;
    if (card.c[0] === "2") e.classList.add("wild");
    const corner = el("span", "corner");
    corner.append(el("span", "rank", f.rank), el("span", "suit", f.suit));
    e.append(corner);
    if (f.joker) {
      e.append(el("span", "joker-word", "JOKER"));
    } else {
      e.append(el("span", "pip", f.pip));
    }
    cardEls.set(card.id, e);
  }
  // Clear per-render state (the hand makes its cards focusable buttons again).
  e.classList.remove("selected", "hint", "dim", "pending");
  e.setAttribute("aria-label", A11y.cardName(card.c));
  if (card.c === "JK") e.querySelector(".joker-word").textContent = t("card.joker");
  e.removeAttribute("tabindex");
  e.removeAttribute("role");
  e.removeAttribute("aria-pressed");
  delete e.dataset.legal;
  delete e.dataset.adds;
  e.style.removeProperty("--i");
  return e;
}

let viewerSeat = 0; // the seat whose view is drawn ("You"); another seat 0 is named (hotseat)
function seatName(seat) {
  if (seat === 0 && viewerSeat !== 0) return t("seat.name.0");
  return t(`seat.${seat}`);
}

export function sideName(view, side) {
  const seats = view.sides[side];
  if (side === view.my_side) {
    const others = seats.filter((s) => s !== view.seat).map(seatName);
    return others.length ? t("ui.side_you_with", { names: others.join(" & ") }) : t("ui.side_you");
  }
  return seats.map(seatName).join(" & ");
}

// ---------------------------------------------------------------- static text and input

export function applyStaticText() {
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  document.title = t("app.title");
  for (const node of document.querySelectorAll("[data-i18n-aria]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAria));
  }
  for (const node of document.querySelectorAll("[data-num]")) node.textContent = num(Number(node.dataset.num));
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

/** Installs the (delegated) listeners once; each calls one intent. */
export function bindInputs(intents) {
  $("board")?.addEventListener("scroll", shadeBoard, { passive: true });
  addEventListener("resize", shadeBoard);
  $("hand").addEventListener("click", (ev) => {
    const c = ev.target.closest(".card[data-id]");
    if (c) intents.card(Number(c.dataset.id));
  });
  $("hand").addEventListener("keydown", (ev) => {
    const c = ev.target.closest(".card[data-id]");
    if (c && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); intents.card(Number(c.dataset.id)); }
  });
  const deckKey = (fn) => (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); }
  };
  $("stock").addEventListener("click", () => intents.stock());
  $("stock").addEventListener("keydown", deckKey(() => intents.stock()));
  $("pile").addEventListener("click", () => intents.pile());
  $("pile").addEventListener("keydown", deckKey(() => intents.pile()));
  const meldClick = (ev) => {
    // `.meld` matters: <body> carries data-staged (the staged count) too.
    const staged = ev.target.closest(".meld[data-staged]");
    if (staged) { intents.staged(Number(staged.dataset.staged)); return; }
    const m = ev.target.closest("[data-meld]");
    if (m) intents.meld(Number(m.dataset.meld), m.dataset.mine === "1");
  };
  $("my-melds").addEventListener("click", meldClick);
  $("their-melds").addEventListener("click", meldClick);
  $("my-melds").addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest("[data-meld], .meld[data-staged]")) {
      ev.preventDefault();
      meldClick(ev);
    }
  });
  $("lang-select")?.addEventListener("change", (ev) => intents.setLanguage(ev.target.value));
  $("btn-reveal")?.addEventListener("click", () => intents.reveal());
  installKeyboard(intents);
  $("actions").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (b && !b.disabled) intents.action(b.dataset.action, b.dataset.arg || "");
  });
  $("suggest").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-part], button[data-move]");
    if (b && b.dataset.move) intents.action("move", b.dataset.move);
    else if (b) intents.suggest(b.dataset.part);
  });
  $("btn-new").addEventListener("click", () => intents.openSettings());
  $("btn-share")?.addEventListener("click", () => intents.share());
  $("btn-log").addEventListener("click", () => intents.toggleLog());
  $("btn-log-close").addEventListener("click", () => intents.toggleLog());
  $("btn-next").addEventListener("click", () => intents.nextDeal());
  $("btn-deal-close").addEventListener("click", () => $("dlg-deal").close());
  $("btn-over-new").addEventListener("click", () => { $("dlg-over").close(); intents.openSettings(); });
  $("btn-over-close").addEventListener("click", () => $("dlg-over").close());
  $("btn-new-cancel").addEventListener("click", () => $("dlg-new").close());
  const form = $("form-new");
  form.addEventListener("change", (ev) => {
    if (ev.target.name === "rules" || ev.target.name === "players") intents.settingsChanged(readSettings());
  });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    $("dlg-new").close();
    intents.startGame(readSettings());
  });
}

// ---------------------------------------------------------------- boot

export function renderBoot(boot) {
  const box = $("boot-status");
  box.textContent = boot.text;
  box.dataset.state = boot.state;
  if (boot.state === "ready") document.body.dataset.ready = "1";
}

// ---------------------------------------------------------------- settings dialog

function readSettings() {
  const form = $("form-new");
  const fd = new FormData(form);
  const players = Number(fd.get("players"));
  const seats = ["human"];
  for (let i = 1; i < players; i++) seats.push(fd.get(`seat${i}`) || "medium");
  return { rules: fd.get("rules"), players, target: Number(fd.get("target")), seats };
}

function radios(box, name, items, checked) {
  box.replaceChildren();
  for (const [value, label] of items) {
    const lab = el("label");
    const inp = el("input");
    inp.type = "radio"; inp.name = name; inp.value = String(value); inp.checked = value === checked;
    lab.append(inp, " ", el("span", null, label));
    box.append(lab);
  }
}

/**
 * Fills the settings dialog from the menu's choices (the rules data): `choices` = {rules: [names],
 * players: [n], targets: [n], levels: [...]}, `s` = current settings.
 */
export function renderSettings(s, choices, open) {
  radios($("opt-rules"), "rules", choices.rules.map((r) => [r, rulesName(r, t, has)]), s.rules);
  radios($("opt-target"), "target", choices.targets.map((n) => [n, num(n)]), s.target);
  radios($("opt-players"), "players", choices.players.map((n) => [n, num(n)]), s.players);
  const seatBox = $("opt-seats");
  seatBox.replaceChildren();
  for (let i = 0; i < s.players; i++) {
    const row = el("label", "seat-row");
    row.append(el("span", "seat-row-name", seatName(i)));
    if (i === 0) {
      row.append(el("span", "seat-row-fixed", t("level.human")));
    } else {
      const sel = el("select");
      sel.name = `seat${i}`;
      sel.dataset.seat = String(i);
      for (const lv of choices.levels) {
        const o = el("option", null, t(`level.${lv}`));
        o.value = lv;
        o.selected = lv === (s.seats[i] || choices.levels[0]);
        sel.append(o);
      }
      row.append(sel);
    }
    seatBox.append(row);
  }
  const dlg = $("dlg-new");
  if (open && !dlg.open) dlg.showModal();
}

// ---------------------------------------------------------------- the table

/** Draws the table; the element that had the keyboard focus keeps it (or its redrawn twin). */
export function render(ui) {
  const key = A11y.focusKey(document.activeElement);
  renderTable(ui);
  A11y.restoreFocus(key);
  shadeBoard();
}

function renderTable(ui) {
  const v = ui.view;
  const body = document.body;
  body.classList.toggle("show-log", !!ui.showLog);
  if (!v) {
    $("status").textContent = t("status.no_game");
    return;
  }
  const legal = v.legal || null;
  const moves = legal ? legal.moves : [];
  const myTurn = !!legal && (v.current === v.seat || v.current === null);
  const share = $("btn-share");
  if (share) share.hidden = !!ui.noShare;
  body.dataset.phase = v.phase;
  viewerSeat = v.seat;
  const privacy = ui.privacy !== null && ui.privacy !== undefined;
  body.dataset.privacy = privacy ? "1" : "0";
  $("privacy").hidden = !privacy;
  if (privacy) {
    const who = v.seat === 0 ? t("seat.name.0") : t(`seat.${v.seat}`);
    $("privacy-title").textContent = t("pass.title", { name: who });
    $("btn-reveal").textContent = t("pass.show", { name: who });
  }
  body.dataset.current = String(v.current);
  body.dataset.myTurn = myTurn ? "1" : "0";
  body.dataset.version = String(v.version);
  body.dataset.busy = ui.busy ? "1" : "0";
  body.dataset.staged = String(ui.staged.length);

  const stagedIds = new Set(ui.staged.flatMap((p) => p.cards.map((c) => c.id)));
  const selected = ui.selected;
  const oneSel = selected.size === 1 ? v.hand.find((c) => selected.has(c.id)) : null;
  const selCards = v.hand.filter((c) => selected.has(c.id));

  // Meld targets for the selection (from the engine's legal.adds).
  let addTargets = new Set();
  if (legal && selCards.length) {
    let first = true;
    for (const c of selCards) {
      const ids = new Set(legal.adds[c.c] || []);
      addTargets = first ? ids : new Set([...addTargets].filter((x) => ids.has(x)));
      first = false;
    }
  }
  // Melds the top card can go to (draw phase, "top m<id> ..." moves).
  const topTargets = new Map();
  const mergeTargets = new Map();
  for (const m of moves) {
    let mm = /^(?:top|take) m(\d+)$/.exec(m);
    if (mm) topTargets.set(Number(mm[1]), m);
    mm = /^merge m(\d+) m(\d+)/.exec(m);
    if (mm) {
      const a = Number(mm[1]); const b = Number(mm[2]);
      if (ui.mergeFrom === null) { mergeTargets.set(a, null); mergeTargets.set(b, null); }
      else if (ui.mergeFrom === a) mergeTargets.set(b, m);
      else if (ui.mergeFrom === b) mergeTargets.set(a, m);
    }
  }

  renderScoreboard(v);
  renderSeats(v, ui);

  // Other sides' melds.
  const them = $("their-melds");
  them.replaceChildren();
  v.sides.forEach((_, side) => {
    if (side !== v.my_side) them.append(sidePanel(v, side, ui, {}));
  });
  // My side's melds (with the staged parts).
  const mine = $("my-melds");
  mine.replaceChildren(sidePanel(v, v.my_side, ui, {
    addTargets: selCards.length ? addTargets : new Set(),
    topTargets: selCards.length ? new Map() : topTargets,
    mergeTargets: selCards.length ? new Map() : mergeTargets,
    staged: ui.staged,
    canStageAdd: myTurn && selCards.length > 0,
  }));

  // Stock and pile.
  $("stock-count").textContent = num(v.stock);
  const stock = $("stock");
  stock.classList.toggle("empty", v.stock === 0);
  stock.dataset.legal = myTurn && moves.includes("draw") ? "draw" : "";
  const pileTop = $("pile-top");
  pileTop.replaceChildren();
  if (v.pile.top) {
    const depth = Math.min(v.pile.size - 1, 4);
    for (let i = 0; i < depth; i++) {
      const under = el("div", "card pile-under");
      under.style.setProperty("--d", String(depth - i));
      pileTop.append(under);
    }
    pileTop.append(cardEl(v.pile.top));
  } else {
    pileTop.append(el("div", "card placeholder", t("ui.empty")));
  }
  $("pile-count").textContent = num(v.pile.size);
  stock.setAttribute("aria-label", t("a11y.stock", { n: v.stock }));
  $("pile").setAttribute("aria-label", [t("a11y.pile", { n: v.pile.size }),
    v.pile.top ? t("a11y.pile_top", { card: A11y.cardName(v.pile.top.c) }) : "",
    v.pile.blocked ? t("ui.blocked") : "", v.pile.frozen ? t("ui.frozen") : ""].filter(Boolean).join(", "));
  $("pile").title = (v.pile.cards || []).map((c) => prettyMove(c.c)).join(" ");
  const flags = $("pile-flags");
  flags.replaceChildren();
  if (v.pile.blocked) flags.append(el("span", "flag flag-blocked", t("ui.blocked")));
  if (v.pile.frozen) flags.append(el("span", "flag flag-frozen", t("ui.frozen")));
  const pile = $("pile");
  let pileLegal = "";
  if (myTurn && v.phase === "meld" && oneSel && legal.discard.includes(oneSel.c)) pileLegal = "discard";
  else if (myTurn && v.phase === "draw" && moves.some((m) => m.startsWith("take "))) pileLegal = "take";
  else if (myTurn && v.phase === "draw" && topTargets.size) pileLegal = "top";
  pile.dataset.legal = pileLegal;

  renderHand(v, ui, stagedIds, legal, myTurn);
  renderSuggest(v, ui, legal, myTurn, stagedIds);
  renderActions(v, ui, legal, myTurn, selCards);
  renderStatus(v, ui, myTurn, topTargets, selCards);
  renderLog(v);
  A11y.renderReminder($("reminder"), v, el);
  A11y.announce($("live"), v, myTurn, $("status").textContent);
  renderDialogs(v, ui);
}

function renderScoreboard(v) {
  const box = $("scoreboard");
  box.replaceChildren();
  v.sides.forEach((_, side) => {
    const item = el("div", `score side-${side}${side === v.my_side ? " mine" : ""}`);
    item.append(el("span", "score-name", sideName(v, side)), el("b", "score-pts", num(v.scores[side])));
    box.append(item);
  });
  const meta = el("div", "score-meta");
  meta.append(el("span", "rules-name", rulesName(v.rules.name, t, has)), el("span", null, t("ui.deal", { n: v.deal })), el("span", null, t("ui.target", { n: num(v.target) })));
  box.append(meta);
}

function renderSeats(v, ui) {
  const box = $("seats");
  box.replaceChildren();
  for (let k = 1; k < v.players; k++) {
    const seat = (v.seat + k) % v.players;
    const side = v.side_of[seat];
    const chip = el("div", `seat side-${side}`);
    chip.dataset.seat = String(seat);
    if (v.current === seat && v.phase !== "deal_over" && v.phase !== "game_over") chip.classList.add("active");
    const name = el("div", "seat-name", seatName(seat));
    if (side === v.my_side) name.append(el("span", "tag", t("ui.partner")));
    const info = el("div", "seat-info");
    const backs = el("span", "mini-backs");
    backs.append(el("span", "mini-back"), el("span", "mini-back"));
    const n = v.hand_sizes[seat];
    info.append(backs, el("span", "seat-count", t("ui.cards", { n })));
    chip.append(name, info);
    if (ui.thinking === seat) chip.append(el("div", "thinking", t("ui.thinking")));
    box.append(chip);
  }
}

function sidePanel(v, side, ui, opts) {
  const mine = side === v.my_side;
  const panel = el("div", `side-panel side-${side}${mine ? " mine" : ""}`);
  panel.dataset.side = String(side);
  const head = el("div", "side-head");
  head.append(el("span", "side-name", sideName(v, side)));
  const made = v.canastas[side];
  head.append(made >= v.requirement ? el("span", "badge badge-ok", t("ui.canastas_done", { n: made }))
    : el("span", "badge", t("ui.canastas", { n: made, req: v.requirement })));
  if (v.opened[side]) head.append(el("span", "badge badge-ok", t("ui.opened")));
  else head.append(el("span", "badge badge-min", t("ui.minimum", { n: v.minimum[side] })));
  const reds = v.red_threes[side] || [];
  if (reds.length) {
    const r = el("span", "red-threes");
    r.title = t("ui.red_threes");
    for (const c of reds) r.append(cardEl(c));
    head.append(r);
  }
  panel.append(head);

  const row = el("div", "melds");
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-label", t("a11y.melds_of", { name: sideName(v, side) }));
  const melds = v.melds[side] || [];
  for (const m of melds) {
    const box = el("div", "meld");
    box.dataset.meld = String(m.id);
    box.dataset.mine = mine ? "1" : "0";
    box.dataset.type = m.type;
    if (m.canasta) { box.classList.add("canasta", `canasta-${m.canasta}`); box.dataset.canasta = m.canasta; }
    if (m.closed) box.classList.add("closed");
    if (mine) {
      if (opts.addTargets && opts.addTargets.has(m.id)) { box.classList.add("target"); box.dataset.legal = "add"; }
      if (opts.topTargets && opts.topTargets.has(m.id)) { box.classList.add("target"); box.dataset.legal = "top"; }
      if (opts.mergeTargets && opts.mergeTargets.has(m.id)) { box.classList.add("target-merge"); box.dataset.legal = "merge"; }
      if (ui.mergeFrom === m.id) box.classList.add("merge-from");
      if (opts.canStageAdd) box.classList.add("clickable");
    }
    const pending = (opts.staged || []).filter((p) => p.kind === "add" && p.meld === m.id);
    box.append(fan(m.cards, pending.flatMap((p) => p.cards)));
    const label = el("div", "meld-label");
    if (m.canasta) {
      label.append(el("span", `mark mark-${m.canasta}`, t(`canasta.short.${m.canasta}`)));
      label.append(el("span", "meld-size", String(m.size)));
    } else {
      label.append(el("span", "needs", t("ui.needs", { n: m.needs })));
    }
    box.title = `${meldLabel(m)} · ${m.canasta ? t(`canasta.${m.canasta}`) : t("ui.needs", { n: m.needs })}`;
    box.setAttribute("aria-label", A11y.meldName(m));
    if (mine) { box.tabIndex = 0; box.setAttribute("role", "button"); } else box.setAttribute("role", "group");
    box.append(label);
    row.append(box);
  }
  (opts.staged || []).forEach((p, i) => {
    if (p.kind !== "new") return;
    const box = el("div", "meld staged");
    box.dataset.staged = String(i);
    box.tabIndex = 0;
    box.setAttribute("role", "button");
    box.setAttribute("aria-label", t("a11y.staged", { n: p.cards.length }));
    box.append(fan([], p.cards));
    const label = el("div", "meld-label");
    label.append(el("span", "needs", t("ui.staged")), el("span", "meld-size", String(p.cards.length)));
    box.append(label);
    row.append(box);
  });
  if (!row.childElementCount) row.append(el("div", "no-melds", t("ui.no_melds")));
  panel.append(row);
  return panel;
}

function fan(cards, pendingCards) {
  const f = el("div", "fan");
  const all = cards.length + pendingCards.length;
  f.style.setProperty("--n", String(all));
  let i = 0;
  for (const c of cards) { const e = cardEl(c); e.style.setProperty("--i", String(i++)); f.append(e); }
  for (const c of pendingCards) {
    const e = cardEl(c); e.classList.add("pending"); e.style.setProperty("--i", String(i++)); f.append(e);
  }
  return f;
}

function renderHand(v, ui, stagedIds, legal, myTurn) {
  const hand = $("hand");
  if (ui.privacy !== null && ui.privacy !== undefined) { hand.replaceChildren(); return; }
  const groups = [];
  let cur = null;
  for (const c of v.hand) {
    if (stagedIds.has(c.id)) continue;
    const k = rankKey(c.c);
    if (!cur || cur.key !== k) { cur = { key: k, cards: [] }; groups.push(cur); }
    cur.cards.push(c);
  }
  const nodes = [];
  for (const g of groups) {
    const ge = el("div", "group");
    ge.dataset.rank = g.key;
    g.cards.forEach((c, i) => {
      const e = cardEl(c);
      e.classList.remove("pending");
      e.style.setProperty("--i", String(i));
      if (ui.selected.has(c.id)) e.classList.add("selected");
      if (legal && myTurn) {
        if (legal.discard.includes(c.c)) e.dataset.legal = "discard";
        const adds = legal.adds[c.c];
        if (adds && adds.length) e.dataset.adds = adds.join(" ");
      }
      e.tabIndex = 0;
      e.setAttribute("role", "button");
      e.setAttribute("aria-pressed", ui.selected.has(c.id) ? "true" : "false");
      ge.append(e);
    });
    nodes.push(ge);
  }
  hand.replaceChildren(...nodes);
  hand.dataset.count = String(v.hand.length);
  hand.dataset.size = v.hand.length > 15 ? "l" : "";
  hand.classList.toggle("inactive", !myTurn);
}

function partCardsAvailable(meldText, hand, stagedIds) {
  const cards = [];
  for (const part of meldText.split(";")) {
    const toks = part.trim().split(/\s+/);
    cards.push(...(toks[0] === "add" ? toks.slice(2) : toks.slice(1)));
  }
  const pool = new Map();
  for (const c of hand) if (!stagedIds.has(c.id)) pool.set(c.c, (pool.get(c.c) || 0) + 1);
  for (const c of cards) {
    const n = pool.get(c) || 0;
    if (!n) return false;
    pool.set(c, n - 1);
  }
  return true;
}

function renderSuggest(v, ui, legal, myTurn, stagedIds) {
  const box = $("suggest");
  box.replaceChildren();
  if (!legal || !myTurn || (ui.privacy !== null && ui.privacy !== undefined)) return;
  if (v.phase === "draw") {
    // The engine's ways to take the pile, shortest first, as one-click shortcuts.
    const takes = legal.moves.filter((m) => m.startsWith("take ") && !/^take m\d+$/.test(m))
      .sort((a, b) => a.length - b.length).slice(0, 6);
    if (!takes.length) return;
    box.append(el("span", "suggest-label", t("action.take")));
    for (const m of takes) {
      const b = el("button", "chip", prettyParts("new " + m.slice(5), meldNamer(v)));
      b.type = "button";
      b.dataset.move = m;
      box.append(b);
    }
    return;
  }
  if (!legal.melds || !legal.melds.length) return;
  const parts = legal.melds.filter((p) => partCardsAvailable(p, v.hand, stagedIds)).slice(0, 8);
  if (!parts.length) return;
  box.append(el("span", "suggest-label", t("action.suggest")));
  for (const p of parts) {
    const b = el("button", "chip", prettyParts(p, meldNamer(v)));
    b.type = "button";
    b.dataset.part = p;
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

function renderActions(v, ui, legal, myTurn, selCards) {
  const box = $("actions");
  box.replaceChildren();
  const moves = legal ? legal.moves : [];
  box.dataset.moves = moves.join("|");
  if (!myTurn || (ui.privacy !== null && ui.privacy !== undefined)) return;
  const busy = ui.busy;
  if (v.phase === "answer") {
    if (moves.includes("answer yes")) box.append(button("move", t("action.answer_yes"), { arg: "answer yes", cls: "btn-primary", disabled: busy }));
    if (moves.includes("answer no")) box.append(button("move", t("action.answer_no"), { arg: "answer no", disabled: busy }));
    return;
  }
  if (v.phase === "deal_over" || v.phase === "game_over") {
    if (moves.includes("next")) box.append(button("move", t("action.next"), { arg: "next", cls: "btn-primary", disabled: busy }));
    return;
  }
  const hasSel = selCards.length > 0;
  if (v.phase === "draw" && moves.includes("draw")) box.append(button("move", t("action.draw"), { arg: "draw", disabled: busy }));
  if (v.phase === "draw" && moves.some((m) => m.startsWith("take "))) box.append(button("take", t("action.take"), { disabled: busy || selCards.length < 2 }));
  box.append(button("new", t("action.new_meld"), { disabled: busy || !hasSel }));
  if (ui.staged.length) {
    const label = t("action.confirm");
    if (v.phase === "meld") box.append(button("confirm", label, { cls: "btn-primary", disabled: busy }));
    box.append(button("takeback", t("action.take_back"), { disabled: busy }));
  }
  if (v.phase === "meld") {
    box.append(button("discard", t("action.discard"), { cls: ui.staged.length ? "" : "btn-primary", disabled: busy || selCards.length !== 1 }));
    if (legal.can_ask) box.append(button("ask", t("action.ask"), { disabled: busy || selCards.length > 1 || (!selCards.length && !ui.staged.length) }));
  }
  if (hasSel) box.append(button("clear", t("action.clear"), { cls: "btn-ghost", disabled: busy }));
  box.append(button("hint", t("action.hint"), { cls: "btn-ghost", disabled: busy }));
  for (const m of moves) {
    if (m === "pass") box.append(button("move", t("action.pass"), { arg: m, disabled: busy }));
    else if (m === "end") box.append(button("move", t("action.end"), { arg: m, cls: "btn-primary", disabled: busy }));
    else if (m.startsWith("red3 ")) box.append(button("move", t("action.red3", { card: prettyMove(m.slice(5)) }), { arg: m, disabled: busy }));
  }
}

function renderStatus(v, ui, myTurn, topTargets, selCards) {
  const status = $("status");
  let text;
  if (v.phase === "deal_over") text = t("status.deal_over");
  else if (v.phase === "game_over") text = t("status.game_over");
  else if (v.phase === "answer" && myTurn) {
    const asker = v.turn && v.turn.asker >= 0 ? v.turn.asker : v.current;
    text = t("status.answer", { name: seatName(asker) });
    const pending = v.turn && v.turn.pending;
    if (pending) text += " " + t("status.proposal", { move: prettyParts(pending.replace(/^ask /, ""), meldNamer(v)) });
  } else if (!myTurn) {
    text = v.phase === "answer" ? t("status.waiting_answer", { name: seatName(v.current) })
      : t("status.waiting", { name: seatName(v.current) });
  } else if (ui.mergeFrom !== null) text = t("status.merge_pick");
  else if (v.phase === "draw") {
    // The pile can be taken with a pair only when the engine offers a way (not blocked, frozen
    // against the hand, ...): otherwise the status does not suggest it.
    const takes = (v.legal && v.legal.takes) || [];
    text = t(takes.length ? "status.your_draw" : "status.your_draw_stock")
      + (topTargets.size ? " " + t("status.top_hint") : "");
  }
  else text = v.rules.pass_with_one ? t("status.your_meld_dutch") : t("status.your_meld");
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

  const msg = $("message");
  msg.textContent = ui.message ? messageText(ui.message) : "";
  msg.dataset.kind = ui.message ? ui.message.kind : "";
  if (ui.message && ui.message.code) msg.dataset.code = ui.message.code; else delete msg.dataset.code;
}

/** A message's text in the page's language now (it may be a string or a maker). */
function messageText(m) {
  return typeof m.text === "function" ? m.text() : String(m.text ?? "");
}

/**
 * A move text in the player's words, as an instruction (the hint): "draw" -> "draw from the
 * stock", "discard 7S" -> "discard 7♠", "top m3" -> "take the top card onto 4♣–7♣".
 */
export function moveInWords(move, v) {
  const mn = meldNamer(v);
  const [verb, ...rest] = move.trim().split(/\s+/);
  const arg = rest.join(" ");
  switch (verb) {
    case "draw": return t("hint.draw");
    case "discard": return t("hint.discard", { card: prettyMove(arg) });
    case "red3": return t("hint.red3", { card: prettyMove(arg) });
    case "meld": return t("hint.meld", { cards: prettyParts(arg, mn) });
    case "top": return t("hint.top", { meld: mn(arg) });
    case "take":
      if (/^m\d+$/.test(arg)) return t("hint.take_onto", { meld: mn(arg) });
      return t("hint.take", { cards: prettyParts("new " + arg, mn) });
    case "merge": return t("hint.merge", { a: mn(rest[0]), b: mn(rest[1]) });
    case "ask": return t("hint.ask", { cards: prettyParts(arg, mn) });
    case "answer": return t(arg === "yes" ? "hint.answer_yes" : "hint.answer_no");
    case "pass": return t("hint.pass");
    case "end": return t("hint.end");
    case "next": return t("hint.next");
    default: return prettyMove(move);
  }
}

function meldNamer(v) {
  const byId = new Map();
  for (const side of v.melds) for (const m of side) byId.set(`m${m.id}`, m);
  return (token) => (byId.has(token) ? meldLabel(byId.get(token)) : token);
}

function logLine(e, v) {
  const mn = meldNamer(v);
  const you = e.seat === v.seat;
  const t = (key, params) => tr(you && has(key.replace("log.", "log.you.")) ? key.replace("log.", "log.you.") : key, params);
  const name = e.seat === null || e.seat === undefined ? "" : seatName(e.seat);
  const text = e.text || "";
  if (text === "deal") return t("log.deal", { n: e.deal });
  if (text === "deal_end") return t("log.deal_end");
  if (text === "scenario") return t("log.scenario");
  if (text === "draw") {
    return e.cards ? t("log.draw_cards", { name, cards: e.cards.map(prettyMove).join(" ") })
      : t("log.draw", { name, n: e.n ?? "" });
  }
  if (/^red3\b/.test(text) && e.card) return t("log.red3", { name, card: prettyMove(e.card) });
  if (text.startsWith("top ") && e.card) return t("log.top", { name, card: prettyMove(e.card), meld: mn(text.slice(4)) });
  if (text.startsWith("take ") && Array.isArray(e.pile)) {
    return t("log.take", { name, n: e.pile.length, cards: /^m\d+$/.test(text.slice(5)) ? mn(text.slice(5)) : prettyParts("new " + text.slice(5), mn) });
  }
  if (text.startsWith("discard ")) return t("log.discard", { name, card: prettyMove(text.slice(8)) });
  if (text.startsWith("meld ")) return t("log.meld", { name, cards: prettyParts(text.slice(5), mn) });
  if (text.startsWith("merge ")) return t("log.merge", { name });
  if (text === "pass" || text === "end") return t(`log.${text}`, { name });
  if (text.startsWith("ask ")) return t("log.ask", { name });
  if (text === "answer yes" || text === "answer no") return t(`log.answer_${text.slice(7)}`, { name });
  return name ? t("log.line", { name, text: prettyMove(text) }) : prettyMove(text);
}

let logShown = 0;
let logDeal = null;
let logViewer = null;
function renderLog(v) {
  const list = $("log-list");
  // The view carries only the latest entries (a window): find how far it moved since the last
  // render and append just the new ones, so the whole deal stays readable.
  const keys = v.log.map((e) => JSON.stringify(e));
  let fresh = 0;
  if (logDeal === v.deal && logViewer === v.seat && logKeys.length) {
    let shift = -1;
    for (let d = 0; d < logKeys.length; d++) {
      const tail = logKeys.slice(d);
      if (tail.length <= keys.length && tail.every((k, i) => k === keys[i])) { shift = d; break; }
    }
    if (shift >= 0) fresh = logKeys.length - shift;
    else { list.replaceChildren(); logShown = 0; }
  } else {
    list.replaceChildren(); logShown = 0;
  }
  logDeal = v.deal; logViewer = v.seat;
  logKeys = keys;
  logShown = fresh;
  if (!list.childElementCount) logItems.length = 0;
  for (let i = fresh; i < v.log.length; i++) {
    const e = v.log[i];
    const seat = e.seat;
    const li = el("li", seat === v.seat ? "me" : "");
    li.textContent = logLine(e, v);
    if (seat === null || seat === undefined) li.className = "sys";
    list.append(li);
    logItems.push({ li, e, v });
  }
  if (v.log.length !== logShown) list.scrollTop = list.scrollHeight;
  logShown = v.log.length;
}
let logKeys = [];
// Every line shown this deal with its entry and the view it was drawn from (for meld names).
const logItems = [];

/** Writes every log line shown again, in the page's language now (after a language switch). */
function relabelLog() {
  for (const { li, e, v } of logItems) if (li.isConnected) li.textContent = logLine(e, v);
}

function summaryTable(table, v, rows, totals) {
  table.replaceChildren();
  const head = el("tr");
  head.append(el("th", null, t("deal.side")));
  v.sides.forEach((_, s) => head.append(el("th", s === v.my_side ? "mine" : "", sideName(v, s))));
  const thead = el("thead"); thead.append(head);
  const tbody = el("tbody");
  for (const [key, field] of rows) {
    const tr = el("tr", field === "total" ? "total" : "");
    tr.append(el("th", null, t(key)));
    dealSides(v.deal_result).forEach((r) => tr.append(el("td", null, num(r[field] || 0))));
    tbody.append(tr);
  }
  if (totals) {
    const tr = el("tr", "game");
    tr.append(el("th", null, t("deal.game")));
    totals.forEach((x) => tr.append(el("td", null, num(x))));
    tbody.append(tr);
  }
  table.append(thead, tbody);
}

/** The per-side rows of a deal result (a list, or an object holding one under "sides"). */
function dealSides(dr) {
  if (Array.isArray(dr)) return dr;
  return dr.sides || dr.per_side || [];
}

function gameTotals(v) {
  if (v.result && v.result.scores) return v.result.scores;
  const tot = v.sides.map(() => 0);
  for (const d of v.history || []) d.forEach((x, i) => { tot[i] += x; });
  return tot;
}

const DEAL_ROWS = [
  ["deal.melds", "melds"], ["deal.bonuses", "bonuses"], ["deal.red_threes", "red_threes"],
  ["deal.going_out", "going_out"], ["deal.hands", "hands"], ["deal.penalty", "penalty"],
  ["deal.total", "total"],
];

function renderDialogs(v, ui) {
  const dd = $("dlg-deal");
  const dov = $("dlg-over");
  if (v.deal_result && (v.phase === "deal_over" || v.phase === "game_over")) {
    const dr = v.deal_result;
    $("deal-title").textContent = t("deal.title", { n: v.deal });
    $("deal-out").textContent = dr.went_out === null || dr.went_out === undefined
      ? t("deal.no_out") : dr.went_out === v.seat ? t("deal.went_out_you")
        : t("deal.went_out", { name: seatName(dr.went_out) });
    summaryTable($("deal-table"), v, DEAL_ROWS, gameTotals(v));
    $("btn-next").hidden = v.phase !== "deal_over";
    const key = `${v.deal}`;
    if (v.phase === "deal_over" && ui.shownDeal !== key) {
      ui.shownDeal = key;
      if (!dd.open) dd.showModal();
    }
  }
  if (v.phase === "game_over" && v.result) {
    const r = v.result;
    let line;
    if (r.draw || r.winner === null) line = t("over.draw");
    else if (r.winner === v.my_side) line = t("over.winner_you");
    else line = t("over.winner", { name: sideName(v, r.winner) });
    $("over-line").textContent = line;
    if (v.deal_result) summaryTable($("over-table"), v, DEAL_ROWS, gameTotals(v));
    if (ui.shownOver !== v.version) {
      ui.shownOver = v.version;
      if (dd.open) dd.close();
      if (!dov.open) dov.showModal();
    }
  }
  if (v.phase !== "deal_over" && dd.open) dd.close();
}
