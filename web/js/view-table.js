// The table part of the renderer: the scoreboard, the other seats, every side's melds (with the
// staged ones) and the stock and pile. It reads the frame render.js made from the state; what can
// be clicked comes from the view's targets.

import { el, $ } from "./dom.js";
import { t, num, has } from "./i18n.js";
import * as A11y from "./a11y.js";
import { rulesName } from "./rules-data.js";
import { pretty, meldLabel } from "./cards.js";
import { seatName, sideName } from "./words.js";
import { cardEl, fan } from "./card-el.js";

export function renderScoreboard(v) {
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

export function renderSeats(v, ui) {
  const box = $("seats");
  box.replaceChildren();
  for (let k = 1; k < v.players; k++) {
    const seat = (v.seat + k) % v.players;
    const side = v.side_of[seat];
    const chip = el("div", `seat side-${side}`);
    chip.dataset.seat = String(seat);
    if (v.current === seat && v.phase !== "deal_over" && v.phase !== "game_over") chip.classList.add("active");
    const name = el("div", "seat-name", seatName(seat, v.seat));
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

/** Every side's melds: the others' above, the viewer's side (with its staged melds) below. */
export function renderSides(f) {
  const { v, ui } = f;
  const them = $("their-melds");
  them.replaceChildren();
  v.sides.forEach((_, side) => {
    if (side !== v.my_side) them.append(sidePanel(f, side, {}));
  });
  const sel = f.selCards.length > 0;
  $("my-melds").replaceChildren(sidePanel(f, v.my_side, {
    addTargets: sel ? f.addTargets : new Set(),
    onto: sel ? new Map() : f.onto,
    merges: sel ? new Map() : f.merges,
    staged: ui.staged,
    canStageAdd: f.myTurn && sel,
  }));
}

function sidePanel(f, side, opts) {
  const { v, ui } = f;
  const mine = side === v.my_side;
  const panel = el("div", `side-panel side-${side}${mine ? " mine" : ""}`);
  panel.dataset.side = String(side);
  const head = el("div", "side-head");
  head.append(el("span", "side-name", sideName(v, side)));
  const made = v.canastas[side];
  const met = v.requirement_met ? v.requirement_met[side] : made >= v.requirement;
  // Enough canastas but not the kind the rule set asks for (an escalera): the badge says so.
  const lack = Array.isArray(v.requirement_missing) ? v.requirement_missing[side] : null;
  const badge = met ? el("span", "badge badge-ok", t("ui.canastas_done", { n: made }))
    : el("span", "badge", t(lack && lack.sequence ? "ui.canastas_seq" : "ui.canastas", { n: made, req: v.requirement }));
  if (!met && lack) badge.title = A11y.lackText(lack);
  head.append(badge);
  if (v.opened[side]) head.append(el("span", "badge badge-ok", t("ui.opened")));
  else head.append(el("span", "badge badge-min", t("ui.minimum", { n: v.minimum[side] })));
  const reds = v.red_threes[side] || [];
  if (reds.length) {
    const r = el("span", "red-threes");
    r.title = t("ui.red_threes");
    // Pictures with names ("three of hearts"): a name on an element with no role may not be read.
    for (const c of reds) {
      const e = cardEl(c);
      e.setAttribute("role", "img");
      r.append(e);
    }
    head.append(r);
  }
  panel.append(head);

  const row = el("div", "melds");
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-label", t("a11y.melds_of", { name: sideName(v, side) }));
  for (const m of v.melds[side] || []) {
    const box = el("div", "meld");
    box.dataset.meld = String(m.id);
    box.dataset.mine = mine ? "1" : "0";
    box.dataset.type = m.type;
    if (m.canasta) { box.classList.add("canasta", `canasta-${m.canasta}`); box.dataset.canasta = m.canasta; }
    if (m.closed) box.classList.add("closed");
    if (mine) {
      if (opts.addTargets && opts.addTargets.has(m.id)) { box.classList.add("target"); box.dataset.legal = "add"; }
      if (opts.onto && opts.onto.has(m.id)) { box.classList.add("target"); box.dataset.legal = "top"; }
      if (opts.merges && opts.merges.has(m.id)) { box.classList.add("target-merge"); box.dataset.legal = "merge"; }
      if (ui.mergeFrom === m.id) box.classList.add("merge-from");
      if (opts.canStageAdd) box.classList.add("clickable");
      if (f.hint && f.hint.melds.includes(m.id)) box.classList.add("hinted");
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

/** The stock and the pile, and what clicking them does now (data-legal). */
export function renderDecks(f) {
  const { v, myTurn } = f;
  $("stock-count").textContent = num(v.stock);
  const stock = $("stock");
  stock.classList.toggle("empty", v.stock === 0);
  stock.dataset.legal = myTurn && f.stockMove ? "draw" : "";
  stock.classList.toggle("hinted", !!(f.hint && f.hint.stock));
  const pileTop = $("pile-top");
  pileTop.replaceChildren();
  if (v.pile.top) {
    const depth = Math.min(v.pile.size - 1, 4);
    pileTop.style.setProperty("--depth", String(depth));
    for (let i = 0; i < depth; i++) {
      const under = el("div", "card pile-under");
      under.style.setProperty("--d", String(depth - i));
      pileTop.append(under);
    }
    pileTop.append(cardEl(v.pile.top));
  } else {
    pileTop.style.setProperty("--depth", "0");
    pileTop.append(el("div", "card placeholder", t("ui.empty")));
  }
  $("pile-count").textContent = num(v.pile.size);
  stock.setAttribute("aria-label", t("a11y.stock", { n: v.stock }));
  const pile = $("pile");
  pile.setAttribute("aria-label", [t("a11y.pile", { n: v.pile.size }),
    v.pile.top ? t("a11y.pile_top", { card: A11y.cardName(v.pile.top.c) }) : "",
    v.pile.blocked ? t("ui.blocked") : "", v.pile.frozen ? t("ui.frozen") : ""].filter(Boolean).join(", "));
  pile.title = (v.pile.cards || []).map((c) => pretty(c.c)).join(" ");
  const flags = $("pile-flags");
  flags.replaceChildren();
  if (v.pile.blocked) flags.append(el("span", "flag flag-blocked", t("ui.blocked")));
  if (v.pile.frozen) flags.append(el("span", "flag flag-frozen", t("ui.frozen")));
  let pileLegal = "";
  if (myTurn && v.phase === "meld" && f.oneSel && f.legal.discard.includes(f.oneSel.c)) pileLegal = "discard";
  else if (myTurn && v.phase === "draw" && f.canTake) pileLegal = "take";
  else if (myTurn && v.phase === "draw" && f.onto.size) pileLegal = "top";
  pile.dataset.legal = pileLegal;
  pile.classList.toggle("hinted", !!(f.hint && f.hint.pile));
}
