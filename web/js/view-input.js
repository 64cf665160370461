// The input side of the renderer: delegated listeners installed once, each calling one intent
// (the controller's). It reads which element was clicked, nothing else.

import { $ } from "./dom.js";
import { installKeyboard } from "./keyboard.js";
import { readSettings } from "./view-dialogs.js";

/** The element matching `sel` that an event happened in (or null). */
const at = (ev, sel) => /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest(sel));
const dialogEl = (id) => /** @type {HTMLDialogElement} */ ($(id));

/** Installs the (delegated) listeners once; each calls one intent. */
export function bindInputs(intents, shadeBoard) {
  $("board")?.addEventListener("scroll", shadeBoard, { passive: true });
  addEventListener("resize", shadeBoard);
  $("hand").addEventListener("click", (ev) => {
    const c = at(ev, ".card[data-id]");
    if (c) intents.card(Number(c.dataset.id));
  });
  $("hand").addEventListener("keydown", (ev) => {
    const c = at(ev, ".card[data-id]");
    if (c && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); intents.card(Number(c.dataset.id)); }
  });
  const deckKey = (fn) => (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); }
  };
  $("stock").addEventListener("click", () => intents.stock());
  $("stock").addEventListener("keydown", deckKey(() => intents.stock()));
  $("pile").addEventListener("click", () => intents.pile());
  $("pile").addEventListener("keydown", deckKey(() => intents.pile()));
  const meldClick = (ev) => {
    // `.meld` matters: <body> carries data-staged (the staged count) too.
    const staged = at(ev, ".meld[data-staged]");
    if (staged) { intents.staged(Number(staged.dataset.staged)); return; }
    const m = at(ev, "[data-meld]");
    if (m) intents.meld(Number(m.dataset.meld), m.dataset.mine === "1");
  };
  $("my-melds").addEventListener("click", meldClick);
  $("their-melds").addEventListener("click", meldClick);
  $("my-melds").addEventListener("keydown", (ev) => {
    if ((ev.key === "Enter" || ev.key === " ") && at(ev, "[data-meld], .meld[data-staged]")) {
      ev.preventDefault();
      meldClick(ev);
    }
  });
  $("lang-select")?.addEventListener("change", (ev) => intents.setLanguage(/** @type {HTMLSelectElement} */ (ev.target).value));
  bindMenu();
  $("btn-reveal")?.addEventListener("click", () => intents.reveal());
  installKeyboard(intents);
  $("actions").addEventListener("click", (ev) => {
    const b = /** @type {HTMLButtonElement | null} */ (at(ev, "button[data-action]"));
    if (b && !b.disabled) intents.action(b.dataset.action, b.dataset.arg || "");
  });
  $("suggest").addEventListener("click", (ev) => {
    const b = at(ev, "button[data-part], button[data-take]");
    if (b && b.dataset.take) intents.suggestTake(b.dataset.take);
    else if (b) intents.suggest(b.dataset.part);
  });
  $("btn-new").addEventListener("click", () => intents.openSettings());
  $("btn-share")?.addEventListener("click", () => intents.share());
  $("btn-log").addEventListener("click", () => intents.toggleLog());
  $("btn-log-close").addEventListener("click", () => intents.toggleLog());
  $("btn-next").addEventListener("click", () => intents.nextDeal());
  $("btn-deal-close").addEventListener("click", () => dialogEl("dlg-deal").close());
  $("btn-over-new").addEventListener("click", () => { dialogEl("dlg-over").close(); intents.openSettings(); });
  $("btn-over-close").addEventListener("click", () => dialogEl("dlg-over").close());
  $("btn-new-cancel").addEventListener("click", () => dialogEl("dlg-new").close());
  const form = $("form-new");
  form.addEventListener("change", (ev) => {
    const name = /** @type {HTMLInputElement} */ (ev.target).name;
    if (name === "rules" || name === "players") intents.settingsChanged(readSettings());
  });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    dialogEl("dlg-new").close();
    intents.startGame(readSettings());
  });
}

/**
 * The top bar's Menu (shown on screens narrower than 1240 px and phones on their side, by table.css): opens and closes
 * the actions' panel.
 * A choice in it, a tap outside it or Escape closes it.
 */
function bindMenu() {
  const button = $("btn-menu");
  const panel = $("topbar-actions");
  if (!button || !panel) return;
  const isOpen = () => document.body.classList.contains("menu-open");
  const set = (open) => {
    document.body.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  };
  set(false);   // aria-expanded: from now on the Menu opens
  button.addEventListener("click", () => set(!isOpen()));
  panel.addEventListener("click", (ev) => { if (at(ev, "button, a")) set(false); });
  panel.addEventListener("change", () => set(false));
  document.addEventListener("pointerdown", (ev) => {
    if (isOpen() && !at(ev, "#topbar-actions, #btn-menu")) set(false);
  }, true);
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !isOpen()) return;
    ev.stopPropagation();
    set(false);
    button.focus();
  }, true);
}
