// lessons.html: lists the lessons of web/lessons/index.json (titles and intros from the files,
// in the page's language when the lesson has it: docs/lessons.md, the "i18n" block).

import { $ } from "./dom.js";
import { language, loadMessages, pickLanguage, saveLanguage, t } from "./i18n.js";
import { lessonIds, loadLesson } from "./lessons.js";
import { lessonTexts } from "./lesson-text.js";
import { applyListText, renderLessonList } from "./lessons-view.js";

let ids = [];
let lessons = null;

function drawList() {
  if (!lessons) return;
  renderLessonList(lessons.map((L, i) => {
    const X = lessonTexts(L, language());
    return {
      id: ids[i], title: X.title, intro: X.intro,
      rules: (L.scenario && L.scenario.rules) || "samba", steps: (L.steps || []).length,
    };
  }));
}

async function main() {
  try { await loadMessages(pickLanguage()); applyListText(); } catch (err) { /* the page's English stays */ }
  $("lang-select")?.addEventListener("change", async (ev) => {
    const lang = /** @type {HTMLSelectElement} */ (ev.target).value;
    try { await loadMessages(lang); } catch (err) { return; }
    saveLanguage(lang);
    applyListText();
    drawList();
  });
  try {
    ids = await lessonIds();
    lessons = await Promise.all(ids.map((id) => loadLesson(id)));
    drawList();
    document.body.dataset.ready = "1";
  } catch (err) {
    renderLessonList([], t("lesson.error.index", { message: err.message }));
  }
}

main();
