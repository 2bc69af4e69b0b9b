// The page's service worker (issue 49, item 7): it makes the page
// installable and, offline, shows a page that says so. It keeps nothing
// else: every other request goes to the server as without it, and no
// table, sheet or seat is ever cached.
const CACHE = "skat-offline-1";
const OFFLINE = "/offline.html";

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll([OFFLINE, "/static/icon.svg"])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.mode === "navigate") {
    e.respondWith(fetch(e.request).catch(() => caches.match(OFFLINE)));
  } else if (url.origin === location.origin && url.pathname === "/static/icon.svg") {
    e.respondWith(fetch(e.request).catch(() => caches.match("/static/icon.svg")));
  }
});
