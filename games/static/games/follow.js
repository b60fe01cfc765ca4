// Following the game (issue 25): a round's results held above the next round go when the
// player dismisses them ("Continue", remembered per game and round for the tab's session, so
// the table's next re-read does not bring them back) or when their time is up; the move
// log's earlier rounds opened by the reader stay open across re-reads. Without this script
// the results show for their time (the server's) and the log's rounds open one at a time.
(function () {
  "use strict";

  var KEY = "skyjo:dismissed:";
  var timer = null;
  var openRounds = {};

  function dismissed(key) {
    try {
      return window.sessionStorage.getItem(KEY + key) === "1";
    } catch (error) {
      return false; // storage refused (privacy settings): the panel's time still ends it
    }
  }

  function remember(key) {
    try {
      window.sessionStorage.setItem(KEY + key, "1");
    } catch (error) {
      // nothing to keep it in: hidden for this page only
    }
  }

  // Each held panel: hidden once dismissed or past its time; its button shown (a button
  // that does nothing without this script is not offered then).
  function holdResults() {
    window.clearTimeout(timer);
    var panels = document.querySelectorAll(".result[data-round-key]");
    for (var i = 0; i < panels.length; i++) {
      var panel = panels[i];
      var until = panel.dataset.until ? Date.parse(panel.dataset.until) - Date.now() : null;
      if (dismissed(panel.dataset.roundKey) || (until !== null && until <= 0)) {
        panel.hidden = true;
        continue;
      }
      var button = panel.querySelector("button[data-dismiss-round]");
      if (button) button.hidden = false;
      if (until !== null) timer = window.setTimeout(holdResults, until + 50);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-dismiss-round]");
    if (!button) return;
    remember(button.dataset.dismissRound);
    var panel = button.closest(".result");
    if (panel) panel.hidden = true;
    var table = document.getElementById("table");
    var next = table && table.querySelector("form button");
    if (next) next.focus(); // the keyboard player goes on with the game
  });

  // The log's earlier rounds the reader opened, kept open across the table's re-reads.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.dataset || !details.dataset.round) return;
    openRounds[details.dataset.round] = details.open;
  }, true);
  function reopenRounds() {
    var rounds = document.querySelectorAll(".move-log details[data-round]");
    for (var i = 0; i < rounds.length; i++) {
      if (openRounds[rounds[i].dataset.round]) rounds[i].open = true;
    }
  }

  function follow() {
    holdResults();
    reopenRounds();
  }
  document.addEventListener("DOMContentLoaded", follow);
  document.addEventListener("htmx:afterSwap", follow); // before the new table is painted
  document.addEventListener("htmx:afterSettle", follow);
})();
