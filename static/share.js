// Copy buttons beside shared links (issue 17). The clipboard needs a secure page; on plain
// http (the table's network) the link is selected and copied the old way, or left selected.
// Loaded by app.js where a copy button names it (data-needs-script), after the page is
// there: it shows the buttons at once.
"use strict";
function showCopy(root) {
  root.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
}
showCopy(document);
document.addEventListener("htmx:load", function (event) { showCopy(event.detail.elt); });
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var link = button.parentNode.querySelector("a"), status = button.parentNode.nextElementSibling;
  function say(text) {
    status.textContent = text;
    clearTimeout(button.timer);
    button.timer = setTimeout(function () { status.textContent = ""; }, 5000);
  }
  function select() {
    getSelection().selectAllChildren(link);
    say(document.execCommand("copy") ? button.dataset.copied : button.dataset.selected);
  }
  if (!navigator.clipboard || !isSecureContext) return select();
  navigator.clipboard.writeText(link.href).then(function () { say(button.dataset.copied); }, select);
});

