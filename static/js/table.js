// Table mode: the screen stays awake, a pausable timer times the attempt, and the plan can be
// read aloud. Each part says so on the page where the browser cannot do it.
(function () {
  "use strict";
  if (!document.querySelector("[data-table-mode]")) return;

  // --- Keeping the screen awake -------------------------------------------------------------
  var lock = null;

  function say(el, key) {
    if (el) el.textContent = el.dataset[key] || "";
  }

  function wakeStatus() {
    return document.getElementById("wake-status");
  }

  // Over plain HTTP (not a secure context) browsers hide the Wake Lock API altogether.
  function missing() {
    return window.isSecureContext === false ? "insecure" : "unsupported";
  }

  function acquire() {
    if (!("wakeLock" in navigator)) {
      say(wakeStatus(), missing());
      return;
    }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      say(wakeStatus(), "on");
      sentinel.addEventListener("release", function () {
        lock = null;
        say(wakeStatus(), "off");
      });
    }).catch(function () {
      say(wakeStatus(), "refused");
    });
  }

  // The browser releases the lock when the tab is hidden; take it again on return.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && lock === null) acquire();
  });
  // A new board (after a tap) brings a new status line: say again what holds.
  document.body.addEventListener("htmx:afterSwap", function () {
    say(wakeStatus(), lock ? "on" : ("wakeLock" in navigator ? "off" : missing()));
  });
  acquire();

  // --- The attempt's timer --------------------------------------------------------------------
  // Kept in localStorage under the group, clock and attempt number (the board's
  // data-timer-key), so a reload or a locked phone does not lose it. Its minutes go into the
  // duration of the record form. The board is swapped after every tap, so elements are looked
  // up each time rather than kept.
  function timerKey() {
    var board = document.querySelector("[data-table-mode]");
    return board ? board.dataset.timerKey : null;
  }

  function load(key) {
    try {
      return JSON.parse(localStorage.getItem(key)) || { elapsed: 0, since: null };
    } catch (error) {
      return { elapsed: 0, since: null };
    }
  }

  function store(key, state) {
    try {
      localStorage.setItem(key, JSON.stringify(state));
    } catch (error) { /* private mode: the timer still shows for this page */ }
  }

  function elapsed(state) {
    return state.elapsed + (state.since ? Date.now() - state.since : 0);
  }

  function render() {
    var key = timerKey();
    var timer = document.getElementById("timer");
    if (!key || !timer) return;
    timer.hidden = false;
    var state = load(key);
    var seconds = Math.floor(elapsed(state) / 1000);
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    document.getElementById("timer-display").textContent = m + ":" + (s < 10 ? "0" : "") + s;
    var toggle = document.getElementById("timer-toggle");
    toggle.textContent = state.since ? toggle.dataset.pause : toggle.dataset.start;
    toggle.setAttribute("aria-pressed", state.since ? "true" : "false");
    timer.classList.toggle("running", !!state.since);
    var minutes = document.querySelectorAll("input[name=duration_min]");
    for (var i = 0; i < minutes.length; i++) {
      minutes[i].value = seconds > 0 ? String(Math.max(1, Math.round(seconds / 60))) : "";
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    var key = timerKey();
    if (!key) return;
    if (target.closest("#timer-toggle")) {
      var state = load(key);
      if (state.since) {
        state.elapsed = elapsed(state);
        state.since = null;
      } else {
        state.since = Date.now();
      }
      store(key, state);
      render();
    } else if (target.closest("#timer-reset")) {
      store(key, { elapsed: 0, since: null });
      render();
    }
  });
  // A recorded result ends the attempt: its timer is forgotten (the next attempt has a key
  // of its own), and the new board shows its own.
  document.body.addEventListener("timekeeper:recorded", function () {
    var key = timerKey();
    if (key) localStorage.removeItem(key);
  });
  document.body.addEventListener("htmx:afterSwap", render);
  render();
  setInterval(render, 1000);

  // --- Reading the plan aloud -----------------------------------------------------------------
  // The plan arrives after the page (htmx), so the button is found when it is pressed.
  var lang = document.documentElement.lang || "en";

  function voiceFor(language) {
    var voices = window.speechSynthesis.getVoices();
    for (var i = 0; i < voices.length; i++) {
      if (voices[i].lang && voices[i].lang.toLowerCase().indexOf(language) === 0) return voices[i];
    }
    return null;
  }

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("#read-aloud");
    if (!button) return;
    var status = document.getElementById("speech-status");
    var plan = document.getElementById("plan-words");
    if (!plan) return;
    if (!("speechSynthesis" in window) || typeof SpeechSynthesisUtterance === "undefined") {
      say(status, "unsupported");
      return;
    }
    var voice = voiceFor(lang);
    if (voice === null && window.speechSynthesis.getVoices().length) {
      say(status, "novoice");
      return;
    }
    window.speechSynthesis.cancel();
    var utterance = new SpeechSynthesisUtterance(plan.textContent.trim());
    utterance.lang = lang;
    if (voice) utterance.voice = voice;
    window.speechSynthesis.speak(utterance);
    say(status, "speaking");
  });
})();
