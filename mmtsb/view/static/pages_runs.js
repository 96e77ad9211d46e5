// The runs page, a run's episode list (filters, pagination) and the side-by-side comparison of two runs.
"use strict";

(function (M) {
  const {h, pct, num, verdict, section, withQuery, enc} = M;
  const PAGE_SIZE = 50;
  // filter key -> [label, the index field, whether that field holds a list]
  const FILTERS = {
    model: ["model", "model"], flow: ["flow type", "flow"], arrival: ["image arrival", "arrival"],
    challenge: ["challenge", "challenge"], category: ["image category", "categories", true],
    result: ["agent result", "result"], failing: ["failing criterion", "failing", true], end_reason: ["end reason", "end_reason"],
  };

  function result(e) {
    if (e.excluded) return "not evaluated";
    return e.agent_pass === true ? "pass" : e.agent_pass === false ? "fail" : "not judged";
  }

  function values(e, field, isList) {
    const v = field === "result" ? result(e) : e[field];
    if (isList) return v || [];
    return [v === null || v === undefined || v === "" ? "(none)" : String(v)];
  }

  // the episodes that pass every chosen filter (and the text search)
  function filtered(episodes, q) {
    const active = Object.entries(FILTERS).filter(([k]) => q[k]);
    const text = (q.q || "").toLowerCase();
    return episodes.filter(e => active.every(([k, [, field, isList]]) => values(e, field, isList).includes(q[k]))
      && (!text || e.id.toLowerCase().includes(text) || String(e.scenario).toLowerCase().includes(text)));
  }

  async function runsPage(app) {
    const runs = await M.api.load("runs");
    const rows = runs.map(r => r.error
      ? h("tr", {}, h("td", {}, r.id), h("td", {colspan: 9, class: "err"}, r.error))
      : h("tr", {class: "run-row"},
          h("td", {}, h("a", {href: `#/run/${enc(r.id)}`}, r.id)),
          h("td", {}, r.label, h("div", {class: "muted small"}, r.run_dir)),
          h("td", {}, r.config.dataset), h("td", {}, r.n_episodes),
          h("td", {}, pct(r.agent_sr), r.agent_sr_ci ? h("span", {class: "muted small"}, ` [${pct(r.agent_sr_ci[0])}, ${pct(r.agent_sr_ci[1])}]`) : ""),
          h("td", {}, num(r.entity_f1)), h("td", {}, pct(r.user_sr)), h("td", {}, r.not_evaluated),
          h("td", {}, r.cost_usd === undefined ? "–" : "$" + num(r.cost_usd, 4)),
          h("td", {}, r.avg_steps === undefined ? "–" : num(r.avg_steps, 1))));
    const pick = name => h("select", {name}, runs.filter(r => !r.error).map(r => h("option", {value: r.id}, `${r.id} — ${r.label}`)));
    const a = pick("a"), b = pick("b");
    if (b.options.length > 1) b.selectedIndex = 1;
    M.render(app,
      section(`Runs (${runs.length})`, "runs",
        h("table", {class: "grid", id: "runs-table"},
          h("thead", {}, h("tr", {}, ["run", "configuration", "dataset", "episodes", "Agent SR", "Entity F1", "User SR",
            "not evaluated", "cost", "avg steps"].map(c => h("th", {}, c)))),
          h("tbody", {}, rows))),
      section("Compare two runs", "compare-form",
        h("form", {onsubmit: ev => { ev.preventDefault(); location.hash = withQuery("#/compare", {a: a.value, b: b.value}); }},
          a, " vs ", b, " ", h("button", {type: "submit"}, "Compare"))),
      runs.filter(r => r.figures).map(r => section(`Figures of ${r.id}`, null,
        h("div", {class: "figures"}, Object.values(r.figures).map(f => h("img", {src: M.api.runFile(r.id, f), class: "figure", alt: f}))))));
  }

  function summaryLine(run) {
    return h("div", {class: "summary"},
      h("span", {}, h("b", {}, run.label)), h("span", {class: "muted"}, run.run_dir),
      h("span", {}, `Agent SR ${pct(run.agent_sr)}`), h("span", {}, `Entity F1 ${num(run.entity_f1)}`),
      h("span", {}, `User SR ${pct(run.user_sr)}`), h("span", {}, `${run.n_episodes} episodes`),
      h("span", {}, `not evaluated ${run.not_evaluated}`));
  }

  async function runCard(rid) {
    const runs = await M.api.load("runs");
    const run = runs.find(r => r.id === rid);
    if (!run) throw new Error(`no run ${rid} in this viewer`);
    if (run.error) throw new Error(run.error);
    return run;
  }

  async function runPage(app, rid, q) {
    const [run, episodes] = await Promise.all([runCard(rid), M.api.episodes(rid)]);
    const go = change => { location.hash = withQuery(`#/run/${enc(rid)}`, {...q, page: "", ...change}); };
    const selects = Object.entries(FILTERS).map(([key, [label, field, isList]]) => {
      const counts = new Map();
      for (const e of episodes) for (const v of values(e, field, isList)) counts.set(v, (counts.get(v) || 0) + 1);
      const opts = [...counts.entries()].sort((x, y) => x[0].localeCompare(y[0]));
      return h("label", {class: "filter"}, label,
        h("select", {name: key, onchange: ev => go({[key]: ev.target.value})},
          h("option", {value: ""}, "all"),
          opts.map(([v, n]) => h("option", {value: v, selected: q[key] === v}, `${v} (${n})`))));
    });
    const search = h("input", {type: "search", name: "q", value: q.q || "", placeholder: "episode or scenario"});
    const list = filtered(episodes, q);
    const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
    const page = Math.min(Math.max(1, parseInt(q.page || "1", 10) || 1), pages);
    const shown = list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const href = e => withQuery(`#/run/${enc(rid)}/episode/${enc(e.id)}`, {});
    const pager = (top) => h("div", {class: "pager"},
      h("button", {id: top ? "prev-page" : null, disabled: page <= 1, onclick: () => go({page: page - 1})}, "‹ previous"),
      h("span", {id: top ? "page-info" : null}, ` page ${page} of ${pages} `),
      h("button", {id: top ? "next-page" : null, disabled: page >= pages, onclick: () => go({page: page + 1})}, "next ›"));
    M.render(app,
      section(`Run ${rid}`, "run-summary", summaryLine(run),
        run.has_report ? h("div", {class: "muted small"}, "report.md is in the run folder") : null),
      section("Episodes", "episodes",
        h("form", {class: "filters", onsubmit: ev => { ev.preventDefault(); go({q: search.value}); }}, selects,
          h("label", {class: "filter"}, "search", search), h("button", {type: "submit"}, "search"),
          h("a", {href: `#/run/${enc(rid)}`, class: "reset"}, "clear filters")),
        h("p", {id: "episode-count"}, `${list.length} of ${episodes.length} episodes`),
        pager(true),
        h("table", {class: "grid", id: "episode-list"},
          h("thead", {}, h("tr", {}, ["episode", "scenario", "rep.", "model", "flow", "arrival", "challenge", "image category",
            "agent", "user", "F1", "failing criteria", "end", "steps"].map(c => h("th", {}, c)))),
          h("tbody", {}, shown.map(e => h("tr", {class: e.excluded ? "excluded" : "", dataset: {episode: e.id}},
            h("td", {}, h("a", {href: href(e)}, e.id)), h("td", {}, e.scenario), h("td", {}, e.repeat), h("td", {}, e.model),
            h("td", {}, e.flow), h("td", {}, e.arrival), h("td", {}, e.challenge), h("td", {}, (e.categories || []).join(", ")),
            h("td", {}, e.excluded ? h("span", {class: "badge none", title: e.error || ""}, "not evaluated") : verdict(e.agent_pass)),
            h("td", {}, verdict(e.user_pass)), h("td", {}, num(e.f1, 2)),
            h("td", {class: "small"}, (e.failing || []).join(", ")), h("td", {}, e.end_reason), h("td", {}, e.steps))))),
        pager(false)));
  }

  // two runs on the same scenarios: the shared scenarios with both results, or one scenario side by side
  async function comparePage(app, q) {
    const runs = (await M.api.load("runs")).filter(r => !r.error);
    if (!q.a || !q.b) { location.hash = "#/"; return; }
    const [ea, eb] = await Promise.all([M.api.episodes(q.a), M.api.episodes(q.b)]);
    const byScenario = list => { const m = new Map(); for (const e of list) if (!m.has(e.scenario) || e.repeat < m.get(e.scenario).repeat) m.set(e.scenario, e); return m; };
    const ma = byScenario(ea), mb = byScenario(eb);
    const shared = [...ma.keys()].filter(s => mb.has(s)).sort();
    const onlyA = [...ma.keys()].filter(s => !mb.has(s)), onlyB = [...mb.keys()].filter(s => !ma.has(s));
    const warning = onlyA.length || onlyB.length
      ? h("p", {class: "warn", id: "coverage-warning"}, `The runs cover different scenario sets: ${onlyA.length} only in ${q.a}, ${onlyB.length} only in ${q.b}; only the ${shared.length} shared scenarios are compared.`)
      : null;
    const label = id => (runs.find(r => r.id === id) || {label: id}).label;
    if (!q.scenario) {
      M.render(app, section(`Compare ${q.a} and ${q.b}`, "compare",
        warning,
        h("table", {class: "grid", id: "compare-list"},
          h("thead", {}, h("tr", {}, h("th", {}, "scenario"), h("th", {}, `A: ${label(q.a)}`), h("th", {}, "F1"), h("th", {}, `B: ${label(q.b)}`), h("th", {}, "F1"))),
          h("tbody", {}, shared.map(s => h("tr", {},
            h("td", {}, h("a", {href: withQuery("#/compare", {...q, scenario: s})}, s)),
            h("td", {}, verdict(ma.get(s).agent_pass)), h("td", {}, num(ma.get(s).f1, 2)),
            h("td", {}, verdict(mb.get(s).agent_pass)), h("td", {}, num(mb.get(s).f1, 2))))))));
      return;
    }
    const pickEpisode = (list, m) => list.find(e => e.scenario === q.scenario && String(e.repeat) === (q.repeat || "0")) || m.get(q.scenario);
    const sides = [[q.a, pickEpisode(ea, ma)], [q.b, pickEpisode(eb, mb)]];
    const columns = await Promise.all(sides.map(async ([rid, e]) => {
      if (!e) return h("div", {class: "side"}, h("h2", {}, rid), h("p", {class: "muted"}, "this run has no episode of the scenario"));
      const ep = await M.api.load(`runs/${rid}/episodes/${e.id}`);
      return h("div", {class: "side", dataset: {run: rid}},
        h("h2", {}, h("a", {href: `#/run/${enc(rid)}/episode/${enc(e.id)}`}, rid)), h("div", {class: "muted"}, label(rid)),
        ep.trajectory ? [M.trajectory.badges(ep),
          h("h3", {}, "Judges"), M.trajectory.judges(ep),
          h("h3", {}, "Entity diff"), M.trajectory.entityDiff(ep),
          h("h3", {}, "Conversation"), M.trajectory.conversation(ep)] : h("p", {class: "err"}, ep.error));
    }));
    M.render(app, section(`${q.scenario}: ${q.a} vs ${q.b}`, "compare-scenario",
      h("a", {href: withQuery("#/compare", {a: q.a, b: q.b})}, "‹ all shared scenarios"),
      h("div", {class: "side-by-side"}, columns)));
  }

  Object.assign(M, {runsPage, runPage, comparePage, runCard, summaryLine});
})(window.MMTSB);
