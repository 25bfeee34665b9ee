// Club evenings (issue 33): the round's countdown on the director's page and on every
// table's sheet, and the roster chips of the new-evening form. Loaded by app.js where a
// page names it (data-needs-script), after the page is there: it starts at once.
"use strict";
(function () {
  if (window.eveningScript) return;
  window.eveningScript = true;

  // "12:34 left" (or "1:02:03 left") until data-ends-at, then the page's "time is up".
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Math.floor((Date.parse(el.dataset.endsAt) - Date.now()) / 1000);
      var text;
      if (isNaN(left)) return;
      if (left <= 0) {
        text = el.dataset.up;
        el.classList.add("is-up");
      } else {
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
    chip.hidden = true;
  });
})();
