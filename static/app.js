// What every page needs: the connection as the server answers it, the service worker, the
// offline deals' hooks, the focus after a swap, the phone's time zone, the question before
// leaving a half-filled deal, and the loader of the rest. A behaviour of a few pages has a
// file of its own, which app.js loads, once, where a page's markup names it
// (data-needs-script): steppers.js, cards.js, new_game.js, share.js, evening.js, deal.js.
"use strict";
// Scorer link: the game's secret travels in the address's fragment, which no server sees;
// put it into the form, and take it out of the address bar and the history.
document.addEventListener("DOMContentLoaded", function () {
  var field = document.querySelector("[data-join-token]");
  if (!field || location.hash.length < 2) return;
  field.value = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, "", location.pathname + location.search);
});

// Installable and usable offline: register the service worker (served at /sw.js).
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
  });
}
// A boosted form that saved a deal comes back with the sheet by a redirect the service
// worker never sees (it leaves POSTs alone): ask it to keep that sheet's offline copy.
document.addEventListener("htmx:afterRequest", function (event) {
  var detail = event.detail;
  var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!worker || !detail.successful || (detail.requestConfig || {}).verb !== "post") return;
  var landed = detail.xhr.responseURL;
  if (landed && /\/games\/[^/]+$/.test(new URL(landed).pathname)) {
    worker.postMessage({ keepSheet: landed });
  }
});
// The connection is what the server answers (issue 40: navigator.onLine can say "online"
// with the server out of reach): none for a kept copy (templates/sw.js marks it; the
// scorer's sheet is kept as a follower's, data-offline-copy), a request that got none, or
// a browser sure it has no network ("offline"). The banner says so until an answer; then
// a kept sheet reloads to the phone's own page, or offline.js sends the deals waiting.
var serverAnswers = true;
function answered(yes) {
  var back = yes && !serverAnswers, copy = document.querySelector("[data-offline-copy]");
  serverAnswers = yes;
  document.documentElement.classList.toggle("is-offline", !yes);
  if (back) copy ? location.reload() : document.dispatchEvent(new Event("answered"));
}
document.addEventListener("DOMContentLoaded", function () {
  answered(navigator.onLine && !document.querySelector("[data-kept-copy], [data-offline-copy]"));
});
window.addEventListener("offline", function () { answered(false); });
document.addEventListener("htmx:afterRequest", function (event) {
  var xhr = event.detail.xhr;
  if (xhr.status) answered(!xhr.getResponseHeader("X-Kept-Copy"));
});
// "online" is not proof: the server is asked (the reload may find the kept copy again).
window.addEventListener("online", function () {
  if (document.querySelector("[data-offline-copy]")) return location.reload();
  fetch("/sw.js", { method: "HEAD", cache: "no-store" }).then(function () { answered(true); }, function () { answered(false); });
});
// htmx logs a request with no answer as an error before any listener hears of it; the
// page answers it (the banner, a deal kept, "not saved", the last figures kept): unlogged.
document.addEventListener("htmx:beforeSend", function (event) {
  var xhr = event.detail.xhr, failed = xhr.onerror, log = console.error;
  xhr.onerror = function () {
    console.error = function (text) { if (!/^htmx:(sendError|afterRequest)\b/.test(text)) log.apply(console, arguments); };
    try { failed.apply(this, arguments); } finally { console.error = log; }
  };
});

// The screen stays awake while a game is open (Screen Wake Lock, where the browser has it).
var wakeLock = null;
function keepAwake() {
  if (!("wakeLock" in navigator) || !document.querySelector("[data-keep-awake]")) return;
  if (document.visibilityState !== "visible") return;
  navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; })
    .catch(function () {});
}
document.addEventListener("DOMContentLoaded", keepAwake);
document.addEventListener("htmx:afterSettle", keepAwake);
document.addEventListener("visibilitychange", keepAwake);

// Leaving a half-filled deal form asks first.
var dirtyForm = null;
document.addEventListener("input", function (event) {
  var form = event.target.closest && event.target.closest("form[data-confirm-leave]");
  if (form) dirtyForm = form;
});
document.addEventListener("submit", function () { dirtyForm = null; });
window.addEventListener("beforeunload", function (event) {
  if (dirtyForm && document.body.contains(dirtyForm)) {
    event.preventDefault();
    event.returnValue = "";
  }
});
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[href]");
  if (!link || !dirtyForm || !document.body.contains(dirtyForm)) return;
  if (!window.confirm(dirtyForm.dataset.confirmLeave)) {
    event.preventDefault();
    event.stopImmediatePropagation();
  } else {
    dirtyForm = null;
  }
}, true);

// Back on a half-filled deal asks what Cancel asks. The form came by htmx into the same
// document, so Back is a popstate (no unload): answered "stay", the page goes forward
// again, and htmx's own handler never runs (window.onpopstate, set when the page has
// loaded: after this one, which must stay here, not in the later deal.js).
var stayOnForm = false;
window.addEventListener("popstate", function (event) {
  if (!stayOnForm && (!dirtyForm || !document.body.contains(dirtyForm))) return;
  if (!stayOnForm && window.confirm(dirtyForm.dataset.confirmLeave)) {
    dirtyForm = null;
    return;
  }
  event.stopImmediatePropagation();
  stayOnForm = !stayOnForm;
  if (stayOnForm) history.forward();
}, true);

