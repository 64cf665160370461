// Personal statistics, kept in this browser (localStorage): games and deals played and won per
// rule set, player count and computer level; average and best deal score; win streaks; canastas
// and sambas made; recent deal scores for a chart. Export to a file and import back: a file that
// is not a statistics file of this format is refused with the reason and changes nothing.
// No DOM here (js/stats-view.js draws); facts come from the engine's view at a deal's end.

export const STATS_KEY = "samba.stats.v1";
export const GAME_KEY = "samba.stats.game";   // the game being counted: {sig, deals: [n], over}
export const FORMAT = "samba-stats/1";
const RECENT = 60;                            // deal scores kept for the chart
const COUNTS = ["games", "games_won", "deals", "deals_won", "canastas", "sambas", "streak", "best_streak"];

function store() {
  try { return window.localStorage; } catch (err) { return null; }
}

export function emptyStats() {
  return { format: FORMAT, buckets: {}, overall: { streak: 0, best_streak: 0 }, recent: [] };
}

function emptyBucket(rules, players, level) {
  const b = { rules, players, level, points: 0, best: null };  // points: the deals' sum (may be < 0)
  for (const k of COUNTS) b[k] = 0;
  return b;
}

/** The key of a bucket: rule set, player count, computer level ("mixed" when they differ). */
export function bucketKey(rules, players, level) {
  return `${rules}/${players}/${level}`;
}

/** The computers' level of a game's seats: one level, or "mixed". */
export function levelOf(seats) {
  const levels = [...new Set((seats || []).slice(1).filter((s) => s !== "human"))];
  return levels.length === 1 ? levels[0] : levels.length ? "mixed" : "none";
}

const isCount = (x) => Number.isInteger(x) && x >= 0;
const isScore = (x) => Number.isInteger(x) && Math.abs(x) < 1e9;
const isName = (x) => typeof x === "string" && /^[a-z0-9_-]{1,40}$/.test(x);

/**
 * Checks a statistics object (from storage or a file). Returns {stats} (a clean copy) or
 * {error: i18n key suffix, detail}: "json", "format", "shape", "numbers", "totals".
 */
export function validate(obj) {
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return { error: "shape", detail: "not an object" };
  if (obj.format !== FORMAT) return { error: "format", detail: String(obj.format ?? "") };
  const { buckets, overall, recent } = obj;
  if (!buckets || typeof buckets !== "object" || Array.isArray(buckets)) return { error: "shape", detail: "buckets" };
  if (!overall || typeof overall !== "object" || !Array.isArray(recent)) return { error: "shape", detail: "overall/recent" };
  const out = emptyStats();
  for (const [key, b] of Object.entries(buckets)) {
    if (!b || typeof b !== "object" || !isName(b.rules) || !isName(b.level) || !isCount(b.players) || b.players < 2 || b.players > 12) {
      return { error: "shape", detail: key };
    }
    if (key !== bucketKey(b.rules, b.players, b.level)) return { error: "shape", detail: key };
    const c = emptyBucket(b.rules, b.players, b.level);
    for (const k of COUNTS) {
      if (!isCount(b[k])) return { error: "numbers", detail: `${key}.${k}` };
      c[k] = b[k];
    }
    if (!isScore(b.points)) return { error: "numbers", detail: `${key}.points` };
    c.points = b.points;
    if (b.best !== null && !isScore(b.best)) return { error: "numbers", detail: `${key}.best` };
    c.best = b.best;
    if (c.games_won > c.games || c.deals_won > c.deals || c.streak > c.best_streak || c.best_streak > c.games_won
        || (c.deals === 0) !== (c.best === null)) {
      return { error: "totals", detail: key };
    }
    out.buckets[key] = c;
  }
  if (!isCount(overall.streak) || !isCount(overall.best_streak) || overall.streak > overall.best_streak) {
    return { error: "numbers", detail: "overall" };
  }
  out.overall = { streak: overall.streak, best_streak: overall.best_streak };
  if (recent.length > RECENT * 10) return { error: "shape", detail: "recent" };
  for (const r of recent) {
    if (!r || typeof r !== "object" || !isScore(r.score) || !isName(r.rules) || typeof r.won !== "boolean") {
      return { error: "numbers", detail: "recent" };
    }
    out.recent.push({ score: r.score, rules: r.rules, won: r.won });
  }
  out.recent = out.recent.slice(-RECENT);
  return { stats: out };
}

/** The saved statistics (empty when none or unreadable: a damaged store is not a crash). */
export function readStats() {
  const s = store();
  let raw = null;
  try { raw = s ? s.getItem(STATS_KEY) : null; } catch (err) { raw = null; }
  if (!raw) return emptyStats();
  try {
    const v = validate(JSON.parse(raw));
    return v.stats || emptyStats();
  } catch (err) {
    return emptyStats();
  }
}

