"use strict";
// gametape's service worker: the pages' own script, style and icon from a cache, so a page
// opened from the home screen draws at once; and each link's page and its live part as last
// fetched, so a reload or a home-screen launch without a network shows the seat's last page
// (its board, its queued move), which says it is offline and catches up when the network is
// back. A page comes from the server whenever the server answers. Nothing is fetched from any
// other site. CACHE is renamed whenever the pages' own files change.
const CACHE = "gametape-v3";
const PAGES = "gametape-pages";
const OWN = ["/static/words.js", "/static/seat.js", "/static/seat.css", "/static/replay.css", "/static/icon.svg"];
const PAGE = /^\/g\/[^/]+\/[^/]+(\/live)?$/; // a link's page, and its live part

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OWN)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE && k !== PAGES).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The server's answer, kept under the address without its query (?ok=4); the one kept when
// the server cannot be reached.
function lastKnown(event, url) {
  const key = url.origin + url.pathname;
  return fetch(event.request)
    .then((answer) => {
      if (answer.ok) {
        const copy = answer.clone();
        event.waitUntil(caches.open(PAGES).then((cache) => cache.put(key, copy)));
      }
      return answer;
    })
    .catch(() => caches.open(PAGES).then((cache) => cache.match(key)).then((hit) => hit || Response.error()));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.endsWith("/events")) return; // a live stream is never cached
  if (OWN.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (PAGE.test(url.pathname)) event.respondWith(lastKnown(event, url));
});
