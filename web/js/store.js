// The page's one state object. The controller's modules (session.js, intents.js, saving.js,
// app.js and the page modes through the controller) change it; the renderer (render.js and its
// view-*.js parts) only reads it. Every field is declared here.

export const ui = {
  view: null,            // the engine's last view (docs/bridge.md)
  selected: new Set(),   // hand card ids
  staged: [],            // [{kind: "new", cards: [card]}, {kind: "add", meld: id, cards: [card]}]
  mergeFrom: null,       // meld id picked first for a merge
  check: null,           // the engine's answer for the staged melds
  message: null,         // {text: () => string, kind, code, details?: () => {why: [], careful: []}}
  hint: null,            // {move, view, reasons, warnings}: the hint shown, for the view it was for
  busy: false,
  thinking: null,        // computer seat being asked to move
  showLog: false,
  privacy: null,         // hotseat: the seat whose hand is hidden until its player says so
  revealed: null,        // hotseat: the seat whose player last showed their hand
  noShare: false,        // a mode without the share button (lessons)
  review: null,          // the deal review dialog: {data, view, step}
  coach: null,           // the coach's review of a deal: {game, deal, state, done, total, items: [{entry, view}], error}
  settings: null,        // the settings dialog's choice (saving.loadSettings once rules data is in)
  prefs: null,           // comfort preferences (prefs.js)
  early: { resume: false, start: false }, // the saved table drawn / a game asked for before the engine was ready
  bot: { timer: null, failures: 0 },
  game: 0,              // counts the games begun (the end-of-deal dialogs show once per deal of a game)
  checkSeq: 0,           // the latest staged-melds check asked for
  drawn: null,           // the view drawn last (to tell who moved, for the card animation)
  skipping: false,       // "skip to my turn": the table stays still while computers play
};

/** Shows a message; `text` is a string or a function that makes it (re-run in a new language). */
export function say(text, kind = "error", code = null, details = null) {
  ui.message = text ? { text: typeof text === "function" ? text : () => text, kind, code, details } : null;
  if (!details) ui.hint = null;
}

export function resetTurnState() {
  ui.selected.clear();
  ui.staged = [];
  ui.mergeFrom = null;
  ui.check = null;
}

/** Whether the viewer is to act now. */
export function myTurn() {
  const v = ui.view;
  return !!(v && v.legal && (v.current === v.seat || v.current === null));
}

export function selectedCards() {
  const v = ui.view;
  return v ? v.hand.filter((c) => ui.selected.has(c.id)) : [];
}
