// whispers: amending a past move from the replay page (issue 32), for the table's link and the director. Loaded
// only on a replay page that offers the action (replay.html). The amendment is previewed first (decided by the
// server, nothing appended); Record sends exactly what was previewed, at the version the preview saw, and the page
// then goes to the replay of the amendment. No inline script (the CSP forbids it); every write by fetch with the
// link's token in the Authorization header.
"use strict";

(function () {
  // app.js (loaded first, by base.html) writes and speaks for every page
  const send = window.whispers.send, spoken = window.whispers.spoken;

  function amending(box) {
    const form = document.getElementById("amend-form");
    const line = document.getElementById("amend-line");
    const reason = document.getElementById("amend-reason");
    const shown = form.querySelector(".preview");
    const record = form.querySelector("button.record");
    const moved = form.querySelector(".moved");
    let previewed = null;  // the body whose preview the box shows: what Record sends
    let asked = 0;

    function show(lines, kind) {
      shown.replaceChildren();
      lines.forEach(function (text, i) {
        const one = document.createElement(i === 0 ? "p" : "div");
        one.textContent = String(text);  // typed words and the server's: text, never markup
        shown.appendChild(one);
      });
      shown.className = "preview " + kind;
      shown.hidden = lines.length === 0;
    }

    function refused(answer) {
      const rule = answer.body.cited || answer.body.rule;
      show([rule ? answer.body.error + " (" + rule + ")" : answer.body.error], "no");
      if (answer.status === 409) { moved.hidden = false; }
    }

    function body() {
      return {at: Number(box.dataset.at), line: line.value, reason: reason.value,
              version: Number(box.dataset.version)};
    }

    function preview() {
      previewed = null;
      record.disabled = true;
      if (!reason.value.trim()) { reason.focus(); reason.reportValidity(); return; }
      const asking = body();
      const mine = ++asked;
      show([shown.dataset.sayWait], "wait");
      send(box.dataset.base + "amend/preview", box.dataset.token, asking).then(function (answer) {
        if (mine !== asked) { return; }  // a newer preview was asked meanwhile
        if (answer.status !== 200) { refused(answer); return; }
        const said = [answer.body.head].concat(answer.body.said || []);
        said.push(answer.body.over ? shown.dataset.sayOver : shown.dataset.sayNext + " " + answer.body.next);
        show(said, "ok");
        previewed = asking;
        record.disabled = false;
        record.focus();
      });
    }

    function recordIt() {
      if (previewed === null || record.disabled) { return; }
      record.disabled = true;
      const sending = previewed;
      send(box.dataset.base + "amend", box.dataset.token, sending).then(function (answer) {
        if (answer.status !== 201) { refused(answer); return; }
        show([answer.body.head], "ok");
        // the replay at the corrected move (the game as amended), the move list marking the amendment
        window.location.assign(spoken(box.dataset.base + "replay") + "&at=" + (answer.body.marker + 1));
      });
    }

    // what was previewed stands only while the form still reads it: a change asks for a new preview
    [line, reason].forEach(function (input) {
      input.addEventListener("input", function () { previewed = null; record.disabled = true; });
    });
    // the line is a text area (a long line shows whole on a phone), but Enter in it acts as in a field, and the
    // arrows move in the text (app.js's replay steps on them only outside a field)
    line.addEventListener("keydown", function (e) {
      e.stopPropagation();
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
    });
    // Enter (or Preview) shows the amendment; Enter again, once it is shown, records it, as Record does
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (previewed !== null && e.submitter !== form.querySelector("button.ask")) { recordIt(); } else { preview(); }
    });
    record.addEventListener("click", recordIt);
    box.addEventListener("toggle", function () { if (box.open) { reason.focus(); } });
    // `a` opens the form on a desktop keyboard (the arrows still step the replay)
    document.addEventListener("keydown", function (e) {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.ctrlKey || e.metaKey || e.altKey || e.key !== "a") { return; }
      e.preventDefault();
      box.open = true;
      reason.focus();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const box = document.getElementById("amend");
    if (box) { amending(box); }
  });
}());
