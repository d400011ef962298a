// whispers: the table, seat, replay and director pages. No inline script (the CSP forbids it); every write goes
// by fetch with the link's token in the Authorization header, never by a cookie.
"use strict";

let justSealed = null;  // the set this page has just sealed, its code shown until the page is left
let holding = false;  // a page holding a move being composed (or a code to read) is not updated under the player

// in the page's language: what an answer says (a refusal, a move's `said`) is in the reader's words
function spoken(url) { return url + "?lang=" + encodeURIComponent(document.documentElement.lang || "en"); }

function send(url, token, body) {
  return fetch(spoken(url), {
    method: "POST",
    headers: {"Content-Type": "application/json", "Authorization": "Bearer " + token},
    body: JSON.stringify(body),
  }).then(function (answer) {
    // an answer that is not JSON (a proxy's error page) is still an answer, with its status
    return answer.json().then(function (data) { return {status: answer.status, body: data}; },
                              function () { return {status: answer.status, body: {error: String(answer.status)}}; });
  });
}

function refuse(box, answer) {
  // a refused move names the rule that forbids it (the rulebook section)
  // in the reader's edition where it has the section (`cited`), else the rule as the engine names it
  const rule = answer.body.cited || answer.body.rule;
  box.textContent = rule ? answer.body.error + " (" + rule + ")" : answer.body.error;
  box.hidden = false;
  if (answer.status === 409) { document.getElementById("moved").hidden = false; }
}

function post(game, line) {
  const form = document.getElementById("move");
  const refused = document.getElementById("refused");
  return send(game.dataset.base + "moves", form.dataset.token, {line: line, version: Number(game.dataset.version)})
    .then(function (answer) {
      if (answer.status === 201) {
        holding = false;  // the move composed is recorded: the page may follow
        document.dispatchEvent(new CustomEvent("whispers:recorded"));  // a composer (board.js) drops its taps
        return update(game).then(function () {
          recorded = {version: game.dataset.version, said: answer.body.said};
          sayRecorded(answer.body.said, true);
        });
      }
      refuse(refused, answer);
      refused.scrollIntoView({block: "nearest"});
    });
}

// What the move this page just recorded did (a take-back: which move it removed), shown at the top, in order; kept
// with the version it made, so that an update the live stream brings for that same version shows it again.
let recorded = null;
function sayRecorded(said, scroll) {
  const box = document.getElementById("said");
  if (!box || !Array.isArray(said) || said.length === 0) { return; }
  const head = document.createElement("p");
  head.textContent = box.dataset.sayRecorded;
  box.replaceChildren(head);
  said.forEach(function (text) {
    const line = document.createElement("div");
    line.textContent = String(text);
    box.appendChild(line);
  });
  box.hidden = false;
  if (scroll) { box.scrollIntoView({block: "nearest"}); }  // the recorder reads it wherever the move was composed
}

// The page brought up to date in place, without a reload (the scroll stays): its own HTML fetched again, as this
// link sees it, and the game's parts swapped for the new ones, then wired again. Only one at a time.
let updating = null;
function update(game) {
  if (updating) { return updating.then(function () { return update(game); }); }
  updating = fetch(spoken(window.location.pathname), {headers: {"Accept": "text/html"}})
    .then(function (answer) { return answer.ok ? answer.text() : null; })
    .then(function (html) {
      const fresh = html && new DOMParser().parseFromString(html, "text/html").getElementById("game");
      if (!fresh) { window.location.reload(); return; }
      // nothing new, and a move began being composed meanwhile (a tap while this was fetched): it is kept
      if (holding && fresh.dataset.version === game.dataset.version) { return; }
      const parts = Array.from(fresh.childNodes);  // a copy: adopting a node takes it out of the live list
      game.replaceChildren.apply(game, parts.map(function (n) { return document.adoptNode(n); }));
      game.dataset.version = fresh.dataset.version;
      holding = false;
      wire(game);
      if (recorded && recorded.version === game.dataset.version) { sayRecorded(recorded.said, false); }
    })
    .catch(function () { document.getElementById("moved").hidden = false; })
    .finally(function () { updating = null; });
  return updating;
}

