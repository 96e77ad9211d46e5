// The annotation page: what the judge saw (completion criteria, the user's instructions, the conversation with
// its actions, results and images, the database changes, the end of the episode, the rubric), and a form
// that records pass/fail and a note per criterion for one annotator (RUN_DIR/labels/<annotator>.csv).
"use strict";

(function (M) {
  const {h, section, details, withQuery, enc} = M;
  const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

  function csv(labels) {
    const cols = ["annotator", "run", "episode_id", "party", "criterion", "label", "note"];
    const cell = v => { const s = String(v ?? ""); return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s; };
    return [cols.join(","), ...labels.map(l => cols.map(c => cell(l[c])).join(","))].join("\n") + "\n";
  }

  function download(name, text) {
    const a = h("a", {href: URL.createObjectURL(new Blob([text], {type: "text/csv"})), download: name});
    document.body.appendChild(a); a.click(); a.remove();
  }

  function annotatorForm(rid, eid, annotator) {
    const input = h("input", {name: "annotator", value: annotator || "", placeholder: "your name", pattern: NAME.source, required: true});
    return h("form", {class: "annotator", onsubmit: ev => {
      ev.preventDefault();
      if (!NAME.test(input.value)) { alert("Use letters, digits, '_', '.' or '-' (the name names your labels file)."); return; }
      localStorage.setItem("mmtsb-annotator", input.value);
      location.hash = withQuery(`#/annotate/${enc(rid)}/${enc(eid)}`, {annotator: input.value});
    }}, "Annotator ", input, " ", h("button", {type: "submit"}, "use this name"));
  }

  function criterionRow(party, criterion, previous, judged) {
    const name = `${party}.${criterion}`;
    const radio = value => h("label", {class: "choice"}, h("input", {type: "radio", name, value, checked: previous && previous.label === value}), value);
    return h("tr", {class: "label-row", dataset: {party, criterion}},
      h("td", {}, h("b", {}, criterion)), h("td", {}, radio("pass"), radio("fail")),
      h("td", {}, h("input", {type: "text", class: "note", name: `${name}.note`, value: previous ? previous.note : "", placeholder: "note"})),
      h("td", {class: "judge-verdict hidden"}, judged ? [M.verdict(judged.passed), " ", h("span", {class: "small"}, judged.analysis || "")] : h("span", {class: "muted"}, "not assessed")));
  }

  // the evidence text each model judge is sent for this episode, word for word (images named where attached)
  function judgeRequests(asked) {
    if (asked.error) return h("p", {class: "err"}, asked.error);
    return Object.entries(asked.parties || {}).map(([party, r]) => h("div", {class: "judge-request", dataset: {party}},
      r.error ? h("p", {class: "err"}, r.error)
        : details(`the ${party} judge's evidence (its user message; its rubric is above)`, M.trajectory.block(r.text))));
  }

  async function annotatePage(app, rid, eid, q) {
    const annotator = q.annotator || localStorage.getItem("mmtsb-annotator") || "";
    const [ep, list, asked] = await Promise.all([M.api.load(`runs/${rid}/episodes/${eid}`), M.api.episodes(rid),
      M.api.load(`runs/${rid}/judge_requests/${eid}`).catch(e => ({error: e.message}))]);
    const T = M.trajectory;
    const t = ep.trajectory;
    if (!NAME.test(annotator)) {
      M.render(app, section(`Annotate ${eid}`, "annotate", h("p", {}, "Who is labelling? Your labels go to labels/<name>.csv in the run folder."), annotatorForm(rid, eid, "")));
      return;
    }
    if (!t) { M.render(app, section(eid, "annotate", h("p", {class: "err"}, ep.error))); return; }
    const mine = await M.api.labels(rid, annotator);
    const previous = new Map(mine.labels.filter(l => l.episode_id === eid).map(l => [`${l.party}.${l.criterion}`, l]));
    const labelled = new Set(mine.labels.map(l => l.episode_id));
    const i = list.findIndex(e => e.id === eid);
    const nextOpen = list.slice(i + 1).concat(list.slice(0, Math.max(i, 0))).find(e => !labelled.has(e.id) && !e.excluded);
    const go = e => e ? h("a", {href: withQuery(`#/annotate/${enc(rid)}/${enc(e.id)}`, {annotator})}, e.id) : h("span", {class: "muted"}, "–");
    const texts = ep.scenario_texts || {};
    const status = h("span", {id: "save-status", class: "muted"});
    const rubrics = ep.rubrics || {};
    const form = h("form", {id: "label-form", onsubmit: async ev => {
      ev.preventDefault();
      const items = [...form.querySelectorAll("tr.label-row")].map(tr => {
        const {party, criterion} = tr.dataset;
        const chosen = tr.querySelector("input[type=radio]:checked");
        return chosen ? {episode_id: eid, party, criterion, label: chosen.value, note: tr.querySelector("input.note").value} : null;
      }).filter(Boolean);
      if (!items.length) { status.textContent = "choose pass or fail for at least one criterion"; return; }
      try {
        const r = await M.api.saveLabels(rid, annotator, items, ep.labels_run);
        status.textContent = `saved ${r.saved} label(s) to ${r.file}`;
        status.className = "ok";
      } catch (e) { status.textContent = `not saved: ${e.message}`; status.className = "err"; }
    }},
      Object.entries(rubrics).map(([party, r]) => {
        const verdict = t.judges[party] || {criteria: []};
        const byName = new Map((verdict.criteria || []).map(c => [c.criterion, c]));
        return h("div", {class: "party"}, h("h3", {}, `${party}: ${r.description || ""}`),
          h("table", {class: "grid labels"}, h("thead", {}, h("tr", {}, h("th", {}, "criterion"), h("th", {}, "your label"), h("th", {}, "note"), h("th", {class: "judge-verdict hidden"}, "the judge said"))),
            h("tbody", {}, r.criteria.map(c => criterionRow(party, c, previous.get(`${party}.${c}`), byName.get(c))))),
          r.rubric ? details(`the ${party} judge's rubric (its system prompt)`, T.block(r.rubric)) : null);
      }),
      h("div", {class: "actions"}, h("button", {type: "submit", id: "save-labels"}, "Save labels"), " ", status, " ",
        h("label", {class: "choice"}, h("input", {type: "checkbox", id: "show-judge", onchange: ev => {
          app.querySelectorAll(".judge-verdict").forEach(el => el.classList.toggle("hidden", !ev.target.checked));
        }}), "show the judge's verdict (hidden so it does not sway you)"),
        M.api.STATIC ? h("button", {type: "button", onclick: async () => {
          const all = await M.api.labels(rid, annotator);
          download(`${annotator}.csv`, csv(all.labels));
        }}, "Download my labels (CSV)") : null));
    M.render(app,
      section(`Annotate ${eid}`, "annotate",
        h("div", {class: "nav"}, `annotator ${annotator} (${labelled.size} episode(s) labelled) · `,
          h("a", {href: `#/annotate/${enc(rid)}/${enc(eid)}`, onclick: () => localStorage.removeItem("mmtsb-annotator")}, "change"),
          " · next unlabelled: ", go(nextOpen), " · ", h("a", {href: `#/run/${enc(rid)}/episode/${enc(eid)}`}, "episode page")),
        h("p", {class: "muted"}, "Below is what the judges read: the completion criteria, the user's hidden instructions, the conversation with every action, result and image, the database changes, how the episode ended, and each model judge's request word for word. Label each criterion yourself."),
        form),
      section("Task completion criteria", "criteria-text", texts.error ? h("p", {class: "err"}, texts.error) : T.block(texts.completion_criteria || "(none given)")),
      rubrics.user ? section("Hidden instructions of the simulated user", "user-instructions", T.block(texts.user_instructions || "(none)")) : null,
      section("Conversation, agent actions and environment results", "conversation", T.conversation(ep)),
      section("Database changes (row level, all tables)", "world-diff", T.worldDiff(ep)),
      section("Episode end", "end", h("p", {}, `The episode ended because: ${t.end_reason}.`)),
      section("What each model judge reads, word for word", "judge-requests", judgeRequests(asked)),
      t.ui ? section("UI screens", "ui", T.uiScreens(ep)) : null);
  }

  M.annotatePage = annotatePage;
  M.labelsCsv = csv;
})(window.MMTSB);
