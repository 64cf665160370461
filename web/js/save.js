// Saved games in localStorage: the engine's game record (op `record`), written after every move
// and read back at boot. No DOM and no rules here: the engine replays a record (op `load`) and
// refuses a damaged one with `bad_record`; this module only checks the wrapper's shape and keeps
// a refused save aside (under BROKEN_KEY) so it is never lost and never loaded twice.

export const SAVE_KEY = "samba.save.v1";
export const BROKEN_KEY = "samba.save.broken";
// The player's last move, written as it is sent and dropped once a save holds it: a tab closed
// before that save plays it again at the next visit (if the saved game is where it was made).
export const PENDING_KEY = "samba.save.pending";
// The game in progress that a share link's game replaced (the player chose to play the link's
// game): kept whole, so the player can go back to it (the two games then change places).
export const LEFT_KEY = "samba.save.left";
const FORMAT = "samba-save/1";
const PENDING_FORMAT = "samba-pending/1";

function store() {
  try { return window.localStorage; } catch (err) { return null; }
}

/**
 * The saved game, if any: {record} when it looks like one, {broken: reason, raw} when it cannot
 * be one (not JSON, wrong wrapper, no record), or null when nothing is saved.
 * reason is a key suffix: "json", "format". `key`: LEFT_KEY reads the game a share link's
 * game replaced.
 */
export function readSave(key = SAVE_KEY) {
  const s = store();
  if (!s) return null;
  let raw;
  try { raw = s.getItem(key); } catch (err) { return null; }
  if (raw === null || raw === "") return null;
  let data;
  try { data = JSON.parse(raw); } catch (err) { return { broken: "json", raw }; }
  if (!data || typeof data !== "object" || data.format !== FORMAT) return { broken: "format", raw };
  const rec = data.record;
  if (!rec || typeof rec !== "object" || Array.isArray(rec) || !Array.isArray(rec.moves)
      || typeof rec.format !== "string" || typeof rec.check !== "string") {
    return { broken: "format", raw };
  }
  // The view drawn before the engine is ready (boot-view.js checks it before drawing it).
  const view = data.view && typeof data.view === "object" && !Array.isArray(data.view) ? data.view : null;
  return { record: rec, raw, savedAt: data.saved_at || null, view };
}

/**
 * Saves one game record (as the engine gave it), with the view of that version if given (drawn
 * at the next visit's first paint). Returns false if the browser refused.
 */
export function writeSave(record, view = null) {
  const s = store();
  if (!s) return false;
  try {
    s.setItem(SAVE_KEY, JSON.stringify({ format: FORMAT, saved_at: new Date().toISOString(), record, ...(view ? { view } : {}) }));
    return true;
  } catch (err) {
    return false;
  }
}

/** Moves the current save aside (kept for a bug report) and clears it. */
export function setAside(raw, reason) {
  const s = store();
  if (!s) return;
  try {
    s.setItem(BROKEN_KEY, JSON.stringify({ reason: String(reason || ""), at: new Date().toISOString(), raw: String(raw ?? "") }));
  } catch (err) { /* quota: dropping it is the lesser harm */ }
  try { s.removeItem(SAVE_KEY); } catch (err) { /* ignore */ }
}

export function clearSave() {
  const s = store();
  if (!s) return;
  try { s.removeItem(SAVE_KEY); } catch (err) { /* ignore */ }
}

/** Keeps the move the player just sent at `version` (until a save holds it). */
export function writePending(move, version) {
  const s = store();
  if (!s) return;
  try { s.setItem(PENDING_KEY, JSON.stringify({ format: PENDING_FORMAT, version, move })); } catch (err) { /* ignore */ }
}

/** The kept move as {version, move}, or null (a damaged one is dropped). */
export function readPending() {
  const s = store();
  if (!s) return null;
  let data = null;
  try { data = JSON.parse(s.getItem(PENDING_KEY) || "null"); } catch (err) { data = null; }
  if (data && data.format === PENDING_FORMAT && Number.isInteger(data.version) && data.version >= 0
      && typeof data.move === "string" && data.move.length > 0 && data.move.length <= 400) {
    return { version: data.version, move: data.move };
  }
  clearPending();
  return null;
}

export function clearPending() {
  const s = store();
  if (!s) return;
  try { s.removeItem(PENDING_KEY); } catch (err) { /* ignore */ }
}

/** Keeps the save `raw` (readSave().raw) as the game left for a share link's game. */
export function keepLeft(raw) {
  const s = store();
  if (!s) return false;
  try { s.setItem(LEFT_KEY, String(raw)); return true; } catch (err) { return false; }
}

/**
 * The left game and the saved one change places (the player goes back to the left game): the
 * save becomes the left game, and the left game the save. Nothing changes if there is none.
 */
export function swapLeft() {
  const s = store();
  if (!s) return;
  try {
    const left = s.getItem(LEFT_KEY);
    if (left === null) return;
    const cur = s.getItem(SAVE_KEY);
    s.setItem(SAVE_KEY, left);
    if (cur === null) s.removeItem(LEFT_KEY); else s.setItem(LEFT_KEY, cur);
  } catch (err) { /* quota: both stay where they were */ }
}
