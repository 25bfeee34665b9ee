// Deals saved with no connection (issue 17; app.js loads this file where needed) wait on
// the phone, in IndexedDB, under their form's one-time key: sent again, a deal is recorded
// once. They go in order, on the next page load or when the connection returns; one the
// server refuses stops its game's queue and comes back to its form with the server's words.
// Their scores until then are provisional: from the game's numbers that the deal form
// carries (data-score-table, from rules.score_table).
var pendingDb = null;
function pendingStore(mode, work) {
  pendingDb = pendingDb || new Promise(function (ok, fail) {
    var open = indexedDB.open("scorekeeper", 1);
    open.onupgradeneeded = function () { open.result.createObjectStore("pending", { keyPath: "key" }); };
    open.onsuccess = function () { ok(open.result); };
    open.onerror = function () { fail(open.error); };
  });
  return pendingDb.then(function (db) {
    return new Promise(function (ok, fail) {
      var tx = db.transaction("pending", mode);
      var request = work(tx.objectStore("pending"));
      tx.oncomplete = function () { ok(request.result); };
      tx.onerror = function () { fail(tx.error); };
    });
  });
}
function pendingDeals(game) {
  return pendingStore("readonly", function (s) { return s.getAll(); }).then(function (all) {
    return all.filter(function (d) { return !game || d.game === game; })
      .sort(function (a, b) { return a.at - b.at; });
  });
}
function dropPending(key) {
  return pendingStore("readwrite", function (s) { return s.delete(key); }).then(notePending);
}
// app.js loads this file on any page while a deal waits (the next load sends it).
function notePending() {
  return pendingDeals().then(function (all) {
    if (all.length) localStorage.setItem("pendingDeals", String(all.length));
    else localStorage.removeItem("pendingDeals");
  });
}
function offlineWord(name, number) {
  var words = document.getElementById("offline-words");
  return words ? words.dataset[name].replace("{n}", number) : "";
}
function newKey() {
  var bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
}
// Figures as the server reads and writes them (scorekeeper/web/figures.py, i18n.number):
// the page language's digit grouping, which the page names (the browser may not know the
// language). "120+35" counts 155; "1,050" / "1.050" / "1 050" (a plain space too) 1050.
function numberGroup() { return document.body.dataset.numberGroup || ","; }
function figure(value) {
  var group = numberGroup();
  var spaces = /^[\s\u00a0\u202f]$/.test(group);
  return String(value || "").split("+").reduce(function (sum, part) {
    var digits = spaces ? part.replace(/[\s\u00a0\u202f]/g, "") : part.split(group).join("");
    return sum + (parseInt(digits, 10) || 0);
  }, 0);
}
function numberText(value, sign) {
  var text = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, numberGroup());
  return (value < 0 ? "-" : sign && value > 0 ? "+" : "") + text;
}
// Each side's provisional score: the form's figures through the one scorer (score.js).
function dealScores(form) {
  var table = JSON.parse(form.dataset.scoreTable);
  var data = new FormData(form);
  var prefix = /^sides-(\d+)-(.+)$/;
  var sides = form.dataset.totals.split(" ").map(function (_, side) {
    return { went_out: data.get("went_out") === String(side), concealed: !!data.get("concealed") };
  });
  data.forEach(function (value, name) {
    var m = prefix.exec(name);
    if (!m || !sides[m[1]]) return;
    var input = form.elements[name];
    // A box ticked is a yes (an unfinished meld, the pot missed); a special hand its id.
    if (m[2] === "special_hand") sides[m[1]][m[2]] = value || null;
    else if (input && input.type === "checkbox") sides[m[1]][m[2]] = true;
    else sides[m[1]][m[2]] = figure(value);
  });
  sides.forEach(function (side) { side.concealed = side.concealed && side.went_out; });
  return sides.map(function (side) { return scoreSide(table, side); });
}
function addUp(totals, deals) {
  totals = totals.split(" ").map(Number);
  deals.forEach(function (deal) {
    deal.scores.forEach(function (score, side) { totals[side] += score; });
  });
  return totals;
}
// The header's totals and badges with the deals waiting counted in, marked provisional;
// "minimums": the rule set's (score_table's "minimums" and "minimums_by_deal"), "deal":
// the next deal's number.
function showTotals(totals, minimums, deal) {
  var header = document.querySelector(".totals");
  var figures = Math.min(8, Math.max.apply(null, totals.map(function (t) { return numberText(t).length; })));
  header.className = header.className.replace(/ ?figures-\d/, "") + (figures > 5 ? " figures-" + figures : "");
  document.querySelectorAll(".totals .total").forEach(function (box, side) {
    box.querySelector(".total-points").textContent = numberText(totals[side]);
    renumber(box.querySelector(".badge"), meldMinimum(minimums, totals[side], deal));
    box.classList.add("provisional");
  });
  if (typeof evenTotals === "function") evenTotals();  // app.js: the cards read alike
}
function renumber(el, number) {
  if (el) el.firstChild.textContent = el.firstChild.textContent.replace(/\d+/, number);
}

