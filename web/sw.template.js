// Service worker for the Samba table: the template. build.py fills in VERSION (a content hash
// of every precached file) and PRECACHE (their URLs, relative to this script), writes the result
// as dist/sw.js and does not ship this file. Any change to the site changes VERSION, so sw.js
// changes, the browser installs the new worker and the old cache is removed on activate.
//
// - install: fetch every precached URL with `cache: "no-cache"` into the cache
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
      const response = await fetch(new Request(url, { cache: "no-cache", credentials: "same-origin" }));
      if (!response.ok) throw new Error(`precache ${rel}: HTTP ${response.status}`);
      await cache.put(url, response);
    }));
    await self.skipWaiting();
  })().catch(async (err) => {
    await caches.delete(CACHE);
    throw err;
  }));
});

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
