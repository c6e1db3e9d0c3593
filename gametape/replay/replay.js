"use strict";
// Everything shown comes from the data above and goes into the page as text, never markup.
const D = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
let frames = D.views[0].frames;
const last = frames.length - 1;
let at = -1;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

// As `gametape replay` heads a frame: the move when the viewer saw it, else who moved.
function heading(f) {
  if (f.s === 0) return " · the setup";
  if (f.m != null) return " · " + (f.a ? f.a + ": " : "") + f.m;
  return f.a ? " · " + f.a + " moved" : "";
}

function label(f) {  // in the move list: a hidden event by nobody is named by its kind
  const text = heading(f).slice(3) || (f.k && f.k[0]) || "a hidden event";
  return f.n ? text + " · " + f.n : text;  // the card a move played, placed or showed
}

// Pieces are written compactly (gametape/replay/html.py): a counter is [label, value, of,
// colour], a card [text, colour, note, marks, back] with marks by initial, a zone [title,
// card ids, counters, text, seat, acting, group], a header [title, status, counters].
const MARKS = { n: "new", t: "touched", c: "clued", k: "known", r: "critical", s: "selected" };

function counters(list) {
  const box = el("div", "counters");
  for (const [label, value, of, colour] of list || []) {
    const e = el("span", "counter" + (colour ? " c-" + colour : ""), label);
    e.append(el("b", null, value + (of ? "/" + of : "")));
    box.append(e);
  }
  return box;
}

// The review's notes (everyone's page): by seq, and on cards by their key.
const NOTES = D.notes || [];
function said(n) {
  return "✎ " + (n.m ? n.m + " " : "") + n.a + (n.k ? " (" + n.k + ")" : "") + (n.t ? ": " + n.t : "");
}

function card([text, colour, note, marks, back, key]) {
  const named = [...(marks || "")].map((m) => MARKS[m]).join(" ");
  // a back in a colour, with a rank: what the clues told its holder of it
  const e = el("span", "card " + (back ? "back" + (colour ? " c-" + colour : "") : "c-" + (colour || "grey")) + " " + named);
  e.append(el("b", null, text || ""));
  if (note) e.append(el("small", null, note));
  if (back) {
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", "a face-down card" + (note ? ": " + note : ""));
  }
  const on = key ? NOTES.filter((n) => n.k === key && n.s <= at) : [];
  if (on.length) {  // a note on this card, from the move it was written on
    e.classList.add("noted");
    e.title = on.map(said).join("\n");
    for (const n of on) if (n.t) e.append(el("small", "cnote", n.t));
  }
  return e;
}

function board(ids) {  // a board from its pieces: a header, notes, zones, drawn as text nodes
  const [title, status, heads] = D.parts[ids[0]], out = [el("div", "btitle", title)];
  if (status) out.push(el("div", "status", status));
  if (heads && heads.length) out.push(counters(heads));
  let group = null, box = null;
  for (const id of ids.slice(2)) {
    const [ztitle, cards, zcounters, text, seat, acting, zgroup] = D.parts[id];
    if (!box || !zgroup || zgroup !== group) { box = el("div", "group"); out.push(box); }
    group = zgroup || null;
    const mine = seat != null && seat >= 0;
    const row = el("div", "zone" + (mine ? " seat" : "") + (acting ? " acting" : ""));
    row.append(el("span", "ztitle", ztitle));
    if (cards && cards.length) {
      const hand = el("div", "cards");
      for (const c of cards) hand.append(card(D.parts[c]));
      row.append(hand);
    }
    if (zcounters && zcounters.length) row.append(counters(zcounters));
    if (text) row.append(el("span", "ztext", text));
    box.append(row);
  }
  const notes = D.parts[ids[1]];
  if (notes && notes.length) out.push(el("div", "notes", notes.join("\n")));
  return out;
}

function go(seq) {
  seq = Math.max(0, Math.min(last, seq));
  $("note").textContent = "";
  if (seq === at) return;
  const f = frames[seq];
  at = seq;
  $("position").textContent = "seq " + seq + "/" + last + ", " + D.turn_word + " " + f.t + heading(f);
  $("change").textContent = f.c ? "→ " + f.c : "";
  $("review").replaceChildren(...NOTES.filter((n) => n.s === seq).map((n) => el("div", null, said(n))));
  $("board").replaceChildren(...board(f.b));
  $("slider").value = seq;
  $("result").hidden = !(seq === last && D.result);
  $("problem").hidden = !(seq === last && D.problem);
  for (const a of document.querySelectorAll("#moves a[aria-current]")) a.removeAttribute("aria-current");
  const list = $("moves"), item = list.querySelector('li[data-s="' + seq + '"]');
  item.firstChild.setAttribute("aria-current", "step");
  // Scroll the list only, never the page (on a phone the list is below the board).
  if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = item.offsetTop - list.clientHeight / 2;
  }
  if (location.hash !== "#" + seq) history.replaceState(null, "", "#" + seq);
  document.body.dataset.seq = seq;
  document.dispatchEvent(new CustomEvent("replay:seq", { detail: seq }));  // a review follows
}

