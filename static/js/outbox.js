// Taps that survive a lost connection.
//
// When a record, skip or undo cannot reach the server because the phone is offline, the tap
// is kept on the phone (IndexedDB, the "outbox") with its idempotency key and the version of
// the board it was made from, and the page says how many results wait. When the connection
// returns they are sent again, in order, through the same stale-write guard as any tap:
//
// - the first tap of a board keeps the form's own key: if its request did reach the server
//   before the connection dropped, sending it again records nothing new;
// - taps made one after another while offline form a chain: each is sent against the
//   version its predecessor produced, since that is the board the person meant;
// - a refused tap (another phone got there first) is shown to the person, and the taps that
//   followed it are not sent but shown too: nothing is dropped silently;
// - a tap whose answer is lost again stays first in the outbox and is sent again later.
//
// While taps wait, the board shows itself as they will leave it (the clock, the Bonus tokens,
// the attempts: "pending"), drawn from what the server judged the board from (data-board,
// templates/campaigns/_pending.html). A further tap is judged against that pending board as
// the server will judge it: a tap for a clock a waiting tap has passed or put in the Sleeve is
// refused at once, with the server's own words, instead of being sent to be refused later.
(function () {
  "use strict";
  var DB = "timekeeper";
  var STORE = "outbox";
  var RETRY_EVERY = 4000; // ms, while online with taps waiting
  var sending = false;
  var usedKeys = {};

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function tx(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(STORE, mode);
        var result = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(result && "result" in result ? result.result : result); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }

  function all() {
    return tx("readonly", function (store) { return store.getAll(); });
  }

  function put(entry) {
    return tx("readwrite", function (store) { return store.put(entry); });
  }

  function remove(id) {
    return tx("readwrite", function (store) { return store.delete(id); });
  }

  function outboxEl() { return document.getElementById("outbox"); }

  function show() {
    var box = outboxEl();
    if (!box) return Promise.resolve();
    return all().then(function (entries) {
      var waiting = entries.filter(function (e) { return !e.refused; });
      var refused = entries.filter(function (e) { return e.refused; });
      var count = box.querySelector("[data-outbox-count]");
      count.hidden = waiting.length === 0;
      count.textContent = waiting.length === 1 ? box.dataset.one
        : box.dataset.many.replace("%(n)s", String(waiting.length));
      var list = box.querySelector("[data-outbox-refused]");
      list.innerHTML = "";
      refused.forEach(function (entry) {
        var item = document.createElement("li");
        item.textContent = entry.label + ": " + entry.refused;
        var dismiss = document.createElement("button");
        dismiss.type = "button";
        dismiss.className = "link";
        dismiss.textContent = box.dataset.dismiss;
        dismiss.addEventListener("click", function () { remove(entry.id).then(show); });
        item.appendChild(document.createTextNode(" "));
        item.appendChild(dismiss);
        list.appendChild(item);
      });
      box.hidden = entries.length === 0;
      drawPending(waiting);
    });
  }

  function labelFor(fields) {
    var box = outboxEl();
    var action = fields.action || (fields.event ? "undo" : "");
    var word = box && box.dataset["action" + action.charAt(0).toUpperCase() + action.slice(1)];
    return (word || action) + (fields.clock ? " · " + fields.clock : "");
  }

  // --- The board as the waiting taps will leave it ----------------------------------------------
  function fill(text, values) {
    return Object.keys(values).reduce(function (out, key) {
      return out.split("%(" + key + ")s").join(String(values[key]));
    }, text);
  }

  // The server's rules, applied to the board it drew: a failure adds an attempt and flips a
  // Bonus token (three at most); a pass or a skip turns them face down and the next clock of
  // the stack comes up (campaigns/play/services.py).
  function project(board, waiting) {
    var state = { clock: board.clock, tokens: board.tokens, attempts: board.attempts,
      stack: board.stack.slice(), gone: {} };
    waiting.forEach(function (entry) {
      var fields = entry.fields;
      if (entry.url !== board.record || fields.clock !== state.clock) return;
      if (fields.action === "failed") {
        state.attempts += 1;
        state.tokens = Math.min(3, state.tokens + 1);
      } else if (fields.action === "passed" || fields.action === "skip") {
        state.gone[state.clock] = fields.action;
        var next = state.stack.shift() || ["", 0];
        state.clock = next[0];
        state.attempts = next[1];
        state.tokens = 0;
      }
    });
    return state;
  }

  // What the server would answer to ``fields`` once the waiting taps are in: "" if recorded.
  function judge(box, state, fields) {
    var gone = state.gone[fields.clock];
    if (gone === "passed") return fill(box.dataset.judgePassed, { clock: fields.clock });
    if (gone === "skip") return fill(box.dataset.judgeSleeve, { clock: fields.clock });
    if (fields.action === "skip" && fields.clock === state.clock && state.attempts === 0) {
      return fill(box.dataset.judgeSkip, { clock: fields.clock });
    }
    return "";
  }

  function drawPending(waiting) {
    document.querySelectorAll("[data-pending]").forEach(function (box) {
      var board = JSON.parse(box.dataset.board);
      var root = box.closest("#board") || document;
      var mine = waiting.filter(function (e) { return e.url === board.record; });
      // An undo waiting too: what it will undo depends on the server; show no guess.
      var undo = waiting.some(function (e) { return e.url === board.undo; });
      box.hidden = mine.length === 0 || undo;
      root.classList.toggle("is-pending", !box.hidden);
      if (box.hidden) return;
      var state = project(board, mine);
      box.querySelector("[data-pending-text]").textContent = fill(box.dataset.text,
        { clock: state.clock || "—", attempts: state.attempts, tokens: state.tokens });
      root.querySelectorAll(".tokens .token").forEach(function (token, i) {
        token.classList.toggle("up", i < state.tokens);
      });
      var count = root.querySelector(".tokens strong[data-text]");
      if (count) count.textContent = fill(count.dataset.text, { n: state.tokens });
      root.querySelectorAll("[data-allow-n]").forEach(function (el) {
        var figure = el.tagName === "B" ? el : el.querySelector("b");
        if (figure) figure.textContent = String(Number(el.dataset.allowN) + state.tokens);
      });
      var line = root.querySelector("[data-players-now]");
      if (line) {
        line.dataset.tokens = String(state.tokens);
        if (window.timekeeperPlayersNow) window.timekeeperPlayersNow(line.closest("form"));
      }
      var skip = root.querySelector("form[data-outbox] button[value=skip]");
      if (skip && state.clock === board.clock && state.attempts > 0) skip.disabled = false;
    });
  }

  // --- Queuing a tap that did not get through ---------------------------------------------------
  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig || {};
    var form = config.elt && config.elt.closest ? config.elt.closest("form[data-outbox]") : null;
    if (!form || !config.formData) return;
    var fields = {};
    config.formData.forEach(function (value, name) { fields[name] = String(value); });
    // A second tap from the same board gets a key of its own: it is another attempt.
    if (fields.request_key) {
      if (usedKeys[fields.request_key]) fields.request_key = randomKey();
      usedKeys[fields.request_key] = true;
    }
    var box = form.querySelector("[data-pending]");
    all().then(function (entries) {
      var waiting = entries.filter(function (e) { return !e.refused; });
      var refused = "";
      if (box && fields.action) {
        var board = JSON.parse(box.dataset.board);
        refused = judge(box, project(board, waiting), fields);
      }
      return put({
        url: config.path,
        fields: fields,
        label: labelFor(fields),
        chained: waiting.length > 0, // made after a tap still waiting: rests on its result
        created: Date.now(),
        refused: refused || undefined, // judged now: never sent, shown with its reason
      });
    }).then(show).then(schedule);
  });

  // A board drawn again (a live refresh, a tap answered) is drawn as the waiting taps leave it.
  document.addEventListener("htmx:afterSettle", function () { show(); });

  function randomKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    return String(Date.now()) + String(Math.random()).slice(2);
  }

  // --- Sending them again -------------------------------------------------------------------------
  function csrfToken() {
    // The cookie's token first (static/js/site.js): a tap queued before a new log-in is sent
    // with the token that log-in gave.
    var fresh = window.timekeeperCsrfToken ? window.timekeeperCsrfToken() : "";
    if (fresh) return fresh;
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function send(entry, version) {
    var fields = Object.assign({}, entry.fields);
    if (entry.chained && version !== null) fields.expected_event = version;
    // The token of now, not of the tap: Django reads the form's field before the header.
    if ("csrfmiddlewaretoken" in fields) fields.csrfmiddlewaretoken = csrfToken();
    return fetch(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() },
      body: new URLSearchParams(fields),
    });
  }

  // The version the last landed tap produced: the board the next chained tap rests on. Kept
  // in storage, so a connection lost between two taps of a chain does not lose it.
  var VERSION_KEY = "timekeeper-outbox-version";

  function flush() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    var version = localStorage.getItem(VERSION_KEY);
    var refusedBefore = null;
    var sent = 0;
    function next() {
      return all().then(function (entries) {
        var entry = entries.filter(function (e) { return !e.refused; })[0];
        if (!entry) return;
        if (refusedBefore && entry.chained) {
          entry.refused = refusedBefore;
          return put(entry).then(next);
        }
        return send(entry, version).then(function (response) {
          var triggers = response.headers.get("HX-Trigger") || "";
          if (response.ok && triggers.indexOf("timekeeper:recorded") !== -1) {
            version = response.headers.get("X-Timekeeper-Version");
            if (version !== null) localStorage.setItem(VERSION_KEY, version);
            refusedBefore = null;
            sent += 1;
            return remove(entry.id).then(next);
          }
          if (response.status >= 500 || !response.ok && response.status !== 409) {
            throw new Error("server " + response.status); // try again later
          }
          var message = "";
          try {
            message = JSON.parse(triggers)["timekeeper:refused"].message;
          } catch (error) {
            message = outboxEl() ? outboxEl().dataset.refused : "";
          }
          entry.refused = message;
          refusedBefore = outboxEl() ? outboxEl().dataset.refusedBefore : message;
          sent += 1;
          return put(entry).then(next);
        });
      });
    }
    return next().then(function () {
      return all().then(function (entries) {
        if (!entries.some(function (e) { return !e.refused; })) localStorage.removeItem(VERSION_KEY);
      });
    }).catch(function () {
      // The connection dropped again: what was not confirmed stays first in the outbox.
    }).then(function () {
      sending = false;
      if (sent && window.htmx) {
        var board = document.querySelector("[data-live-board]");
        if (board) window.htmx.ajax("GET", board.dataset.liveBoard, { target: board, swap: "outerHTML" });
      }
      return show();
    }).then(schedule);
  }

  var timer = null;
  function schedule() {
    if (timer) clearTimeout(timer);
    all().then(function (entries) {
      if (entries.some(function (e) { return !e.refused; })) timer = setTimeout(flush, RETRY_EVERY);
    });
  }

  window.addEventListener("online", flush);
  if (!("indexedDB" in window)) return;
  show().then(flush);
})();
