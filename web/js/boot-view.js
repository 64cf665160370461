// A returning player's table before Python is ready: the saved game's last view (kept beside
// its record by save.js) is drawn at once, with no engine, and the record is handed to the
// engine client straight away (requests wait in the worker until Python is ready), so what the
// player clicks meanwhile is sent after it and done as soon as the engine can. The engine's
// answer to `load` then replaces the drawn view (app.js resumeSaved).
//
// The saved view is the page's own data from localStorage, but treated as untrusted: only a
// view of the shape the renderer expects is drawn, never one of a game with several people on
// the device (their hands stay behind the privacy screen until the engine says whose turn it
// is), and a view that fails to draw is dropped (the table waits for the engine instead).
//
// first-paint.js may already show a copy of this table (drawn before the first frame, inert):
// drawing the view over it makes the table live (`adopt`); when there is nothing to draw, the
// copy is taken down (`undo`) and the shell waits for the engine.

import { adopt, undo } from "./first-paint.js";

const PHASES = new Set(["draw", "meld", "deal_over", "game_over", "answer"]);

function isCardList(x) {
  return Array.isArray(x) && x.every((c) => c && typeof c === "object" && Number.isInteger(c.id) && typeof c.c === "string");
}

/** Whether `view` looks like an engine view the table can draw before the engine runs. */
export function drawableView(view) {
  if (!view || typeof view !== "object" || Array.isArray(view)) return false;
  if (!Number.isInteger(view.version) || !Number.isInteger(view.seat)) return false;
  if (!(view.current === null || Number.isInteger(view.current))) return false;
  if (typeof view.phase !== "string" || !PHASES.has(view.phase)) return false;
  if (!isCardList(view.hand)) return false;
  if (!view.legal || typeof view.legal !== "object" || !Array.isArray(view.legal.moves)) return false;
  const seats = Array.isArray(view.seats) ? view.seats : [];
  if (seats.filter((s) => s === "human").length !== 1) return false;
  return true;
}

/**
 * Draws the saved view with the page's own renderer (`controller.draw`) and returns true, or
 * returns false (nothing drawn, nothing changed) when there is no drawable saved view.
 */
export function paintSavedView(controller, saved) {
  if (!saved || saved.broken || !drawableView(saved.view)) { undo(); return false; }
  const { ui } = controller;
  try {
    ui.view = saved.view;
    controller.draw();
  } catch (err) {
    undo();
    ui.view = null;
    try { controller.draw(); } catch (err2) { /* the empty table */ }
    return false;
  }
  adopt();
  document.body.dataset.save = "drawn";
  return true;
}
