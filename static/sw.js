// Service worker: the app opens without a connection and shows the last pages it saw.
// Static files: cache first. Pages: network first, the last copy when offline, marked so the
// page can say that saving needs the connection back. POSTs are never cached or replayed.
"use strict";
var VERSION = "v1";
var STATIC = "static-" + VERSION;
var PAGES = "pages-" + VERSION;
var PRECACHE = ["/", "/static/app.css", "/static/app.js", "/static/vendor/htmx-2.0.11.min.js",
  "/static/icon.svg", "/static/manifest.webmanifest", "/offline"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.addAll(PRECACHE); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name !== STATIC && name !== PAGES;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        var copy = response.clone();
        caches.open(STATIC).then(function (cache) { cache.put(request, copy); });
        return response;
      });
    }));
    return;
  }
  if (url.pathname.startsWith("/api/")) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && request.headers.get("HX-Request") !== "true") {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, { cacheName: PAGES }).then(function (hit) {
      return hit || caches.match("/offline");
    });
  }));
});
