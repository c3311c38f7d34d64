// Copy and Share for the invite link (members page). The link stays plain, selectable text
// without JavaScript; with it, "Copy link" uses the Clipboard API (falling back to selecting
// the text), and "Share…" appears only where the browser has the Web Share API.
(function () {
  function say(box, text) {
    var status = box.querySelector("[data-share-status]");
    if (status) status.textContent = text;
  }

  function selectText(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copy(box, button) {
    var link = button.dataset.copy;
    var done = function () { say(box, button.dataset.copied); };
    var failed = function () {
      var code = document.getElementById(button.dataset.target);
      if (code) selectText(code);
      say(box, button.dataset.copyFailed);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(link).then(done, failed);
    } else {
      failed();
    }
  }

  function share(box, button) {
    navigator
      .share({ title: button.dataset.shareTitle, text: button.dataset.shareText, url: button.dataset.share })
      .then(function () { say(box, button.dataset.shared); })
      .catch(function (error) {
        // The person closed the share sheet: nothing to say.
        if (error && error.name === "AbortError") return;
        say(box, button.dataset.shareFailed);
      });
  }

  function setUp() {
    document.querySelectorAll("[data-invite-actions]").forEach(function (box) {
      box.hidden = false;
      var copyButton = box.querySelector("[data-copy]");
      var shareButton = box.querySelector("[data-share]");
      if (copyButton) copyButton.addEventListener("click", function () { copy(box, copyButton); });
      if (shareButton && typeof navigator.share === "function") {
        shareButton.hidden = false;
        shareButton.addEventListener("click", function () { share(box, shareButton); });
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