// One picker form -> one notation line: each field with data-fmt adds its text ("{}" is its value) in order;
// an empty value, or the data-skip value, adds nothing; data-glue joins it to the part before.
function compose(form) {
  const parts = [form.dataset.society, form.dataset.verb];
  form.querySelectorAll("[data-fmt]").forEach(function (el) {
    if (el.closest("fieldset[hidden]")) { return; }  // an effect not chosen, the slots of a sealed set
    if ((el.type === "checkbox" || el.type === "radio") && !el.checked) { return; }
    const value = el.value.trim();
    if (!value || (el.dataset.skip !== undefined && value === el.dataset.skip)) { return; }
    const text = el.dataset.fmt.replace("{}", function () { return value; });
    if (el.dataset.glue) { parts[parts.length - 1] += text; } else { parts.push(text); }
  });
  return parts.join(" ");
}

// Whether every choice of a picker is made: each data-need field filled in (a group: one of its boxes checked),
// those of an effect not chosen aside. Nothing is chosen ahead, so a picker starts incomplete (issue 32).
function complete(form) {
  return Array.from(form.querySelectorAll("[data-need]")).every(function (el) {
    if (el.closest("fieldset[hidden]")) { return true; }
    if (el.tagName === "DIV") { return el.querySelector("input:checked") !== null; }
    return el.value.trim() !== "";
  });
}

// Preview, then record: `lineOf()` is the move as its form now reads (null while a choice is missing); it is
// previewed (decided by the server, nothing appended) and shown in `box`, and `button` records exactly the line
// previewed, only while the form still reads it. A tap or a key never records a move nobody has seen.
function previewer(game, form, box, button, lineOf) {
  const words = document.getElementById("record").dataset;
  let shown = null;  // the line whose preview the box shows, when it may be recorded
  let asked = 0;
  function show(lines, className) {
    box.replaceChildren();
    lines.forEach(function (text, i) {
      const line = document.createElement(i === 0 && className === "ok" ? "p" : "div");
      line.textContent = text;
      box.appendChild(line);
    });
    box.className = "preview " + className;
    box.hidden = lines.length === 0;
  }
  function refresh() {
    shown = null;
    button.disabled = true;
    const line = lineOf();
    if (line === null) { show([words.sayIncomplete], "wait"); return; }
    if (!line.trim()) { show([], "wait"); return; }
    const mine = ++asked;
    send(game.dataset.base + "preview", document.getElementById("move").dataset.token,
         {line: line, version: Number(game.dataset.version)}).then(function (answer) {
      if (mine !== asked || lineOf() !== line) { return; }  // the form changed meanwhile: a newer preview comes
      if (answer.status !== 200) {
        const rule = answer.body.cited || answer.body.rule;
        show([rule ? answer.body.error + " (" + rule + ")" : answer.body.error], "no");
        if (answer.status === 409) { document.getElementById("moved").hidden = false; }
        return;
      }
      // `said` opens with the move itself in the reader's words, then what it does, in order
      const said = answer.body.said.length ? answer.body.said.slice() : [answer.body.line];
      said.push(answer.body.over ? words.sayOver : words.sayNext + " " + answer.body.next);
      show(said, "ok");
      shown = answer.body.line;
      // the move in the reader's words, for "Edit as notation" while the form still reads this line
      form.dataset.said = answer.body.said.length ? answer.body.said[0] : line;
      form.dataset.saidOf = line;
      button.disabled = false;
    });
  }
  function record() {
    if (shown === null || button.disabled) { return; }
    button.disabled = true;
    post(game, shown);
  }
  return {refresh: refresh, record: record, ready: function () { return shown !== null; }};
}

