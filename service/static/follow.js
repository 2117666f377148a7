// The public view of a running game follows it: once a minute (while the tab is shown) it asks the
// JSON view for the game's seq and reloads only when a move was made.  No <meta> refresh: a page that
// reloads on a timer loses the reader's place and is an accessibility failure (axe: meta-refresh).
// Without this file the page says to reload it.
(function () {
  "use strict";
  var note = document.getElementById("follow");
  if (!note || !window.fetch) return;
  var url = note.getAttribute("data-url");
  var seq = note.getAttribute("data-seq");
  var every = 1000 * (parseInt(note.getAttribute("data-every"), 10) || 60);
  note.textContent = note.getAttribute("data-live") || "New moves show here within a minute.";

  function check() {
    if (document.hidden) return;
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (game) {
        if (game && String(game.seq) !== seq) window.location.reload();
      })
      .catch(function () { /* offline for a moment: the next check tries again */ });
  }
  window.setInterval(check, every);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) check(); });
})();
