// The live board: several phones on one group see each other's records without a reload.
//
// An element with data-live-url and data-live-version (the board's version, a token the
// server changes with every change of the board) is polled every few seconds with
// If-None-Match. The server answers 304 while nothing changed (fetch hands a 304 to the
// script when the script set If-None-Match itself); when something did, the board is fetched again through htmx
// (data-live-board names the partial's URL) and swapped in. Polling slows down while the
// tab is hidden and polls at once when it comes back. A person typing in the board's form
// is not interrupted: the page says the board changed and refreshes when they tap.
// Without JavaScript the pages work as before; they only don't update by themselves.
(function () {
  "use strict";
  var VISIBLE_EVERY = 2500; // ms: another phone's tap shows within 3 s
  var HIDDEN_EVERY = 30000; // ms: a phone in a pocket costs the server little
  var timer = null;
  var inFlight = false;

  function board() {
    return document.querySelector("[data-live-url]");
  }

  function typing(el) {
    var active = document.activeElement;
    if (!active || !el.contains(active)) return false;
    return active.tagName === "TEXTAREA" || (active.tagName === "INPUT" && active.type !== "radio"
      && active.type !== "checkbox" && active.type !== "hidden" && active.type !== "submit");
  }

  // After a refresh, the polite live region outside the board says what changed (the new
  // board's data-live-said), so a screen reader hears another phone's tap.
  function announce() {
    var said = document.getElementById("live-said");
    var fresh = board();
    if (said && fresh && fresh.dataset.liveSaid) said.textContent = fresh.dataset.liveSaid;
  }

  function refresh(el) {
    var notice = document.getElementById("live-notice");
    if (notice) notice.hidden = true;
    if (window.htmx) {
      window.htmx.ajax("GET", el.dataset.liveBoard, { target: el, swap: "outerHTML" }).then(announce);
    } else {
      window.location.reload();
    }
  }

  function changed(el) {
    if (typing(el)) {
      var notice = document.getElementById("live-notice");
      if (notice) notice.hidden = false;
      return;
    }
    refresh(el);
  }

  function poll() {
    var el = board();
    if (!el || inFlight) return schedule();
    inFlight = true;
    fetch(el.dataset.liveUrl, {
      headers: { "If-None-Match": '"' + el.dataset.liveVersion + '"', "Accept": "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    }).then(function (response) {
      if (response.status === 200) {
        return response.json().then(function (data) {
          if (String(data.version) !== el.dataset.liveVersion) changed(el);
        });
      }
      // 304 (nothing new) or an error: try again at the next tick.
    }).catch(function () {
      // Offline or the server is restarting: keep the board as it is.
    }).then(function () {
      inFlight = false;
      schedule();
    });
  }

  function schedule() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(poll, document.hidden ? HIDDEN_EVERY : VISIBLE_EVERY);
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) poll();
    else schedule();
  });
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target && target.closest && target.closest("[data-live-refresh]")) {
      event.preventDefault();
      var el = board();
      if (el) refresh(el);
    }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", schedule);
  } else {
    schedule();
  }
})();