export function writeStats(stats) {
  const s = store();
  if (!s) return false;
  try { s.setItem(STATS_KEY, JSON.stringify(stats)); return true; } catch (err) { return false; }
}

/** A game's identity from its record (op `record`): the same game resumed has the same one. */
export function gameSignature(rec) {
  const text = JSON.stringify([rec.rules, rec.players, rec.target, rec.seed, rec.scenario ?? null,
    rec.seats ?? null, rec.deal_seeds ?? null]);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(36);
}

function saveGame(game) {
  try { store()?.setItem(GAME_KEY, JSON.stringify(game)); } catch (err) { /* not kept */ }
  return game;
}

/** Starts counting a new game (its identity is adopted from its first saved record). */
export function newGame() {
  return saveGame({ sig: null, deals: [], over: false });
}

/** After a save: a new game takes the identity of its record. */
export function adopt(record) {
  const g = currentGame();
  if (g.sig === null && record) saveGame({ ...g, sig: gameSignature(record) });
}

/** A resumed game: what was counted of it stays counted; another game starts afresh. */
export function resume(record) {
  const g = currentGame();
  const sig = gameSignature(record);
  if (g.sig !== sig) saveGame({ sig, deals: [], over: false });
}

function currentGame() {
  try {
    const g = JSON.parse(store()?.getItem(GAME_KEY) || "null");
    if (g && (g.sig === null || typeof g.sig === "string") && Array.isArray(g.deals) && typeof g.over === "boolean") return g;
  } catch (err) { /* a new record */ }
  return newGame();
}

/**
 * Counts what a view at a deal's end shows, once per deal and once per game (a reload of the
 * same position counts nothing again). `seats`: the game's seats (levels). Returns true when
 * something was counted.
 */
export function countView(v, seats) {
  if (!v || !v.deal_result || (v.phase !== "deal_over" && v.phase !== "game_over")) return false;
  const game = currentGame();
  const stats = readStats();
  const level = levelOf(seats || v.seats);
  const key = bucketKey(v.rules.name, v.players, level);
  const b = stats.buckets[key] || emptyBucket(v.rules.name, v.players, level);
  let changed = false;
  if (!game.deals.includes(v.deal)) {
    const sides = Array.isArray(v.deal_result) ? v.deal_result : v.deal_result.sides || v.deal_result.per_side || [];
    const mine = sides[v.my_side] || {};
    const score = Number(mine.total) || 0;
    const won = sides.every((r, i) => i === v.my_side || (Number(r.total) || 0) < score);
    b.deals += 1;
    if (won) b.deals_won += 1;
    b.points += score;
    b.best = b.best === null ? score : Math.max(b.best, score);
    const melds = (v.melds && v.melds[v.my_side]) || [];
    b.canastas += melds.filter((m) => m.canasta && m.canasta !== "black_threes").length;
    b.sambas += melds.filter((m) => m.canasta === "samba").length;
    stats.recent.push({ score, rules: v.rules.name, won });
    stats.recent = stats.recent.slice(-RECENT);
    game.deals.push(v.deal);
    changed = true;
  }
  if (v.phase === "game_over" && v.result && !game.over) {
    const won = !v.result.draw && v.result.winner === v.my_side;
    b.games += 1;
    if (won) {
      b.games_won += 1;
      b.streak += 1;
      b.best_streak = Math.max(b.best_streak, b.streak);
      stats.overall.streak += 1;
      stats.overall.best_streak = Math.max(stats.overall.best_streak, stats.overall.streak);
    } else {
      b.streak = 0;
      stats.overall.streak = 0;
    }
    game.over = true;
    changed = true;
  }
  if (!changed) return false;
  stats.buckets[key] = b;
  writeStats(stats);
  saveGame(game);
  return true;
}

/** The totals over every bucket (the summary row). */
export function totals(stats) {
  const all = emptyBucket("all", 0, "all");
  for (const b of Object.values(stats.buckets)) {
    for (const k of ["games", "games_won", "deals", "deals_won", "points", "canastas", "sambas"]) all[k] += b[k];
    if (b.best !== null) all.best = all.best === null ? b.best : Math.max(all.best, b.best);
  }
  all.streak = stats.overall.streak;
  all.best_streak = stats.overall.best_streak;
  return all;
}

/** The export file's text. */
export function exportText(stats) {
  return JSON.stringify({ ...stats, exported_at: new Date().toISOString() }, null, 1);
}

/** Reads an import file's text: {stats} or {error, detail}; nothing is stored here. */
export function parseImport(text) {
  let obj;
  try { obj = JSON.parse(String(text)); } catch (err) { return { error: "json", detail: err.message }; }
  if (obj && typeof obj === "object" && !Array.isArray(obj)) {
    const { exported_at: _, ...rest } = obj;
    return validate(rest);
  }
  return validate(obj);
}

export function resetStats() {
  writeStats(emptyStats());
}
