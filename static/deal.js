// The deal form's own code, loaded by app.js where a deal form is (page weight: the
// sheet and the other pages never fetch it). Listeners are on the document, so one load
// serves every deal form the phone opens afterwards.
"use strict";
// Card counter of the deal form: a tap per card, by class; the points field gets the sum.
document.addEventListener("click", function (event) {
  var key = event.target.closest("button[data-count-points], button[data-count-clear]");
  if (!key) return;
  var keys = key.closest("[data-count-for]");
  var input = document.getElementById(keys.dataset.countFor);
  if (key.dataset.countClear) {
    keys.querySelectorAll(".count").forEach(function (c) { c.textContent = "0"; });
  } else {
    var count = key.querySelector(".count");
    count.textContent = String(Number(count.textContent) + 1);
  }
  var total = 0;
  keys.querySelectorAll("button[data-count-points]").forEach(function (b) {
    total += Number(b.dataset.countPoints) * Number(b.querySelector(".count").textContent);
  });
  input.value = String(total);
  input.dispatchEvent(new Event("input", { bubbles: true }));
});

// Deal form, fewer taps (DESIGN.md: at most 20 for a deal). A points figure that cannot
// grow (one more digit would pass the packs' card points, or it starts with 0) moves on
// by itself, Enter ("next") after a shorter one; Backspace in an empty one goes back, and
// so does a "+" typed just after moving on (120+35). Moves by themselves follow a touch
// (until Tab or a mouse). From the last, the keypad's "done" saves (Chrome on Android: an
// Enter with no code), a physical Enter goes to Save.
var byTouch = false;
addEventListener("pointerdown", function (event) { byTouch = event.pointerType !== "mouse"; }, true);
addEventListener("keydown", function (event) { if (event.key === "Tab") byTouch = false; }, true);
var movedOn = null;  // {from, to}: the last move a full figure made by itself
function pointsFields(form) {
  return Array.prototype.slice.call(form.querySelectorAll("input.points"));
}
function moveOn(input, byItself) {
  var fields = pointsFields(input.form);
  var next = fields[fields.indexOf(input) + 1];
  movedOn = byItself && next ? { from: input, to: next } : null;
  if (next) {
    next.focus();
    next.select();
  } else {
    var save = input.form.querySelector("button[type=submit]");
    if (save) save.focus();  // the keypad closes: the live line and the save button show
  }
}
document.addEventListener("input", function (event) {
  var input = event.target;
  var form = input.form;
  if (!byTouch || event.inputType !== "insertText" || !form || !form.dataset.pointsMax) return;
  if (!input.classList.contains("points") || input.selectionEnd !== input.value.length) return;
  var typed = input.value.trim();
  if (!/^\d+$/.test(typed)) return;  // a sum such as 120+35 goes on until Enter
  if (typed.charAt(0) === "0" || Number(typed) * 10 > Number(form.dataset.pointsMax)) {
    moveOn(input, true);
  }
});
document.addEventListener("beforeinput", function (event) {
  var move = movedOn;
  movedOn = null;
  if (!move || move.to !== event.target || event.data !== "+" || move.to.value !== "") return;
  event.preventDefault();
  move.from.focus();
  move.from.value += "+";
  move.from.dispatchEvent(new Event("input", { bubbles: true }));
});
document.addEventListener("focusout", function (event) {
  if (movedOn && event.target === movedOn.to) movedOn = null;
});
document.addEventListener("keydown", function (event) {
  var input = event.target;
  if (input.tagName !== "INPUT" || !input.form || !input.form.dataset.pointsMax) return;
  var fields = pointsFields(input.form);
  var at = fields.indexOf(input);
  if (event.key === "Enter") {
    if (byTouch && event.code === "" && at === fields.length - 1) return;  // "done"
    event.preventDefault();
    if (at >= 0) moveOn(input);
  } else if (event.key === "Backspace" && byTouch && input.value === "" && at > 0) {
    event.preventDefault();
    var back = fields[at - 1];
    back.focus();
    back.setSelectionRange(back.value.length, back.value.length);
  }
});

