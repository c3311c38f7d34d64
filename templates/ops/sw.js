// Timekeeper's service worker: the app shell works offline, the data never pretends to.
// Static files are served from the cache (their names change with their content); pages
// always come from the network, and the offline page stands in when there is none.
// Writes (POST) are never touched here.
const CACHE = "timekeeper-{{ version }}";
const ASSETS = {{ assets|safe }};
const OFFLINE = {{ offline_url|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([...ASSETS, OFFLINE]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("timekeeper-") && name !== CACHE)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});
