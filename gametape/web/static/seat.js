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
    if (q) banner.textContent = "offline: “" + q.text + "” will be sent when the network is back";
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
    const text = fields.w || fields.text || "";
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
        location.assign(location.pathname + "?ok=" + data.first);
        return;
      }
      show();
      banner.hidden = false;
      banner.textContent = "“" + q.text + "” was not recorded: " + (data.error || answer.status);
      const typed = document.querySelector("form.typed input[name=text]");
      if (typed && !typed.value) typed.value = q.text;
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
      setTimeout(() => navigator.serviceWorker.register("/sw.js").catch(() => {}), 2000);
    });
  }
})();
