// The dev mailbox: each framed HTML email grows to the height of its content, so the whole email
// reads in the page's own scroll (the frame is sandboxed without scripts; it shares this page's
// origin only so that this can measure it).  Without this file the frame is 85vh tall and scrolls.
(function () {
  "use strict";
  document.querySelectorAll("iframe.mail-html").forEach(function (frame) {
    function fit() {
      var doc = frame.contentDocument;
      if (!doc || !doc.documentElement) return;
      var root = doc.documentElement;
      // The content's height, plus the frame's own horizontal scroll bar when the email is wider.
      var bar = frame.clientHeight - root.clientHeight;
      frame.style.height = Math.ceil(root.getBoundingClientRect().height + Math.max(0, bar)) + "px";
    }
    function watch() {
      fit();
      if (window.ResizeObserver && frame.contentDocument) {
        new ResizeObserver(fit).observe(frame.contentDocument.documentElement);
      }
    }
    frame.addEventListener("load", watch);
    if (frame.contentDocument && frame.contentDocument.readyState === "complete") watch();
  });
})();
