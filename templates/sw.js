{#- Service worker: the app opens without a connection and shows the last pages it saw.
   Static files have a hash of their content in their names (the server fills in this
   file's lists, and VERSION from those hashes): a cached one is the file, for good. A deploy
   that changes any of them changes this file, so the browser installs it, it fetches the new
   files and drops the old cache. Pages: from the network, the last copy when offline.
   Forms that carry a one-time token (deal forms) and POSTs are never cached.
   No secret is kept (issue 16): an answer marked no-store never goes in a cache, and a page
   is kept under its address without the fragment (where a scorer link carries the secret).
   The scorer's sheet is no-store; in its place the worker keeps the sheet as a follower sees
   it, asked for with X-Offline-Copy and the phone's cookies (so in its language and scheme).
   No kept copy is ever the scorer's: a scorer cookie that goes leaves nothing to clear.
   (Template comments, not JavaScript ones: the phone never downloads them.) -#}
"use strict";
var VERSION = {{ version|tojson }};
var STATIC = "static-" + VERSION;
// Pages outlive a deploy: the last sheet still opens offline. v2 kept the scorer's sheet
// whole, secret and all: activating this worker drops it.
var PAGES = "pages-v3";
var PRECACHE = {{ (precache + [url_for('web.offline')])|tojson }};
// Each static file's current hashed address by its plain one: a page kept from before a
// deploy asks for older names, and offline it gets today's files instead.
var CURRENT = {{ current|tojson }};
var HASHED = /\.[0-9a-f]{10}(\.[^./]+)?$/;

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

function fromNetworkAndKeep(request, cacheName) {
  return fetch(request).then(function (response) {
    if (mayKeep(response)) {
      var copy = response.clone();
      caches.open(cacheName).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  });
}

function mayKeep(response) {
  return response.ok && !/no-store/i.test(response.headers.get("Cache-Control") || "");
}

// A page is kept under its address alone: no fragment (a scorer link's secret rides
// there) and none of the request's headers.
function keyOf(url) {
  return url.origin + url.pathname + url.search;
}

// A game's score sheet: the scorer's answer is no-store, and a follower's view is kept.
var SHEET = /^\/games\/[^/]+$/;
var NEW_DEAL = /^\/games\/[^/]+\/deals\/new$/;
var OFFLINE_COPY = { "X-Offline-Copy": "follower" };

function keepFollowersView(key) {
  return fetch(key, { headers: OFFLINE_COPY }).then(function (follower) {
    return caches.open(PAGES).then(function (cache) {
      return mayKeep(follower) ? cache.put(key, follower) : cache.delete(key);
    });
  }).then(function () { return keepDealForm(key + "/deals/new"); }).catch(function () {});
}

// The kept deal form follows the sheet (its totals are the provisional scores' start):
// fetched afresh whenever the sheet is, once the phone has opened it (it is the scorer).
function keepDealForm(key) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(key, { ignoreVary: true }).then(function (kept) {
      if (!kept) return;
      return fetch(key).then(function (form) {
        return mayKeep(form) && !form.redirected ? cache.put(key, form) : cache.delete(key);
      });
    });
  });
}

function keepPage(event, url, response) {
  var key = keyOf(url);
  if (mayKeep(response) && !(response.redirected && NEW_DEAL.test(url.pathname))) {
    var copy = response.clone();
    event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.put(key, copy); }));
  } else if (response.ok && SHEET.test(url.pathname)) {
    // Asked for once the scorer's answer is in: that answer has already taken this
    // phone's flash messages ("Deal 6 saved") from its session.
    event.waitUntil(keepFollowersView(key));
  } else if (response.ok) {
    // The page now holds what must not be kept: an older copy goes too.
    event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.delete(key); }));
  }
}

// A player's guide to a club evening: read-only, kept whole like any page.
var GUIDE = /^\/evenings\/[^/]+\/guide\/[^/]+$/;

// A sheet the page got by following a form's redirect (a deal saved), which passed this
// worker by (app.js says so): its offline copy is kept afresh. A guide whose poll brought
// news (evening.js says so): its offline copy is the page as it now stands, not as opened.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var url = new URL(data.keepSheet || data.keepGuide || "/", location.origin);
  if (url.origin !== location.origin) return;
  var sheet = SHEET.test(url.pathname) && url.pathname !== "/games/new";
  if (data.keepSheet && sheet) {
    event.waitUntil(keepFollowersView(keyOf(url)));
  } else if (data.keepGuide && GUIDE.test(url.pathname)) {
    event.waitUntil(fetch(keyOf(url)).then(function (page) {
      return mayKeep(page) && caches.open(PAGES).then(function (cache) {
        return cache.put(keyOf(url), page);
      });
    }).catch(function () {}));
  }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/static/") && HASHED.test(url.pathname)) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fromNetworkAndKeep(request, STATIC).catch(function () {
        var today = CURRENT[url.pathname.replace(HASHED, "$1")];
        return (today ? caches.match(today) : Promise.resolve()).then(function (copy) {
          return copy || Response.error();
        });
      });
    }));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    // A plain name (the manifest's icons): from the cache, refreshed in the background.
    var refreshed = fromNetworkAndKeep(request, STATIC);
    event.respondWith(caches.match(request).then(function (hit) { return hit || refreshed; }));
    event.waitUntil(refreshed.catch(function () {}));
    return;
  }
  // An edit form carries the deal's version: a stale copy could only be refused. Network
  // only. A new deal's form is kept (a scorer records deals offline, issue 17): app.js
  // gives a kept copy a key of its own and counts the deals waiting on the phone.
  if (/\/deals\//.test(url.pathname) && !NEW_DEAL.test(url.pathname)) return;
  var htmxPart = request.headers.get("HX-Request") === "true" &&
    request.headers.get("HX-Boosted") !== "true";
  if (htmxPart) {
    // A live refresh of part of a page: offline, fail plainly so the page keeps what it has.
    event.respondWith(fetch(request).catch(function () { return Response.error(); }));
    return;
  }
  // Whole pages (boosted navigations are whole pages too): keep the last copy of each.
  event.respondWith(fetch(request).then(function (response) {
    keepPage(event, url, response);
    return response;
  }).catch(function () {
    return caches.match(keyOf(url), { cacheName: PAGES, ignoreVary: true }).then(function (hit) {
      return hit || caches.match("/offline");
    }).then(marked);
  }));
});

{#- A kept copy says it is one, in its page and a header: the page then knows the server
    did not answer, whatever navigator.onLine says (static/app.js, issue 40). #}
function marked(kept) {
  if (!kept) return kept;
  var headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  headers.set("X-Kept-Copy", "1");
  return kept.text().then(function (text) {
    text = text.replace(/<body[^>]*>/, "$&<div hidden data-kept-copy></div>");
    return new Response(text, { status: kept.status, statusText: kept.statusText, headers: headers });
  });
}
