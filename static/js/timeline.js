// Keeps a live timeline's stream address at the last event received.
// The browser resumes a dropped stream with Last-Event-ID by itself, but
// when a stream is closed for good (an error status, a server restart) the
// htmx SSE extension opens a new one from the sse-connect attribute; with
// ?after= kept current, that one resumes after what is already on the page
// instead of repeating it.
document.addEventListener("htmx:sseMessage", function (e) {
  var id = e.detail && e.detail.lastEventId;
  var el = e.target && e.target.closest && e.target.closest("[sse-connect]");
  if (!id || !el) return;
  var url = el.getAttribute("sse-connect") || "";
  if (/[?&]after=\d*/.test(url)) {
    el.setAttribute("sse-connect", url.replace(/([?&]after=)\d*/, "$1" + id));
  }
});

// When a turn ends live (its done line arrives), focus moves to the turn's
// answer so that keyboard and screen-reader users land on it (docs/features.md W3).
// It does not when the user is typing into a field (a next question, an
// answer to a card): that would take the keyboard away mid-sentence. The
// timeline swaps with settle:0ms, so when this observer runs the answer
// that replaced the streamed text already has its own attributes (htmx
// otherwise keeps the old element's attributes until it settles).
(function () {
  "use strict";

  function typing() {
    var a = document.activeElement;
    return !!a && (a.tagName === "TEXTAREA" || (a.tagName === "INPUT" && a.type === "text")) && a.value !== "";
  }

  // answerBefore returns the answer of the turn that done ends: the
  // nearest .answer before it, not crossing the turn's heading.
  function answerBefore(done) {
    for (var el = done.previousElementSibling; el; el = el.previousElementSibling) {
      if (el.classList.contains("answer")) return el;
      if (el.classList.contains("turn-head")) return null;
    }
    return null;
  }

  function onAdded(node) {
    if (node.nodeType !== 1 || !node.matches('[data-testid="done"]')) return;
    var answer = answerBefore(node);
    if (answer && !typing()) answer.focus();
  }

  function start() {
    var tl = document.getElementById("timeline");
    if (!tl) return;
    new MutationObserver(function (records) {
      records.forEach(function (r) {
        r.addedNodes.forEach(onAdded);
      });
    }).observe(tl, { childList: true });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
