"use strict";
// Follows the game live: the server says only that the game moved (its seq), and this
// fetches the page's live part again, drawn on the server for this link alone. What the
// player is typing, outside that part, is kept; its expected seq follows the position.
// A choice half made in a picker survives every redraw: a picker that offers the same
// choices is kept as it is (focus and all); one whose choices changed gets the choice back,
// and a choice it no longer offers stays chosen and is said so. Either is still sent at the
// seq it was begun at: the server takes it if all that happened since is other seats' moves
// of the same simultaneous step, and otherwise refuses it in words ("the table moved on"),
// so Send never records another card, or another seat's move, in place of the one chosen.
(function () {
  const live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  // Lists of one picker that never take the same choice in a move (Ohanami's two cards):
  // a choice made in one is not offered in the other.
  // A picker of known moves offers, in each list, only the choices that still make a legal
  // move with the choices made in the others (a clue to ben offers the clues that touch a
  // card of ben's), so Send never sends a move the rules refuse.
  function keepApart(form) {
    if (form.dataset.moves) return narrow(form, JSON.parse(form.dataset.moves));
    const lists = [...form.querySelectorAll("select[data-apart]")];
    for (const list of lists) {
      const taken = lists
        .filter((other) => other !== list && other.dataset.apart === list.dataset.apart)
        .map((other) => other.value)
        .filter((v) => v !== "");
      for (const option of list.options) option.disabled = option.value !== "" && taken.includes(option.value);
    }
  }
  function narrow(form, moves) {
    const lists = [...form.querySelectorAll("select")];
    const made = lists.map((list) => (list.value === "" || list.value === "?" ? null : list.value));
    lists.forEach((list, i) => {
      const fits = moves.filter((move) => made.every((value, j) => j === i || value === null || move[j] === value));
      const offered = new Set(fits.map((move) => move[i]));
      for (const option of list.options) option.disabled = option.value !== "" && !offered.has(option.value);
    });
  }
  // A card of the player's own hand that a picker names is a button: a tap chooses it in the
  // picker last used (else the first that offers it), in its first list still open, or ticks
  // it in a set of slots; a tap on a chosen card takes it back. A pressed card is chosen.
  let lastPicker = ""; // the data-form of the picker a finger used last (it survives redraws)
  function pickerOf(word) {
    const forms = [...live.querySelectorAll("form.picker[data-form]")].filter((form) =>
      [...form.querySelectorAll("option, input[type=checkbox]")].some((o) => o.value === word),
    );
    return forms.find((form) => form.dataset.form === lastPicker) || forms[0] || null;
  }
  function open(select) {
    return select.value === "" || select.value === "?";
  }
  function pressCards() {
    const form = live.querySelector(`form.picker[data-form="${CSS.escape(lastPicker)}"]`);
    const counts = new Map();
    const count = (v) => counts.set(v, (counts.get(v) || 0) + 1);
    if (form) {
      for (const select of form.querySelectorAll("select")) if (!open(select)) count(select.value);
      for (const box of form.querySelectorAll("input[type=checkbox]:checked")) count(box.value);
    }
    for (const card of live.querySelectorAll("button.card[data-word]")) {
      const left = counts.get(card.dataset.word) || 0;
      card.setAttribute("aria-pressed", left > 0 ? "true" : "false");
      if (left > 0) counts.set(card.dataset.word, left - 1);
    }
  }
  live.addEventListener("click", (event) => {
    const card = event.target.closest && event.target.closest("button.card[data-word]");
    if (!card) return;
    const word = card.dataset.word;
    const form = pickerOf(word);
    if (!form) return;
    lastPicker = form.dataset.form;
    const box = form.querySelector(`input[type=checkbox][value="${CSS.escape(word)}"]`);
    const lists = [...form.querySelectorAll("select")];
    if (box) {
      box.checked = !box.checked;
    } else if (card.getAttribute("aria-pressed") === "true") {
      const holding = lists.filter((list) => list.value === word).pop();
      if (holding) holding.selectedIndex = 0; // "choose…" or "? not said" again
    } else {
      const list = lists.find(
        (l) => open(l) && [...l.options].some((o) => o.value === word && !o.disabled),
      );
      if (list) list.value = word;
    }
    form.dataset.touched = "1";
    keepApart(form);
    pressCards();
  });
  live.addEventListener("focusin", (event) => {
    const form = event.target.closest && event.target.closest("form.picker[data-form]");
    if (form) lastPicker = form.dataset.form;
  });
  // A set of slots (the cards a table clue touched) names one slot at least: a picker sent
  // without one is stopped here and says so, rather than refused after sending.
  live.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("picker")) return;
    for (const set of form.querySelectorAll("fieldset[data-least]")) {
      if (set.querySelector("input[type=checkbox]:checked")) continue;
      event.preventDefault();
      event.stopImmediatePropagation();
      let said = form.querySelector(".least");
      if (!said) {
        said = document.createElement("small");
        said.className = "least";
        said.setAttribute("role", "alert");
        form.append(said);
      }
      said.textContent = say("web.js-tick-one", { what: asSaid(set.querySelector("legend").textContent) });
      return;
    }
    sendsValue(form);
  });
  // A picker of known moves sends the move chosen as a value (its kind and typed fields),
  // found by the words chosen; its words go too, for a page shown again after a refusal.
  function sendsValue(form) {
    let move = null;
    if (form.dataset.offers) {
      const lists = [...form.querySelectorAll("select")];
      const chosen = lists.map((list) => list.value);
      const offers = JSON.parse(form.dataset.offers);
      const exact = offers.find(([words]) => words.join(" ") === chosen.join(" "));
      const either = offers.filter(([words]) => unordered(words, lists) === unordered(chosen, lists));
      // one move in either order; several (a compete's pairings of four cards): the words go
      const found = exact || (either.length === 1 ? either[0] : null);
      if (found) move = found[1];
    } else if (form.dataset.builds) {
      move = built(form, JSON.parse(form.dataset.builds));
    }
    let field = form.querySelector("input[name=move]");
    if (move === null) {
      if (field) field.remove();
      return;
    }
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "move";
      form.append(field);
    }
    field.value = JSON.stringify(move);
  }
  // Lists that keep apart (Ohanami's two cards) take their choices in either order: the
  // words of a picker with the choices of each such group as a set, so either order finds
  // the legal move, whose value fixes one.
  function unordered(words, lists) {
    const groups = {};
    const rest = words.filter((word, i) => {
      const group = lists[i].dataset.apart;
      if (group) (groups[group] = groups[group] || []).push(word);
      return !group;
    });
    const sets = Object.keys(groups).sort().map((g) => [g, groups[g].slice().sort()]);
    return JSON.stringify([rest, sets]);
  }
  // A table's picker with blanks builds its move from the choices, as the server's
  // MoveForm.value does: each blank's choice is a value of a field of the move (a slot, the
  // card's order; a face, [suit, rank]); null where a choice is not made.
  function built(form, b) {
    const move = Object.assign({ type: b.type }, b.fixed);
    for (let at = 0; at < b.fields.length; at++) {
      const field = b.fields[at];
      if (!field && !b.values[at].length) continue;
      const chosen = [...form.querySelectorAll(`[data-at="${at}"]`)].flatMap((el) =>
        el.tagName === "FIELDSET"
          ? [...el.querySelectorAll("input:checked")].map((box) => box.value)
          : [el.value],
      );
      const index = chosen.map((w) => b.listed[at].indexOf(w));
      if (index.includes(-1)) return null; // "choose…": the words go, and are refused
      let values = index.map((i) => b.values[at][i]);
      if (b.sets[at]) values = [...new Set(values)].sort((x, y) => x - y);
      if (!field) {
        for (const v of values) Object.assign(move, v);
        continue;
      }
      const path = field.replace(/\[\]$/, "").split(".");
      let into = move;
      for (const step of path.slice(0, -1)) into = into[step] || (into[step] = []);
      const last = /^\d+$/.test(path[path.length - 1]) ? Number(path[path.length - 1]) : path[path.length - 1];
      while (Array.isArray(into) && into.length <= last) into.push([]);
      if (field.endsWith("[]") || b.sets[at]) into[last] = [...(into[last] || []), ...values];
      else into[last] = values.length ? values[0] : null;
    }
    for (const [k, v] of Object.entries(move)) {
      if (Array.isArray(v) && v.length && v.every((x) => x === null)) move[k] = null;
    }
    return move;
  }
  live.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("form.picker");
    if (form) {
      form.dataset.touched = "1";
      if (form.dataset.form) lastPicker = form.dataset.form;
      keepApart(form);
      pressCards();
    }
  });
  // A picker's choices as a string, whatever is chosen and whatever seq it is sent at.
  function shape(form) {
    const copy = form.cloneNode(true);
    for (const input of copy.querySelectorAll("input[name=seq], input[name=id], .gone")) {
      input.remove();
    }
    for (const option of copy.querySelectorAll("option[selected]")) {
      option.removeAttribute("selected");
    }
    for (const box of copy.querySelectorAll("input[checked]")) box.removeAttribute("checked");
    delete copy.dataset.touched;
    return copy.outerHTML;
  }
  // Whether a choice was begun in a picker: by a finger, or kept by the server on a page
  // drawn again after a refusal (a list away from its first entry, a box ticked).
  function begun(form) {
    if (form.dataset.touched) return true;
    if ([...form.querySelectorAll("select")].some((s) => s.selectedIndex > 0)) return true;
    return form.querySelector("input[type=checkbox]:checked") !== null;
  }
  // What a finger chose in a picker: each select's value, each fieldset's ticked boxes.
  function chosen(form) {
    return {
      selects: [...form.querySelectorAll("select")].map((s) => s.value),
      sets: [...form.querySelectorAll("fieldset")].map((f) =>
        [...f.querySelectorAll("input[type=checkbox]:checked")].map((c) => c.value),
      ),
    };
  }
  function restore(form, choice) {
    const gone = [];
    form.querySelectorAll("select").forEach((select, i) => {
      const value = choice.selects[i];
      if (value === undefined || value === "") return;
      let option = [...select.options].find((o) => o.value === value);
      if (!option) {
        option = new Option(value, value); // no longer offered: kept, sent, refused in words
        select.add(option);
        gone.push(value);
      }
      select.value = value;
    });
    form.querySelectorAll("fieldset").forEach((set, i) => {
      const ticked = choice.sets[i] || [];
      for (const box of set.querySelectorAll("input[type=checkbox]")) {
        box.checked = ticked.includes(box.value);
      }
      for (const value of ticked) {
        if (!set.querySelector(`input[type=checkbox][value="${CSS.escape(value)}"]`)) {
          gone.push(value);
        }
      }
    });
    form.dataset.touched = "1";
    keepApart(form);
    if (!gone.length) return;
    const note = document.createElement("small");
    note.className = "gone";
    note.setAttribute("role", "status");
    note.textContent = say("web.js-no-longer", { choices: asSaid(say.list(gone)) });
    form.append(note);
  }
  // Put the live part drawn anew in place, keeping every picker a finger has touched.
  function redraw(fresh) {
    const touched = new Map();
    for (const form of live.querySelectorAll("form.picker[data-form]")) {
      if (begun(form)) touched.set(form.dataset.form, form);
    }
    const before = [...live.childNodes];
    const box = document.createElement("template");
    box.innerHTML = fresh;
    live.append(document.importNode(box.content, true));
    for (const form of live.querySelectorAll("form.picker[data-form]")) {
      const old = touched.get(form.dataset.form);
      if (!old || old === form) continue;
      if (shape(old) === shape(form)) {
        // the same choices: the very form stays (what is chosen, the focus, an open list)
        const parent = form.parentNode;
        if (parent.moveBefore) parent.moveBefore(old, form);
        else parent.insertBefore(old, form);
        form.remove();
      } else {
        restore(form, chosen(old));
        for (const name of ["seq", "id"]) {
          form.querySelector(`input[name=${name}]`).value = old.querySelector(
            `input[name=${name}]`,
          ).value;
        }
      }
    }
    for (const node of before) {
      if (node.isConnected && node.parentNode === live) node.remove();
    }
    pressCards();
  }
  for (const form of live.querySelectorAll("form.picker")) keepApart(form); // a page again
  let shown = null; // the live part as last fetched
  let busy = false;
  let again = false; // the game moved while the last position was on its way
  async function update() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    again = false;
    try {
      const answer = await fetch(live.dataset.fragment, { cache: "no-store" });
      if (!answer.ok) return;
      const fresh = await answer.text();
      if (fresh === shown) return; // nothing changed: leave what a finger may be on alone
      shown = fresh;
      redraw(fresh);
      const position = document.getElementById("position");
      if (!position) return;
      for (const input of document.querySelectorAll("form.typed input[name=seq]")) {
        input.value = position.dataset.seq;
      }
      for (const input of document.querySelectorAll("form.typed input[name=id]")) {
        input.value = position.dataset.id; // a move made at the new position is a new move
      }
      document.body.dataset.seq = position.dataset.seq;
    } finally {
      busy = false;
      if (again) update();
    }
  }
  const stream = new EventSource(live.dataset.events);
  stream.addEventListener("moved", update);
  // A server gone away (a restart, a lost network) is said, and the page catches up when
  // the stream is back: what is shown may be behind until then.
  const offline = document.createElement("p");
  offline.id = "offline";
  offline.setAttribute("role", "status");
  offline.textContent = say("web.js-reconnecting");
  offline.hidden = true;
  document.body.prepend(offline);
  stream.addEventListener("error", () => {
    offline.hidden = false;
    document.body.dataset.offline = "1";
  });
  stream.addEventListener("open", () => {
    if (offline.hidden) return;
    offline.hidden = true;
    delete document.body.dataset.offline;
    update();
  });
  const position = document.getElementById("position");
  if (position) document.body.dataset.seq = position.dataset.seq;
  // opened without a network (the service worker's last copy): the live part as last seen
  if (navigator.onLine === false) update();
})();

