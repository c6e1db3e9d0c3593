"use strict";
// The words of the page's scripts, in the page's language (gametape/pagewords.py, carried
// as JSON in <script id="words">): say(id, {name: value}) fills a text's placeholders,
// writing a number in the language's digits and decimal sign and a name (what a person typed) as the
// language isolates it.
const say = (function () {
  const data = document.getElementById("words");
  const W = data ? JSON.parse(data.textContent) : {};
  const digits = W.digits || "0123456789."; // 0-9, then the decimal sign
  const [before, after] = W.typed || ["", ""];
  function value(v) {
    if (typeof v === "number") return String(v).replace(/[0-9.]/g, (d) => digits[d === "." ? 10 : Number(d)]);
    if (v && typeof v === "object") return v.said; // words already said: as they are
    return before + v + after;
  }
  function say(id, params) {
    const text = W[id] || id;
    return text.replace(/\{(\w+)\}/g, (all, name) => (params && name in params ? value(params[name]) : all));
  }
  say.number = value;
  say.list = (items) => items.join(W.list || ", ");
  return say;
})();
// words already said (a message within a message), kept as they are by say()
const asSaid = (text) => ({ said: text });
