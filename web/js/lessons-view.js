// Draws the lesson panel beside the table (lesson mode) and the lessons list (lessons.html).
// The only lesson module that touches the DOM.

import { finished } from "./lesson-progress.js";
import { el, $, fillLanguagePicker, loadStyles, translateMeta } from "./dom.js";
import { language, t } from "./i18n.js";
import { lessonTexts } from "./lesson-text.js";

function link(href, cls, text) {
  const a = el("a", cls, text);
  a.href = href;
  return a;
}

export function lessonHref(id) {
  return `index.html?lesson=${encodeURIComponent(id)}`;
}

let actions = null;

/** Adds the lesson panel to the table page. `handlers` = {restart()}. */
export function enterLessonMode(handlers) {
  actions = handlers;
  loadStyles("../css/lessons.css");
  document.body.classList.add("lesson-mode");
  if ($("lesson-panel")) return;
  const panel = el("aside", "lesson-panel");
  panel.id = "lesson-panel";
  panel.setAttribute("aria-live", "polite");
  panel.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-lesson-action]");
    if (b && b.dataset.lessonAction === "restart") actions.restart();
  });
  const app = $("app") || document.body;
  app.append(panel);
}

/** The feedback's text in the page's language: {kind, step, field} names a text of the lesson. */
function feedbackText(fb, X) {
  if (!fb) return "";
  if (fb.text) return fb.text;
  const s = X.steps[fb.step];
  return (s && s[fb.field]) || (fb.field === "wrong" ? t("lesson.wrong") : "");
}

/** state = {id, ids, lesson, step, done, feedback: {kind, step, field}|{kind, text}|null, error} */
export function renderLesson(state) {
  const panel = $("lesson-panel");
  if (!panel) return;
  const nodes = [];
  const n = state.ids.indexOf(state.id);
  const top = el("div", "lesson-nav");
  top.append(link("lessons.html", "lesson-all", t("lesson.all")));
  if (n >= 0) top.append(el("span", "lesson-count", t("lesson.count", { n: n + 1, total: state.ids.length })));
  nodes.push(top);

  if (state.error) {
    nodes.push(el("h2", "lesson-title", t("lesson.error.title")));
    const p = el("p", "lesson-feedback", state.error);
    p.dataset.kind = "error";
    nodes.push(p);
    panel.replaceChildren(...nodes);
    panel.dataset.state = "error";
    return;
  }
  if (!state.lesson) { panel.replaceChildren(...nodes); return; }
  const L = lessonTexts(state.lesson, language());
  panel.lang = language();
  document.title = `${L.title} · ${t("lesson.page_title")}`;
  nodes.push(el("h2", "lesson-title", L.title));

  const intro = el("details", "lesson-intro");
  const wide = window.matchMedia("(min-width: 1001px)").matches;
  intro.open = wide;
  intro.append(el("summary", null, t("lesson.intro")), el("p", null, L.intro || ""));
  nodes.push(intro);

  const steps = el("ol", "lesson-steps");
  L.steps.forEach((s, i) => {
    const li = el("li", "lesson-step");
    li.dataset.state = i < state.step ? "done" : i === state.step && !state.done ? "current" : "todo";
    li.append(el("span", "lesson-step-goal", s.goal));
    steps.append(li);
  });
  const goalBox = el("div", "lesson-goal");
  goalBox.append(el("h3", null, t(L.steps.length > 1 ? "lesson.goals" : "lesson.goal")), steps);
  nodes.push(goalBox);

  const fbText = feedbackText(state.feedback, L);
  if (fbText) {
    const fb = el("p", "lesson-feedback", fbText);
    fb.id = "lesson-feedback";
    fb.dataset.kind = state.feedback.kind;
    nodes.push(fb);
  }
  if (state.done) {
    const done = el("div", "lesson-done");
    done.id = "lesson-done";
    done.append(el("strong", null, t("lesson.done")));
    const next = n >= 0 && n + 1 < state.ids.length ? state.ids[n + 1] : null;
    if (next) done.append(link(lessonHref(next), "btn btn-primary lesson-next", t("lesson.next")));
    else {
      // The last lesson: every lesson finished, or how many of them (the others are still there).
      const got = finished();
      const count = state.ids.filter((x) => got.has(x)).length;
      done.append(link("lessons.html", "btn btn-primary", count >= state.ids.length ? t("lesson.finished_all")
        : t("lesson.finished_some", { done: count, n: state.ids.length })));
    }
    nodes.push(done);
  }

  const tools = el("div", "lesson-tools");
  const restart = el("button", "btn btn-ghost", t("lesson.restart"));
  restart.type = "button";
  restart.dataset.lessonAction = "restart";
  tools.append(restart);
  if (n > 0) tools.append(link(lessonHref(state.ids[n - 1]), "btn btn-ghost", t("lesson.prev")));
  if (n >= 0 && n + 1 < state.ids.length && !state.done) tools.append(link(lessonHref(state.ids[n + 1]), "btn btn-ghost", t("lesson.skip")));
  nodes.push(tools);

  panel.replaceChildren(...nodes);
  panel.dataset.state = state.done ? "done" : "playing";
  panel.dataset.step = String(state.step);
}

/** The lessons page: one entry per lesson, [{id, title, intro, rules, steps}] (or an error). */
export function renderLessonList(items, error) {
  const list = $("lesson-list");
  if (error) {
    const p = el("p", "lesson-feedback", error);
    p.dataset.kind = "error";
    list.replaceWith(p);
    return;
  }
  list.lang = language();
  const got = finished();
  const count = items.filter((it) => got.has(it.id)).length;
  let progress = $("lesson-progress");
  if (!progress) {
    progress = el("p", "lesson-progress");
    progress.id = "lesson-progress";
    list.before(progress);
  }
  progress.textContent = count ? t("lesson.progress", { done: count, n: items.length }) : "";
  progress.hidden = !count;
  list.replaceChildren(...items.map((it, i) => {
    const li = el("li", "lesson-card");
    li.dataset.id = it.id;
    const a = link(lessonHref(it.id), "lesson-card-link");
    a.append(el("span", "lesson-card-num", String(i + 1)), el("span", "lesson-card-title", it.title));
    if (got.has(it.id)) {
      li.dataset.done = "1";
      a.append(el("span", "lesson-card-done", t("lesson.card_done")));
    }
    li.append(a, el("p", "lesson-card-intro", it.intro));
    const meta = el("p", "lesson-card-meta", t("lesson.meta", { rules: t(`rules.${it.rules}`), n: it.steps }));
    li.append(meta);
    return li;
  }));
}

export function applyListText() {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) node.textContent = t(node.dataset.i18n);
  document.title = t("lesson.page_title");
  translateMeta();
  const pick = $("lang-select");
  if (pick) fillLanguagePicker(pick);
}