function keepOffline(form) {
  var deal = {
    key: form.elements.nonce.value, game: form.dataset.game, url: form.action,
    fields: Array.from(new FormData(form).entries()), scores: dealScores(form), at: Date.now(),
  };
  return pendingStore("readwrite", function (s) { return s.put(deal); }).then(notePending).then(function () {
    dirtyForm = null;
    location.replace(form.dataset.sheet);  // the sheet, with this deal pending on it
  });
}
// The live line with no answer from the server, or while deals wait (the server's would
// leave them out): the provisional scores, said to be so.
function provisionalLine(form) {
  var scores = dealScores(form);
  var totals = addUp(form.dataset.totals, [{ scores: scores }]);
  var names = form.querySelectorAll(".side-card > legend");
  document.getElementById("preview").textContent = offlineWord("provisional") + " " +
    scores.map(function (score, side) {
      return names[side].textContent + " " + numberText(score, true) + " → " + numberText(totals[side]);
    }).join(" · ");
}
document.addEventListener("input", function (event) {
  var form = event.target.form;
  if (form && form.dataset.scoreTable && (!serverAnswers || form.dataset.waiting)) provisionalLine(form);
});

// A new deal's form: after the deals waiting on the phone (number, totals, minimums, a key
// of its own), or the deal the server refused, back with its figures and the server's words.
function showPendingInForm(form) {
  pendingDeals(form.dataset.game).then(function (deals) {
    var refused = deals.filter(function (d) { return d.refused; })[0];
    var nonce = form.elements.nonce;
    if (refused) return restoreRefused(form, refused);
    var used = deals.some(function (d) { return d.key === nonce.value; });
    var kept = document.querySelector("[data-kept-copy]");  // the service worker's copy
    if (kept || used) nonce.value = newKey();  // a kept copy's key is spent
    // A form kept from before the last sheet seen online starts from that sheet (a kept
    // copy only: else the form is the server's own, and a deal deleted elsewhere counts).
    var seen = (localStorage.getItem("sheet-" + form.dataset.game) || "").split(" ");
    var behind = kept ? Math.max(0, Number(seen[0]) - Number(form.dataset.number)) || 0 : 0;
    if (deals.length) form.dataset.waiting = deals.length;  // a new deal goes after them
    if (!deals.length && !behind) return;
    var table = JSON.parse(form.dataset.scoreTable);
    var totals = addUp(behind ? seen.slice(1).join(" ") : form.dataset.totals, deals);
    var ahead = behind + deals.length;
    var number = Number(form.dataset.number) + ahead;
    var dealers = form.dataset.dealers.split("|");
    var dealt = document.querySelector(".deal-title .muted");
    dealt.textContent = dealt.textContent.replace(dealers[0], dealers[ahead % dealers.length]);
    form.dataset.dealers = dealers.slice(ahead % dealers.length).concat(dealers.slice(0, ahead % dealers.length)).join("|");
    form.dataset.totals = totals.join(" ");
    form.dataset.number = number;
    showTotals(totals, table, number);
    renumber(document.querySelector(".deal-title"), number);
    renumber(form.querySelector("button[type=submit]"), number);
    if (!deals.length) return;
    var note = document.getElementById("offline-note");
    note.textContent = offlineWord("waiting");
    note.hidden = false;
  });
}
function restoreRefused(form, deal) {
  form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) {
    box.checked = false;
  });
  deal.fields.forEach(function (pair) {
    var name = pair[0], value = pair[1];
    if (name === "csrf_token") return;  // the page's own is the fresher one
    form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === value;
      else input.value = value;
    });
  });
  var box = form.querySelector("[data-out-canastas]");
  if (box) delete box.dataset.outCanastas;  // who went out is the player's, as typed
  var fields = deal.refused.fields;
  Object.keys(fields).forEach(function (name) {
    var slot = document.getElementById("err-" + name);
    if (!slot) return;
    var p = document.createElement("p");
    p.className = "field-error";
    p.textContent = fields[name];
    slot.replaceChildren(p);
  });
  document.getElementById("preview").textContent = refusedWords(deal.refused, false).join(" ");
  var note = document.getElementById("offline-note");
  note.textContent = offlineWord("refusedForm");
  note.hidden = false;
  dirtyForm = form;
}
// Saved at last (this form's key, answered with the sheet): the phone forgets it.
document.addEventListener("htmx:afterRequest", function (event) {
  var form = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (form && form.dataset.scoreTable && event.detail.successful &&
      /\/games\/[^/]+$/.test(new URL(event.detail.xhr.responseURL).pathname)) {
    dropPending(form.elements.nonce.value);
  }
});

