// Embed mode (index.html?embed=1&..., or embed.html which forwards here): just the table,
// set up from URL parameters, talking to the host page through js/host-api.js.
// Parameters: rules, players, target, seed, levels, lang, scenario (base64url JSON) or
// scenario_url (a path on this site), origins, pace. See docs/embedding.md.
// No DOM here: js/embed-view.js draws the frame's own bits.

import { loadMessages, reasonText, t } from "./i18n.js";
import { HostChannel, parseOrigins } from "./host-api.js";
import { parseLevels, sharedSetup } from "./share.js";
import * as V from "./embed-view.js";

class EmbedError extends Error {
  constructor(key, params = {}, code = "bad_parameter", more = []) {
    super(key);
    this.key = key;
    this.params = params;
    this.code = code;
    this.more = more;  // further problems of the same parameters: [{key, params}]
  }
}

/** base64url (or base64) text -> UTF-8 string; throws EmbedError when malformed. */
export function decodeBase64url(text) {
  let s = String(text).trim().replace(/ /g, "+").replace(/-/g, "+").replace(/_/g, "/");
  if (!s || /[^A-Za-z0-9+/=]/.test(s) || s.length % 4 === 1) throw new EmbedError("embed.error.base64");
  s = s.replace(/=+$/, "");
  while (s.length % 4) s += "=";
  try {
    const bin = atob(s);
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (err) {
    throw new EmbedError("embed.error.base64");
  }
}

/** UTF-8 string -> base64url without padding (what `scenario=` expects). */
export function encodeBase64url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function parseJsonObject(text) {
  let obj;
  try { obj = JSON.parse(text); } catch (err) { throw new EmbedError("embed.error.json", { message: err.message }); }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) throw new EmbedError("embed.error.not_object");
  return obj;
}

/** A lesson file holds its scenario and seats: take them out. */
function unwrap(obj) {
  if (obj.format === "samba-lesson/1" && obj.scenario && typeof obj.scenario === "object") {
    return { scenario: obj.scenario, seats: Array.isArray(obj.seats) ? obj.seats : null };
  }
  return { scenario: obj, seats: null };
}

/** Fetches a scenario from a path on this site (other origins are refused). */
async function fetchScenario(path) {
  let url;
  try { url = new URL(path, location.href); } catch (err) { throw new EmbedError("embed.error.scenario_url", { url: path }); }
  if (url.origin !== location.origin) throw new EmbedError("embed.error.scenario_origin", { url: path });
  let res;
  try { res = await fetch(url, { credentials: "same-origin" }); } catch (err) {
    throw new EmbedError("embed.error.scenario_fetch", { url: path, status: err.message });
  }
  if (!res.ok) throw new EmbedError("embed.error.scenario_fetch", { url: path, status: `HTTP ${res.status}` });
  return parseJsonObject(await res.text());
}

function scenarioPlayers(scenario) {
  if (Array.isArray(scenario.hands)) return scenario.hands.length;
  return Number(scenario.players) || 0;
}

/** The seats for a scenario: `levels` when given, else the lesson's, else the engine's default. */
function scenarioSeats(scenario, levelsText, lessonSeats, choices) {
  if (levelsText === null) return lessonSeats;
  const n = scenarioPlayers(scenario);
  const seats = n >= 2 ? parseLevels(levelsText, n, choices.levels) : null;
  if (!seats) throw new EmbedError("share.error.levels", { value: levelsText, n: Math.max(n - 1, 1), levels: choices.levels.join(", ") });
  return seats;
}

/** The game a set of parameters asks for: {op: "new_game", ...} or {op: "scenario", ...}. */
async function requestFrom(get, choices) {
  const inline = get("scenario");
  const path = get("scenario_url");
  if (inline !== null && path !== null) throw new EmbedError("embed.error.both");
  if (inline !== null || path !== null) {
    const obj = inline !== null ? parseJsonObject(decodeBase64url(inline)) : await fetchScenario(path);
    const { scenario, seats } = unwrap(obj);
    const req = { op: "scenario", scenario };
    const s = scenarioSeats(scenario, get("levels"), seats, choices);
    if (s) req.seats = s;
    return req;
  }
  const q = new URLSearchParams();
  q.set("rules", get("rules") ?? "samba");
  for (const k of ["players", "target", "seed", "levels"]) if (get(k) !== null) q.set(k, get(k));
  const setup = sharedSetup(q, choices);
  if (setup.errors.length) throw new EmbedError(setup.errors[0].key, setup.errors[0].params, "bad_parameter", setup.errors.slice(1));
  const req = { op: "new_game", rules: setup.rules, players: setup.players, target: setup.target, seats: setup.seats };
  if (setup.seed !== null) req.seed = setup.seed;
  return req;
}

