// Keyboard play: one-key shortcuts and arrow-key movement along the hand and the melds.
// Part of the renderer's input side (render.js installs it): it reads which element has the
// focus, moves the focus, and calls intents. It draws nothing and knows no rules.
//
// Keys (documented on rules.html#keyboard, keys.* messages):
//   Tab / Shift+Tab   the hand's cards, stock, pile, own melds, buttons (native focus order)
//   Left / Right      previous / next card in the hand (or meld in a row); Home / End
//   Enter / Space     activate the focused card, meld, stock, pile or button
//   C to the hand (its first picked card, else its first) · D draw · P pile (take / discard)
//   N new meld · M lay the staged melds · X discard
//   B take back · H hint · L log · Esc clear the selection · ? help page

/** Shortcut key per action-button name (for aria-keyshortcuts on the buttons). */
export const KEY_OF = {
  draw: "D", take: "P", new: "N", confirm: "M", discard: "X", takeback: "B", hint: "H", clear: "Escape",
};

export const HELP_TAB = "samba-help";
const HELP_URL = new URL("../rules.html#keyboard", import.meta.url);

function anyDialogOpen() {
  return !!document.querySelector("dialog[open]");
}

function isTyping(target) {
  return !!(target && target.closest && target.closest("input, select, textarea, [contenteditable='true']"));
}

/** Moves the focus along a list of elements (wrapping off: stops at the ends). */
function moveAlong(list, from, key) {
  if (!list.length) return false;
  let i = list.indexOf(from);
  if (key === "Home") i = 0;
  else if (key === "End") i = list.length - 1;
  else if (key === "ArrowLeft" || key === "ArrowUp") i = i < 0 ? 0 : Math.max(0, i - 1);
  else i = i < 0 ? 0 : Math.min(list.length - 1, i + 1);
  list[i].focus();
  if (list[i].scrollIntoView) list[i].scrollIntoView({ block: "nearest", inline: "nearest" });
  return true;
}

const ARROWS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);

/** Installs the document-level key handler; `intents` are the controller's. */
export function installKeyboard(intents) {
  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (isTyping(ev.target) || anyDialogOpen()) return;
    if (document.body.dataset.privacy === "1") return; // hotseat: the hand is hidden
    const target = ev.target instanceof Element ? ev.target : null;

    if (ARROWS.has(ev.key) && target) {
      const card = target.closest("#hand .card[data-id]");
      if (card) {
        ev.preventDefault();
        moveAlong([...document.querySelectorAll("#hand .card[data-id]")], card, ev.key);
        return;
      }
      const meld = target.closest(".melds [tabindex]");
      if (meld) {
        ev.preventDefault();
        moveAlong([...meld.parentElement.querySelectorAll(":scope > [tabindex]")], meld, ev.key);
        return;
      }
    }

    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const run = {
      c: () => {
        const card = /** @type {HTMLElement | null} */ (
          document.querySelector('#hand .card[data-id][aria-pressed="true"]')
          || document.querySelector("#hand .card[data-id]"));
        if (card) { card.focus(); if (card.scrollIntoView) card.scrollIntoView({ block: "nearest", inline: "nearest" }); }
      },
      d: () => intents.stock(),
      p: () => intents.pile(),
      n: () => intents.action("new"),
      m: () => intents.action("confirm"),
      x: () => intents.action("discard"),
      b: () => intents.action("takeback"),
      h: () => intents.action("hint"),
      l: () => intents.toggleLog(),
      Escape: () => intents.action("clear"),
      // One help tab, named: pressing "?" again brings it back instead of opening another.
      "?": () => window.open(HELP_URL.href, HELP_TAB),
    }[key];
    if (!run) return;
    // Space and Enter keep their native meaning on buttons; letters never type anywhere here.
    ev.preventDefault();
    run();
  });
}
