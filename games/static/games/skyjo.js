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
  // the answer to a move. And it is morphed into the one shown (idiomorph), not replaced: the
  // table, its form and every control that is still there stay the same elements, so a click
  // whose press began before a re-read lands on the control pressed (a replaced button takes
  // no click), focus stays where it was, and a request the old table sent still finds the page
  // when it answers (the oob announcement of an answer to a replaced table found no target).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var current = table();
    if (!current || event.detail.target !== current) return;
    var found = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    if (found && Number(found[1]) < Number(current.dataset.version)) {
      event.detail.shouldSwap = false;
      return;
    }
    event.detail.swapOverride = "morph";
    var active = document.activeElement;
    focusWasInTable = !active || active === document.body || current.contains(active);
  });

  // Keyboard players stay in the game: when the control they used is gone (the morph keeps
  // focus on a control that is still there), focus goes to the first move they have now.
  document.addEventListener("htmx:afterSettle", function () {
    var current = table();
    var active = document.activeElement;
    if (!current || !focusWasInTable || (active && active !== document.body)) return;
    focusWasInTable = false;
    var next = current.querySelector("form button[name=move]");
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
  var LOW_SECONDS = 5;
  function countDown() {
    var shown = document.querySelectorAll(".countdown[data-deadline]");
    for (var i = 0; i < shown.length; i++) {
      var left = Math.max(0, Math.ceil((Date.parse(shown[i].dataset.deadline) - Date.now()) / 1000));
      shown[i].textContent = String(left);
      // The last seconds: a warning colour, in bold with a "!" (the stylesheet's): colour is
      // never the only cue.
      shown[i].classList.toggle("low", left <= LOW_SECONDS);
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

  // A game's stream ends as the API documents (after the game's last event, after a few
  // minutes, at a restart) and the browser reconnects by itself: that end is no error, but
  // EventSource reports it as one and htmx's SSE extension logs every report to the console
  // ("[object Event]"). Its reports reach the extension as before (the table polls while the
  // stream is away), with no error to log; a stream the browser gave up on (refused: closed)
  // is said once on the console as a warning, the page polling instead.
  htmx.createEventSource = function (url) {
    var source = new EventSource(url, { withCredentials: true });
    var report = null;
    function reported(event) {
      if (!report) return;
      if (source.readyState === EventSource.CLOSED && window.console) {
        window.console.warn("The game's stream is unavailable: the table re-reads itself.");
      }
      report(null);
    }
    Object.defineProperty(source, "onerror", {
      configurable: true,
      get: function () { return reported; },
      set: function (handler) { report = handler; },
    });
    source.addEventListener("error", reported);
    return source;
  };

  // Whose turn it is, for what a person away from the page should hear and see: the table
  // says it (`data-your-turn`: the viewer has a move).
  function yourTurn() {
    var current = table();
    return !!current && current.dataset.yourTurn === "true";
  }

  // The "your turn" sound: off until the person turns it on (the Sound toggle, remembered in
  // this browser), a short beep made by WebAudio (no file), when the table becomes the
  // viewer's turn (not on load).
  var SOUND_KEY = "skyjo.sound";
  var audio = null;
  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "on";
    } catch (e) {
      return false;
    }
  }
  function showSound() {
    var toggle = document.getElementById("sound-toggle");
    if (!toggle) return;
    toggle.hidden = false;
    toggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  }
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    var tone = audio.createOscillator();
    var volume = audio.createGain();
    var now = audio.currentTime;
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.15, now);
    volume.gain.exponentialRampToValueAtTime(0.001, now + 0.25);
    tone.connect(volume);
    volume.connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.25);
    window.skyjoBeeps = (window.skyjoBeeps || 0) + 1; // what a test can count
  }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("#sound-toggle");
    if (!toggle) return;
    try {
      window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    } catch (e) {
      return;
    }
    showSound();
    if (soundOn()) beep(); // the click lets the page play sound; the person hears what it is
  });

  // The tab says "Your turn" while the page is in the background and it is the viewer's turn:
  // its title starts so, its icon changes; both come back when the page is seen again.
  var TITLE_MARK = "Your turn · ";
  function showTurnInTab() {
    var icon = document.querySelector("link[rel=icon][data-turn-href]");
    var away = document.hidden && yourTurn();
    var title = document.title.indexOf(TITLE_MARK) === 0
      ? document.title.slice(TITLE_MARK.length) : document.title;
    document.title = away ? TITLE_MARK + title : title;
    if (!icon) return;
    if (!icon.dataset.href) icon.dataset.href = icon.getAttribute("href");
    icon.setAttribute("href", away ? icon.dataset.turnHref : icon.dataset.href);
  }
  document.addEventListener("visibilitychange", showTurnInTab);

  // On a small screen, the table shows the person their grid and the piles when their turn
  // comes: the page scrolls (only) as far as needed to show them whole.
  function showMyMove() {
    var mine = document.querySelector("#table .player.mine");
    var piles = document.querySelector("#table .middle");
    if (!mine || !piles) return;
    var top = piles.getBoundingClientRect().top;
    var bottom = mine.getBoundingClientRect().bottom;
    var height = window.innerHeight;
    if (top >= 0 && bottom <= height) return;
    // Up to the piles when they are above, else down to the grid's end; the piles first when
    // both cannot be shown.
    window.scrollBy(0, top < 0 || bottom - top > height ? top : bottom - height);
  }

  var wasYourTurn = null; // null: the page just loaded
  function turnChanged() {
    var now = yourTurn();
    if (now && wasYourTurn === false && soundOn()) beep();
    if (now && !wasYourTurn) showMyMove();
    wasYourTurn = now;
    showTurnInTab();
    showSound();
  }
  document.addEventListener("DOMContentLoaded", turnChanged);
  document.addEventListener("htmx:afterSettle", turnChanged);

  // The arrow keys move the focus within the viewer's grid as the page lays it out (3 rows of
  // 4 columns, in reading order), to the next card they may play in that direction.
  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  var COLUMNS = 4;
  document.addEventListener("keydown", function (event) {
    var step = STEPS[event.key];
    var cell = event.target;
    var grid = cell && cell.parentNode;
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!grid || !grid.classList || !grid.classList.contains("grid") || !grid.closest(".mine")) {
      return;
    }
    var cells = Array.prototype.slice.call(grid.children);
    var at = cells.indexOf(cell);
    var rows = Math.ceil(cells.length / COLUMNS);
    var column = at % COLUMNS;
    var row = Math.floor(at / COLUMNS);
    event.preventDefault();
    for (;;) {
      column += step[0];
      row += step[1];
      if (column < 0 || column >= COLUMNS || row < 0 || row >= rows) return;
      var next = cells[row * COLUMNS + column];
      if (next && next.tagName === "BUTTON") return next.focus();
    }
  });
})();