function pickers(game, line) {
  document.querySelectorAll("form.pick").forEach(function (form) {
    const button = form.querySelector("button.record");
    const shown = previewer(game, form, form.querySelector(".preview"), button, function () {
      return complete(form) ? compose(form) : null;
    });
    // a move half filled in is not thrown away by a live reload: the page says the game moved on instead
    form.addEventListener("change", function () { holding = true; shown.refresh(); });
    form.addEventListener("submit", function (e) { e.preventDefault(); shown.record(); });
    const ask = form.querySelector("button.ask");  // a move with nothing that must be chosen (a pass, a draw, no card)
    if (ask) { ask.addEventListener("click", function () { holding = true; shown.refresh(); }); }
    const sealed = form.querySelector("input.sealed");  // a loyalty set sealed: its slots are not chosen
    if (sealed) {
      const slots = form.querySelector("fieldset.slots");
      sealed.addEventListener("change", function () { slots.hidden = sealed.checked; });
    }
    form.querySelector("button.to-line").addEventListener("click", function () {
      const composed = compose(form);
      line.value = (form.dataset.saidOf === composed ? form.dataset.said : composed) + " ";
      line.focus();
    });
    const effect = form.querySelector("select.effect");
    if (effect) {
      const show = function () {
        form.querySelectorAll("fieldset.params").forEach(function (f) { f.hidden = f.dataset.effect !== effect.value; });
        form.querySelector("fieldset.ability").hidden = Boolean(effect.value);  // an effect names no ability
      };
      effect.addEventListener("change", show);
      show();
    }
  });
}

// What hangs on the game's parts (the forms, the pickers, the seat): wired when the page opens and again each time
// `update` replaces them.
function wire(game) {
  const form = document.getElementById("move");
  const line = document.getElementById("line");
  if (form) {
    const button = form.querySelector("button.record");
    let partial = false;  // a line a composer (board.js) is building, not every choice made yet: no preview
    const typed = previewer(game, form, form.querySelector(".preview"), button, function () {
      return partial ? null : line.value;
    });
    let due = null;
    // --- a move composed by taps (web/static/board.js): it writes the line being built here, and whether every
    // choice is made yet; the line is previewed only once it is
    line.addEventListener("compose", function (e) {
      partial = !e.detail.complete;
      line.value = e.detail.line;
      window.clearTimeout(due);
      typed.refresh();
    });
    // ---
    line.addEventListener("input", function () {
      partial = false;
      button.disabled = true;
      window.clearTimeout(due);
      due = window.setTimeout(typed.refresh, 400);
    });
    // Enter (or Preview) shows the move; Enter again, once it is shown, records it, as Record does
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      window.clearTimeout(due);
      if (typed.ready() && e.submitter !== form.querySelector("button.ask")) { typed.record(); } else { typed.refresh(); }
    });
    button.addEventListener("click", typed.record);
    pickers(game, line);
    document.getElementById("undo").addEventListener("submit", function (e) {
      e.preventDefault();
      const reason = document.getElementById("reason").value.replace(/"/g, "'");
      post(game, 'undo "' + reason + '"');
    });
  }
  const seat = document.getElementById("seat");
  if (seat) { sealing(game, seat); }
  document.dispatchEvent(new CustomEvent("whispers:wired", {detail: game}));  // board.js and council.js wire again
}

function table(game) {
  wire(game);
  document.addEventListener("keydown", function (e) {
    const line = document.getElementById("line");
    if (line && e.key === "/" && document.activeElement !== line) { e.preventDefault(); line.focus(); }
  });
  if (window.EventSource) {
    const source = new EventSource(game.dataset.live);
    // the game's notes changed (a seat's dispute among them), which its version does not show: council.js follows
    source.addEventListener("noted", function () { document.dispatchEvent(new CustomEvent("whispers:noted")); });
    source.addEventListener("version", function (e) {
      if (Number(e.data) !== Number(game.dataset.version)) {
        // a move being composed (a picker touched, a line typed, a set just sealed) is kept: the page says the
        // game moved on instead; else the page follows in place
        // (a line a composer keeps, data-composer, it writes again after the update: board.js)
        const line = document.getElementById("line");
        if ((line && line.value && !line.dataset.composer) || holding) {
          document.getElementById("moved").hidden = false;
        } else { update(game); }
      }
    });
  }
}

// --- sealing a loyalty set at its own seat (ledger/core/sealing.py computes the same hash to check the reveal) -------

const SCHEME = "whispers-loyalty-1";

// The salt: 26 characters of Crockford's base32 (130 random bits: each byte's low 5 bits, uniform since 256 is a
// multiple of 32), short enough to write down and read aloud; ledger/core/sealing.py reads it back (CODE, read_code).
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function randomCode() {
  const values = new Uint8Array(26);
  window.crypto.getRandomValues(values);
  return Array.from(values, function (b) { return BASE32[b & 31]; }).join("");
}

// a code in groups of four to read aloud (an older hexadecimal code as it is)
function grouped(code) { return /^[0-9a-f]+$/.test(code) ? code : code.match(/.{1,4}/g).join("-"); }

