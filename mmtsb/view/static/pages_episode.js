// The episode page: the conversation in order, the world diff against the expected specs, the judges.
"use strict";

(function (M) {
  const {h, section, withQuery, enc} = M;

  // the episodes before and after this one in the run's index order
  async function neighbours(rid, eid) {
    const list = await M.api.episodes(rid);
    const i = list.findIndex(e => e.id === eid);
    return {prev: i > 0 ? list[i - 1] : null, next: i >= 0 && i + 1 < list.length ? list[i + 1] : null};
  }

  // the other runs that played this scenario (for "compare with")
  async function otherRuns(rid, scenario) {
    const runs = await M.api.load("runs");
    return runs.filter(r => !r.error && r.id !== rid && (r.scenarios || []).includes(scenario));
  }

  async function episodePage(app, rid, eid) {
    const [run, ep, near] = await Promise.all([M.runCard(rid), M.api.load(`runs/${rid}/episodes/${eid}`), neighbours(rid, eid)]);
    const T = M.trajectory;
    const t = ep.trajectory;
    const link = e => e ? h("a", {href: `#/run/${enc(rid)}/episode/${enc(e.id)}`}, e.id) : h("span", {class: "muted"}, "–");
    const nav = h("div", {class: "nav"},
      h("a", {href: `#/run/${enc(rid)}`}, "‹ episodes of ", rid), " · previous: ", link(near.prev), " · next: ", link(near.next),
      " · ", h("a", {href: `#/annotate/${enc(rid)}/${enc(eid)}`, id: "annotate-link"}, "annotate this episode"));
    if (!t) {
      M.render(app, section(eid, "episode", nav, h("p", {class: "err"}, ep.error)));
      return;
    }
    const others = await otherRuns(rid, t.scenario);
    const compare = others.length
      ? h("div", {class: "nav"}, "compare with: ", others.map(r => [h("a", {href: withQuery("#/compare", {a: rid, b: r.id, scenario: t.scenario, repeat: ep.row.repeat || 0})}, r.id), " "]))
      : null;
    const row = ep.row || {};
    const facts = [["scenario", t.scenario], ["run", run.label], ["interface", t.interface], ["seed", t.seed],
      ["flow / arrival / challenge", [row.selected_flow_type, row.image_arrival, row.challenge_type].join(" / ")],
      ["failing criteria", (ep.failing || []).join(", ") || "none"], ["duration", `${(t.timing || {}).duration_s} s`]];
    M.render(app,
      section(`Episode ${eid}`, "episode", nav, compare, T.badges(ep),
        h("table", {class: "kv"}, h("tbody", {}, facts.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, String(v ?? "–")))))),
        t.error ? M.details("error", T.block(t.error, "out err")) : null,
        h("nav", {class: "toc"}, ["conversation", "diff", "judges", t.ui ? "ui" : null, "details"].filter(Boolean).map(a => h("a", {href: "javascript:void(0)", onclick: () => document.getElementById(a)?.scrollIntoView()}, a)))),
      section("Conversation", "conversation", T.conversation(ep)),
      section("World diff against the expected specs", "diff", T.entityDiff(ep),
        h("h3", {}, "All database changes (row level, every table)"), T.worldDiff(ep)),
      section("Judges", "judges", T.judges(ep)),
      t.ui ? section("Rendered UI screens", "ui", T.uiScreens(ep)) : null,
      section("Usage and prompts", "details", T.usage(ep), T.prompts(ep)));
  }

  M.episodePage = episodePage;
})(window.MMTSB);
