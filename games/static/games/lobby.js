// The lobby's and the replay's little JavaScript (issue 25). Everything works without it:
// the forms post, the links load the step.
(function () {
  "use strict";

  // The create form shows a person-or-bot choice for the seats the game has, no more (a
  // choice beyond them is refused by the server: a page without scripts shows them all). A
  // hidden choice is disabled too, so it is not sent: a bot chosen for Seat 4 before Seats
  // went down to 2 would be refused for a field the person can no longer see.
  function showSeats() {
    var seats = document.getElementById("id_seats");
    if (!seats) return;
    var choices = document.querySelectorAll(".seat-choice[data-seat]");
    for (var i = 0; i < choices.length; i++) {
      var beyond = Number(choices[i].dataset.seat) > Number(seats.value || 0);
      choices[i].hidden = beyond;
      var fields = choices[i].querySelectorAll("select, input");
      for (var j = 0; j < fields.length; j++) fields[j].disabled = beyond;
    }
  }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "id_seats") showSeats();
  });
  document.addEventListener("DOMContentLoaded", showSeats);

  // The replay's address follows its step: a click (First, Previous, Next, Last, Go, the
  // slider) is a step of the browser's history, but Play's steps replace the address, so
  // Back leaves the replay's playing rather than walk back through every step it played. A
  // step is Play's if asked for while playing (it may land just after a Pause).
  function playing() {
    var button = document.getElementById("replay-play");
    return Boolean(button && !button.hidden && button.textContent === "Pause");
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var source = event.detail.elt;
    if (source && source.id === "replay-next" && playing()) event.detail.replayPlaying = true;
  });
  document.addEventListener("htmx:beforeHistoryUpdate", function (event) {
    var config = event.detail.requestConfig;
    if (config && config.replayPlaying && event.detail.history) {
      event.detail.history.type = "replace";
    }
  });
})();
