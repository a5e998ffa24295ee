// The reader: each note's quote is found in the text again (by its
// context, so it survives a re-parse) and marked, and marked again
// whenever htmx swaps in the notes panel's body after a save or delete.
// Formulas are left out of the text a quote is found in and made of: the
// layout's math.js renders them with KaTeX whenever KaTeX has loaded
// (before or after this script), and a formula's TeX or KaTeX's rendering
// of it would otherwise change the text under the marks (the server's
// QuoteAnchor leaves them out too). Display formulas and code that scroll
// sideways become focusable regions, so a keyboard can scroll them.
// Selecting text shows the selection bar: "Highlight" (saved at once) and
// "Note…" (a note on the passage); both post through htmx, so the page
// stays where it is. Without a selection the notes panel says how to make
// one. On narrow screens the contents and notes panels start closed.
// Everything here is an addition: the panels and the note form work
// without this script.
(function () {
  "use strict";
  var article = document.getElementById("reader-text");
  if (!article) return;

  // The article's text without its formulas, with whitespace collapsed,
  // and where each of its characters lives (text node and offset).
  function textMap() {
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        return n.parentNode.closest(".math, .katex") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    var text = "", where = [], space = true, n;
    while ((n = walker.nextNode())) {
      for (var i = 0; i < n.data.length; i++) {
        var ch = n.data[i];
        if (/\s/.test(ch)) {
          if (space) continue;
          ch = " ";
          space = true;
        } else {
          space = false;
        }
        text += ch;
        where.push([n, i]);
      }
    }
    return { text: text, where: where };
  }
  function norm(s) { return (s || "").replace(/\s+/g, " ").trim(); }

  // find locates a note's quote: among its occurrences, the one whose
  // surroundings agree most with the saved context (characters matching
  // before and after), then the one nearest the saved position.
  function find(m, quote, prefix, suffix, pos) {
    var q = norm(quote);
    if (!q) return -1;
    var pre = (prefix || "").replace(/\s+/g, " "), suf = (suffix || "").replace(/\s+/g, " ");
    var best = -1, bestScore = -1, from = 0, j;
    while ((j = m.text.indexOf(q, from)) >= 0) {
      var score = 0, k;
      for (k = 1; k <= pre.length && j - k >= 0 && m.text[j - k] === pre[pre.length - k]; k++) score++;
      for (k = 0; k < suf.length && j + q.length + k < m.text.length && m.text[j + q.length + k] === suf[k]; k++) score++;
      if (score > bestScore || (score === bestScore && Math.abs(j - pos) < Math.abs(best - pos))) {
        best = j;
        bestScore = score;
      }
      from = j + 1;
    }
    return best;
  }

  // mark wraps text[start, end) in <mark> elements, one per text node.
  function mark(m, start, end, id) {
    var parts = [];
    for (var k = start; k < end; k++) {
      var w = m.where[k], last = parts[parts.length - 1];
      if (last && last.node === w[0]) last.to = w[1] + 1;
      else parts.push({ node: w[0], from: w[1], to: w[1] + 1 });
    }
    parts.forEach(function (p) {
      var node = p.node;
      if (p.from > 0) node = node.splitText(p.from);
      if (p.to - p.from < node.data.length) node.splitText(p.to - p.from);
      var el = document.createElement("mark");
      el.className = "highlight";
      el.setAttribute("data-note", id);
      node.parentNode.insertBefore(el, node);
      el.appendChild(node);
    });
  }

  // unmark removes every highlight mark and joins the text nodes again.
  function unmark() {
    article.querySelectorAll("mark.highlight").forEach(function (el) {
      var parent = el.parentNode;
      while (el.firstChild) parent.insertBefore(el.firstChild, el);
      parent.removeChild(el);
      parent.normalize();
    });
  }

  function markNotes() {
    unmark();
    document.querySelectorAll("#note-list li[data-quote]").forEach(function (li) {
      var quote = li.getAttribute("data-quote");
      if (!quote) return;
      var m = textMap();
      var i = find(m, quote, li.getAttribute("data-prefix"), li.getAttribute("data-suffix"),
        parseInt(li.getAttribute("data-position"), 10) || 0);
      if (i < 0) {
        li.classList.add("note-unanchored");
        return;
      }
      mark(m, i, i + norm(quote).length, li.getAttribute("data-note-id"));
    });
  }
  markNotes();

  // The panels: closed on narrow screens (where they stack above the
  // text), open beside it on wide ones.
  var narrow = window.matchMedia("(max-width: 76.99rem)");
  function fitPanels() {
    document.querySelectorAll(".reader-panel").forEach(function (d) { d.open = !narrow.matches; });
  }
  fitPanels();
  narrow.addEventListener("change", fitPanels);

  // Display formulas and code wider than the column scroll sideways; those
  // that do are named regions in the tab order, so a keyboard can scroll
  // them (tables have such a region from the server). Checked again when
  // their size changes: KaTeX rendering them, the window resized.
  var scrollers = article.querySelectorAll(".math-display, pre");
  function fitScrollers() {
    var n = 0;
    scrollers.forEach(function (el) {
      var wide = el.scrollWidth > el.clientWidth + 1;
      if (wide && el.getAttribute("data-scroll") !== "on") {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "region");
        el.setAttribute("data-scroll", "on");
      } else if (!wide && el.getAttribute("data-scroll") === "on") {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
        el.removeAttribute("data-scroll");
      }
      if (wide) {
        n++;
        el.setAttribute("aria-label", (el.tagName === "PRE" ? "Scrollable code " : "Scrollable formula ") + n);
      }
    });
  }
  if (scrollers.length && window.ResizeObserver) {
    var pending = 0;
    var ro = new ResizeObserver(function () {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(fitScrollers);
    });
    scrollers.forEach(function (el) { ro.observe(el); });
  }

  // Selection → the selection bar.
  var actions = document.getElementById("selection-actions");
  var hint = document.getElementById("selection-hint");
  var noteBox = document.getElementById("selection-note");
  var noteButton = document.getElementById("note-button");
  var status = document.getElementById("reader-status");
  if (!actions) return;
  if (hint) hint.hidden = false;
  var current = null;
  function field(name) { return document.getElementById("selection-" + name); }

  // inRange reports whether the character at offset i of text node n
  // lies inside r (inside says whether r meets n at all).
  function inRange(r, n, i, inside) {
    if (!inside) return false;
    if (n === r.startContainer && i < r.startOffset) return false;
    if (n === r.endContainer && i >= r.endOffset) return false;
    return true;
  }

  // selected is the selection as a note's quote: the characters of the
  // text map it covers (formulas left out, as the marks and the server
  // see the text; the selection's own string would carry KaTeX's copies
  // of them), where they start, and the text around them.
  function selected() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
    var r = sel.getRangeAt(0);
    if (!article.contains(r.commonAncestorContainer)) return null;
    var m = textMap();
    var at = -1, end = -1, node = null, meets = false;
    for (var k = 0; k < m.where.length; k++) {
      var w = m.where[k];
      if (w[0] !== node) {
        node = w[0];
        meets = r.intersectsNode(node);
      }
      if (!inRange(r, w[0], w[1], meets)) continue;
      if (at < 0) at = k;
      end = k + 1;
    }
    while (at >= 0 && at < end && m.text[at] === " ") at++;
    while (end > at && m.text[end - 1] === " ") end--;
    if (at < 0 || end <= at) return null;
    var quote = m.text.slice(at, end);
    return {
      quote: quote,
      position: at,
      prefix: m.text.slice(Math.max(0, at - 32), at),
      suffix: m.text.slice(at + quote.length, at + quote.length + 32)
    };
  }

  // say writes msg to the status line; a message goes away by itself
  // after a while (a newer one replaces it at once).
  var quiet = 0;
  function fade() {
    clearTimeout(quiet);
    if (status.textContent) quiet = setTimeout(function () { status.textContent = ""; }, 6000);
  }
  function say(msg) {
    if (!status) return;
    status.textContent = msg;
    fade();
  }

  var buttons = document.getElementById("selection-buttons");
  var preview = document.getElementById("selection-preview");
  function closeBar() {
    current = null;
    actions.hidden = true;
    noteBox.hidden = true;
    buttons.hidden = false;
    noteButton.setAttribute("aria-expanded", "false");
    field("body").value = "";
  }

  // update follows the selection. While a note is being written the bar
  // stays (typing moves the focus out of the text, not the selection).
  function update() {
    if (!noteBox.hidden) return;
    var s = selected();
    if (!s) {
      if (!actions.contains(document.activeElement)) closeBar();
      return;
    }
    current = s;
    field("quote").value = s.quote;
    field("prefix").value = s.prefix;
    field("suffix").value = s.suffix;
    field("position").value = String(s.position);
    say("");
    actions.hidden = false;
  }
  // selectionchange (a phone's long press, the keyboard) fires on every
  // step of a drag; reading the whole text each time would be slow on a
  // long paper, so it waits for the selection to settle.
  var settle = 0;
  document.addEventListener("selectionchange", function () {
    clearTimeout(settle);
    settle = setTimeout(update, 150);
  });
  article.addEventListener("mouseup", update);
  article.addEventListener("keyup", update);

  // Nothing selected (the selection went away before a button was
  // pressed): say so instead of posting an empty note.
  function needSelection(e) {
    if (current) return true;
    e.preventDefault();
    say("Select a passage of the text first.");
    return false;
  }
  document.getElementById("highlight-button").addEventListener("click", function (e) {
    if (needSelection(e)) field("kind").value = "highlight";
  });
  document.getElementById("selection-save").addEventListener("click", function (e) {
    if (needSelection(e)) field("kind").value = "note";
  });
  noteButton.addEventListener("click", function (e) {
    if (!needSelection(e)) return;
    preview.textContent = "\u201c" + (current.quote.length > 140 ? current.quote.slice(0, 140) + "\u2026" : current.quote) + "\u201d";
    noteBox.hidden = false;
    buttons.hidden = true;
    noteButton.setAttribute("aria-expanded", "true");
    field("body").focus({ preventScroll: true });
  });
  document.getElementById("selection-cancel").addEventListener("click", function () {
    closeBar();
    say("");
  });
  actions.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { closeBar(); say(""); }
  });

  // After htmx swapped in the notes panel's body: mark the notes again;
  // a note saved from the selection bar closes the bar and keeps the
  // reader where it is; a refusal opens the notes panel, where the form
  // shows it.
  // focusNotes puts the focus where the notes are after a swap took it
  // away (the button pressed was in the bar, now hidden): the notes
  // panel's body, or its summary when the panel is closed (a phone).
  function focusNotes(body) {
    var panel = document.getElementById("notes-panel");
    var target = !panel || panel.open ? body : panel.querySelector("summary");
    if (target) target.focus({ preventScroll: true });
  }

  var shownBody = document.getElementById("notes-body");
  document.addEventListener("htmx:afterSettle", function (e) {
    var body = document.getElementById("notes-body");
    if (!body || body === shownBody) return;
    shownBody = body;
    markNotes();
    if (status) fade(); // htmx wrote the message (out of band)
    var focused = document.activeElement;
    var lost = !focused || focused === document.body || actions.contains(focused);
    if (body.querySelector(".alert")) {
      var panel = document.getElementById("notes-panel");
      if (panel) panel.open = true;
    } else if (e.detail.requestConfig && e.detail.requestConfig.elt === actions) {
      closeBar();
      var sel = window.getSelection();
      if (sel) sel.removeAllRanges();
    }
    if (lost) focusNotes(body);
  });

  // htmx swaps nothing for an error answer or an unreachable server: the
  // status line says the note was not saved (or deleted), instead of
  // nothing happening.
  function notesRequest(e) {
    return e.detail && e.detail.target && e.detail.target.id === "notes-body";
  }
  document.addEventListener("htmx:responseError", function (e) {
    if (!notesRequest(e)) return;
    say(e.detail.xhr && e.detail.xhr.status === 404 ?
      "That note is no longer there; reload the page to see the notes as they are." :
      "The change to the notes was not saved; try again.");
  });
  document.addEventListener("htmx:sendError", function (e) {
    if (notesRequest(e)) say("The server could not be reached; the change to the notes was not saved.");
  });
})();
