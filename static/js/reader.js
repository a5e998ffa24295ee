// The reader (the layout's math.js has rendered the formulas before this
// deferred script runs): each note's quote is found in
// the text again (by its context, so it survives a re-parse) and marked;
// selecting text offers "Highlight" (saved at once) and "Note…" (fills
// the note form, which also works without this script).
(function () {
  "use strict";
  var article = document.getElementById("reader-text");
  if (!article) return;

  // The article's text with whitespace collapsed, and where each of its
  // characters lives (text node and offset).
  function textMap() {
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        return n.parentNode.closest(".katex") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
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

  // Selection → Highlight / Note….
  var actions = document.getElementById("selection-actions");
  var form = document.getElementById("note-form");
  var current = null;
  function selected() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
    var r = sel.getRangeAt(0);
    if (!article.contains(r.commonAncestorContainer)) return null;
    var quote = norm(sel.toString());
    if (!quote) return null;
    var m = textMap();
    // The selection's start in the collapsed text.
    var pos = 0;
    for (var k = 0; k < m.where.length; k++) {
      var w = m.where[k];
      if (w[0] === r.startContainer && w[1] >= r.startOffset) { pos = k; break; }
      if (r.comparePoint(w[0], w[1]) >= 0) { pos = k; break; }
    }
    var at = m.text.indexOf(quote, Math.max(0, pos - quote.length));
    if (at < 0) at = m.text.indexOf(quote);
    if (at < 0) at = pos;
    return {
      quote: quote,
      position: at,
      prefix: m.text.slice(Math.max(0, at - 32), at),
      suffix: m.text.slice(at + quote.length, at + quote.length + 32)
    };
  }
  function update() {
    current = selected();
    if (actions) actions.hidden = !current;
  }
  article.addEventListener("mouseup", update);
  article.addEventListener("keyup", update);

  function post(kind) {
    if (!current) return;
    var body = new URLSearchParams();
    body.set("kind", kind);
    body.set("quote", current.quote);
    body.set("prefix", current.prefix);
    body.set("suffix", current.suffix);
    body.set("position", String(current.position));
    fetch(article.getAttribute("data-notes-url"), {
      method: "POST",
      headers: { "Accept": "application/json" },
      body: body,
      credentials: "same-origin"
    }).then(function (res) {
      if (res.ok) window.location.reload();
    });
  }
  var hb = document.getElementById("highlight-button");
  if (hb) hb.addEventListener("click", function () { post("highlight"); });
  var nb = document.getElementById("note-button");
  if (nb && form) nb.addEventListener("click", function () {
    if (!current) return;
    form.querySelector("#note-quote").value = current.quote;
    form.querySelector("#note-prefix").value = current.prefix;
    form.querySelector("#note-suffix").value = current.suffix;
    form.querySelector("#note-position").value = String(current.position);
    form.querySelector("#note-body").focus();
  });
})();
