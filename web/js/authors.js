// authors.html: snippets filled in with this site's own address, copy buttons, a live example.

import { copyText } from "./share.js";

const SITE = new URL("./", location.href).href;
const ORIGIN = location.origin;

for (const code of document.querySelectorAll(".snippet code")) {
  code.textContent = code.textContent.replaceAll("{SITE}", SITE).replaceAll("{ORIGIN}", ORIGIN);
}
for (const note of document.querySelectorAll(".au-note code")) {
  note.textContent = note.textContent.replaceAll("{ORIGIN}", ORIGIN);
}

document.addEventListener("click", async (ev) => {
  const b = ev.target.closest(".snippet .copy");
  if (!b) return;
  const ok = await copyText(b.parentElement.querySelector("code").textContent);
  b.textContent = ok ? "Copied" : "Select and copy";
  setTimeout(() => { b.textContent = "Copy"; }, 2000);
});

const demoButton = document.getElementById("demo-button");
demoButton.addEventListener("click", async () => {
  await import("./samba-table.js");
  const box = document.getElementById("demo");
  const table = document.createElement("samba-table");
  table.setAttribute("src", SITE);
  table.setAttribute("scenario", "lessons/05-take-the-pile.json");
  table.setAttribute("levels", "easy");
  table.style.height = "100%";
  box.replaceChildren(table);
  box.hidden = false;
  demoButton.hidden = true;
});
