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

// A change htmx sent that the server could not save now (the database restarting: 503; the
// disk full: 507) shows the server's reason at the top of the page, instead of nothing.
(function () {
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail && event.detail.xhr;
    var box = document.getElementById("server-trouble");
    if (!xhr || !box || (xhr.status !== 503 && xhr.status !== 507)) return;
    var type = xhr.getResponseHeader("Content-Type") || "";
    box.textContent = type.indexOf("text/plain") === 0 ? xhr.responseText : xhr.statusText;
    box.hidden = false;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = document.getElementById("server-trouble");
    if (box && event.detail && event.detail.successful) box.hidden = true;
  });
})();
