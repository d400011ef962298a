// whispers: the board of the table page, tapped to compose a move (issue 32; web/templates/boardmap.html).
// A tap never records: it fills the notation line (app.js previews it, and Record alone records it). What a tap may
// compose, and every choice it may make, comes from the page (data-moves: the engine's legal options, from
// application/moves.board_moves); this file knows no rule. A picker's region field (a card's or a decree's region,
// pickers.html) is filled by a tap too.
"use strict";

(function () {
  // The move being composed: which option (by the line it starts) and the taps made. Kept across the page's in-place
  // updates (app.js `update` replaces the page, then board.js wires the new one and writes the line again).
  let kept = null;
  let letGo = null;  // Escape: the taps let go of (set by each wiring)

  function fill(text, parts) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return parts[k] === undefined ? m : String(parts[k]); });
  }

  function sources(move) {
    return move.attacks.map(function (a) { return a[0]; }).filter(function (r, i, all) { return all.indexOf(r) === i; });
  }

  function attackOf(move, source, target) {
    return move.attacks.find(function (a) { return a[0] === source && a[1] === target; });
  }

  // the line the taps make, and whether every choice is made (only then is it previewed, and recordable)
  function composed(move) {
    if (move.verb === "recruit") {
      // in the order tapped: the line reads as the player placed the banners
      const parts = Object.keys(kept.placed).filter(function (r) { return move.regions.indexOf(r) >= 0; })
        .map(function (r) { return r + "=" + kept.placed[r]; });
      const placed = move.regions.reduce(function (n, r) { return n + (kept.placed[r] || 0); }, 0);
      // the option places `amount` banners (the engine's count, its reserve counted): every choice made at that
      return {line: [move.line].concat(parts).join(" "), complete: placed === move.amount};
    }
    const chosen = [kept.source, kept.target, kept.banners].filter(function (v) { return v !== null; });
    return {line: [move.line].concat(chosen).join(" "), complete: chosen.length === 3};
  }

  function tapped() {
    return kept !== null && (Object.keys(kept.placed).length > 0 || kept.source !== null);
  }

  // what is left of the taps once the legal options changed (an update): what the option still allows
  function still(move) {
    if (move.verb === "recruit") {
      let total = 0;
      Object.keys(kept.placed).forEach(function (r) {
        if (move.regions.indexOf(r) < 0 || total + kept.placed[r] > move.amount) { delete kept.placed[r]; }
        else { total += kept.placed[r]; }
      });
      return;
    }
    if (kept.source !== null && sources(move).indexOf(kept.source) < 0) { kept.source = null; }
    const attack = kept.source !== null && kept.target !== null && attackOf(move, kept.source, kept.target);
    if (!attack) { kept.target = null; kept.banners = null; }
    else if (kept.banners !== null && kept.banners > attack[2]) { kept.banners = null; }
  }

  // a picker's select whose every choice is a region of this board: a tap can fill it
  function regionField(el, regions) {
    if (!el || el.tagName !== "SELECT" || !el.closest("form.pick")) { return false; }
    const values = Array.from(el.options).map(function (o) { return o.value; }).filter(Boolean);
    return values.length > 0 && values.every(function (v) { return regions[v] !== undefined; });
  }

  function nextField(form, regions) {
    return Array.from(form.querySelectorAll("select")).find(function (el) {
      const fieldset = el.closest("fieldset.params");
      return !(fieldset && fieldset.hidden) && !el.value && regionField(el, regions);
    }) || null;
  }

  function wire() {
    const section = document.getElementById("boardmap");
    if (!section) { return; }
    const words = section.dataset;
    const map = section.querySelector(".map");
    const regions = {};
    section.querySelectorAll("svg.board .region").forEach(function (g) { regions[g.dataset.region] = g; });
    const moves = words.moves ? JSON.parse(words.moves) : [];
    const line = document.getElementById("line");
    const form = document.getElementById("move");
    const pickers = Array.from(document.querySelectorAll("form.pick"));
    if (!moves.length && !pickers.length) {  // a seat's or a spectator's page: the board is to look at
      Object.keys(regions).forEach(function (r) { regions[r].removeAttribute("tabindex"); regions[r].removeAttribute("role"); });
      kept = null;
      return;
    }
    const modes = Array.from(section.querySelectorAll("button.mode"));
    const hint = section.querySelector(".tap-hint");
    const taps = section.querySelector(".taps");
    const stepper = section.querySelector(".stepper-row");
    let picking = null;  // a picker's region field the next tap fills
    let filling = false;  // while a tap fills it (its change moves on to the next field by itself)

    function current() {
      return kept && moves.find(function (m) { return m.line === kept.line; });
    }

    function legal(move) {
      if (picking) {
        return Array.from(picking.options).map(function (o) { return o.value; }).filter(Boolean);
      }
      if (!move) { return []; }
      if (move.verb === "recruit") { return move.regions; }
      const targets = kept.source === null ? [] : move.attacks.filter(function (a) { return a[0] === kept.source; })
        .map(function (a) { return a[1]; });
      return sources(move).concat(targets);
    }

    function badge(region, text) {
      const g = regions[region];
      g.querySelector(".badge text").textContent = text;
      g.classList.add("badged");
    }

    function render() {
      const move = current();
      const open = legal(move);
      modes.forEach(function (b, i) { b.setAttribute("aria-pressed", String(!picking && move === moves[i])); });
      section.classList.toggle("choosing", Boolean(picking || move));
      Object.keys(regions).forEach(function (r) {
        const g = regions[r];
        g.classList.toggle("legal", open.indexOf(r) >= 0);
        g.classList.remove("chosen", "badged");
      });
      if (taps) { taps.replaceChildren(); }
      if (stepper) { stepper.hidden = true; }
      let say = "";
      if (picking) {
        const label = picking.closest("label");
        say = fill(words.sayPick, {field: label ? label.querySelector("span").textContent : ""});
      } else if (move && move.verb === "recruit") {
        let placed = 0;
        move.regions.forEach(function (r) {
          const n = kept.placed[r];
          if (!n) { return; }
          placed += n;
          regions[r].classList.add("chosen");
          badge(r, "+" + n);
          taps.appendChild(chip(r, n));
        });
        say = fill(words.sayRecruit, {placed: placed, amount: move.amount});
      } else if (move) {
        if (kept.source !== null) { regions[kept.source].classList.add("chosen"); badge(kept.source, words.sayFrom); }
        if (kept.target !== null) {
          regions[kept.target].classList.add("chosen");
          badge(kept.target, words.sayTo + (kept.banners === null ? "" : " " + kept.banners));
          const most = attackOf(move, kept.source, kept.target)[2];
          stepper.hidden = false;
          stepper.querySelector("output").textContent = kept.banners === null ? "—" : String(kept.banners);
          stepper.querySelector(".less").disabled = kept.banners === null || kept.banners <= 1;
          stepper.querySelector(".more").disabled = kept.banners !== null && kept.banners >= most;
          say = fill(words.sayBanners, {n: most});
        } else {
          say = kept.source === null ? words.saySource : words.sayTarget;
        }
      }
      if (hint) { hint.textContent = say; hint.hidden = !say; }
    }

    // a region with its taps and a control to take one back
    function chip(region, n) {
      const box = document.createElement("span");
      box.className = "chip";
      box.dataset.region = region;
      box.textContent = regions[region].dataset.name + " +" + n;
      const less = document.createElement("button");
      less.type = "button";
      less.className = "less";
      less.textContent = "−";
      less.setAttribute("aria-label", fill(words.sayLess, {region: regions[region].dataset.name}));
      less.addEventListener("click", function () {
        kept.placed[region] -= 1;
        if (kept.placed[region] <= 0) { delete kept.placed[region]; }
        changed();
      });
      box.appendChild(less);
      return box;
    }

    // the line written to the notation field (app.js previews it once every choice is made); nothing tapped,
    // nothing written, and a line the board wrote before is taken back
    function send() {
      const move = current();
      const mine = line && line.dataset.composer === "board";
      if (form) { form.classList.toggle("composing", Boolean(move) && tapped()); }
      if (!line || (!mine && !(move && tapped()))) { return; }
      const detail = move && tapped() ? composed(move) : {line: "", complete: true};
      if (detail.line) { line.dataset.composer = "board"; } else { delete line.dataset.composer; }
      line.dispatchEvent(new CustomEvent("compose", {detail: detail}));
    }

    function changed() { render(); send(); }

    function tap(region) {
      if (picking) {
        if (legal(null).indexOf(region) < 0) { return; }
        const field = picking;
        field.value = region;
        filling = true;
        field.dispatchEvent(new Event("change", {bubbles: true}));  // the picker previews its move (app.js)
        filling = false;
        picking = nextField(field.closest("form.pick"), regions);
        render();
        return;
      }
      const move = current();
      if (!move) { return; }
      if (move.verb === "recruit") {
        const placed = Object.keys(kept.placed).reduce(function (n, r) { return n + kept.placed[r]; }, 0);
        if (move.regions.indexOf(region) < 0 || placed >= move.amount) { return; }
        kept.placed[region] = (kept.placed[region] || 0) + 1;
      } else if (region === kept.source) {
        kept.source = kept.target = kept.banners = null;
      } else if (region === kept.target) {
        kept.target = kept.banners = null;
      } else if (kept.source !== null && attackOf(move, kept.source, region)) {
        kept.target = region;
        kept.banners = null;  // nothing chosen ahead: the stepper starts empty
      } else if (sources(move).indexOf(region) >= 0) {
        kept.source = region;
        kept.target = kept.banners = null;
      } else {
        return;
      }
      changed();
    }

    // the map scrolled (on a phone, wider than the screen) to the regions a move may use
    function reveal() {
      const open = legal(current()).map(function (r) { return regions[r]; });
      if (!open.length || map.scrollWidth <= map.clientWidth) { return; }
      const left = Math.min.apply(null, open.map(function (g) { return g.getBoundingClientRect().left; }));
      const right = Math.max.apply(null, open.map(function (g) { return g.getBoundingClientRect().right; }));
      const box = map.getBoundingClientRect();
      map.scrollLeft += (left + right) / 2 - (box.left + box.right) / 2;
    }

    function choose(index) {
      picking = null;
      const move = moves[index];
      kept = current() === move ? null : {line: move.line, placed: {}, source: null, target: null, banners: null};
      changed();
      reveal();
    }

    Object.keys(regions).forEach(function (r) {
      const g = regions[r];
      g.addEventListener("click", function () { tap(r); });
      g.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tap(r); }
      });
    });
    modes.forEach(function (b, i) { b.addEventListener("click", function () { choose(i); }); });
    if (stepper) {
      const step = function (by) {
        const move = current();
        const attack = move && attackOf(move, kept.source, kept.target);
        if (!attack) { return; }
        kept.banners = kept.banners === null ? (by > 0 ? 1 : null) : Math.min(attack[2], Math.max(1, kept.banners + by));
        changed();
      };
      stepper.querySelector(".less").addEventListener("click", function () { step(-1); });
      stepper.querySelector(".more").addEventListener("click", function () { step(1); });
    }
    if (line) {
      // a line typed by hand is the player's: the board lets go of it
      line.addEventListener("input", function () { kept = null; delete line.dataset.composer; render(); });
    }
    pickers.forEach(function (picker) {
      picker.addEventListener("focusin", function (e) {
        if (regionField(e.target, regions)) { picking = e.target; render(); }
      });
      picker.addEventListener("change", function (e) {
        if (filling) { return; }
        picking = nextField(picker, regions);
        render();
      });
    });
    letGo = function () { kept = null; picking = null; changed(); };

    const move = current();
    if (kept && !move) { kept = null; }  // the option it composed is gone (the game moved on)
    if (kept) { still(move); }
    if (!kept && moves.length === 1) { choose(0); return; }  // no other move to tap for: no button to press first
    changed();
  }

  document.addEventListener("whispers:wired", function () { letGo = null; wire(); });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape" || !letGo || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) {
      return;
    }
    letGo();
  });
  document.addEventListener("whispers:recorded", function () { kept = null; });
}());
