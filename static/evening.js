// Club evenings (issue 33): the round's countdown on the director's page and on every
// table's sheet (with the time it ends, in the phone's own), a player's guide kept fresh
// for offline use (issue 43), and the roster chips of the new-evening form. Loaded by
// app.js where a page names it (data-needs-script), after the page is there: it starts at
// once.
"use strict";
(function () {
  if (window.eveningScript) return;
  window.eveningScript = true;

  // "12:34 left" (or "1:02:03 left") until data-ends-at, then the page's "time is up".
  // The timer is silent (role=timer), but its end is said once, in a live region that is
  // on the page before it speaks (a region added with its words is not always heard).
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  var counting = {};
  function liveRegion() {
    var region = document.querySelector("[data-time-up-status]");
    if (!region) {
      region = document.createElement("p");
      region.className = "visually-hidden";
      region.setAttribute("aria-live", "assertive");
      region.setAttribute("data-time-up-status", "");
      (document.querySelector("main") || document.body).appendChild(region);
    }
    return region;
  }
  function tick() {
    var countdowns = document.querySelectorAll("[data-countdown]");
    if (countdowns.length) liveRegion();
    countdowns.forEach(function (el) {
      var left = Math.floor((Date.parse(el.dataset.endsAt) - Date.now()) / 1000);
      var text;
      if (isNaN(left)) return;
      if (left <= 0) {
        text = el.dataset.up;
        el.classList.add("is-up");
        if (counting[el.dataset.endsAt] === true) liveRegion().textContent = text;
        counting[el.dataset.endsAt] = "up";
      } else {
        counting[el.dataset.endsAt] = true;
        var h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, s = left % 60;
        text = el.dataset.left.replace("{t}", (h ? h + ":" + pad(m) : m) + ":" + pad(s));
        el.classList.remove("is-up");
      }
      if (el.textContent !== text) el.textContent = text;
    });
  }
  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);

  // The time a round ends, kept in UTC, in the phone's own time zone and language.
  function localTimes() {
    var lang = document.documentElement.lang || undefined;
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      var today = new Date().toDateString() === when.toDateString();
      el.textContent = today
        ? when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })
        : when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    });
  }
  localTimes();
  document.addEventListener("htmx:afterSettle", localTimes);

  // The director's page's refresh replaces its live part: the earlier rounds that were
  // open stay open (the focus comes back by itself: htmx finds the control of its id).
  var opened = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target.id !== "evening-live") return;
    opened = Array.prototype.map.call(
      event.detail.target.querySelectorAll("details[id][open]"), function (d) { return d.id; });
  });
  document.addEventListener("htmx:afterSwap", function () {
    opened.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
    opened = [];
  });

  // A player's guide: a poll that brought news (a 304 swaps nothing) has the service
  // worker keep the page as it now stands, for the phone offline.
  document.addEventListener("htmx:afterSwap", function (event) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && event.detail.target.id === "guide-live") {
      worker.postMessage({ keepGuide: location.href });
    }
  });

  // New evening: a regular's chip adds the name to the players' field: beside the last
  // line's name while that pair is not whole (the rule set's partners), else on a new line.
  document.addEventListener("click", function (event) {
    var chip = event.target.closest("[data-add-players] button[data-name]");
    if (!chip) return;
    var form = chip.closest("form");
    var field = form.querySelector("textarea");
    var pairs = form.querySelector("input[type=radio][value=pairs]");
    var variant = form.querySelector("select option:checked");
    var size = pairs && pairs.checked && variant ? Number(variant.dataset.partners) : 1;
    var lines = field.value.replace(/\s+$/, "").split("\n");
    var last = lines[lines.length - 1];
    var names = last.split(/[,;&/+]/).filter(function (n) { return n.trim(); });
    if (last.trim() && names.length < size) lines[lines.length - 1] = last + ", " + chip.dataset.name;
    else if (last.trim()) lines.push(chip.dataset.name);
    else lines[lines.length - 1] = chip.dataset.name;
    field.value = lines.join("\n");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    // The chip goes: the focus goes on to the next one (the field after the last), and
    // the page says whom it added (a hidden chip takes the focus down to the body).
    var group = chip.closest("[data-add-players]");
    var chips = Array.prototype.slice.call(group.querySelectorAll("button[data-name]"));
    var after = chips.slice(chips.indexOf(chip) + 1).concat(chips.slice(0, chips.indexOf(chip)));
    var next = after.filter(function (other) { return !other.hidden; })[0];
    chip.hidden = true;
    (next || field).focus();
    var status = form.querySelector("[data-added-status]");
    if (status) status.textContent = group.dataset.added.replace("{name}", chip.dataset.name);
  });

  // New evening: the round robin's length for the pairs typed, shown while it is chosen
  // (rules.movements.rounds_needed: one round fewer than the pairs, as many when odd).
  function roundRobin(form) {
    var hint = form.querySelector("[data-round-robin]");
    if (!hint) return;
    var chosen = form.querySelector("input[name=movement]:checked");
    var pairs = form.querySelector("input[type=radio][value=pairs]");
    hint.hidden = !chosen || chosen.value !== "round_robin";
    var count = pairs && pairs.checked ? form.querySelector("textarea").value.split("\n")
      .filter(function (line) { return /[^\s,;&/+]/.test(line); }).length : 0;
    hint.textContent = count < 2 ? hint.dataset.general : hint.dataset.pairs
      .replace("{pairs}", count).replace("{rounds}", count % 2 ? count : count - 1);
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest("[data-evening-form]");
    if (form) roundRobin(form);
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest("[data-evening-form]");
    if (form) roundRobin(form);
  });
})();