// The sheet: each waiting deal as a row with its provisional score; a refused one says so,
// with a way to fix it or throw it away.
function showPendingOnSheet(table) {
  pendingDeals(table.dataset.game).then(function (deals) {
    table.querySelectorAll("tr.pending").forEach(function (row) { row.remove(); });
    if (!deals.length) return;
    // Deals waiting here: this is the scorer's phone, not a follower's.
    document.querySelectorAll(".following-note").forEach(function (note) { note.hidden = true; });
    var body = table.tBodies[0];
    var columns = table.rows[0].cells.length;
    if (body.rows.length === 1 && body.rows[0].cells[0].colSpan > 1) body.rows[0].hidden = true;
    // A kept copy from before the last sheet seen online (the connection went before the
    // service worker kept the newer one) counts from that sheet, as a kept form does.
    var kept = document.querySelector("[data-kept-copy], [data-offline-copy]");
    var seen = (localStorage.getItem("sheet-" + table.dataset.game) || "").split(" ");
    var behind = kept ? Math.max(0, Number(seen[0]) - Number(table.dataset.next)) || 0 : 0;
    var totals = (behind ? seen.slice(1).join(" ") : table.dataset.totals).split(" ").map(Number);
    var number = Number(table.dataset.next) + behind;
    var note = body.insertRow();
    note.className = "pending pending-note";
    var cell = note.insertCell();
    cell.colSpan = columns;
    cell.textContent = offlineWord("waiting");
    deals.forEach(function (deal) {
      var row = body.insertRow();
      row.className = "pending" + (deal.refused ? " refused" : "");
      var head = document.createElement("th");
      head.scope = "row";
      head.textContent = number;
      row.appendChild(head);
      deal.scores.forEach(function (score, side) {
        totals[side] += score;
        var td = row.insertCell();
        td.className = "num";
        td.innerHTML = '<span class="deal-score"></span> <span class="total-after"></span>';
        td.firstChild.textContent = numberText(score, true);
        td.lastChild.textContent = numberText(totals[side]);
      });
      if (deal.refused) {
        var why = body.insertRow().insertCell();
        why.parentNode.className = "pending refused";
        why.colSpan = columns;
        why.textContent = offlineWord("refused", number) + " " +
          refusedWords(deal.refused, true).join(" ") + " ";
        var fix = document.createElement("a");
        fix.href = deal.url;
        fix.className = "button button-quiet";
        fix.textContent = offlineWord("fix");
        var drop = document.createElement("button");
        drop.type = "button";
        drop.className = "button button-quiet button-danger-quiet";
        drop.dataset.discard = deal.key;
        drop.textContent = offlineWord("discard");
        why.append(fix, " ", drop);
      }
      number += 1;
    });
    var record = document.querySelector("[data-offline-record], .thumb a[href$='/deals/new']");
    renumber(record, number);
    showTotals(totals, JSON.parse(table.dataset.minimums), number);
    var next = document.querySelector(".next-deal");
    // A club round's game (data-last-deal) takes no deal past its round's last one.
    if (table.dataset.lastDeal && number > Number(table.dataset.lastDeal)) {
      if (record) record.remove();
      if (next) next.textContent = offlineWord("roundOver");
    } else if (next) {
      var dealers = table.dataset.dealers.split("|");
      renumber(next, number);
      next.querySelector("strong").textContent = dealers[(behind + deals.length) % dealers.length];
    }
  });
}
document.addEventListener("click", function (event) {
  var drop = event.target.closest("button[data-discard]");
  if (drop && window.confirm(offlineWord("confirmDiscard"))) {
    dropPending(drop.dataset.discard).then(showPending);
  }
});

