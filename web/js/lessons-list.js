// lessons.html: lists the lessons of web/lessons/index.json (titles and intros from the files).

import { loadMessages, pickLanguage, t } from "./i18n.js";
import { lessonIds, loadLesson } from "./lessons.js";
import { applyListText, renderLessonList } from "./lessons-view.js";

async function main() {
  try { await loadMessages(pickLanguage()); applyListText(); } catch (err) { /* the page's English stays */ }
  try {
    const ids = await lessonIds();
    const lessons = await Promise.all(ids.map((id) => loadLesson(id)));
    renderLessonList(lessons.map((L, i) => ({
      id: ids[i], title: L.title, intro: L.intro,
      rules: (L.scenario && L.scenario.rules) || "samba", steps: (L.steps || []).length,
    })));
  } catch (err) {
    renderLessonList([], t("lesson.error.index", { message: err.message }));
  }
}

main();
