// Skyjo's pages: the little JavaScript htmx leaves to us. Everything works without it but
// live updates: the forms post and the pages redirect.
(function () {
  "use strict";

  var POLL_MS = 1000; // when the stream is unavailable
  var REPLAY_MS = 800; // one replay step while playing
  var focusWasInTable = false;
  var poller = null;
  var player = null;

  function table() {
    return document.getElementById("table");
  }

  // A table swapped in is never older than the one shown: a slow re-read may answer after
  // the answer to a move.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var current = table();
    if (!current || event.detail.target !== current) return;
    var found = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    if (found && Number(found[1]) < Number(current.dataset.version)) {
      event.detail.shouldSwap = false;
      return;
    }
    var active = document.activeElement;
    focusWasInTable = !active || active === document.body || current.contains(active);
  });

  // Keyboard players stay in the game: when the control they used is gone (htmx keeps focus
  // on a control that is still there), focus goes to the first control they have now.
  document.addEventListener("htmx:afterSettle", function () {
    var current = table();
    var active = document.activeElement;
    if (!current || !focusWasInTable || (active && active !== document.body)) return;
    focusWasInTable = false;
    var next = current.querySelector("form button");
    if (next) next.focus();
  });

  // A `view` frame that came while the table was already being re-read is not lost: the
  // newest version the stream told of is kept, and the table re-read once more after its
  // request if it still shows an older one (htmx drops a trigger while a request is out).
  var toldVersion = 0;
  function catchUp() {
    var current = table();
    if (!current || current.classList.contains("htmx-request")) return;
    if (toldVersion > Number(current.dataset.version)) htmx.trigger(current, "poll");
  }
  document.addEventListener("htmx:sseMessage", function (event) {
    if (event.detail.type !== "view") return;
    var found = /"version":\s*(\d+)/.exec(event.detail.data || "");
    if (found) toldVersion = Math.max(toldVersion, Number(found[1]));
    window.setTimeout(catchUp, 0);
  });
  document.addEventListener("htmx:afterRequest", function () {
    window.setTimeout(catchUp, 60);
  });
  // A net under the stream: the server sends every frame (its log shows them), but a page
  // can still miss one (a trigger dropped at a bad moment, a sleeping tab), so the table also
  // re-reads itself now and then (204, one read, while it is current).
  var SAFETY_MS = window.skyjoSafetyMs || 2000; // a test of the stream's wiring turns it off
  window.setInterval(function () {
    var current = table();
    if (current && !poller && current.dataset.status !== "finished") poll();
  }, SAFETY_MS);

  // Without the game's stream (a proxy that cuts it, a server without it), poll instead:
  // the partial answers 204 while the page is current.
  function poll() {
    var current = table();
    if (current && current.dataset.status !== "finished") htmx.trigger(current, "poll");
  }
  document.addEventListener("htmx:sseError", function () {
    if (!poller) poller = window.setInterval(poll, POLL_MS);
  });
  document.addEventListener("htmx:sseOpen", function () {
    window.clearInterval(poller);
    poller = null;
  });

  // The turn's countdown: counts down to the deadline the server rendered (the server keeps
  // the time: when it runs out, the stream brings the turn it played).
  var COUNTDOWN_MS = 250;
  function countDown() {
    var shown = document.querySelectorAll(".countdown[data-deadline]");
    for (var i = 0; i < shown.length; i++) {
      var left = (Date.parse(shown[i].dataset.deadline) - Date.now()) / 1000;
      shown[i].textContent = String(Math.max(0, Math.ceil(left)));
    }
  }
  window.setInterval(countDown, COUNTDOWN_MS);
  document.addEventListener("DOMContentLoaded", countDown);
  document.addEventListener("htmx:afterSettle", countDown);

  // The replay's play / pause (its button is re-rendered with every step: the state is here).
  function showPlayer() {
    var button = document.getElementById("replay-play");
    if (!button) return;
    button.hidden = false;
    button.textContent = player ? "Pause" : "Play";
  }
  function step() {
    var next = document.getElementById("replay-next");
    if (next) return next.click();
    window.clearInterval(player);
    player = null;
    showPlayer();
  }
  document.addEventListener("click", function (event) {
    if (!event.target || event.target.id !== "replay-play") return;
    if (player) {
      window.clearInterval(player);
      player = null;
    } else {
      player = window.setInterval(step, REPLAY_MS);
    }
    showPlayer();
  });
  document.addEventListener("DOMContentLoaded", showPlayer);
  document.addEventListener("htmx:afterSettle", showPlayer);

  // A move refused by the rate limits (429) is not swapped in by htmx: say so on the table
  // rather than let the click seem lost.
  document.addEventListener("htmx:responseError", function (event) {
    var current = table();
    var xhr = event.detail.xhr;
    if (!current || !xhr || xhr.status !== 429) return;
    var notice = current.querySelector(".error") || document.createElement("p");
    notice.className = "error";
    notice.setAttribute("role", "alert");
    var wait = xhr.getResponseHeader("Retry-After") || "a few";
    notice.textContent = "Too many requests: wait " + wait + " seconds, then try again.";
    current.insertBefore(notice, current.firstChild);
  });

  // The table's chat: after a message is sent (the panel swapped in), the writer's cursor is
  // back in the room's text field; each room's log shows its newest message.
  var chatRoom = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!form || !form.classList || !form.classList.contains("chat-form")) return;
    var room = form.querySelector("input[name=room]");
    chatRoom = room ? room.value : null;
  });
  function showNewest() {
    var logs = document.querySelectorAll(".chat-log");
    for (var i = 0; i < logs.length; i++) logs[i].scrollTop = logs[i].scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", showNewest);
  document.addEventListener("htmx:oobAfterSwap", showNewest);
  document.addEventListener("htmx:afterSettle", function () {
    showNewest();
    var field = chatRoom && document.getElementById("chat-text-" + chatRoom);
    chatRoom = null;
    if (field) field.focus();
  });

  // The account page's new token: its Copy button puts it on the clipboard (the token is on
  // the page to select by hand too, where the clipboard is not available).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.dataset.copy);
    var said = button.parentNode.querySelector(".copied");
    if (!source || !navigator.clipboard) return;
    navigator.clipboard.writeText(source.textContent).then(function () {
      if (said) said.textContent = "Copied.";
    });
  });
})();
