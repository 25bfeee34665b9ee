// The new-game page: the labels follow the names as they are typed, and a regular's chip
// seats them with one tap. Loaded by app.js where the form names it (data-needs-script).
"use strict";
// New game: the seat labels show the side names as they are typed.
document.addEventListener("input", function (event) {
  var match = /^sides-(\d+)-name$/.exec(event.target.id || "");
  if (!match) return;
  var typed = event.target.value.trim();
  document.querySelectorAll('[data-side-name="' + match[1] + '"]').forEach(function (el) {
    el.textContent = typed || el.dataset.sideDefault;  // "We", what an empty name becomes
  });
});

// New game: the draw's card pickers carry the names of the players as they are typed.
document.addEventListener("input", function (event) {
  var match = /^players-(\d+)$/.exec(event.target.id || "");
  if (!match) return;
  var typed = event.target.value.trim();
  document.querySelectorAll('[data-seat-name="' + match[1] + '"]').forEach(function (el) {
    el.textContent = typed || el.dataset.seatDefault;  // "Seat 1", in the page's language
  });
});

// New game: a regular's name chip seats them in the first empty seat (or the seat being
// typed in), and leaves the list; typing still works for anyone new.
document.addEventListener("click", function (event) {
  var chip = event.target.closest("[data-fill-seats] button[data-name]");
  if (!chip) return;
  var seats = Array.prototype.slice.call(document.querySelectorAll("input[list=roster]"));
  var active = document.activeElement;
  var seat = seats.indexOf(active) >= 0 && !active.value.trim() ? active : null;
  seat = seat || seats.filter(function (input) { return !input.value.trim(); })[0];
  if (!seat) return;
  seat.value = chip.dataset.name;
  seat.dispatchEvent(new Event("input", { bubbles: true }));
  chip.hidden = true;
});


// New game: the targets tables also play (Burraco: 1,005, 2,005, 3,000) fill the target.
document.addEventListener("click", function (event) {
  var chip = event.target.closest("[data-fill-target] button[data-value]");
  if (!chip) return;
  var field = document.getElementById(chip.closest("[data-fill-target]").dataset.fillTarget);
  field.value = chip.dataset.value;
  field.dispatchEvent(new Event("input", { bubbles: true }));
});

// New game: the special hands a table plays (all of them, or the house's few) show only
// their own values; the server reads only those too.
function showSpecialHands() {
  var picked = document.querySelector("input[data-hands]:checked");
  if (!picked) return;
  var hands = picked.dataset.hands.split(" ");
  document.querySelectorAll(".special-hands [data-hand]").forEach(function (box) {
    box.hidden = hands.indexOf(box.dataset.hand) < 0;
  });
}
document.addEventListener("change", function (event) {
  if (event.target.matches && event.target.matches("input[data-hands]")) showSpecialHands();
});
document.addEventListener("htmx:afterSettle", showSpecialHands);
showSpecialHands();  // loaded after the page (app.js): its first look now