// What the server said to a deal it refused (its JSON answer: the sentence, and each
// field's words by the form's field name): the sentence unless a field says it already,
// and with "withFields" the fields' words too.
function refusedWords(refused, withFields) {
  if (refused.error === undefined) return refused.loose || [];  // kept by an older offline.js
  var fields = Object.keys(refused.fields).map(function (name) { return refused.fields[name]; });
  var words = fields.indexOf(refused.error) < 0 ? [refused.error] : [];
  return withFields ? words.concat(fields) : words;
}
var sending = false;
var retryTimer = null;
function retryIn(seconds) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(sendPending, Math.min(60, Math.max(1, parseInt(seconds, 10) || 5)) * 1000);
}
// Tried whatever navigator.onLine says: a deal with no answer waits, and goes again when
// the server answers (app.js: "answered"), at "online", or in half a minute.
function sendPending() {
  if (sending || !window.indexedDB) return;
  sending = true;
  var blocked = {};
  var sent = 0;
  var next = function (deals) {
    var deal = deals.shift();
    while (deal && (deal.refused || blocked[deal.game])) {
      blocked[deal.game] = true;
      deal = deals.shift();
    }
    if (!deal) return sent;
    // Asked for JSON, the server answers the deal's number, or why it refused it.
    return fetch(deal.url, {
      method: "POST", body: new URLSearchParams(deal.fields), headers: { Accept: "application/json" },
    })
      .then(function (response) {
        heard = true;
        if (response.status >= 500) {
          // Not saved now (503: the database busy or out of reach): it waits, and goes
          // again after the server's Retry-After (any other: on the next load).
          if (response.status === 503) retryIn(response.headers.get("Retry-After"));
          throw new Error(response.status);
        }
        return response.json().then(function (answer) {
          if (response.ok) {
            sent += 1;
            return dropPending(deal.key);
          }
          blocked[deal.game] = true;
          deal.refused = { error: String(answer.error), fields: answer.fields || {} };
          refusedUrl = deal.url;
          return pendingStore("readwrite", function (s) { return s.put(deal); });
        });
      })
      .then(function () { return next(deals); });
  };
  var refusedUrl = null, heard = false;
  var done = function () {
    sending = false;
    // On a sheet: to the refused deal's form, the server's words in it; else the sheet
    // afresh. A deal form being typed (or saved) is left alone.
    var sheet = document.querySelector("table.sheet[data-game]");
    var form = document.querySelector("form[data-score-table]");
    if (sheet && refusedUrl) location.assign(refusedUrl);
    else if (sheet && sent) location.reload();
    else if (form && (refusedUrl || sent) && !(dirtyForm && document.body.contains(dirtyForm))) location.reload();
    else if (heard) answered(true);
  };
  var failed = function (error) {
    sending = false;
    if (!(error instanceof TypeError)) return heard && answered(true);  // a status: an answer
    answered(false);  // none: it goes again when the server answers, or in half a minute
    retryIn(30);
  };
  var send = function () { return pendingDeals().then(next).then(done, failed); };
  // One sender across this phone's tabs and the page a reload leaves behind: the next
  // reads the queue after the last has marked what it sent.
  if (navigator.locks) navigator.locks.request("pending-deals", send);
  else send();
}
function showPending() {
  if (!window.indexedDB) return;
  var form = document.querySelector("form[data-score-table]");
  var table = document.querySelector("table.sheet[data-game]");
  if (form) showPendingInForm(form);
  if (table) showPendingOnSheet(table);
}
document.addEventListener("htmx:afterSettle", function (event) {
  if (event.target === document.body) showPending();  // a new page, not a live line
});
function sendAgain() {
  if (!document.querySelector("[data-offline-copy]")) sendPending();  // else app.js reloads
}
window.addEventListener("online", sendAgain);
document.addEventListener("answered", sendAgain);
showPending();  // loaded after the page (app.js): its first look now
sendPending();

