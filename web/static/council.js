// whispers: the council grid as what one taps (issue 32), and a seat's dispute of a swap the table recorded.
// No rule is decided here: a cell is tappable only where a picker the server built from the legal options
// (web/templates/pickers.html) offers its position; a tap fills that picker, whose preview app.js fetches, and only
// its Record button records. app.js wires the page and says so ("whispers:wired") after each in-place update.
"use strict";

(function () {
  // The picker choice a council cell stands for: a deploy or retrieve naming its position, or a swap-agent order
  // given at a position of the cell's empire naming its office. The first picker offering it, or null.
  function choiceFor(position) {
    const [empire, office] = position.split(".");
    for (const form of document.querySelectorAll("form.pick")) {
      const verb = form.dataset.verb;
      let value = null;
      if (verb === "deploy" || verb === "retrieve") {
        value = position;
      } else if (verb === "swap-agent" && form.dataset.at && form.dataset.at.split(".")[0] === empire) {
        value = office;
      }
      const select = value === null ? null : form.querySelector('select[data-fmt="{}"]');
      if (select && Array.from(select.options).some(function (o) { return o.value === value; })) {
        return {form: form, select: select, value: value};
      }
    }
    return null;
  }

  function cells() { return document.querySelectorAll("table.grid td.office[data-position]"); }

  // The cells a tap may choose marked (a button to the keyboard and to a screen reader), the chosen one apart.
  function mark() {
    markSlots();
    cells().forEach(function (cell) {
      const choice = choiceFor(cell.dataset.position);
      cell.classList.toggle("tappable", choice !== null);
      cell.classList.toggle("chosen", choice !== null && choice.select.value === choice.value);
      if (choice) {
        cell.tabIndex = 0;
        cell.setAttribute("role", "button");
        cell.setAttribute("aria-pressed", String(choice.select.value === choice.value));
      } else {
        cell.removeAttribute("tabindex");
        cell.removeAttribute("role");
        cell.removeAttribute("aria-pressed");
      }
    });
  }

  // --- a swap of loyalty tokens: the two slots tapped on the society's loyalty row (its tokens where this link sees
  // them, else a chip per concealed slot the picker offers), into the picker's two slot fields in turn -------------

  function slotFields(form) { return Array.from(form.querySelectorAll('select[data-fmt="{}"]')); }

  function markSlots() {
    document.querySelectorAll("button.slot-chip").forEach(function (chip) { chip.remove(); });
    document.querySelectorAll("tr.loyalty [data-slot]").forEach(function (token) {
      token.classList.remove("tappable", "chosen");
      token.removeAttribute("role");
      token.removeAttribute("tabindex");
    });
    document.querySelectorAll('form.pick[data-verb="swap-loyalty"]').forEach(function (form) {
      const row = document.querySelector('tr.loyalty[data-society="' + form.dataset.society + '"] td');
      const fields = slotFields(form);
      if (!row || fields.length !== 2) { return; }
      Array.from(fields[0].options).filter(function (o) { return o.value; }).forEach(function (option) {
        let token = row.querySelector('[data-slot="' + option.value + '"]');
        if (!token) {  // a sealed set: no token shown, a chip for the slot
          token = document.createElement("button");
          token.type = "button";
          token.className = "slot-chip";
          token.dataset.slot = option.value;
          token.textContent = option.textContent;
          row.appendChild(token);
        } else {
          token.setAttribute("role", "button");
          token.tabIndex = 0;
        }
        token.classList.add("tappable");
        token.dataset.form = form.id;
        token.classList.toggle("chosen", fields.some(function (f) { return f.value === option.value; }));
      });
    });
  }

  // a tapped slot fills the first slot field, then the second; a slot tapped again is let go
  function tapSlot(token) {
    const form = document.getElementById(token.dataset.form);
    if (!form) { return; }
    const fields = slotFields(form);
    const slot = token.dataset.slot;
    const held = fields.find(function (f) { return f.value === slot; });
    if (held) { chosen(held, ""); } else {
      const empty = fields.find(function (f) { return !f.value; });
      chosen(empty || fields[1], slot);
    }
    pin(form);
    mark();
  }

  function chosen(select, value) {
    select.value = value;
    select.dispatchEvent(new Event("change", {bubbles: true}));  // app.js previews the move the picker now reads
  }

  // A picker filled by a tap is pinned at the foot of the screen with its preview and Record button, so the move
  // is recorded where it was tapped; × (or Escape) lets it go, its choice undone.
  function pin(form) {
    document.querySelectorAll("form.pick.pinned").forEach(function (other) { if (other !== form) { unpin(other); } });
    if (!form.querySelector("button.unpin")) {
      const close = document.createElement("button");
      close.type = "button";
      close.className = "unpin";
      close.textContent = "×";
      close.setAttribute("aria-label", (document.querySelector("section.council") || form).dataset.sayClose || "×");
      close.addEventListener("click", function () { unpin(form); });
      form.insertBefore(close, form.firstChild);
    }
    form.classList.add("pinned");
    document.body.classList.add("pinned-move");
  }

  function unpin(form) {
    form.classList.remove("pinned");
    form.querySelectorAll("select").forEach(function (select) { if (select.value) { chosen(select, ""); } });
    if (!document.querySelector("form.pick.pinned")) { document.body.classList.remove("pinned-move"); }
    mark();
  }

  function tap(cell) {
    const choice = choiceFor(cell.dataset.position);
    if (!choice) { return; }
    document.querySelectorAll("form.pick.pinned").forEach(function (other) {
      if (other !== choice.form) { unpin(other); }
    });
    if (choice.select.value !== choice.value) { chosen(choice.select, choice.value); }
    pin(choice.form);
    mark();
  }

  document.addEventListener("click", function (e) {
    const cell = e.target.closest && e.target.closest("td.office.tappable");
    if (cell) { tap(cell); }
    const token = e.target.closest && e.target.closest("tr.loyalty .tappable[data-slot]");
    if (token) { tapSlot(token); }
  });
  // the keyboard: Enter or Space on a cell (or a slot) chooses it; Enter again on the chosen cell, once its move is
  // previewed, records it, as Enter does in the notation field; Escape lets the pinned move go
  document.addEventListener("keydown", function (e) {
    const cell = e.target.closest && e.target.closest("td.office.tappable");
    if (cell && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      const choice = choiceFor(cell.dataset.position);
      const record = choice && choice.form.querySelector("button.record");
      if (e.key === "Enter" && cell.classList.contains("chosen") && record && !record.disabled) {
        choice.form.requestSubmit();
      } else { tap(cell); }
      return;
    }
    const token = e.target.closest && e.target.closest("tr.loyalty span.tappable[data-slot]");
    if (token && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); tapSlot(token); return; }
    if (e.key === "Escape") { document.querySelectorAll("form.pick.pinned").forEach(unpin); }
  });
  // a picker's choice made in its own field shows on the council too
  document.addEventListener("change", function (e) { if (e.target.closest && e.target.closest("form.pick")) { mark(); } });

  // --- a seat's dispute: the first recorded swap its kept set contradicts, named to the server by its label ------

  const told = new Set();  // the swaps this page has disputed already

  function contradicted(kept, swaps) {
    const now = Object.assign({}, kept.tokens);
    for (const swap of swaps) {
      const [a, b] = swap.slots;
      const held = now[a];
      now[a] = now[b];
      now[b] = held;
      if (swap.revealed[a] !== now[a] || swap.revealed[b] !== now[b]) { return swap; }
    }
    return null;
  }

  function dispute(game) {
    const box = document.getElementById("disputed");
    const seat = document.getElementById("seat");
    const kept = box && seat && window.whispers.readKept(game);
    if (!kept || !kept.tokens) { return; }
    let swaps = [];
    try { swaps = JSON.parse(box.dataset.swaps || "[]"); } catch (err) { return; }
    const swap = contradicted(kept, swaps);
    if (!swap) { return; }
    const say = function () {
      const line = document.createElement("span");
      line.className = "told";
      line.textContent = " " + box.dataset.sayTold;
      box.appendChild(line);
      box.hidden = false;
    };
    if (told.has(swap.label)) { say(); return; }
    window.whispers.send(game.dataset.base + "dispute", seat.dataset.token, {move: swap.label}).then(function (answer) {
      if (answer.status === 200 || answer.status === 201) { told.add(swap.label); say(); }
    });
  }

  // the table's page: a dispute shown in place (only that part of the page fetched again: a move being composed stays)
  document.addEventListener("whispers:noted", function () {
    if (!document.getElementById("disputes")) { return; }
    fetch(window.whispers.spoken(window.location.pathname), {headers: {"Accept": "text/html"}})
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (html) {
        const fresh = html && new DOMParser().parseFromString(html, "text/html").getElementById("disputes");
        const here = document.getElementById("disputes");
        if (fresh && here) { here.replaceWith(document.adoptNode(fresh)); }
      });
  });

  document.addEventListener("whispers:wired", function (e) {
    if (!document.querySelector("form.pick.pinned")) { document.body.classList.remove("pinned-move"); }
    mark();
    dispute(e.detail);
  });
}());
