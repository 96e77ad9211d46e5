// Renderers of one episode's trajectory: the conversation in order, the entity diff against the expected
// specs with per-column scores, the world diff, the judges' criteria, usage and prompts.
"use strict";

(function (M) {
  const {h, pct, num, verdict, pretty, details} = M;
  const SHORT = {SYSTEM: "system", USER: "user", AGENT: "agent", EXECUTION_ENVIRONMENT: "env"};

  // one image of the episode, inline; a placeholder when the run folder has no copy of it
  function image(ep, id) {
    const info = (ep.images || {})[String(id)] || {};
    const caption = h("figcaption", {}, `image #${id}`, info.source ? ` · ${info.source}` : "");
    if (!info.file) {
      return h("figure", {class: "shot missing", dataset: {imageId: id}},
        h("div", {class: "noimg"}, "not saved in this run folder"), caption);
    }
    const src = M.api.runFile(ep.run, info.file);
    return h("figure", {class: "shot", dataset: {imageId: id}},
      h("a", {href: src, target: "_blank"}, h("img", {src, alt: `image ${id}`, class: "msg-image"})), caption);
  }

  function images(ep, ids) {
    return ids && ids.length ? h("div", {class: "images"}, ids.map(i => image(ep, i))) : null;
  }

  function block(text, cls) { return h("pre", {class: cls || "text"}, text); }

  function toolCall(call) {
    const args = call.parse_error ? (call.raw_arguments || "") : pretty(call.arguments || {});
    return h("div", {class: "call"},
      h("div", {class: "call-name"}, "→ ", h("code", {}, call.name), call.parse_error ? h("span", {class: "badge fail"}, "unparsable arguments") : null),
      block(args, "args"),
      call.parse_error ? h("div", {class: "err"}, call.parse_error) : null);
  }

  // the body of one message, by what it is (a reply, tool calls, a code cell, a result, code output)
  function body(ep, m) {
    const meta = m.meta || {};
    if (m.sender === "SYSTEM") return details("the simulated user's script (hidden from the agent)", block(m.content));
    if (m.tool_calls && m.tool_calls.length) {
      return [m.content ? block(m.content) : null, m.tool_calls.map(toolCall)];
    }
    if (m.sender === "AGENT" && m.recipient === "EXECUTION_ENVIRONMENT") {
      return [meta.text ? block(meta.text) : null, h("div", {class: "cell-label"}, "code cell"), block(m.content, "code")];
    }
    if (m.sender === "EXECUTION_ENVIRONMENT" && "stdout" in meta) {   // the output of a code cell
      const parts = [];
      if (meta.stdout) parts.push(h("div", {class: "cell-label"}, "stdout"), block(meta.stdout, "out"));
      if (meta.value) parts.push(h("div", {class: "cell-label"}, "value"), block(meta.value, "out"));
      if (meta.error) parts.push(h("div", {class: "cell-label"}, "error"), block(meta.error, "out err"));
      if (meta.blocked) parts.push(h("div", {class: "cell-label"}, "blocked"), block(meta.blocked, "out err"));
      if (meta.reset) parts.push(h("div", {class: "err"}, "the interpreter was reset"));
      return parts.length ? parts : block(m.content, "out");
    }
    if (m.tool_name) {
      return [h("div", {class: "cell-label"}, "result of ", h("code", {}, m.tool_name)),
              block(pretty(m.content), m.is_error ? "out err" : "out")];
    }
    return m.content ? block(m.content) : null;
  }

  function flags(m) {
    const out = [];
    if (m.is_error) out.push(h("span", {class: "badge fail"}, "error"));
    const vis = m.visible_to || [];
    if (vis.length === 1 && vis[0] === "USER" && m.sender === "AGENT") out.push(h("span", {class: "badge info"}, "shown to the user"));
    if ((m.meta || {}).ui_event) out.push(h("span", {class: "badge info"}, "UI interaction"));
    if (m.conversation_active === false) out.push(h("span", {class: "badge none"}, "conversation ended"));
    return out;
  }

  // the whole conversation in order: user, agent, tool calls and results, code cells and output, images
  function conversation(ep) {
    const t = ep.trajectory;
    return h("ol", {class: "conversation"}, t.messages.map(m =>
      h("li", {class: `msg from-${SHORT[m.sender] || "other"}`, dataset: {index: m.index}},
        h("div", {class: "msg-head"}, h("span", {class: "idx"}, `#${m.index}`),
          h("span", {class: "who"}, `${SHORT[m.sender] || m.sender} → ${SHORT[m.recipient] || m.recipient}`), flags(m)),
        h("div", {class: "msg-body"}, body(ep, m)),
        images(ep, m.image_ids))));
  }

  function scoreClass(s) { return s === null || s === undefined ? "" : s >= 0.999 ? "good" : s > 0 ? "partial" : "bad"; }

  function columns(cols) {
    if (!cols || !cols.length) return null;
    return h("table", {class: "cols"},
      h("thead", {}, h("tr", {}, ["column", "function", "expected", "actual", "score", "counted"].map(c => h("th", {}, c)))),
      h("tbody", {}, cols.map(c => h("tr", {class: scoreClass(c.score) + (c.counted ? "" : " uncounted")},
        h("td", {}, h("code", {}, c.column)), h("td", {class: "fn"}, (c.function || "").replace(/^column_|_similarity$/g, "")),
        h("td", {}, block(pretty(c.expected), "val")), h("td", {}, block(pretty(c.actual), "val")),
        h("td", {class: "score"}, num(c.score, 2)), h("td", {}, c.counted ? "yes" : "no")))));
  }

  function entity(e) {
    const matched = e.matched_key !== null && e.matched_key !== undefined;
    return h("div", {class: "entity " + scoreClass(e.score)},
      h("div", {class: "entity-head"}, `spec #${e.spec_index}`, " · ",
        matched ? `matched row ${e.matched_key}` : "no row matched", " · score ", h("b", {}, num(e.score, 3)),
        e.raw_score !== null && e.raw_score !== undefined && e.raw_score !== e.score ? ` (raw ${num(e.raw_score, 3)})` : ""),
      e.reason ? h("div", {class: "err"}, e.reason) : null,
      columns(e.columns),
      !matched && e.closest_columns && e.closest_columns.length
        ? [h("div", {class: "cell-label"}, `closest candidate: row ${e.closest_key}`), columns(e.closest_columns)] : null,
      (e.notes || []).map(n => h("div", {class: "note"}, n)),
      details("expected entity (spec)", block(pretty(e.expected), "val")));
  }

  // the entity diff: the final world against the expected specs, per (table, operation), with column scores
  function entityDiff(ep) {
    const d = ep.trajectory.entity_diff;
    if (!d) return h("p", {class: "muted"}, "No entity diff (the episode did not reach scoring).");
    const head = h("table", {class: "kv"}, h("tbody", {},
      [["Entity F1 (micro)", num(d.micro_f1)], ["precision / recall", `${num(d.micro_precision)} / ${num(d.micro_recall)}`],
       ["Entity F1 (macro, reference)", num(d.macro_f1)], ["reference F1", num(d.reference_f1)],
       ["guardrails", d.guardrail_pass ? "pass" : "FAIL: " + (d.guardrail_failures || []).join("; ")],
       ["min match similarity", d.min_match_similarity]].map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v)))));
    const groups = (d.groups || []).map(g => h("div", {class: "group"},
      h("h3", {}, h("code", {}, g.table_key), ` · ${g.operation} · P ${num(g.precision, 2)} R ${num(g.recall, 2)} F1 ${num(g.f1, 2)}`,
        h("span", {class: "muted"}, ` (${g.num_expected} expected, ${g.num_actual} actual)`)),
      (g.entities || []).map(entity),
      g.unmatched_actual_keys && g.unmatched_actual_keys.length
        ? h("div", {class: "err"}, `actual rows nothing was matched to: ${g.unmatched_actual_keys.join(", ")}`) : null,
      (g.notes || []).map(n => h("div", {class: "note"}, n))));
    const unexpected = (d.unexpected_writes || []).length
      ? h("div", {class: "group"}, h("h3", {}, "Unexpected writes (outside the expected tables)"),
          h("ul", {}, d.unexpected_writes.map(w => h("li", {class: "err"}, `${w.operation} ${w.table} key=${w.key}`,
            w.changed_columns && w.changed_columns.length ? ` (${w.changed_columns.join(", ")})` : ""))))
      : null;
    return [head, (d.warnings || []).map(w => h("div", {class: "note"}, w)), groups, unexpected];
  }

  // the row-level world diff over all tables (what the LLM judge reads as "database changes")
  function worldDiff(ep) {
    const w = ep.trajectory.world_diff || {};
    const tables = Object.keys(w);
    if (!tables.length) return h("p", {class: "muted"}, "No state changes.");
    return h("div", {class: "world-diff"}, tables.map(k => {
      const d = w[k];
      return details(`${k}: +${d.added.length} ~${d.updated.length} -${d.deleted.length}`,
        d.added.map(r => block("ADD " + pretty(r), "val add")),
        d.updated.map(u => block(`UPD key=${u.key} ` + pretty(u.changed), "val upd")),
        d.deleted.map(r => block("DEL " + pretty(r), "val del")));
    }));
  }

  // one party's verdict: its result, and each criterion with its analysis and evidence
  function verdictBlock(p, v) {
    if (!v) return h("div", {class: "judge"}, h("h3", {}, `${p} judge`), h("p", {class: "muted"}, "not judged"));
    return h("div", {class: "judge", dataset: {party: p}},
      h("h3", {}, `${p} judge `, verdict(v.error ? null : v.passed), h("span", {class: "muted"}, ` ${v.judge}${v.static ? " (static rules)" : ""} · ${v.prompt_version}`)),
      v.error ? h("div", {class: "err"}, `no verdict: ${v.error}`) : null,
      h("ul", {class: "criteria"}, (v.criteria || []).map(c => h("li", {class: "criterion", dataset: {criterion: c.criterion}},
        verdict(c.passed), " ", h("b", {}, c.criterion),
        c.analysis ? h("div", {class: "analysis"}, c.analysis) : null,
        c.evidence ? h("div", {class: "evidence"}, h("span", {class: "cell-label"}, "evidence "), c.evidence) : null))),
      v.reasoning ? details("reasoning", block(v.reasoning)) : null);
  }

  // the same trajectory judged again (mmtsb rejudge): each label and judge repeat with its verdicts
  function rejudged(ep) {
    const entries = ep.rejudged || [];
    if (!entries.length) return null;
    return h("div", {class: "rejudged"}, h("h3", {}, "Judged again (mmtsb rejudge)"),
      entries.map(e => h("div", {class: "rejudge", dataset: {label: e.label, repeat: e.judge_repeat}},
        details(`${e.label} (${e.judge}) · judge repeat ${e.judge_repeat}: agent `
          + (e.verdicts.agent ? (e.verdicts.agent.error ? "no verdict" : e.verdicts.agent.passed ? "pass" : "fail") : "–"),
          e.error ? h("div", {class: "err"}, e.error) : null,
          Object.entries(e.verdicts).map(([p, v]) => verdictBlock(p, v))))));
  }

  // each judge of the run, then every other judge of the same trajectory
  function judges(ep) {
    const t = ep.trajectory;
    const parties = Object.keys(t.judges || {});
    const own = parties.length ? h("div", {class: "run-judges"}, parties.map(p => verdictBlock(p, t.judges[p])))
      : h("p", {class: "muted"}, "No judges ran.");
    return [own, rejudged(ep)];
  }

  function usage(ep) {
    const u = ep.trajectory.usage || {};
    const rows = Object.entries(u).filter(([, v]) => v);
    if (!rows.length) return h("p", {class: "muted"}, "No model usage.");
    return h("table", {class: "grid"},
      h("thead", {}, h("tr", {}, ["role", "calls", "failed", "prompt tok.", "completion tok.", "cost (USD)"].map(c => h("th", {}, c)))),
      h("tbody", {}, rows.map(([r, v]) => h("tr", {}, h("td", {}, r), h("td", {}, v.api_calls), h("td", {}, v.failed_calls || 0),
        h("td", {}, v.prompt_tokens), h("td", {}, v.completion_tokens), h("td", {}, num(v.cost_usd, 4))))));
  }

  // rendered UI screens (UI mode): every render, whether the user was shown it, and what the user did
  function uiScreens(ep) {
    const ui = ep.trajectory.ui;
    if (!ui || !(ui.renders || []).length) return null;
    const shown = new Set((ui.shown || []).map(s => s.image_id));
    return [h("div", {class: "images"}, ui.renders.map(r => h("div", {class: "ui-render"}, image(ep, r.image_id),
      h("div", {class: "muted"}, `surface ${r.surface_id || "?"}`, shown.has(r.image_id) ? " · shown to the user" : "",
        r.highlight ? ` · clicked ${r.highlight}` : "")))),
      (ui.interactions || []).length ? details("the user's interactions", block(pretty(ui.interactions), "val")) : null];
  }

  function prompts(ep) {
    const p = ep.trajectory.prompts || {};
    return Object.entries(p).map(([role, rec]) => details(`${role} prompts (${rec.version})`,
      Object.entries(rec.texts || {}).map(([name, text]) => [h("div", {class: "cell-label"}, name), block(text)])));
  }

  function badges(ep) {
    const t = ep.trajectory || {};
    const out = [verdict(t.agent_pass, "agent"), verdict(t.user_pass, "user")];
    if (t.ui_mode) out.push(verdict(t.ui_pass, "UI"));
    out.push(h("span", {class: "badge info"}, `F1 ${num(t.entity_f1, 3)}`), h("span", {class: "badge info"}, `end: ${t.end_reason}`),
      h("span", {class: "badge info"}, `${t.steps} steps`));
    if (t.failure_class) out.push(h("span", {class: "badge fail"}, `not evaluated: ${t.failure_class}`));
    return h("div", {class: "badges"}, out);
  }

  M.trajectory = {conversation, entityDiff, worldDiff, judges, usage, uiScreens, prompts, badges, image, block};
})(window.MMTSB);
