// The dialogs of the renderer: the settings dialog (from the rules data's choices) and the
// end-of-deal and end-of-game summaries. A summary opens once per deal of a game: what was shown
// is kept on the dialog element (data-shown), not in the page's state.

import { el, $ } from "./dom.js";
import { t, num, has } from "./i18n.js";
import { rulesName } from "./rules-data.js";
import { dealRows, seatName, sideName } from "./words.js";

export function readSettings() {
  const form = /** @type {HTMLFormElement} */ ($("form-new"));
  const fd = new FormData(form);
  const players = Number(fd.get("players"));
  const seats = ["human"];
  for (let i = 1; i < players; i++) seats.push(/** @type {string} */ (fd.get(`seat${i}`)) || "medium");
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
 * players: [n], targets: [n], levels: [...], sides: [[seats], ...] | null}, `s` = current settings.
 */
export function renderSettings(s, choices, open) {
  radios($("opt-rules"), "rules", choices.rules.map((r) => [r, rulesName(r, t, has)]), s.rules);
  radios($("opt-target"), "target", choices.targets.map((n) => [n, num(n)]), s.target);
  radios($("opt-players"), "players", choices.players.map((n) => [n, num(n)]), s.players);
  const seatBox = $("opt-seats");
  seatBox.replaceChildren();
  // Who plays with whom (the rules data's sides): the player's partners are marked.
  const mine = (choices.sides || []).find((side) => side.includes(0)) || [0];
  for (let i = 0; i < s.players; i++) {
    // The player's own seat has no control: a row, not a label (a label names a control).
    const row = el(i === 0 ? "div" : "label", "seat-row");
    const name = el("span", "seat-row-name", seatName(i));
    if (i !== 0 && mine.includes(i)) {
      row.dataset.partner = "1";
      name.append(" ", el("span", "seat-row-partner", t("ui.partner")));
    }
    row.append(name);
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
  const dlg = /** @type {HTMLDialogElement} */ ($("dlg-new"));
  if (open && !dlg.open) dlg.showModal();
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

/** Opens `dlg` the first time `key` is shown (once per deal of a game). */
function openOnce(dlg, key) {
  if (dlg.dataset.shown === key) return false;
  dlg.dataset.shown = key;
  if (!dlg.open) dlg.showModal();
  return true;
}

export function renderDialogs(v, ui) {
  const dd = /** @type {HTMLDialogElement} */ ($("dlg-deal"));
  const dov = /** @type {HTMLDialogElement} */ ($("dlg-over"));
  if (v.deal_result && (v.phase === "deal_over" || v.phase === "game_over")) {
    const dr = v.deal_result;
    $("deal-title").textContent = t("deal.title", { n: v.deal });
    $("deal-out").textContent = dr.went_out === null || dr.went_out === undefined
      ? t("deal.no_out") : dr.went_out === v.seat ? t("deal.went_out_you")
        : t("deal.went_out", { name: seatName(dr.went_out, v.seat) });
    summaryTable($("deal-table"), v, dealRows(v), gameTotals(v));
    $("btn-next").hidden = v.phase !== "deal_over";
    if (v.phase === "deal_over") openOnce(dd, `${ui.game}:${v.deal}`);
  }
  if (v.phase === "game_over" && v.result) {
    const r = v.result;
    let line;
    if (r.draw || r.winner === null) line = t("over.draw");
    else if (r.winner === v.my_side) line = t("over.winner_you");
    else line = t("over.winner", { name: sideName(v, r.winner) });
    $("over-line").textContent = line;
    if (v.deal_result) summaryTable($("over-table"), v, dealRows(v), gameTotals(v));
    if (dov.dataset.shown !== `${ui.game}:${v.version}` && dd.open) dd.close();
    openOnce(dov, `${ui.game}:${v.version}`);
  }
  if (v.phase !== "deal_over" && dd.open) dd.close();
}
