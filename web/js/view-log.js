// The log part of the renderer: one line per entry of the view's log, made from the entry's kind
// and facts (words.js), in the page's language. The view carries only the latest entries (a
// window): entries are numbered (`i`), so only the new ones are appended and the whole deal
// stays readable. A seat's melds one after another (a turn's) are one line. What was drawn is
// kept on the list's elements themselves.

import { el, $ } from "./dom.js";
import { logLine, joinsLine, joinEntries } from "./words.js";

const drawnFrom = new WeakMap(); // li -> {e, v}: the entry and the view it was drawn from (meld names)

export function renderLog(v) {
  const list = $("log-list");
  const key = `${v.deal}:${v.seat}`;
  if (list.dataset.key !== key) { list.replaceChildren(); list.dataset.key = key; }
  const lastLi = /** @type {HTMLElement | null} */ (list.lastElementChild);
  const last = lastLi ? Number(lastLi.dataset.i) : -1;
  // The entries after the last one drawn (a view of an earlier point starts again).
  if (v.log.length && v.log[v.log.length - 1].i < last) list.replaceChildren();
  const from = list.lastElementChild ? last : -1;
  let added = 0;
  v.log.forEach((e, k) => {
    const i = Number.isInteger(e.i) ? e.i : k;
    if (!(i > from)) return;
    // A seat's melds one after another in a turn make one line, each meld named once.
    const prevLi = /** @type {HTMLElement | null} */ (list.lastElementChild);
    const prev = prevLi && drawnFrom.get(prevLi);
    if (prev && Number(prevLi.dataset.i) === i - 1 && joinsLine(prev.e, e)) {
      const joined = joinEntries(prev.e, e);
      drawnFrom.set(prevLi, { e: joined, v });
      prevLi.dataset.i = String(i);
      prevLi.textContent = logLine(joined, v);
      added += 1;
      return;
    }
    const li = el("li", e.seat === v.seat ? "me" : "");
    li.dataset.i = String(i);
    if (e.kind) li.dataset.kind = e.kind;
    li.textContent = logLine(e, v);
    if (e.seat === null || e.seat === undefined) li.className = "sys";
    drawnFrom.set(li, { e, v });
    list.append(li);
    added += 1;
  });
  if (added) scrollSoon(list);
}

let scrollPending = null;

/**
 * The log scrolled to its last line before the next frame, not at once: reading its scroll
 * height in the middle of a render forced a layout of the whole page, which the parts drawn
 * after it made stale again (40–90 ms of a phone's main thread when a saved table is drawn).
 */
function scrollSoon(list) {
  if (scrollPending) return;
  scrollPending = list;
  const run = () => {
    if (!scrollPending) return;
    const l = scrollPending;
    scrollPending = null;
    l.scrollTop = l.scrollHeight;
  };
  requestAnimationFrame(run);
  setTimeout(run, 250); // a hidden tab runs no animation frames
}

/** Writes every log line shown again, in the page's language now (after a language switch). */
export function relabelLog() {
  const list = $("log-list");
  if (!list) return;
  for (const li of list.children) {
    const d = drawnFrom.get(li);
    if (d) li.textContent = logLine(d.e, d.v);
  }
}