function jump(direction) {
  const kind = $("kind").value;
  for (let s = at + direction; s >= 0 && s <= last; s += direction) {
    if ((frames[s].k || []).includes(kind)) return go(s);
  }
  $("note").textContent = "no " + (direction > 0 ? "later" : "earlier") + " event of kind “" + kind + "”";
}

function fromHash() {
  const m = /^#(\d+)$/.exec(location.hash);
  go(m ? Number(m[1]) : 0);
}

$("title").textContent = D.ruleset + " · " + D.game + " · " + D.players.join(", ");
if (D.parent) {  // a branch: where it left its main line, and the way back
  const [of, at] = D.parent, back = el("a", null, "back to the main line");
  back.href = encodeURIComponent(of) + ".html#" + at;
  $("lineage").append("↳ a branch of " + of + " from seq " + at + " (what if) · ", back);
  $("lineage").hidden = false;
}
const spectator = D.learned_later
    ? "Everyone's review of a game recorded at a table: every card whose face the game showed " +
      "later is shown from the moment it entered play (faces learned later are shown)."
    : "Everyone's view: every card is shown, hidden ones included.";
$("viewer").textContent = D.seat == null
  ? spectator
  : D.seat + "'s view: this file holds only what " + D.seat + " could see at each step.";
if (D.seat != null) $("viewer").className = "seat";
$("result").textContent = "Result — " + (D.result || "");
$("problem").textContent = "The replay stops here: " + (D.problem || "");
$("slider").max = last;
function moveList() {
  const list = $("moves");
  list.replaceChildren();
  for (const f of frames) {
    const li = document.createElement("li"), a = document.createElement("a");
    const n = document.createElement("span"), text = document.createElement("span");
    a.href = "#" + f.s;
    li.dataset.s = f.s;
    n.className = "n"; n.textContent = f.s;
    text.textContent = label(f);
    if (f.s > 0 && f.m == null) text.className = "secret";
    if (D.landmark && (f.k || []).includes(D.landmark)) {  // named: a strike, a round, ...
      li.className = "mark"; a.title = D.landmark;
      text.append(el("span", "kind", D.landmark));
    }
    const here = NOTES.filter((n) => n.s === f.s);
    const nags = here.map((n) => n.m).filter(Boolean).join(" ");
    if (nags) text.append(el("span", "nag", nags));  // a move mark, as in PGN
    if (here.some((n) => n.t)) {
      text.append(el("span", "pen", "✎"));
      a.title = here.map(said).join("\n");
    }
    if (f.u != null) {  // a move taken back: struck out, and which undo took it back
      li.classList.add("undone");
      a.dataset.undone = " ↶ taken back at " + f.u;
      a.title = "taken back at seq " + f.u;
    }
    a.append(n, text); li.append(a); list.append(li);
    for (const [at, game, moves] of D.branches || []) {  // a line of play that left here
      if (at !== f.s) continue;
      const fork = el("li", "fork"), link = el("a");
      link.href = encodeURIComponent(game) + ".html#" + (at + 1);
      link.append(el("span", "n", "↳"), el("span", null, "what if: " + game + " · " + moves + " moves"));
      link.title = "a branch from seq " + at + " (its own page, exported beside this one)";
      fork.append(link); list.append(fork);
    }
  }
  if (D.result) {
    const li = document.createElement("li");
    li.className = "end"; li.textContent = "Result — " + D.result;
    list.append(li);
  }
}
moveList();
if (D.views.length > 1) {  // everyone's page: each seat's view, computed at export
  $("seatbox").hidden = false;
  D.views.forEach((v, i) => {
    const o = el("option", null, v.seat == null ? "everyone (every card)" : v.seat);
    o.value = i;
    $("seatpick").append(o);
  });
  $("seatpick").addEventListener("change", (e) => {
    const v = D.views[Number(e.target.value)];
    frames = v.frames;
    const seq = at;
    at = -1;
    moveList();
    $("viewer").textContent = v.seat == null ? spectator : "as " + v.seat + ": only what " + v.seat + " could see at each step";
    $("viewer").className = v.seat == null ? "" : "seat";
    go(seq);
  });
}
for (const k of D.kinds) {
  const o = document.createElement("option");
  o.value = k; o.textContent = k; o.selected = k === D.landmark;
  $("kind").append(o);
}
if (!D.kinds.length) for (const id of ["kind", "kprev", "knext"]) $(id).disabled = true;
$("first").onclick = () => go(0);
$("prev").onclick = () => go(at - 1);
$("next").onclick = () => go(at + 1);
$("last").onclick = () => go(last);
$("kprev").onclick = () => jump(-1);
$("knext").onclick = () => jump(1);
$("slider").addEventListener("input", (e) => go(Number(e.target.value)));
window.addEventListener("hashchange", fromHash);
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target instanceof HTMLSelectElement) return;
  const act = { ArrowRight: () => go(at + 1), ArrowLeft: () => go(at - 1), Home: () => go(0),
    End: () => go(last), "]": () => jump(1), "[": () => jump(-1) }[e.key];
  if (act) { e.preventDefault(); act(); }
});
fromHash();
