// The coach's part of the deal review (docs/frontend.md, "The coach"): the button that starts it,
// its progress and Stop, then the decisions it marked, each in words with the better move and
// why, and a summary line. Presentation only (a renderer part): it reads `ui.coach` and calls
// the controller's handlers.

import { el } from "./dom.js";
import { t, reasonText } from "./i18n.js";
import { moveInWords, reasonLine } from "./words.js";
import { describeStep } from "./review.js";

/** The review step (of `deal_review`) that plays the record's move `index`; -1 if none. */
export function stepOfIndex(review, index) {
  return (review.steps || []).findIndex((s) => s.index === index);
}

/**
 * The coach's box in the review dialog (made once, above the replay). `h` = {start(), stop(),
 * jump(step)}: the controller's.
 */
function coachBox(h) {
  let box = document.getElementById("dlg-review-coach");
  if (box) return box;
  const body = document.getElementById("dlg-review-body");
  box = el("section", "coach");
  box.id = "dlg-review-coach";
  box.setAttribute("aria-live", "polite");
  box.addEventListener("click", (ev) => {
    const b = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (ev.target).closest("button[data-coach]"));
    if (!b || b.disabled) return;
    if (b.dataset.coach === "start") h.start();
    else if (b.dataset.coach === "stop") h.stop();
    else if (b.dataset.coach === "jump") h.jump(Number(b.dataset.step));
  });
  body.before(box);
  return box;
}

function button(what, text, cls = "btn btn-ghost btn-small") {
  const b = el("button", cls, text);
  b.type = "button";
  b.dataset.coach = what;
  return b;
}

/** One marked decision: its mark, the move played, the better move and why (the engine's reasons
 * end with what the better move is expected to gain). */
function markedItem(item, review, view, step, current) {
  const { entry, view: seen } = item;
  const b = button("jump", "", "coach-item");
  b.dataset.step = String(step);
  b.dataset.mark = entry.mark;
  b.dataset.best = entry.best;
  if (step === current) b.setAttribute("aria-current", "step");
  const head = el("span", "coach-head");
  head.append(el("b", `coach-mark ${entry.mark}`, t(`coach.mark.${entry.mark}`)), " ",
    el("span", "coach-played", step >= 0 ? describeStep(review.steps[step], view) : entry.move));
  const better = moveInWords(entry.best, seen) ?? entry.best;
  const lines = el("span", "coach-lines");
  lines.append(el("span", "coach-better", t("coach.better", { move: better })));
  const why = (entry.reasons || []).map((r) => reasonLine(r, seen)).filter(Boolean);
  if (why.length) lines.append(el("span", "coach-why", t("coach.why", { reasons: why.join("; ") })));
  b.append(head, lines);
  return b;
}

/**
 * Draws the coach's part for the review of `review` (deal_review's), replay step `current`:
 * `coach` is ui.coach (null: not started for this deal).
 */
export function renderCoach(coach, review, view, current, h) {
  const box = coachBox(h);
  box.replaceChildren();
  const mine = coach && coach.deal === review.deal ? coach : null;
  box.dataset.state = mine ? mine.state : "idle";
  if (!mine || mine.state === "idle") {
    const p = el("p", "coach-about", t("coach.about"));
    box.append(button("start", t("coach.button"), "btn btn-primary btn-small"), p);
    return;
  }
  if (mine.state === "running") {
    const line = el("p", "coach-progress");
    const bar = el("progress", "coach-bar");
    bar.max = Math.max(1, mine.total);
    bar.value = mine.done;
    line.append(t("coach.running", { done: mine.done, total: mine.total }), " ", bar);
    box.append(line, button("stop", t("coach.stop")));
  } else if (mine.state === "error") {
    box.append(el("p", "coach-error", t("coach.error", { message: reasonText(mine.error) })),
      button("start", t("coach.again")));
    return;
  }
  const marked = mine.items.filter((x) => x.entry.mark);
  const count = (m) => marked.filter((x) => x.entry.mark === m).length;
  if (mine.state !== "running") {
    const sum = el("p", "coach-summary", t("coach.summary", {
      blunders: count("blunder"), mistakes: count("mistake"), n: mine.done,
    }));
    box.append(sum);
    if (mine.state === "stopped") {
      box.append(el("p", "coach-stopped", t("coach.stopped", { done: mine.done, total: mine.total })),
        button("start", t("coach.again")));
    } else if (!marked.length) box.append(el("p", "coach-none", t("coach.none")));
  }
  if (marked.length) {
    const list = el("div", "coach-list");
    for (const item of marked) {
      list.append(markedItem(item, review, view, stepOfIndex(review, item.entry.index), current));
    }
    box.append(list);
  }
}

/**
 * "Warn me before a blunder": the coach's verdict on the move about to be played (`entry`, for
 * view `view`), with the better move and why. Resolves to true to play it anyway, false to
 * think again (also Escape).
 */
export function askBlunder(entry, view) {
  let d = /** @type {HTMLDialogElement | null} */ (document.getElementById("dlg-coach-warn"));
  if (!d) {
    d = /** @type {HTMLDialogElement} */ (el("dialog", "dlg"));
    d.id = "dlg-coach-warn";
    const form = el("div", "dlg-form");
    const h = el("h2", null);
    h.id = "dlg-coach-warn-title";
    d.setAttribute("aria-labelledby", h.id);
    const body = el("div", "dlg-body");
    body.id = "dlg-coach-warn-body";
    const buttons = el("div", "dlg-buttons");
    const play = button("play", "", "btn btn-ghost");
    const back = button("back", "", "btn btn-primary");
    buttons.append(play, back);
    form.append(h, body, buttons);
    d.append(form);
    document.body.append(d);
  }
  const dialog = d;
  const body = /** @type {HTMLElement} */ (dialog.querySelector(".dlg-body"));
  /** @type {HTMLElement} */ (dialog.querySelector("h2")).textContent = t("coach.warn.title");
  const better = moveInWords(entry.best, view) ?? entry.best;
  const why = (entry.reasons || []).map((r) => reasonLine(r, view)).filter(Boolean);
  dialog.dataset.best = entry.best;
  body.replaceChildren(el("p", "coach-warn-intro", t("coach.warn.intro")),
    el("p", "coach-better", t("coach.better", { move: better })));
  if (why.length) body.append(el("p", "coach-why", t("coach.why", { reasons: why.join("; ") })));
  const play = /** @type {HTMLButtonElement} */ (dialog.querySelector('button[data-coach="play"]'));
  const back = /** @type {HTMLButtonElement} */ (dialog.querySelector('button[data-coach="back"]'));
  play.textContent = t("coach.warn.play");
  back.textContent = t("coach.warn.back");
  return new Promise((resolve) => {
    const done = (choice) => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      resolve(choice);
    };
    const onCancel = (ev) => { ev.preventDefault(); done(false); };
    dialog.addEventListener("cancel", onCancel);
    play.onclick = () => done(true);
    back.onclick = () => done(false);
    dialog.showModal();
    back.focus();
  });
}
