// Lesson mode (index.html?lesson=05-take-the-pile): the table plays a lesson (docs/lessons.md).
// The reader's moves go through the bridge's `lesson_check` op: the goal move is played, a
// legal wrong move shows the lesson's explanation, an illegal one the engine's reason (the same
// `reason.<code>` texts as the table); neither changes anything. No DOM here: js/lessons-view.js.

import { markFinished } from "./lesson-progress.js";
import { language, reasonText, t } from "./i18n.js";
import { lessonTexts } from "./lesson-text.js";
import * as V from "./lessons-view.js";

const INDEX_URL = new URL("../lessons/index.json", import.meta.url);

async function getJson(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return res.json();
}

/** The lesson files in order, as ids ("05-take-the-pile"). */
export async function lessonIds() {
  const index = await getJson(INDEX_URL);
  return (index.lessons || []).map((f) => String(f).replace(/\.json$/, ""));
}

export async function loadLesson(id) {
  return getJson(new URL(`../lessons/${encodeURIComponent(id)}.json`, import.meta.url));
}

export async function install(ctl) {
  const { params, modeHooks, ui } = ctl;
  ui.noShare = true;
  const id = (params.get("lesson") || "").trim();
  const state = { id, lesson: null, ids: [], step: 0, done: false, feedback: null, error: null };
  V.enterLessonMode({ restart: () => start() });
  modeHooks.start = () => {};

  try {
    state.ids = await lessonIds();
  } catch (err) {
    state.error = t("lesson.error.index", { message: err.message });
    V.renderLesson(state);
    return;
  }
  if (!state.ids.includes(id)) {
    state.error = t("lesson.error.unknown", { id });
    V.renderLesson(state);
    return;
  }
  try {
    state.lesson = await loadLesson(id);
  } catch (err) {
    state.error = t("lesson.error.load", { id, message: err.message });
    V.renderLesson(state);
    return;
  }
  V.renderLesson(state);

  async function start() {
    state.step = 0;
    state.done = false;
    state.feedback = null;
    const res = await ctl.begin({ op: "lesson", lesson: state.lesson });
    if (!res.ok) state.error = t("lesson.error.bad", { message: reasonText(res.error) });
    V.renderLesson(state);
  }

  modeHooks.start = start;
  // The panel follows the page's language (the lesson's "i18n" block, docs/lessons.md).
  modeHooks.language = () => V.renderLesson(state);
  const stepText = (i, field) => {
    const s = lessonTexts(state.lesson, language()).steps[i];
    return (s && s[field]) || (field === "wrong" ? t("lesson.wrong") : "");
  };
  // Until the lesson is done, the reader's moves are checked against the step's goal.
  modeHooks.moveRequest = (move, version) => (state.done ? { op: "move", move, version }
    : { op: "lesson_check", move, version });
  modeHooks.moveAnswer = (res) => {
    const L = res.lesson;
    if (!L) return null;
    // Texts as makers: a language switch makes them again in the new language.
    if (!L.legal) return { text: () => reasonText({ code: L.code, message: L.message }), kind: "error", code: L.code };
    if (!L.matches) {
      const step = state.step;
      state.feedback = { kind: "wrong", step, field: "wrong" };
      V.renderLesson(state);
      return { text: () => stepText(step, "wrong"), kind: "wrong", code: "lesson_wrong" };
    }
    state.step = L.step;
    state.done = !!L.done;
    if (state.done) markFinished(state.id);
    state.feedback = { kind: state.done ? "done" : "success", step: L.step - 1, field: "success" };
    state.announce = true;
    V.renderLesson(state);
    return null;
  };
  modeHooks.moved = ({ view }) => {
    // After the reader's accepted move, the table's message area repeats the success text.
    if (!state.announce) return;
    state.announce = false;
    const fb = state.feedback;
    if (fb && stepText(fb.step, fb.field)) {
      ctl.say(() => stepText(fb.step, fb.field), "success", "lesson_step");
      state.saidAt = view ? view.version : null;
      ctl.draw();
    }
  };
  // The last step's words ("Your turn is over: the next player draws") are past once the table
  // has moved on: they leave the message area rather than stand beside "Your turn: draw".
  modeHooks.viewed = (view) => {
    if (!state.done || state.saidAt === null || state.saidAt === undefined || view.version === state.saidAt) return;
    state.saidAt = null;
    if (ctl.ui.message && ctl.ui.message.code === "lesson_step") { ctl.say(null); ctl.draw(); }
  };
}