function commitment(slots, tokens, salt) {
  const text = SCHEME + "|" + salt + "|" + slots.map(function (s) { return s + "=" + tokens[s]; }).join(";");
  return "sha256:" + window.whispersSha256(text);
}

function keptKey(game) { return "whispers:sealed:" + game.dataset.game + ":" + game.dataset.society; }

function readKept(game) {
  try { return JSON.parse(window.localStorage.getItem(keptKey(game)) || "null"); } catch (e) { return null; }
}

// slot and empire ids in the reader's words (the seat's data-terms, the glossary's)
function sayer(seat) {
  let words = {};
  try { words = JSON.parse(seat.dataset.terms || "{}"); } catch (e) { words = {}; }
  return function (id) { return words[id] || id; };
}

// the tokens in the reader's words (the page's data-terms: slot and empire ids to the glossary's), then the code
// on a line of its own, large and in fixed width, to copy down and read aloud group by group
function describe(box, lead, seat, slots, kept) {
  const say = sayer(seat);
  const code = document.createElement("code");
  code.className = "salt";
  code.textContent = grouped(kept.salt);
  box.replaceChildren(lead + " " + slots.map(function (s) { return say(s) + " " + say(kept.tokens[s]); }).join(" · "),
                      document.createElement("br"), (seat.dataset.sayCode || "code") + " ", code);
}

// A swap the table recorded for this seat checked against the set this device keeps: the kept set, with every
// recorded swap applied, must hold each empire the swaps turned face up where they show it. Only this seat's page
// knows its set, so only it can tell; what it shows is its own set, to itself.
function contradiction(box, seat, slots, kept) {
  let swapped = [], revealed = {};
  try {
    swapped = JSON.parse(box.dataset.swapped || "[]");
    revealed = JSON.parse(box.dataset.revealed || "{}");
  } catch (e) { return; }
  const say = sayer(seat);
  const now = Object.assign({}, kept.tokens);
  swapped.forEach(function (pair) { const t = now[pair[0]]; now[pair[0]] = now[pair[1]]; now[pair[1]] = t; });
  const wrong = slots.find(function (s) { return revealed[s] !== undefined && revealed[s] !== now[s]; });
  if (wrong === undefined) { return; }
  const parts = {slot: say(wrong), empire: say(revealed[wrong]), mine: say(now[wrong])};
  box.textContent = box.dataset.say.replace(/\{(\w+)\}/g, function (m, k) { return parts[k] || m; });
  box.hidden = false;
}

function chosen(form, slots) {
  const tokens = {};
  slots.forEach(function (s) { tokens[s] = form.elements[s].value; });
  return tokens;
}

// The slots as a one-to-one picker: choosing an empire on a slot swaps it with the slot that held it (which takes
// this slot's former empire, or nothing), so no empire ever sits on two slots.
function oneToOne(form, slots) {
  slots.forEach(function (s) {
    const select = form.elements[s];
    select.dataset.was = select.value;
    select.addEventListener("change", function () {
      holding = true;  // a set being placed is not replaced under the player by a live update
      slots.forEach(function (o) {
        const other = form.elements[o];
        if (o !== s && other.value === select.value) { other.value = select.dataset.was; other.dataset.was = other.value; }
      });
      select.dataset.was = select.value;
      select.removeAttribute("aria-invalid");
    });
  });
}

// What keeps a set from being sent, naming the slot (the rules refuse it too): an empty slot, an empire twice.
function unfit(seat, form, slots) {
  const say = sayer(seat);
  const fill = function (text, parts) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return parts[k] === undefined ? m : parts[k]; });
  };
  for (let i = 0; i < slots.length; i++) {
    const select = form.elements[slots[i]];
    if (!select.value) {
      select.setAttribute("aria-invalid", "true");
      select.focus();
      return fill(seat.dataset.sayEmpty, {slot: say(slots[i])});
    }
    const j = slots.findIndex(function (o) { return form.elements[o].value === select.value; });
    if (j < i) {
      select.setAttribute("aria-invalid", "true");
      return fill(seat.dataset.sayTwice, {empire: say(select.value), slot: say(slots[j]), other: say(slots[i])});
    }
  }
  return "";
}

