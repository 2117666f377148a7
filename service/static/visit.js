/* The player page's visit beacon (service/web/notify.py): opening a game's page tells the server the
 * person visited it, so the "one email until I visit" mode may email them again about that game.  A
 * POST, never the page's GET (a GET changes nothing); the signed link in its path is the proof.
 * Without JavaScript no visit is recorded: the person's moves still count as visits. */
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-seen");
  if (!url) {
    return;
  }
  if (navigator.sendBeacon) {
    navigator.sendBeacon(url);
  } else if (window.fetch) {
    fetch(url, {method: "POST", credentials: "omit", keepalive: true});
  }
})();
