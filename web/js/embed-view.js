// The embed frame's own drawing (the table itself is js/render.js): the embed class on the
// page, and the message shown when the parameters cannot make a table.

import { loadStyles } from "./dom.js";
import { applyStaticText } from "./render.js";

export function enterEmbedMode() {
  loadStyles("../css/embed.css");
  document.body.classList.add("embed");
}

export function applyLanguage(lang) {
  document.documentElement.lang = lang;
  applyStaticText();
}

export function showEmbedError(title, text, help, code) {
  let box = document.getElementById("embed-error");
  if (!box) {
    box = document.createElement("div");
    box.id = "embed-error";
    box.className = "embed-error";
    box.setAttribute("role", "alert");
    document.body.append(box);
  }
  const h = document.createElement("h2");
  h.textContent = title;
  const p = document.createElement("p");
  p.className = "embed-error-text";
  p.textContent = text;
  const small = document.createElement("p");
  small.className = "embed-error-help";
  small.textContent = help;
  box.replaceChildren(h, p, small);
  box.hidden = false;
  document.body.dataset.embedError = code || "error";
}

export function hideEmbedError() {
  const box = document.getElementById("embed-error");
  if (box) box.hidden = true;
  delete document.body.dataset.embedError;
}