// Offline for a moment: a move made while the phone has no network is kept (with its
// move id, so a retry never records twice) and sent when the network is back; what was
// typed stays. The page is also an installable web app (its manifest, and a service worker
// that serves the page's own files).
(function () {
  const live = document.getElementById("live");
  if (!live) return;
  const key = "gametape-queued:" + location.pathname;
  const banner = document.createElement("p");
  banner.id = "queued";
  banner.setAttribute("role", "status");
  banner.hidden = true;
  document.body.prepend(banner);

  function queued() {
    try {
      return JSON.parse(localStorage.getItem(key) || "null");
    } catch (e) {
      return null;
    }
  }
  function show() {
    const q = queued();
    banner.hidden = !q;
    if (q) banner.textContent = say("web.js-queued", { move: q.text });
    if (q) document.body.dataset.queued = "1";
    else delete document.body.dataset.queued;
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.action.endsWith("/move")) return;
    if (navigator.onLine !== false) return; // online: the form is posted as usual
    event.preventDefault();
    const data = new FormData(form, event.submitter || undefined);
    const fields = {};
    for (const [k, v] of data.entries()) {
      if (k === "w") fields.w = (fields.w ? fields.w + " " : "") + v;
      else fields[k] = String(v);
    }
    // what the banner says: the words typed or picked, or a button's label (it sends a value)
    const said = event.submitter ? event.submitter.dataset.said : undefined;
    const text = fields.w || fields.text || said || "";
    localStorage.setItem(key, JSON.stringify({ action: form.action, fields, text }));
    show();
  });

  let sending = false;
  async function send() {
    const q = queued();
    if (!q || sending || navigator.onLine === false) return;
    sending = true;
    try {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(q.fields)) {
        if (k === "w") for (const w of v.split(" ")) body.append("w", w);
        else body.append(k, v);
      }
      const answer = await fetch(q.action, { method: "POST", body, headers: { accept: "application/json" } });
      const data = await answer.json().catch(() => ({}));
      localStorage.removeItem(key);
      if (answer.ok) {
        const back = data.taken_back === undefined ? "" : "&back=" + data.taken_back;
        location.assign(location.pathname + "?ok=" + data.first + back);
        return;
      }
      show();
      banner.hidden = false;
      banner.textContent = say("web.js-not-recorded", { move: q.text, why: asSaid(data.error || String(answer.status)) });
      const typed = document.querySelector("form.typed input[name=text]");
      if (typed && !typed.value && !q.fields.move) typed.value = q.text;
    } catch (e) {
      // still no network: kept for the next try
    } finally {
      sending = false;
    }
  }
  window.addEventListener("online", send);
  setInterval(send, 2000);
  show();
  send();

  if ("serviceWorker" in navigator) {
    // once the page is idle: installing it is never in the way of a move
    window.addEventListener("load", () => {
      setTimeout(() => {
        navigator.serviceWorker
          .register("/sw.js")
          .then(() => navigator.serviceWorker.ready)
          // this very page, fetched before the worker was there, is kept for a reload offline
          .then(() => caches.open("gametape-pages"))
          .then((cache) => cache.addAll([location.pathname, live.dataset.fragment]))
          .catch(() => {});
      }, 2000);
    });
  }
})();
