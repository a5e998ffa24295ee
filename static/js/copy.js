// One-time secrets (views/secret.templ): selects the read-only field's
// text and shows a Copy button that puts it on the clipboard. Without this
// script the field still has the focus, ready for Ctrl+C after Ctrl+A.
(function () {
  "use strict";

  function copyFrom(field, status) {
    function done(ok) {
      status.textContent = ok ? "Copied to the clipboard." : "Copying failed: the text is selected, press Ctrl+C (⌘C on a Mac).";
      field.focus();
      field.select();
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { done(true); }, function () { done(false); });
      return;
    }
    field.focus();
    field.select();
    var ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (e) {
      ok = false;
    }
    done(ok);
  }

  function start() {
    document.querySelectorAll("button.copy-button[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      var status = button.closest(".field").querySelector(".copy-status");
      if (!field || !status) return;
      button.hidden = false;
      button.addEventListener("click", function () { copyFrom(field, status); });
      if (document.activeElement === field || document.activeElement === document.body) {
        field.focus();
        field.select();
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
