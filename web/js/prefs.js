// Player preferences (not game settings): computer speed, "skip to my turn", four-colour deck,
// animations, "warn me before a blunder". Stored in localStorage; no DOM here (comfort.js shows and applies them).

export const PREFS_KEY = "samba.prefs.v1";
export const SPEEDS = ["slow", "normal", "fast", "instant"];
// Pause before each computer move, and how long a card takes to travel, per speed.
const PACE = { slow: 1500, normal: 750, fast: 250, instant: 0 };
const TRAVEL = { slow: 650, normal: 380, fast: 200, instant: 0 };

// warn: "warn me before a blunder" (the coach checks each of the player's moves first).
const DEFAULTS = { speed: "normal", skip: false, fourColour: false, animate: true, warn: false };

export function loadPrefs() {
  try {
    const p = JSON.parse(localStorage.getItem(PREFS_KEY) || "null");
    if (p && typeof p === "object") {
      return {
        speed: SPEEDS.includes(p.speed) ? p.speed : DEFAULTS.speed,
        skip: !!p.skip,
        fourColour: !!p.fourColour,
        animate: p.animate !== false,
        warn: !!p.warn,
      };
    }
  } catch (err) { /* private mode or corrupt: defaults */ }
  return { ...DEFAULTS };
}

export function savePrefs(p) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify(p)); } catch (err) { /* ignore */ }
}

/** Milliseconds to wait before a computer moves (`override` from ?pace= wins). */
export function paceMs(p, override = null) {
  if (override !== null) return override;
  if (p.skip) return 0;
  return PACE[p.speed] ?? PACE.normal;
}

/** Milliseconds a card takes to move on the table (0: no animation). */
export function travelMs(p) {
  if (!p.animate) return 0;
  return TRAVEL[p.speed] ?? TRAVEL.normal;
}
