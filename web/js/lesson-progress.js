// The lessons the reader finished, kept in the browser (localStorage), for the lessons page's
// progress and the last lesson's way on. No DOM here.

const KEY = "samba.lessons.done";

function store() {
  try { return window.localStorage; } catch (err) { return null; }
}

/** The ids of the lessons finished (a damaged entry reads as none). */
export function finished() {
  const s = store();
  try {
    const got = JSON.parse((s && s.getItem(KEY)) || "[]");
    return new Set(Array.isArray(got) ? got.filter((x) => typeof x === "string") : []);
  } catch (err) { return new Set(); }
}

/** Marks lesson `id` finished. */
export function markFinished(id) {
  const s = store();
  if (!s) return;
  const done = finished();
  done.add(String(id));
  try { s.setItem(KEY, JSON.stringify([...done])); } catch (err) { /* private mode: not kept */ }
}