/** A command's data object as a parameter getter (numbers and lists become text). */
function getterOf(data) {
  return (k) => {
    const v = data[k];
    if (v === undefined || v === null) return null;
    if (Array.isArray(v)) return v.join(",");
    return String(v);
  };
}

function summary(view, source) {
  return {
    source, rules: view.rules.name, players: view.players, seat: view.seat, target: view.target,
    deal: view.deal, phase: view.phase, current: view.current, version: view.version,
    hand: view.hand.length,
  };
}

export async function install(ctl) {
  const { params, modeHooks } = ctl;
  const get = (k) => (params.has(k) ? params.get(k) : null);
  V.enterEmbedMode();
  let channel = null;

  const fail = (err, source = "params") => {
    const key = err instanceof EmbedError ? err.key : "embed.error.engine";
    const code = err instanceof EmbedError ? err.code : (err && err.code) || "internal";
    const text = [t(key, err instanceof EmbedError ? err.params : { message: reasonText(err) }),
      ...(err instanceof EmbedError ? err.more : []).map((e) => t(e.key, e.params))].join(" ");
    V.showEmbedError(t("embed.error.title"), text, t("embed.error.help"), code);
    if (channel) channel.post("error", { code, message: text, source });
  };

  if (get("lang") !== null && get("lang") !== "en") {
    // Unknown languages keep the English texts (a missing catalogue is not worth a blank frame).
    try { await loadMessages(get("lang")); V.applyLanguage(get("lang")); } catch (err) { await loadMessages("en").catch(() => {}); }
  }

  const allowed = parseOrigins(get("origins"), location.origin);
  if (allowed.error !== undefined) {
    fail(new EmbedError("embed.error.origins", { value: allowed.error }));
    modeHooks.start = () => {};
    return;
  }

  // Starts a game from a request; reports ready or the refusal (in the frame and to the host).
  const run = async (requestPromise, source) => {
    let req;
    try { req = await requestPromise; } catch (err) { fail(err, source); return false; }
    const res = await ctl.begin(req);
    if (!res.ok) {
      const code = res.error && res.error.code;
      fail(code === "bad_scenario" ? new EmbedError("embed.error.scenario", { message: res.error.message }, code)
        : new EmbedError("embed.error.engine", { message: reasonText(res.error) }, code || "internal"), source);
      return false;
    }
    V.hideEmbedError();
    channel.post("ready", summary(res.view, source));
    return true;
  };

  channel = new HostChannel(allowed.origins, (name, data) => {
    if (name === "new_game") run(requestFrom(getterOf(data), ctl.choices), "new_game");
    else if (name === "load_scenario") {
      const scenario = data.scenario;
      const d = { ...data };
      if (scenario && typeof scenario === "object") d.scenario = encodeBase64url(JSON.stringify(scenario));
      else if (typeof scenario !== "string") d.scenario = "";
      run(requestFrom(getterOf(d), ctl.choices), "load_scenario");
    }
  });

  // Parse (and fetch) now, so that bad parameters show at once, before Python has booted.
  const first = requestFrom(get, ctl.choices);
  let firstError = null;
  await first.catch((err) => { firstError = err; });
  if (firstError) {
    fail(firstError);
    modeHooks.start = () => {};
  } else {
    modeHooks.start = () => { run(first, "params"); };
  }

  modeHooks.moved = ({ seat, move, view }) => {
    channel.post("move", {
      seat, move, by: view.seats && view.seats[seat] === "human" ? "human" : "computer",
      deal: view.deal, phase: view.phase, current: view.current, version: view.version,
    });
  };
  modeHooks.viewed = (view, prev) => {
    const over = view.phase === "deal_over" || view.phase === "game_over";
    const wasOver = prev && prev.deal === view.deal && (prev.phase === "deal_over" || prev.phase === "game_over");
    if (over && !wasOver && view.deal_result) {
      channel.post("deal_end", {
        deal: view.deal, result: view.deal_result, history: view.history, game_over: view.phase === "game_over",
        winner: view.result ? view.result.winner : null,
      });
    }
  };
}
