// Steppers: the - and + buttons beside a count (the deal form, the going-out check). No
// inline script: the markup carries data-step / data-for, and this file wires them up.
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
