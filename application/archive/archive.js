// whispers publish: a finished game's replay from the page's own data, stepped with ← → (keys and buttons). Every
// text is set as text, never as markup.
(function () {
  "use strict";
  const holder = document.getElementById("data");
  if (!holder) { return; }
  const data = JSON.parse(holder.textContent);
  const steps = data.steps;
  let at = 0;  // from the first event, as a replay is read
  const $ = function (id) { return document.getElementById(id); };
  function fill(words, values) { return words.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); }); }
  function rows(table, pairs) {
    table.replaceChildren();
    pairs.forEach(function (pair) {
      const tr = document.createElement("tr");
      const th = document.createElement("th"); th.textContent = pair[0];
      const td = document.createElement("td"); td.textContent = pair[1] === null ? "?" : String(pair[1]);
      tr.append(th, td); table.append(tr);
    });
  }
  function show() {
    const step = steps[at];
    $("where").textContent = fill(data.words.event, { n: step.n, total: steps.length });
    $("label").textContent = step.label + " · " + step.phase;
    $("words").textContent = step.words;
    const notes = $("notes"); notes.replaceChildren();
    step.notes.forEach(function (text) { const li = document.createElement("li"); li.textContent = text; notes.append(li); });
    $("council-title").textContent = data.words.council;
    rows($("council"), Object.entries(step.council));
    $("scores-title").textContent = data.words.scores;
    rows($("scores"), Object.entries(step.scores));
    $("missing").textContent = data.missing;
    if (!data.missing) {
      $("board").src = data.game + "-board-r" + step.round + ".svg";
      $("board-caption").textContent = fill(data.words.board, { round: step.round });
      $("timeline").src = data.game + "-timeline-r" + step.round + ".svg";
      $("timeline-caption").textContent = fill(data.words.timeline, { round: step.round });
    }
    document.documentElement.dataset.at = String(step.n);
  }
  function go(by) { at = Math.max(0, Math.min(steps.length - 1, at + by)); show(); }
  $("back").addEventListener("click", function () { go(-1); });
  $("next").addEventListener("click", function () { go(1); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") { go(-1); } else if (e.key === "ArrowRight") { go(1); }
  });
  show();
})();
