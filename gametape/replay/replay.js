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
  if (f.s === 0) return " · " + say("web.js-setup");
  if (f.m != null) return " · " + (f.a ? f.a + ": " : "") + f.m;
  return f.a ? " · " + say("web.js-moved", { player: f.a }) : "";
}

function label(f) {  // in the move list: a hidden event by nobody is named by its kind
  const text = heading(f).slice(3) || (f.k && f.k[0]) || say("web.js-hidden-event");
  return f.n ? text + " · " + f.n : text;  // the card a move played, placed or showed
}

// Pieces are written compactly (gametape/replay/html.py): a counter is [label, value, of,
// colour], a card [text, colour, note, marks, back] with marks by initial, a zone [title,
// card ids, counters, text, seat, acting, group], a header [title, status, counters].
const kindWord = (k) => D.kind_words[k] || k;  // a kind of event, in the page's language
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
  if ((marks || "").includes("t")) e.dataset.touched = say("web.js-touched");
  e.append(el("b", null, text || ""));
  if (note) e.append(el("small", null, note));
  if (back) {
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", note ? say("web.js-face-down-note", { note: asSaid(note) }) : say("web.js-face-down"));
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
  $("position").textContent = say("web.js-position", { seq, last, unit: asSaid(D.turn_word), turn: f.t }) + heading(f);
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
  $("note").textContent = say(direction > 0 ? "web.js-no-later" : "web.js-no-earlier", { kind: asSaid($("kind").selectedOptions[0].textContent) });
}

function fromHash() {
  const m = /^#(\d+)$/.exec(location.hash);
  go(m ? Number(m[1]) : 0);
}

$("title").textContent = D.ruleset + " · " + D.game + " · " + D.players.join(", ");
if (D.parent) {  // a branch: where it left its main line, and the way back
  const [of, at] = D.parent, back = el("a", null, say("web.js-main-line"));
  back.href = encodeURIComponent(of) + ".html#" + at;
  $("lineage").append(say("web.js-branch-of", { game: of, seq: at }), back);
  $("lineage").hidden = false;
}
const spectator = say(D.learned_later ? "web.js-everyone-later" : "web.js-everyone");
$("viewer").textContent = D.seat == null ? spectator : say("web.js-seat-file", { seat: D.seat });
if (D.seat != null) $("viewer").className = "seat";
$("result").textContent = say("web.js-result", { result: asSaid(D.result || "") });
$("problem").textContent = say("web.js-stops", { problem: asSaid(D.problem || "") });
$("slider").max = last;
function moveList() {
  const list = $("moves");
  list.replaceChildren();
  for (const f of frames) {
    const li = document.createElement("li"), a = document.createElement("a");
    const n = document.createElement("span"), text = document.createElement("span");
    a.href = "#" + f.s;
    li.dataset.s = f.s;
    n.className = "n"; n.textContent = say.number(f.s);
    text.textContent = label(f);
    if (f.s > 0 && f.m == null) text.className = "secret";
    if (D.landmark && (f.k || []).includes(D.landmark)) {  // named: a strike, a round, ...
      li.className = "mark"; a.title = kindWord(D.landmark);
      text.append(el("span", "kind", kindWord(D.landmark)));
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
      a.dataset.undone = say("web.js-undone", { seq: f.u });
      a.title = say("web.js-undone-title", { seq: f.u });
    }
    a.append(n, text); li.append(a); list.append(li);
    for (const [at, game, moves] of D.branches || []) {  // a line of play that left here
      if (at !== f.s) continue;
      const fork = el("li", "fork"), link = el("a");
      link.href = encodeURIComponent(game) + ".html#" + (at + 1);
      link.append(el("span", "n", "↳"), el("span", null, say("web.js-what-if", { game, moves })));
      link.title = say("web.js-branch-title", { seq: at });
      fork.append(link); list.append(fork);
    }
  }
  if (D.result) {
    const li = document.createElement("li");
    li.className = "end"; li.textContent = say("web.js-result", { result: asSaid(D.result) });
    list.append(li);
  }
}
moveList();
if (D.views.length > 1) {  // everyone's page: each seat's view, computed at export
  $("seatbox").hidden = false;
  D.views.forEach((v, i) => {
    const o = el("option", null, v.seat == null ? say("web.js-everyone-option") : v.seat);
    o.value = i;
    $("seatpick").append(o);
  });
  $("seatpick").addEventListener("change", (e) => {
    const v = D.views[Number(e.target.value)];
    frames = v.frames;
    const seq = at;
    at = -1;
    moveList();
    $("viewer").textContent = v.seat == null ? spectator : say("web.js-seat-view", { seat: v.seat });
    $("viewer").className = v.seat == null ? "" : "seat";
    go(seq);
  });
}
for (const k of D.kinds) {
  const o = document.createElement("option");
  o.value = k; o.textContent = kindWord(k); o.selected = k === D.landmark;
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
  // the arrow that points at later moves: the left one, right to left
  const [ahead, behind] = document.documentElement.dir === "rtl" ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
  const act = { [ahead]: () => go(at + 1), [behind]: () => go(at - 1), Home: () => go(0),
    End: () => go(last), "]": () => jump(1), "[": () => jump(-1) }[e.key];
  if (act) { e.preventDefault(); act(); }
});
fromHash();
