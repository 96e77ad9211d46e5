// DOM helpers shared by every page: elements built from data (text is always set as text, never as HTML).
"use strict";
window.MMTSB = window.MMTSB || {};

(function (M) {
  // h("div", {class: "x", onclick: fn}, child, "text", [more children]) -> an element
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    append(el, children);
    return el;
  }

  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  // replace an element's content with children (arrays are flattened, nulls skipped)
  function render(el, ...children) {
    el.replaceChildren();
    return append(el, children);
  }

  function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }
  function num(x, d) { return x === null || x === undefined ? "–" : Number(x).toFixed(d === undefined ? 3 : d); }

  // pass / fail / not judged badge
  function verdict(value, label) {
    const cls = value === true ? "pass" : value === false ? "fail" : "none";
    const text = value === true ? "pass" : value === false ? "fail" : "–";
    return h("span", {class: "badge " + cls, title: label || ""}, label ? `${label}: ${text}` : text);
  }

  // JSON (or any value) as indented text
  function pretty(value) {
    if (typeof value === "string") {
      try { return JSON.stringify(JSON.parse(value), null, 2); } catch (e) { return value; }
    }
    return JSON.stringify(value, null, 2);
  }

  function section(title, id, ...children) {
    return h("section", {id: id, class: "card"}, h("h2", {}, title), children);
  }

  function details(summary, ...children) {
    return h("details", {}, h("summary", {}, summary), children);
  }

  // the hash route's query as an object, and back
  function query(hash) {
    const i = hash.indexOf("?");
    const out = {};
    if (i >= 0) new URLSearchParams(hash.slice(i + 1)).forEach((v, k) => { out[k] = v; });
    return out;
  }

  function withQuery(path, q) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== "" && v !== null && v !== undefined) params.set(k, v);
    const s = params.toString();
    return s ? `${path}?${s}` : path;
  }

  function enc(s) { return encodeURIComponent(String(s)); }

  Object.assign(M, {h, append, render, pct, num, verdict, pretty, section, details, query, withQuery, enc});
})(window.MMTSB);
