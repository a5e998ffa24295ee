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