// A new deal's "who went out" follows the canastas until the player picks: going out
// needs canastas (the contract's: "natural_canastas:2"), and nothing that blocks it (an
// unfinished special meld, the pot not taken), so when only one side has what it takes,
// that side went out (or, rarely, nobody: one tap). With two or more such sides it stays
// as it was opened: nobody. A side that laid down a special hand went out with it.
function guessWhoWentOut(form) {
  var box = form.querySelector("[data-out-canastas]");
  if (!box) return;
  var kinds = box.dataset.canastaFields.split(" ");
  var needed = box.dataset.outKinds ? box.dataset.outKinds.split(" ") : [];
  var blocked = box.dataset.outBlocked ? box.dataset.outBlocked.split(" ") : [];
  var able = [];
  box.querySelectorAll("input[type=radio][value]").forEach(function (radio) {
    if (radio.value === "") return;
    var field = function (name) { return document.getElementById("sides-" + radio.value + "-" + name); };
    var count = function (kind) { return field(kind) ? parseInt(field(kind).value, 10) || 0 : 0; };
    var special = field("special_hand");
    if (special && special.value) return able.push(radio.value);
    var all = kinds.reduce(function (sum, kind) { return sum + count(kind); }, 0);
    var each = needed.every(function (need) {
      var parts = need.split(":");
      return count(parts[0]) >= Number(parts[1] || 1);
    });
    var free = blocked.every(function (name) { return !(field(name) && field(name).checked); });
    if (all >= Number(box.dataset.outCanastas) && each && free) able.push(radio.value);
  });
  var pick = box.querySelector('input[type=radio][value="' + (able.length === 1 ? able[0] : "") + '"]');
  if (pick) pick.checked = true;
}
document.addEventListener("input", function (event) {
  var form = event.target.form;
  if (form && /_canastas$/.test(event.target.id)) guessWhoWentOut(form);
});
document.addEventListener("change", function (event) {
  var form = event.target.form;
  if (form && event.target.type === "checkbox" && form.querySelector("[data-out-blocked]")) guessWhoWentOut(form);
});

// A special hand is scored alone (RULES.md section 13): picking one clears the side's other
// figures, and that side went out with it. The server refuses other figures beside it.
document.addEventListener("change", function (event) {
  var select = event.target;
  if (!select.matches || !select.matches("select[data-special-hand]") || !select.value) return;
  var card = select.closest(".side-card");
  card.querySelectorAll("input").forEach(function (input) {
    if (input.type === "checkbox") input.checked = false;
    else if (input.classList.contains("step-value")) input.value = "0";
    else if (input.classList.contains("points")) input.value = "";
  });
  card.querySelectorAll(".counter .count").forEach(function (count) { count.textContent = "0"; });
  var out = select.form.querySelector('input[name="went_out"][value="' + select.dataset.specialHand + '"]');
  if (out) out.checked = true;
  var box = select.form.querySelector("[data-out-canastas]");
  if (box) delete box.dataset.outCanastas;  // the player's pick stands
  select.dispatchEvent(new Event("input", { bubbles: true }));
});
function playerPicked(event) {
  var box = event.target.closest && event.target.closest("[data-out-canastas]");
  if (box && event.target.type === "radio") delete box.dataset.outCanastas;  // theirs stands
}
document.addEventListener("click", playerPicked);
document.addEventListener("change", playerPicked);

// Deal form header: where one card's name and total do not share a line, every card's
// total is set smaller, then every name stacked (app.css .tight, .stacked): cards alike.
function splitCard(totals) {
  return Array.prototype.some.call(totals.querySelectorAll(".total"), function (card) {
    return card.querySelector(".total-points").getBoundingClientRect().top
      >= card.querySelector(".total-name").getBoundingClientRect().bottom - 1;
  });
}
function evenTotals() {
  document.querySelectorAll(".compact .totals").forEach(function (totals) {
    totals.classList.remove("tight", "stacked");
    if (splitCard(totals)) totals.classList.add("tight");
    if (splitCard(totals)) totals.classList.add("stacked");
  });
}
document.addEventListener("htmx:afterSettle", evenTotals);
window.addEventListener("resize", evenTotals);

// No live preview from the server with deals waiting on the phone (it does not have them
// yet), nor when the browser is sure it has no network (it could only fail, and Chromium
// logs each failure): offline.js's provisional line stands in.
document.addEventListener("htmx:beforeRequest", function (event) {
  var trigger = event.detail.elt;
  if (!trigger.classList.contains("preview-trigger")) return;
  if (!navigator.onLine || trigger.closest("form").dataset.waiting) event.preventDefault();
});

// The live preview's answer for a deal form already left (Cancel tapped, or a save's page
// swapped in, while it was on its way) is dropped: its field messages would find no
// fields (htmx:oobErrorNoTarget in the console). htmx fires beforeSwap on the preview's
// target, inside the form, so the form (out of the page by then) hears it.
var previewForms = new WeakSet();
document.addEventListener("htmx:beforeRequest", function (event) {
  var trigger = event.detail.elt;
  var form = trigger.classList.contains("preview-trigger") ? trigger.closest("form") : null;
  if (!form || previewForms.has(form)) return;
  previewForms.add(form);
  form.addEventListener("htmx:beforeSwap", function (swap) {
    if (!document.body.contains(form)) swap.preventDefault();
  });
});

// Loaded after the form settled: what its load events would have done.
evenTotals();
window.dealCode = true;
