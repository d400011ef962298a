// The hall's public board follows the tournament live: on each change the page is fetched again and its board
// replaced in place (no flash on a projector), at most once a second and a half.
(function () {
  "use strict";
  const board = document.getElementById("board");
  if (!board || !window.EventSource) { return; }
  let waiting = null;
  function refresh() {
    waiting = null;
    fetch(window.location.href, { cache: "no-store" }).then(function (answer) {
      return answer.ok ? answer.text() : null;
    }).then(function (text) {
      if (!text) { return; }
      const fresh = new DOMParser().parseFromString(text, "text/html").getElementById("board");
      if (fresh) { board.replaceChildren(...fresh.childNodes); }
    }).catch(function () { /* the next change tries again */ });
  }
  const source = new EventSource(board.dataset.live);
  source.addEventListener("changed", function () {
    if (waiting === null) { waiting = window.setTimeout(refresh, 1500); }
  });
  document.documentElement.dataset.script = "ran";  // the browser tests' sign that the CSP let it run
})();
