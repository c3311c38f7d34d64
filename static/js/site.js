// Site-wide behaviour without inline handlers (the Content-Security-Policy allows scripts
// from our own files only): the language menu sends its form when a language is chosen.
(function () {
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target instanceof HTMLSelectElement && target.hasAttribute("data-submit-on-change")) {
      target.form.submit();
    }
  });
})();
