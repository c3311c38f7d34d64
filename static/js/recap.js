// The recap's Share button (templates/campaigns/_recap.html). Where the browser can share a
// file (Web Share API with files), the button appears and shares the card's PNG; elsewhere it
// stays hidden and the download link beside it, which works without JavaScript, serves.
(function () {
  "use strict";
  var button = document.querySelector("[data-recap-share]");
  if (!button || !navigator.canShare || !navigator.share || typeof File !== "function") return;
  var probe = new File([new Uint8Array(8)], button.dataset.recapName, { type: "image/png" });
  if (!navigator.canShare({ files: [probe] })) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    fetch(button.dataset.recapShare, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("recap " + response.status);
        return response.blob();
      })
      .then(function (blob) {
        var file = new File([blob], button.dataset.recapName, { type: "image/png" });
        return navigator.share({ files: [file], title: button.dataset.recapTitle });
      })
      .catch(function () {
        // Cancelled, or the share sheet refused: the download link is still there.
      });
  });
})();
