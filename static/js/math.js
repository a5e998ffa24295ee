// Renders the formulas of rendered Markdown with KaTeX (vendored from npm).
// The server keeps TeX verbatim, delimiters included, in
// <span class="math math-inline"> ($…$) and <span class="math math-display">
// ($$…$$) (views/markdown.go); this replaces each span's text with KaTeX's
// rendering. katex.render builds DOM nodes and sets their styles through
// the CSSOM, which the strict style-src of the Content-Security-Policy
// allows (renderToString's style attributes would be refused). A
// MutationObserver catches every way content arrives: the page itself,
// htmx swaps and the live stream's out-of-band swaps. Invalid TeX is shown
// as its source (throwOnError: false). The source stays in data-tex, and
// KaTeX's MathML copy is what screen readers read.
//
// KaTeX itself (about 80 KB compressed, plus fonts) is fetched only once a
// formula is on the page: this script's data-katex-js and data-katex-css
// name its (content-hashed) files.
(function () {
  "use strict";

  var me = document.currentScript;
  var katexJS = me && me.getAttribute("data-katex-js");
  var katexCSS = me && me.getAttribute("data-katex-css");
  var loading = false;

  // loadKatex adds KaTeX's stylesheet and script once; when the script has
  // run, every formula on the page is rendered.
  function loadKatex() {
    if (loading || window.katex || !katexJS) return;
    loading = true;
    if (katexCSS) {
      var link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = katexCSS;
      document.head.appendChild(link);
    }
    var script = document.createElement("script");
    script.src = katexJS;
    script.onload = function () {
      renderIn(document.body);
    };
    document.head.appendChild(script);
  }

  function renderOne(el) {
    if (el.hasAttribute("data-rendered")) return;
    var src = el.textContent;
    var display = el.classList.contains("math-display");
    var n = display ? 2 : 1;
    if (src.length <= 2 * n) return;
    try {
      window.katex.render(src.slice(n, src.length - n), el, {
        displayMode: display,
        throwOnError: false,
        output: "htmlAndMathml",
        trust: false,
        maxSize: 50,
        maxExpand: 500,
      });
      el.setAttribute("data-tex", src);
      el.setAttribute("data-rendered", "");
    } catch (e) {
      // KaTeX refused it outright: the TeX source stays as it is.
    }
  }

  function renderIn(node) {
    if (!node || node.nodeType !== 1) return;
    if (!window.katex) {
      if (node.matches("span.math") || node.querySelector("span.math")) loadKatex();
      return;
    }
    if (node.matches("span.math")) renderOne(node);
    node.querySelectorAll("span.math:not([data-rendered])").forEach(renderOne);
  }

  function start() {
    renderIn(document.body);
    new MutationObserver(function (records) {
      records.forEach(function (r) {
        r.addedNodes.forEach(renderIn);
      });
    }).observe(document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