// Code a page needs loads where it is needed, once: the deal form's (static/deal.js) with
// a deal form; the offline deals' (static/score.js, then static/offline.js, issue 17) on a
// new deal's form and on any page while deals wait on this phone (offline.js notes that in
// localStorage): a follower's phone fetches neither.
var loaded = {};
function load(src) {
  if (loaded[src]) return;
  var script = document.createElement("script");
  script.src = src;
  script.async = false;  // in the order asked
  document.head.appendChild(script);
  loaded[src] = script;
}
function needScripts() {
  var data = document.body.dataset;
  if (document.querySelector("form.deal-form")) load(data.dealScript);
  // A part of a page that needs a script of its own names it (static/steppers.js, ...).
  document.querySelectorAll("[data-needs-script]").forEach(function (part) {
    load(part.dataset.needsScript);
  });
  if (!window.indexedDB) return;
  if (!document.querySelector("form[data-score-table]") && !localStorage.getItem("pendingDeals")) return;
  load(data.scoreScript);
  load(data.offlineScript);
}
document.addEventListener("DOMContentLoaded", needScripts);
document.addEventListener("htmx:afterSettle", needScripts);
// The last sheet seen online: a deal form kept from before it starts from there.
function noteSheet() {
  var sheet = document.querySelector("table.sheet[data-game]");
  if (sheet && !document.querySelector("[data-offline-copy]")) {
    localStorage.setItem("sheet-" + sheet.dataset.game, sheet.dataset.next + " " + sheet.dataset.totals);
  }
}
document.addEventListener("DOMContentLoaded", noteSheet);
document.addEventListener("htmx:afterSettle", noteSheet);
// Not saved: the banner says so (htmx gives the Save button back, hx-disabled-elt).
function notSaved(id) {
  var banner = document.getElementById(id || "not-saved");
  if (banner) {
    banner.hidden = false;
    banner.scrollIntoView({ block: "center" });
  }
}
// A new deal goes to the phone's queue, behind the deals waiting there, while any wait or
// the server does not answer (offline.js sends them in order); else it tries the server.
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!form.dataset.scoreTable || !window.keepOffline || (serverAnswers && !form.dataset.waiting)) return;
  event.preventDefault();
  keepOffline(form);
}, true);
// No answer on the way (the deal may or may not have arrived: its key decides).
document.addEventListener("htmx:sendError", function (event) {
  var form = event.detail.elt;
  answered(false);
  if (form.tagName !== "FORM") {
    var deal = form.closest("form[data-score-table]");
    if (deal && window.provisionalLine) provisionalLine(deal);
  } else if (form.dataset.scoreTable && window.keepOffline) {
    keepOffline(form);
  } else {
    notSaved();
  }
});
// The database out of reach for a moment (503, with Retry-After): nothing was saved. A new
// deal waits on the phone as with no connection (offline.js sends it again, under its key,
// after the server's Retry-After); an edited one stays in its form, said not to be saved;
// a refresh (the follower's poll, the live line) keeps what it shows. A page opened, or
// another form, shows the server's page, which says to try again.
document.addEventListener("htmx:beforeSwap", function (event) {
  var detail = event.detail;
  if (detail.xhr.status !== 503) return;
  var config = detail.requestConfig || {};
  var form = config.elt && config.elt.tagName === "FORM" && config.elt.classList.contains("deal-form") ? config.elt : null;
  if (form && config.verb === "post") {
    detail.shouldSwap = false;
    if (form.dataset.scoreTable && window.keepOffline) keepOffline(form); else notSaved("not-saved-busy");
  } else if (!detail.boosted) {
    detail.shouldSwap = false;
  }
});

// The phone's time zone, for the dates the server writes in it (scorekeeper/i18n.py): a
// cookie goes with every request from the next page on, plain links included.
(function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone && document.cookie.split("; ").indexOf("tz=" + zone) < 0) {
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  }
})();
// After a swap: fields whose message holds an error are aria-invalid; a new page starts
// at its first field at fault, flash or heading, not on the body.
document.addEventListener("htmx:afterSettle", function (event) {
  document.querySelectorAll(".field-msg").forEach(function (slot) {
    var wrong = slot.querySelector(".field-error");
    document.querySelectorAll('[aria-describedby~="' + slot.id + '"]').forEach(function (field) {
      wrong ? field.setAttribute("aria-invalid", "true") : field.removeAttribute("aria-invalid");
    });
  });
  var main = document.getElementById("main");
  if (!main || !event.detail.boosted || event.target !== document.body) return;
  var start = main.querySelector('[aria-invalid="true"]');
  if (start) {
    start.scrollIntoView({ block: "center" });  // clear of the sticky totals
  } else {
    start = main.querySelector(".flashes") || main.querySelector("h1") || main;
    start.tabIndex = -1;
    scrollTo(0, 0);
  }
  start.focus({ preventScroll: true });
});
// The messages are live regions: refilled only when their words change (else read again).
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var slot = event.detail.target;
  if (slot.classList.contains("field-msg") && event.detail.fragment.innerHTML === slot.innerHTML) {
    event.detail.shouldSwap = false;
  }
});