function sealing(game, seat) {
  const slots = seat.dataset.slots.split(" ");
  const refused = document.getElementById("seat-refused");
  const kept = readKept(game);
  const shown = document.getElementById("kept");
  if (shown && kept) {
    describe(shown, seat.dataset.sayKept, seat, slots, kept);
    shown.hidden = false;
  }
  const disputed = document.getElementById("disputed");
  if (disputed && kept) { contradiction(disputed, seat, slots, kept); }
  if (justSealed) {  // the page followed its own seal in place: the code to write down stays in view
    const code = document.getElementById("sealed-code");
    describe(code, seat.dataset.saySealed, seat, slots, justSealed);
    code.hidden = false;
    if (shown) { shown.hidden = true; }
  }
  const seal = document.getElementById("seal");
  if (seal) {
    oneToOne(seal, slots);
    seal.addEventListener("submit", function (e) {
      e.preventDefault();
      const tokens = chosen(seal, slots);
      const unfitness = unfit(seat, seal, slots);
      if (unfitness) {
        refused.textContent = unfitness;
        refused.hidden = false;
        return;
      }
      refused.hidden = true;
      const salt = randomCode();
      const sealed = commitment(slots, tokens, salt);
      const record = {tokens: tokens, salt: salt, commitment: sealed};
      try { window.localStorage.setItem(keptKey(game), JSON.stringify(record)); } catch (err) { /* shown below */ }
      holding = true;
      send(game.dataset.base + "seal", seat.dataset.token, {commitment: sealed, version: Number(game.dataset.version)})
        .then(function (answer) {
          holding = false;
          if (answer.status !== 201) { refuse(refused, answer); return; }
          // the seal is this page's own move: the page follows it in place (the stream may have said so first)
          justSealed = record;
          document.getElementById("moved").hidden = true;
          update(game);
        });
    });
  }
  const reveal = document.getElementById("reveal");
  if (reveal) {
    if (kept) {
      slots.forEach(function (s) { reveal.elements[s].value = kept.tokens[s]; });
      reveal.elements.salt.value = grouped(kept.salt);
    }
    oneToOne(reveal, slots);
    reveal.addEventListener("submit", function (e) {
      e.preventDefault();
      const unfitness = unfit(seat, reveal, slots);
      if (unfitness) { refused.textContent = unfitness; refused.hidden = false; return; }
      const body = {tokens: chosen(reveal, slots), salt: reveal.elements.salt.value.trim(),
                    version: Number(game.dataset.version)};
      send(game.dataset.base + "reveal", seat.dataset.token, body).then(function (answer) {
        if (answer.status === 201) { window.location.reload(); return; }
        refuse(refused, answer);
      });
    });
  }
}

// --- replay: step, annotate, fork --------------------------------------------------------------------------------

function replay(main) {
  document.addEventListener("keydown", function (e) {
    if (e.target instanceof HTMLInputElement) { return; }
    if (e.key === "a" && !e.ctrlKey && !e.metaKey && !e.altKey && document.getElementById("analyse")) {
      e.preventDefault();
      askAnalysis(main);
      return;
    }
    const to = e.key === "ArrowLeft" ? main.dataset.prev : e.key === "ArrowRight" ? main.dataset.next : "";
    if (to) { window.location.assign(to); }
  });
  analysis(main);
  const here = document.querySelector(".moves li.here");
  if (here) { here.scrollIntoView({block: "center"}); window.scrollTo(0, 0); }
  const box = document.querySelector("section.annotate");
  if (!box) { return; }
  const refused = document.getElementById("refused");
  const at = Number(main.dataset.at);
  document.getElementById("note").addEventListener("submit", function (e) {
    e.preventDefault();
    const body = {at: at, text: document.getElementById("note-text").value,
                  author: document.getElementById("note-author").value.trim() || null};
    send(main.dataset.base + "notes", box.dataset.token, body).then(function (answer) {
      if (answer.status === 201) { window.location.reload(); return; }
      refuse(refused, answer);
    });
  });
  document.getElementById("fork").addEventListener("submit", function (e) {
    e.preventDefault();
    const body = {name: document.getElementById("fork-name").value.trim(), at: at};
    send(main.dataset.base + "forks", box.dataset.token, body).then(function (answer) {
      if (answer.status !== 201) { refuse(refused, answer); return; }
      const done = document.getElementById("forked");
      done.textContent = box.dataset.sayForked.replace("{}", answer.body.game) + " ";
      const link = document.createElement("a");
      link.href = answer.body.open;
      link.textContent = box.dataset.sayOpen;
      done.appendChild(link);
      done.hidden = false;
      refused.hidden = true;
    });
  });
}

