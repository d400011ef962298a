// whispers: a published archive's replay (application/publish.py). Every step is in the page, one section each
// (#step-1 .. #step-N); this shows one at a time: ← → step, the move list and the address (#eN) choose one. No fetch (a
// page opened from the disk may not), no inline script, nothing sent anywhere.
"use strict";

function archiveReplay(main) {
  const total = Number(main.dataset.total);
  const prev = document.getElementById("prev");
  const next = document.getElementById("next");
  let shown = total;
  // the address names a step as #eN, no element's id: opening a step's link shows the page from its top, as the
  // web replay does, not scrolled down to the step

  function wanted() {
    const m = /^#e([0-9]+)$/.exec(window.location.hash);
    const n = m ? Number(m[1]) : total;
    return n >= 1 && n <= total ? n : total;
  }

  function show(n) {
    const from = document.getElementById("step-" + shown);
    const to = document.getElementById("step-" + n);
    if (!to) { return; }
    if (from) { from.hidden = true; }
    to.hidden = false;
    const was = document.getElementById("m" + shown);
    if (was) { was.classList.remove("here"); was.removeAttribute("aria-current"); }
    const item = document.getElementById("m" + n);
    if (item) {
      item.classList.add("here");
      item.setAttribute("aria-current", "step");
      // the step's round open, the others closed, as the web replay shows them
      const round = item.closest("details");
      document.querySelectorAll("nav.moves details").forEach(function (d) { d.open = d === round; });
      // where the list scrolls beside the step (a wide window), the step's line in its middle
      const list = item.closest("nav.moves");
      if (list && list.scrollHeight > list.clientHeight + 1) {
        list.scrollTop = item.offsetTop - list.clientHeight / 2;
      }
    }
    prev.href = "#e" + Math.max(1, n - 1);
    next.href = "#e" + Math.min(total, n + 1);
    document.getElementById("at").textContent = n + " / " + total;
    document.documentElement.dataset.at = String(n);  // the step shown, for a test or a script
    prev.hidden = n <= 1;
    next.hidden = n >= total;
    shown = n;
  }

  function go(n) {
    if (n < 1 || n > total || n === shown) { return; }
    // the address follows (a step can be linked to) without a jump down the page
    window.history.replaceState(null, "", "#e" + n);
    show(n);
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === "ArrowLeft") { e.preventDefault(); go(shown - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); go(shown + 1); }
  });
  main.addEventListener("click", function (e) {
    const link = e.target.closest("a[href^='#e']");
    if (!link) { return; }
    e.preventDefault();
    go(Number(link.getAttribute("href").slice(2)));
    // a move tapped in the list below the step (a phone): up to the step
    const step = document.getElementById("step-" + shown);
    if (link.closest("nav.moves") && step.getBoundingClientRect().top < 0) { step.scrollIntoView(); }
  });
  window.addEventListener("hashchange", function () { show(wanted()); });
  show(wanted());
}

document.addEventListener("DOMContentLoaded", function () {
  document.documentElement.dataset.script = "ran";  // for the browser test: the script ran from the disk
  const main = document.getElementById("archive-replay");
  if (main) { archiveReplay(main); }
});
