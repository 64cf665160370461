// What the menus offer, from the build's rules data (dist/rules-data.json, made from the engine's
// rule sets by py_engine.rulesdoc): the rule sets (a new one appears by itself), their player
// counts and default, the targets and the default target, and what a seat may be (the engine's
// computer levels and a person, py_engine/levels.py). No rule and no level is written here.

/**
 * The menu's choices, filled in place by `useRulesData` (modules keep a reference):
 * rules [names], players {rules: [n]}, defaultPlayers {rules: n}, targets {rules: [n]},
 * defaultTarget {rules: n}, defaultTargetFor {rules: {players: n}}, titles {rules: English title},
 * sides {rules: {players: [[seats of a side], ...]}} (who partners whom), levels [the seat kinds,
 * in the menus' order: the computer levels, then "human"].
 */
export const choices = {
  rules: [], players: {}, defaultPlayers: {}, targets: {}, defaultTarget: {},
  defaultTargetFor: {}, titles: {}, sides: {},
  levels: [],
};

/** Fetches the build's rules data; throws when it is missing or not of the known format. */
export async function fetchRulesData(fetcher = fetch) {
  const res = await fetcher(new URL("../rules-data.json", import.meta.url));
  if (!res.ok) throw new Error(`rules-data.json: HTTP ${res.status}`);
  const data = await res.json();
  if (!data || !Array.isArray(data.presets) || !Array.isArray(data.rows) || !Array.isArray(data.levels)) throw new Error("rules-data.json: unknown format");
  return data;
}

/** Fills `choices` from rules data ({presets, rows}); returns it. */
export function useRulesData(data) {
  const values = (field) => (data.rows.find((r) => r.field === field) || {}).values || {};
  const allowed = values("players_allowed");
  const defaults = values("default_players");
  const targets = values("targets");
  const defaultTarget = values("default_target");
  if (Array.isArray(data.levels)) choices.levels = data.levels.filter((x) => typeof x === "string");
  choices.rules = data.presets.map((p) => p.name).filter((name) => Array.isArray(allowed[name]) && allowed[name].length);
  for (const name of choices.rules) {
    const counts = allowed[name];
    choices.players[name] = counts;
    // Rules data without a default_players row (older builds): 4 when offered, else the most.
    choices.defaultPlayers[name] = counts.includes(defaults[name]) ? defaults[name]
      : counts.includes(4) ? 4 : counts[counts.length - 1];
    choices.targets[name] = Array.isArray(targets[name]) && targets[name].length ? targets[name] : [10000];
    // The data gives the default target per player count ([[players, target], ...]; a single
    // number in older builds); the menu starts from the one of the default player count.
    const byPlayers = Array.isArray(defaultTarget[name])
      ? Object.fromEntries(defaultTarget[name].filter((x) => Array.isArray(x) && x.length === 2))
      : Object.fromEntries(counts.map((n) => [n, defaultTarget[name]]));
    choices.defaultTargetFor[name] = byPlayers;
    const first = byPlayers[choices.defaultPlayers[name]];
    choices.defaultTarget[name] = choices.targets[name].includes(first)
      ? first : choices.targets[name][choices.targets[name].length - 1];
    const preset = data.presets.find((p) => p.name === name) || {};
    choices.titles[name] = preset.title || name;
    choices.sides[name] = Array.isArray(preset.sides)
      ? Object.fromEntries(preset.sides.filter((x) => Array.isArray(x) && x.length === 2)) : {};
  }
  return choices;
}

/** A rule set's name in the page's language (`rules.<name>`), else its title from the data. */
export function rulesName(name, t, has) {
  return has(`rules.${name}`) ? t(`rules.${name}`) : choices.titles[name] || name;
}
