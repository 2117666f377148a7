// Keyboard shortcuts for the history pages.  Every shortcut follows a link that is already on the
// page (data-shortcut names its key), so the page works the same without this file.
(function () {
  "use strict";
  var links = {};
  document.querySelectorAll("a[data-shortcut]").forEach(function (a) {
    links[a.getAttribute("data-shortcut")] = a;
  });
  var aliases = { j: "ArrowRight", k: "ArrowLeft", n: "ArrowRight", p: "ArrowLeft" };

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    // Keys typed into a field (or the slider, which has its own arrow keys) stay there.
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    var key = aliases[event.key] || event.key;
    var link = links[key];
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });

  // The slider jumps when released; its "Go" button stays for keyboards and no-script browsers.
  var slider = document.getElementById("hist-at");
  var out = document.getElementById("hist-at-out");
  if (slider) {
    slider.addEventListener("input", function () { if (out) out.textContent = slider.value; });
    slider.addEventListener("change", function () { slider.form.submit(); });
  }
})();
