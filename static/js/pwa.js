// Registers the service worker (installable app, offline page). Pages work without it.
(function () {
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  var url = script.dataset.serviceWorker;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {});
  });
})();
