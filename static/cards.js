// The rule tools' card picker (loaded by app.js where a card field names it,
// data-needs-script). Loaded after the page is there: it draws the chips at once.
"use strict";
// Card picker of the rule tools: the rank buttons type into the card field last tapped
// (the first one by default); the cards show as chips, and tapping a chip removes it.
var activeCardInput = null;
document.addEventListener("focusin", function (event) {
  if (event.target.classList && event.target.classList.contains("card-input")) {
    activeCardInput = event.target;
  }
});
function cardTarget(button) {
  var form = button.closest("form");
  if (activeCardInput && form && form.contains(activeCardInput)) return activeCardInput;
  return form ? form.querySelector(".card-input") : null;
}
function cardTokens(input) {
  return input.value.split(/[\s,;]+/).filter(function (t) { return t; });
}
function setCards(input, tokens) {
  input.value = tokens.join(" ");
  renderChips(input);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}
function renderChips(input) {
  var box = document.querySelector('[data-chips-for="' + input.id + '"]');
  if (!box) return;
  box.textContent = "";
  cardTokens(input).forEach(function (token, index) {
    var chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip-card" + (/^3[HD♥♦]$/i.test(token) ? " chip-red" : "");
    chip.textContent = token.toUpperCase() === "JK" ? box.dataset.jokerLabel : token.toUpperCase();
    chip.dataset.removeIndex = String(index);
    chip.dataset.removeFrom = input.id;
    chip.setAttribute("aria-label", box.dataset.removeLabel.replace("{card}", chip.textContent));
    box.appendChild(chip);
  });
}
document.addEventListener("click", function (event) {
  var pick = event.target.closest("button[data-card]");
  var undo = event.target.closest("button[data-card-undo]");
  var chip = event.target.closest("button[data-remove-index]");
  if (pick || undo) {
    var input = cardTarget(pick || undo);
    if (!input) return;
    var tokens = cardTokens(input);
    if (undo) tokens.pop();
    else if (input.dataset.single) tokens = [pick.dataset.card];
    else tokens.push(pick.dataset.card);
    setCards(input, tokens);
  } else if (chip) {
    var field = document.getElementById(chip.dataset.removeFrom);
    var rest = cardTokens(field);
    rest.splice(Number(chip.dataset.removeIndex), 1);
    setCards(field, rest);
  }
});
document.addEventListener("input", function (event) {
  if (event.target.classList && event.target.classList.contains("card-input")) renderChips(event.target);
});
function renderAllChips() {
  document.querySelectorAll(".card-input").forEach(renderChips);
}
renderAllChips();
document.addEventListener("htmx:afterSettle", renderAllChips);

