// Data access: the served viewer's JSON API, or a static export's data/*.js files (file:// forbids fetch).
"use strict";

(function (M) {
  const STATIC = location.protocol === "file:" || document.documentElement.dataset.static === "1";
  const cache = new Map();
  const waiting = new Map();

  // a static export's data files call this with their key and payload
  window.MMTSB_DATA = function (key, payload) {
    const resolve = waiting.get(key);
    if (resolve) { waiting.delete(key); resolve(payload); }
  };

  function path(key) { return key.split("/").map(encodeURIComponent).join("/"); }

  function loadScript(key) {
    return new Promise((resolve, reject) => {
      waiting.set(key, resolve);
      const s = document.createElement("script");
      s.src = `data/${path(key)}.js`;
      s.onerror = () => { waiting.delete(key); reject(new Error(`not in this export: ${key}`)); };
      s.onload = () => s.remove();
      document.head.appendChild(s);
    });
  }

  async function fetchJson(key) {
    const r = await fetch(`api/${path(key)}.json`);
    const body = await r.json().catch(() => ({error: `${r.status} ${r.statusText}`}));
    if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`);
    return body;
  }

  // the payload of `key` ("runs", "runs/<run>/index", "runs/<run>/episodes/<id>"), loaded once
  function load(key) {
    if (!cache.has(key)) {
      const p = (STATIC ? loadScript(key) : fetchJson(key));
      p.catch(() => cache.delete(key));
      cache.set(key, p);
    }
    return cache.get(key);
  }

  // a run folder's file (images/<sha>.<ext>, figures/<name>) as a URL
  function runFile(run, file) { return `runs/${encodeURIComponent(run)}/${file}`; }

  // the episode index as objects {id, scenario, ...} (columns + rows on the wire)
  async function episodes(run) {
    const index = await load(`runs/${run}/index`);
    if (!index._objects) {
      const cols = index.columns;
      index._objects = index.rows.map(r => { const o = {}; cols.forEach((c, i) => { o[c] = r[i]; }); return o; });
    }
    return index._objects;
  }

  async function labels(run, annotator) {
    if (STATIC) return {annotator, run, labels: JSON.parse(localStorage.getItem(`mmtsb-labels:${run}:${annotator}`) || "[]")};
    return fetchJson(`runs/${run}/labels/${annotator}`);
  }

  // save labels: to the run folder through the server, or (static export) into this browser for a CSV download
  // (`labelsRun`: the labels' run column, the run folder's name)
  async function saveLabels(run, annotator, items, labelsRun) {
    if (STATIC) {
      const key = `mmtsb-labels:${run}:${annotator}`;
      const kept = JSON.parse(localStorage.getItem(key) || "[]");
      const id = l => [l.episode_id, l.party, l.criterion].join("\u0000");
      const merged = new Map(kept.map(l => [id(l), l]));
      for (const l of items) merged.set(id(l), {annotator, run: labelsRun, ...l});
      localStorage.setItem(key, JSON.stringify([...merged.values()]));
      return {saved: items.length, file: "this browser (download the CSV to keep it)"};
    }
    const r = await fetch(`api/runs/${encodeURIComponent(run)}/labels/${encodeURIComponent(annotator)}`, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({labels: items})});
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  }

  M.api = {STATIC, load, runFile, episodes, labels, saveLabels};
})(window.MMTSB);
