// Steppers: the - and + buttons beside a count. No inline script: the page's markup
// carries data-step / data-for, and this file (served from static/) wires them up.
"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest("button.step[data-for]");
  if (!button) return;
  var input = document.getElementById(button.dataset.for);
  if (!input) return;
  var value = parseInt(input.value, 10);
  if (isNaN(value)) value = 0;
  value = Math.max(0, value + parseInt(button.dataset.step, 10));
  input.value = String(value);
  // Let the live preview (htmx, listening for input) know the figure changed.
  input.dispatchEvent(new Event("input", { bubbles: true }));
});

// New game: the seat labels show the side names as they are typed.
document.addEventListener("input", function (event) {
  var match = /^sides-(\d+)-name$/.exec(event.target.id || "");
  if (!match) return;
  var name = event.target.value.trim() || "side " + (Number(match[1]) + 1);
  document.querySelectorAll('[data-side-name="' + match[1] + '"]').forEach(function (el) {
    el.textContent = name;
  });
});

// A double tap on "Save" sends one deal: the button stays disabled once the form is sent.
document.addEventListener("submit", function (event) {
  var button = event.target.querySelector("button[type=submit]");
  if (button) setTimeout(function () { button.disabled = true; }, 0);
});
// Coming back to the page from the browser's history: the button works again.
window.addEventListener("pageshow", function () {
  document.querySelectorAll("button[type=submit][disabled]").forEach(function (b) {
    b.disabled = false;
  });
});
