// Share a deal: a link that starts the same game setup (rule set, players, target, computer
// levels, seed), so two people can play the same cards and compare scores. No DOM here.
//
//   index.html?rules=samba&players=4&target=10000&seed=123&levels=easy,medium,medium

/** The share link for a game record (`record` op), relative to the page at `href`. */
export function shareLink(record, href) {
  const url = new URL("./", href);
  const q = new URLSearchParams();
  q.set("rules", record.rules);
  q.set("players", String(record.players));
  q.set("target", String(record.target));
  q.set("seed", String(record.seed));
  const seats = Array.isArray(record.seats) ? record.seats : [];
  if (seats.length > 1) q.set("levels", seats.slice(1).join(","));
  url.search = q.toString();
  return url.href;
}

/**
 * Reads the computer levels of a `levels=` parameter for `players` seats (the first seat is the
 * reader): one level for every computer, or one per computer. Returns the seats list or null.
 */
export function parseLevels(text, players, levels) {
  const list = String(text).split(",").map((x) => x.trim().toLowerCase()).filter(Boolean);
  if (!list.length || !list.every((x) => levels.includes(x))) return null;
  if (list.length === 1) return ["human", ...Array(players - 1).fill(list[0])];
  if (list.length !== players - 1) return null;
  return ["human", ...list];
}

/**
 * A game setup read from URL parameters. Returns null when the URL asks for no game (no
 * `rules`), else {rules, players, target, seats, seed, errors}: the settings, where every bad
 * parameter is replaced by its default and listed in `errors` ([{key, params}] i18n keys, one
 * per problem, all of them). `choices` (js/rules-data.js) = {rules, players: {rules: [n]},
 * defaultPlayers, targets, defaultTarget, levels}.
 */
export function sharedSetup(params, choices) {
  if (!params.has("rules")) return null;
  const errors = [];
  const bad = (key, p) => { errors.push({ key, params: p }); };
  let rules = String(params.get("rules")).toLowerCase();
  if (!choices.rules.includes(rules)) {
    bad("share.error.rules", { value: params.get("rules"), allowed: choices.rules.join(", ") });
    rules = choices.rules.includes("samba") ? "samba" : choices.rules[0];
  }
  const allowed = choices.players[rules] || [];
  let players = choices.defaultPlayers[rules];
  if (params.has("players")) {
    const n = Number(params.get("players"));
    if (allowed.includes(n)) players = n;
    else bad("share.error.players", { value: params.get("players"), allowed: allowed.join(", ") });
  }
  let target = choices.defaultTarget[rules];
  if (params.has("target")) {
    const n = Number(params.get("target"));
    if (Number.isInteger(n) && n > 0) target = n;
    else bad("share.error.target", { value: params.get("target") });
  }
  let seed = null;
  if (params.has("seed")) {
    const n = Number(params.get("seed"));
    if (Number.isInteger(n) && n >= 0) seed = n;
    else bad("share.error.seed", { value: params.get("seed") });
  }
  let seats = ["human", ...Array(players - 1).fill("medium")];
  if (params.has("levels")) {
    const got = parseLevels(params.get("levels"), players, choices.levels);
    if (got) seats = got;
    else bad("share.error.levels", { value: params.get("levels"), n: players - 1, levels: choices.levels.join(", ") });
  }
  return { rules, players, target, seats, seed, errors };
}

/** Copies text to the clipboard; false when the browser refuses (the page then shows it). */
export async function copyText(text) {
  try {
    if (!navigator.clipboard || !window.isSecureContext) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    return false;
  }
}
