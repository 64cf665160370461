// Service worker for the Samba table: the template. build.py fills in VERSION (a content hash
// of every precached file) and PRECACHE (their URLs, relative to this script), writes the result
// as dist/sw.js and does not ship this file. Any change to the site changes VERSION, so sw.js
// changes, the browser installs the new worker and the old cache is removed on activate.
//
// - install: take the large files a first visit's engine worker has just fetched from HANDOFF
//   (checked by sha256), fetch every other precached URL with `cache: "no-cache"` into the cache
//   `samba-<VERSION>`: the HTTP cache is revalidated with the server, so files the page already
//   downloaded (a first visit registers this worker after Python started: the runtime, the
//   snapshot) come back as 304s, not a second download, and a stale copy is never kept;
//   one failure fails the install (the old worker stays in charge);
// - activate: delete the caches of other versions, take control of open pages;
// - fetch: precached URLs cache-first with `ignoreSearch` (so `?seed=`, `?lesson=`, `?embed=`
//   pages work offline), anything else (and a cache miss) straight from the network.
//   The cache is opened once and looked up by the bare URL (no per-request scan).
// Every URL is relative to this script, so the site works under any sub-path.

const VERSION = "__SW_VERSION__";
const PRECACHE = ["__SW_PRECACHE__"];
// The large files a first visit's engine worker fetched and left in HANDOFF (web/worker.js,
// web/wasm-worker.js), with their sha256: taken from there when the bytes match, instead of a
// second download (a private window's memory cache does not keep a 9.6 MB file).
const HANDED_OFF = {"__SW_HANDOFF__": ""};
const HANDOFF = "samba-handoff";

const PREFIX = "samba-";
const CACHE = PREFIX + VERSION;
const SCOPE = new URL("./", self.location.href).href;
const PRECACHED = new Set(PRECACHE.map((rel) => new URL(rel, SCOPE).href));

// Static routes (Chromium 123+): the precached files at their bare URLs (no query) come
// straight from this version's cache without starting this worker or running its fetch
// handler (a miss goes to the network); URLs with a query (`?seed=`…) still go through the
// fetch handler below, which looks them up without the query.
function addRoutes(event) {
  if (typeof event.addRoutes !== "function") return;
  const scope = new URL(SCOPE);
  try {
    event.addRoutes({
      condition: {
        urlPattern: { protocol: scope.protocol.replace(":", ""), hostname: scope.hostname,
          port: scope.port, pathname: scope.pathname + "*", search: "" },
        requestMethod: "GET",
      },
      source: { cacheName: CACHE },
    });
  } catch (err) {
    // An older form of the API: the fetch handler serves everything, as before.
  }
}

self.addEventListener("install", (event) => {
  addRoutes(event);
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(PRECACHE.map(async (rel) => {
      const url = new URL(rel, SCOPE).href;
      const handed = await handedOff(url, HANDED_OFF[rel]);
      if (handed) { await cache.put(url, handed); return; }
      const response = await fetch(new Request(url, { cache: "no-cache", credentials: "same-origin" }));
      if (!response.ok) throw new Error(`precache ${rel}: HTTP ${response.status}`);
      await cache.put(url, response);
    }));
    try { await caches.delete(HANDOFF); } catch (err) { /* none */ }
    await self.skipWaiting();
  })().catch(async (err) => {
    await caches.delete(CACHE);
    throw err;
  }));
});

/** The copy the page's engine worker left in HANDOFF, if its sha256 is `want`; else null. */
async function handedOff(url, want) {
  if (!want) return null;
  try {
    const hit = await (await caches.open(HANDOFF)).match(url);
    if (!hit) return null;
    const bytes = await hit.arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    if ("sha256-" + btoa(String.fromCharCode(...digest)) !== want) return null;
    return new Response(bytes, { status: 200, headers: hit.headers });
  } catch (err) {
    return null; // no Cache Storage, no digest: download it
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function bareUrl(href) {
  const url = new URL(href);
  url.search = "";
  url.hash = "";
  return url.href;
}

let opened = null; // the cache, opened once per worker start

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = bareUrl(request.url);
  if (request.method !== "GET" || !PRECACHED.has(url)) return;
  event.respondWith((async () => {
    try {
      opened = opened || caches.open(CACHE);
      // The entries are stored under their bare URLs: looking the bare URL up is the same as
      // `ignoreSearch`, without the scan of every entry that `ignoreSearch` costs.
      const hit = await (await opened).match(url);
      if (hit) return hit;
    } catch (err) {
      opened = null; // storage trouble: the network, and try the cache again next time
    }
    return fetch(request);
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "samba-sw-version" && event.source) {
    event.source.postMessage({ type: "samba-sw-version", version: VERSION });
  }
});
