// whispers: the table, seat and replay pages. No inline script (the CSP forbids it); moves go by fetch with the
// table token in the Authorization header, never by a cookie.
"use strict";

function post(game, line) {
  const refused = document.getElementById("refused");
  const form = document.getElementById("move");
  return fetch(game.dataset.base + "moves", {
    method: "POST",
    headers: {"Content-Type": "application/json", "Authorization": "Bearer " + form.dataset.token},
    body: JSON.stringify({line: line, version: Number(game.dataset.version)}),
  }).then(function (answer) {
    return answer.json().then(function (body) {
      if (answer.status === 201) { window.location.reload(); return; }
      if (answer.status === 409) { document.getElementById("moved").hidden = false; }
      refused.textContent = body.rule ? body.error + " (" + (body.cited || body.rule) + ")" : body.error;
      refused.hidden = false;
    });
  });
}

function table(game) {
  const form = document.getElementById("move");
  const line = document.getElementById("line");
  if (form) {
    form.addEventListener("submit", function (e) { e.preventDefault(); post(game, line.value); });
    document.querySelectorAll("button.option").forEach(function (b) {
      b.addEventListener("click", function () { line.value = b.dataset.line; line.focus(); });
    });
    document.getElementById("undo").addEventListener("submit", function (e) {
      e.preventDefault();
      const reason = document.getElementById("reason").value.replace(/"/g, "'");
      post(game, 'undo "' + reason + '"');
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "/" && document.activeElement !== line) { e.preventDefault(); line.focus(); }
    });
  }
  if (window.EventSource) {
    const source = new EventSource(game.dataset.live);
    source.addEventListener("version", function (e) {
      if (Number(e.data) !== Number(game.dataset.version)) {
        if (line && line.value) { document.getElementById("moved").hidden = false; } else { window.location.reload(); }
      }
    });
  }
}

function replay(main) {
  document.addEventListener("keydown", function (e) {
    const to = e.key === "ArrowLeft" ? main.dataset.prev : e.key === "ArrowRight" ? main.dataset.next : "";
    if (to) { window.location.assign(to); }
  });
}

document.addEventListener("DOMContentLoaded", function () {
  document.documentElement.dataset.script = "ran";  // for the browser test: the CSP let this file run
  const game = document.getElementById("game");
  if (game) { table(game); }
  const main = document.getElementById("replay");
  if (main) { replay(main); }
});
