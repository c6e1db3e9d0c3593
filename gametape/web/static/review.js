"use strict";
// A review room (gametape.usecases.rooms): this page follows the room's leader through the
// replay drawn for its link, or steps on its own and comes back with one tap. The server
// says only the room's version; the page then reads the room's snapshot, so a page that
// missed messages (a dropped network) catches up instead of drifting. Everything it shows
// is text: nothing the room says is read as markup.
(function () {
  const room = document.getElementById("room");
  if (!room || !window.EventSource) return;
  const D = JSON.parse(document.getElementById("data").textContent);
  const pageLast = D.views[0].frames.length - 1;
  const key = "gametape-review:" + location.pathname;
  let member = sessionStorage.getItem(key);
  if (!member) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    member = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem(key, member);
  }
  let snap = null;
  let following = true;
  let pending = null; // the seq this page is going to for the room (not the reader's step)
  let busy = false;
  let again = false;

  function el(tag, text, attrs) {
    const e = document.createElement(tag);
    if (text != null) e.textContent = text;
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  const status = el("p", say("web.js-joining"), { id: "room-status", role: "status" });
  const follow = el("button", say("web.js-follow"), { id: "room-follow", type: "button", hidden: "" });
  const take = el("button", say("web.js-take"), { id: "room-take", type: "button", hidden: "" });
  const handTo = el("select", null, { id: "room-hand-to", "aria-label": say("web.js-hand-to") });
  const hand = el("button", say("web.js-hand"), { id: "room-hand", type: "button" });
  const handBox = el("span", null, { hidden: "" });
  handBox.append(handTo, hand);
  const branch = el("button", say("web.js-branch"), { id: "room-branch", type: "button", hidden: "" });
  const lines = el("select", null, { id: "room-lines", "aria-label": say("web.js-lines"), hidden: "" });
  const moveForm = el("form", null, { id: "room-move", hidden: "" });
  const moveText = el("input", null, {
    name: "text", "aria-label": say("web.js-branch-move"), autocomplete: "off",
    placeholder: D.example ? say("web.js-move-example", { example: D.example }) : say("web.js-move-plain"),
  });
  moveForm.append(moveText, el("button", say("web.js-record-branch"), { type: "submit" }));
  const notes = el("ul", null, { id: "room-notes", "aria-label": say("web.js-notes") });
  const noteForm = el("form", null, { id: "room-note" });
  const noteText = el("input", null, {
    name: "text", "aria-label": say("web.js-note-text"), autocomplete: "off", placeholder: say("web.js-note-text"),
  });
  const noteMark = el("select", null, { name: "mark", "aria-label": say("web.js-mark") });
  for (const m of ["", "!", "?", "!!", "??", "!?", "?!"]) noteMark.append(el("option", m || say("web.js-no-mark"), { value: m }));
  const noteCard = el("input", null, {
    name: "card", "aria-label": say("web.js-note-card"), autocomplete: "off", placeholder: say("web.js-note-card-example"), size: "10",
  });
  noteForm.append(noteText, noteCard, noteMark, el("button", say("web.js-note"), { type: "submit" }));
  const people = el("p", null, { id: "room-members" });
  const said = el("p", null, { id: "room-said", "aria-live": "polite" });
  const controls = el("div", null, { class: "controls" });
  controls.append(follow, take, handBox, branch, lines);
  room.append(status, controls, moveForm, notes, noteForm, people, said);

  function seqShown() {
    return Number(document.body.dataset.seq || 0);
  }

  async function post(act, fields) {
    said.textContent = "";
    const body = new URLSearchParams({ member, ...fields });
    try {
      const answer = await fetch(room.dataset.post + "/" + act, {
        method: "POST", body, headers: { accept: "application/json" },
      });
      const data = await answer.json().catch(() => ({}));
      if (!answer.ok) said.textContent = data.error || say("web.js-refused", { status: answer.status });
      return answer.ok;
    } catch (e) {
      said.textContent = say("web.js-not-sent");
      return false;
    }
  }

  function goToRoom() {
    if (!snap) return;
    if (snap.game !== room.dataset.game || snap.seq > pageLast) {
      // another line, or moves this page does not hold yet: the room's page, drawn again
      location.replace(location.pathname + "?v=" + snap.version + "#" + snap.seq);
      return;
    }
    if (seqShown() !== snap.seq) {
      pending = snap.seq;
      location.hash = "#" + snap.seq;
    }
  }

  function listed(m) {  // a member as the room's list names them: who leads, who is away
    const named = m.leads ? say("web.js-leads", { member: m.label }) : m.label;
    return m.here ? named : say("web.js-away", { member: asSaid(named) });
  }

  function render() {
    const s = snap;
    const b = document.body.dataset;
    b.roomVersion = s.version;
    b.following = following ? "1" : "0";
    b.leads = s.you_lead ? "1" : "0";
    b.roomGame = s.game;
    b.roomSeq = s.seq;
    const where = asSaid(s.game === s.main ? say("web.js-at-main", { seq: s.seq }) : say("web.js-at-branch", { game: s.game, seq: s.seq }));
    if (s.you_lead) status.textContent = say("web.js-you-lead", { you: s.you, where });
    else if (!s.leader) status.textContent = say("web.js-nobody-leads");
    else if (following) status.textContent = say("web.js-following", { leader: s.leader, where });
    else status.textContent = say("web.js-on-your-own", { seq: seqShown(), leader: s.leader, where });
    follow.hidden = s.you_lead || following || !s.leader;
    follow.textContent = s.leader ? say("web.js-follow-leader", { leader: s.leader }) : say("web.js-follow");
    take.hidden = !s.can_take;
    handBox.hidden = !s.you_lead;
    handTo.replaceChildren(...s.members.filter((m) => !m.you).map((m) => el("option", m.here ? m.label : say("web.js-away", { member: m.label }), { value: m.number })));
    hand.disabled = !handTo.options.length;
    branch.hidden = !s.you_lead || s.game !== room.dataset.game;
    lines.hidden = !s.you_lead || s.lines.length < 2;
    lines.replaceChildren(...s.lines.map((g) => el("option", say(g === s.main ? "web.js-the-game" : "web.js-what-if-line", { game: g }), { value: g })));
    lines.value = s.game;
    moveForm.hidden = !s.can_move;
    people.textContent = say("web.js-in-room", { members: asSaid(say.list(s.members.map(listed))) });
    showNotes();
  }

  function showNotes() {
    if (!snap) return;
    const at = seqShown();
    const here = snap.game === room.dataset.game ? snap.notes.filter((n) => n.seq === at) : [];
    notes.replaceChildren(...here.map((n) => {
      const by = n.author + (n.mark ? " " + n.mark : "");
      return el("li", (n.card ? say("web.js-on-card", { note: by, card: n.card }) : by) + (n.text ? ": " + n.text : ""));
    }));
    noteForm.hidden = at === 0;
  }

  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    again = false;
    try {
      const answer = await fetch(room.dataset.state + "?member=" + member, { cache: "no-store" });
      if (!answer.ok) {
        const data = await answer.json().catch(() => ({}));
        status.textContent = data.error || say("web.js-not-open");
        return;
      }
      snap = await answer.json();
      delete document.body.dataset.offline;
      if (snap.you_lead) following = true;
      render();
      if (following || snap.you_lead) goToRoom();
    } catch (e) {
      // the network is away: say so, and read the room again until it is back
      status.textContent = say("web.js-reconnecting");
      document.body.dataset.offline = "1";
      setTimeout(refresh, 1000);
    } finally {
      busy = false;
      if (again) refresh();
    }
  }

  document.addEventListener("replay:seq", (e) => {
    const seq = e.detail;
    if (pending === seq) {
      pending = null;
    } else if (snap && snap.you_lead) {
      post("step", { seq, game: room.dataset.game });
    } else if (snap && following) {
      following = false; // the reader stepped on their own
    }
    if (snap) render();
  });
  follow.onclick = () => {
    following = true;
    render();
    goToRoom();
  };
  take.onclick = () => post("take", {});
  hand.onclick = () => post("hand", { to: handTo.value });
  branch.onclick = () => post("branch", {});
  lines.onchange = () => post("step", { game: lines.value, seq: snap ? snap.seq : 0 });
  moveForm.onsubmit = async (e) => {
    e.preventDefault();
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    if (await post("move", { text: moveText.value, id })) moveText.value = "";
  };
  noteForm.onsubmit = async (e) => {
    e.preventDefault();
    if (await post("note", { seq: seqShown(), text: noteText.value, mark: noteMark.value, card: noteCard.value })) {
      noteText.value = "";
      noteCard.value = "";
      noteMark.value = "";
    }
  };

  const stream = new EventSource(room.dataset.events + "?member=" + member);
  stream.addEventListener("room", refresh);
  stream.addEventListener("open", () => {
    delete document.body.dataset.offline;
    refresh(); // back after a drop: read the snapshot, whatever was missed
  });
  stream.addEventListener("error", () => {
    document.body.dataset.offline = "1";
    status.textContent = say("web.js-reconnecting");
  });
})();
