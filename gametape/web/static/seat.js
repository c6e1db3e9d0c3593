"use strict";
// Follows the game live: the server says only that the game moved (its seq), and this
// fetches the page's live part again, drawn on the server for this link alone. What the
// player is typing, outside that part, is kept; its expected seq follows the position.
(function () {
  const live = document.getElementById("live");
  if (!live || !window.EventSource) return;
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
      live.innerHTML = fresh;
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
  offline.textContent = "offline: reconnecting… (what you see may be behind)";
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
})();