// --- replay: the analysis, asked for, its progress followed, then its chart swapped in --------------------------

function analysis(main) {
  const panel = document.getElementById("analysis");
  if (!panel) { return; }
  const ask = document.getElementById("analyse");
  if (ask) { ask.addEventListener("submit", function (e) { e.preventDefault(); askAnalysis(main); }); }
  if (panel.dataset.state === "queued" || panel.dataset.state === "running") { window.setTimeout(followAnalysis, 1500, main); }
}

function askAnalysis(main) {
  const panel = document.getElementById("analysis");
  send(main.dataset.base + "analysis", panel.dataset.token, {}).then(function (answer) {
    if (answer.status !== 202) { refuse(document.getElementById("analyse-refused"), answer); return; }
    swapAnalysis(main);
  });
}

function swapAnalysis(main) {
  // the page's own analysis section, read again (progress, or the chart once done), put in place of this one
  return fetch(window.location.href).then(function (answer) { return answer.ok ? answer.text() : null; })
    .then(function (html) {
      if (html === null) { return; }
      const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("analysis");
      const panel = document.getElementById("analysis");
      if (fresh && panel) { panel.replaceWith(document.adoptNode(fresh)); analysis(main); }
    });
}

function followAnalysis(main) {
  const panel = document.getElementById("analysis");
  if (!panel) { return; }
  fetch(spoken(main.dataset.base + "analysis")).then(function (answer) { return answer.ok ? answer.json() : null; })
    .then(function (job) {
      if (job === null) { window.setTimeout(followAnalysis, 5000, main); return; }
      if (job.state !== "queued" && job.state !== "running") { swapAnalysis(main); return; }
      const bar = panel.querySelector("progress");
      const said = panel.querySelector(".said");
      if (job.state === "running" && bar && said) {
        bar.max = Math.max(1, job.moves);
        bar.value = job.moves_done;
        let text = panel.dataset.sayRunning.replace("{done}", job.moves_done).replace("{moves}", job.moves);
        if (job.left !== null) {
          text += " · " + (job.left >= 60 ? panel.dataset.sayMinutes.replace("{n}", Math.ceil(job.left / 60))
            : panel.dataset.saySeconds.replace("{n}", job.left));
        }
        said.textContent = text;
      }
      window.setTimeout(followAnalysis, 1500, main);
    })
    .catch(function () { window.setTimeout(followAnalysis, 5000, main); });
}

// --- the director's screen: live ---------------------------------------------------------------------------------

function hall(main) {
  const find = document.getElementById("q");
  document.addEventListener("keydown", function (e) {
    if (e.target instanceof HTMLInputElement) { return; }
    if (e.key === "/") { e.preventDefault(); find.focus(); return; }
    const to = e.key === "ArrowLeft" ? main.dataset.prev : e.key === "ArrowRight" ? main.dataset.next : "";
    if (to) { window.location.assign(to); }
  });
  if (!window.EventSource) { return; }
  const source = new EventSource(main.dataset.live);
  const moved = document.getElementById("moved");
  let due = null;
  source.addEventListener("changed", function () {
    // a search being typed is not thrown away by a move at some table: the page says games moved on, and waits
    if (document.activeElement === find || find.value !== find.defaultValue) { moved.hidden = false; return; }
    // else it follows, once a second at most however many tables are moving
    if (due === null) { due = window.setTimeout(function () { window.location.reload(); }, 1000); }
  });
}

// --- what web/static/council.js reuses ----------------------------------------------------------------------------
window.whispers = {send: send, spoken: spoken, readKept: readKept};

document.addEventListener("DOMContentLoaded", function () {
  document.documentElement.dataset.script = "ran";  // for the browser test: the CSP let this file run
  const game = document.getElementById("game");
  if (game) { table(game); }
  const main = document.getElementById("replay");
  if (main) { replay(main); }
  const director = document.getElementById("hall");
  if (director) { hall(director); }
});
