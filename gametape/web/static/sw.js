"use strict";
// gametape's service worker: the pages' own script, style and icon from a cache, so a page
// opened from the home screen draws at once and a page that lost the network keeps working
// (its live part says it is offline and catches up when the network is back). A link's page
// itself always comes from the server. Nothing is fetched from any other site.
const CACHE = "gametape-v1";
const OWN = ["/static/seat.js", "/static/seat.css", "/static/replay.css", "/static/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OWN)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.endsWith("/events")) return; // a live stream is never cached
  if (OWN.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
});
