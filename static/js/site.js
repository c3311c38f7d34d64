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

// The CSRF token of every htmx request is read from the cookie when the request is sent, not
// from the page (nor from the form's hidden field): a log-in (in another tab, or after the
// session ran out) gives the browser a new token, and a page opened before it would otherwise
// post a stale one and be refused (403, which htmx shows as nothing at all). The page's own
// token (body hx-headers) remains the fallback while no cookie is there.
(function () {
  function cookieToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }
  window.timekeeperCsrfToken = cookieToken;
  document.addEventListener("htmx:configRequest", function (event) {
    var token = cookieToken();
    if (!token) return;
    event.detail.headers["X-CSRFToken"] = token;
    // Django reads a form's own token before the header: a form's is replaced too.
    if (event.detail.parameters["csrfmiddlewaretoken"] !== undefined) {
      event.detail.parameters["csrfmiddlewaretoken"] = token;
    }
  });
})();

// The line next to the result buttons (templates/campaigns/_players_now.html) says what a tap
// records: the player count chosen (the Play page's chips) plus the Bonus tokens face up, which
// taps kept offline change (static/js/outbox.js sets data-tokens and calls this again).
(function () {
  function playersNow(form) {
    var line = form && form.querySelector("[data-players-now]");
    var chosen = form && form.querySelector("input[name=players]:checked, input[type=hidden][name=players]");
    if (!line || !chosen) return;
    var n = Number(chosen.value);
    line.textContent = line.dataset.text.replace("%(n)s", String(n))
      .replace("%(up)s", String(n + Number(line.dataset.tokens || 0)));
  }
  window.timekeeperPlayersNow = playersNow;
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target instanceof HTMLInputElement && target.name === "players") playersNow(target.form);
  });
})();
