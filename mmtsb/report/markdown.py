"""Markdown rendering of a run report and of a comparison of runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mmtsb.report.metrics import AXES
from mmtsb.report.taxonomy import CATEGORIES, CATEGORY_TITLES, SIGNAL_TITLES, SIGNALS
from mmtsb.view.links import episode_url, run_url
from mmtsb.protocol.roles import cost_text

INFRA_NOTE = ("Episodes that could not be evaluated are reported separately and **excluded** from every agent "
              "metric (Agent SR, Entity F1, User SR, average steps, tool recall, the failure taxonomy, pass^k and "
              "the breakdowns): infrastructure failures (provider or sandbox errors after retries, crashes, agent "
              "judges that returned no verdict), configuration failures (credentials, requests the provider "
              "refuses) and scenario failures (files that cannot be played). An agent whose own history outgrew "
              "its context is an agent failure (end reason `context_overflow`). Token and cost totals include "
              "every attempt, failed and retried ones too (those tokens were spent).")
F1_NOTE = ("Entity F1 (micro) is entity-level within an episode (unexpected writes count as extra actual "
           "entities), averaged over episodes; Entity F1 (macro) is the reference implementation's number "
           "(precision and recall averaged over table groups, zeroed by a failed device guardrail).")
TAXONOMY_RULES = {
    "factual_error": "rubric: task completion passes, information accuracy fails; evidence: an expected "
                     "entity was produced with wrong values",
    "task_failure": "rubric: task completion fails (or only tool-use validity fails); evidence: out of budget, "
                    "nothing expected produced, or invalid tool use only",
    "incomplete_execution": "rubric: TC and IA pass, instruction following fails; evidence: some expected "
                            "entities missing, or a required disambiguation question never asked",
    "uncontrolled_behavior": "rubric: only no-side-effects fails; evidence: the expected state is right but "
                             "there are unexpected writes or extra rows",
    "other": "judged a failure, no rule applies",
}
TAXONOMY_NOTE = (
    "The root cause of each agent failure follows the paper's taxonomy (§6.4). With an LLM judge that "
    "assessed task completion (TC) and information accuracy (IA), the paper's rule over the failed rubric "
    "criteria is applied (method `rubric`). Otherwise (the static judge does not assess information accuracy) "
    "the category is derived from the episode's evidence (method `evidence`): the entity diff (wrong values in "
    "matched rows, missing entities, extra rows), unexpected writes, the end reason, whether a required "
    "clarifying question was asked, and tool errors; without a trajectory only the row is used (method "
    "`row`). **This is a deterministic heuristic classification** (rules and keyword matches, e.g. a claim "
    "of completion is detected by words such as 'done' or 'sent' in the last reply), not a human or "
    "model judgment; read it as an indication of where failures concentrate.")


# ---------------------------------------------------------------------------------------------- format
def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def num(x: float | None, digits: int = 3) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def ci(c: Sequence[float] | None) -> str:
    return "–" if not c else f"[{100 * c[0]:.1f}, {100 * c[1]:.1f}]"


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _image(title: str, name: str | None) -> str:
    return f"![{title}](figures/{name})" if name else ""


# ---------------------------------------------------------------------------------------------- one run
def run_report(summary: Mapping[str, Any], details: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    s = summary
    c = s["config"]
    parts = [
        f"# Run report: {s['label']}",
        table(["Field", "Value"], [
            ["Run folder", f"`{s['run_dir']}`"], ["Agent model", c["agent_model"]], ["User", c["user_model"]],
            ["Judge", c["judge_model"]], ["Interface", c["interface"]], ["Toolbox", c["toolbox"]],
            ["Dataset", c["dataset"]], ["Config hash", c["config_hash"]],
            ["Episodes", f"{s['n_episodes']} ({s['n_scenarios']} scenarios, up to {s['repeats']} repeat(s))"],
            ["Evaluated episodes", s["n_evaluated"]],
            ["Not evaluated", _not_evaluated(s)]]),
        "> " + INFRA_NOTE,
        _headline(s),
        _criteria(s),
        _judges(s),
        _usage(s),
        _taxonomy(s, details, figures),
        _pass_k(s, figures),
        _breakdowns(s, figures),
        _infra(details, s["run_dir"]),
        _invalid_files(details),
        "## End reasons\n\n" + table(["End reason", "Episodes"], sorted(s["end_reasons"].items())),
        _viewer(s["run_dir"]),
    ]
    return "\n\n".join(p for p in parts if p) + "\n"


AGENT_SR_PARTIAL = " (4 of 5 criteria)"


def agent_sr_label(s: Mapping[str, Any]) -> str:
    """``Agent SR``, marked ``(4 of 5 criteria)`` when a run's judge left information accuracy out (static)."""
    return "Agent SR" + (AGENT_SR_PARTIAL if s.get("agent_sr_note") else "")


def partial_judge_note(labelled: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """One sentence naming the runs whose Agent SR covers 4 of the 5 criteria (static judge); "" when none."""
    partial = [label for label, s in labelled if s.get("agent_sr_note")]
    if not partial:
        return ""
    return ("Agent SR over 4 of the 5 criteria (the static judge does not assess information_accuracy; it needs a "
            f"model judge, as in the paper) for: {', '.join(partial)}.")


def _headline(s: Mapping[str, Any]) -> str:
    rows = [
        [agent_sr_label(s), pct(s["agent_sr"]),
         ci(s["agent_sr_ci"]), s["n_judged"]],
        ["Entity F1 (micro)", num(s["entity_f1"]), "", s["n_evaluated"]],
        ["Entity F1 (macro, reference)", num(s["entity_f1_macro"]), "", s["n_evaluated"]],
        ["User SR", pct(s["user_sr"]), ci(s["user_sr_ci"]), s["n_user_judged"]],
        *([["UI SR", pct(s["ui_sr"]), ci(s.get("ui_sr_ci")), s.get("n_ui_judged")]] if "ui_sr" in s else []),
        ["Average steps (paper: agent + user messages, max 100)", num(s["avg_steps"], 1), "", s["n_evaluated"]],
        ["Average agent actions", num(s.get("avg_agent_steps"), 1), "", s["n_evaluated"]],
        ["Surfaced tool recall", num(s["surfaced_tool_recall"]), "", s["n_with_expected_tools"]],
        ["Invoked tool recall", num(s["invoked_tool_recall"]), "", s["n_with_expected_tools"]],
        ["Search calls per episode", num(s["search_calls_per_episode"], 2), "", ""],
    ]
    return ("## Headline metrics\n\n" + table(["Metric", "Value", "95% CI", "n"], rows) + "\n\n"
            "Agent SR: share of evaluated episodes whose agent judge passed all its criteria (95% Wilson "
            "interval over episodes). " + (f"**{s['agent_sr_note']}.** " if s.get("agent_sr_note") else "")
            + F1_NOTE + " Tool recall (paper D.3): the share of the scenario's "
            "`expected_tools` the agent surfaced through tool search (or called) and the share it called; "
            "it measures agreement with one reference path, not success."
            + (" " + UI_NOTE if "ui_sr" in s else ""))


UI_NOTE = ("UI SR (UI mode): share of the UI-judged episodes whose UI judge passed all its criteria "
           "(ui_task_focus, ui_structure_and_patterns, ui_action_clarity, ui_feedback_and_flow); episodes whose "
           "UI judge returned no verdict are left out.")


def _criteria(s: Mapping[str, Any]) -> str:
    rows = [[k, pct(v["pass_rate"]), v["n"]] for k, v in s["criteria"].items() if v["n"]]
    if not rows:
        return ""
    return ("## Judge criteria\n\nPass rate per rubric criterion, over the episodes where the judge assessed "
            "it (the static judge leaves out what needs reading the conversation).\n\n"
            + table(["Criterion", "Pass rate", "n"], rows))


def _judges(s: Mapping[str, Any]) -> str:
    from mmtsb.judging.views import judges_markdown   # the runs re-judged with `mmtsb rejudge`

    return judges_markdown(s)


def _usage(s: Mapping[str, Any]) -> str:
    rows = []
    for role, u in s["usage"].items():
        rows.append([role, int(u["api_calls"]), int(u.get("failed_calls", 0)), int(u["prompt_tokens"]),
                     int(u["completion_tokens"]),
                     int(u["total_tokens"]), f"{u['mean_total_tokens']:.0f}",
                     cost_text(u["cost_usd"], u.get("cost_known", True)),
                     cost_text(u["mean_cost_usd"], u.get("cost_known", True))])
    te = s["token_efficiency"]
    return ("## Tokens and cost per role\n\n"
            + table(["Role", "API calls", "Failed attempts", "Prompt tokens", "Completion tokens", "Total tokens",
                     "Tokens / episode", "Cost (USD)", "Cost / episode"], rows)
            + f"\n\nTotal: {int(s['total_tokens'])} tokens, {cost_text(s['cost_usd'], s.get('cost_known', True))}. "
              f"Agent tokens per passing "
              f"episode: {num(te['agent_tokens_passing'], 0)}, per failing episode: "
              f"{num(te['agent_tokens_failing'], 0)}, per success: {num(te['agent_tokens_per_success'], 0)}.")


def _taxonomy(s: Mapping[str, Any], details: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    tax = s["failure_taxonomy"]
    n = tax["n_failures"]
    methods = ", ".join(f"{k} {v}" for k, v in tax["methods"].items())
    out = [f"## Failure taxonomy (paper §6.4)\n\n{n} agent failure(s) among {s['n_judged']} judged episodes"
           + (f" (classification method: {methods})." if methods else ".")]
    rows = [[CATEGORY_TITLES[c], tax["counts"].get(c, 0), pct(tax["counts"].get(c, 0) / n if n else None),
             TAXONOMY_RULES[c]] for c in CATEGORIES]
    out.append(table(["Root cause", "Failures", "Share", "How it is derived"], rows))
    out.append(TAXONOMY_NOTE)
    out.append(_image("Failure taxonomy", figures.get("taxonomy")))
    sig = s["failure_signals"]
    out.append("### Signals\n\nA failure can show several signals; the category above picks one root cause.\n\n"
               + table(["Signal", "Meaning", "Failures"], [[k, SIGNAL_TITLES[k], sig.get(k, 0)] for k in SIGNALS]))
    examples = []
    for cat in CATEGORIES:
        picked = [f for f in details["failures"] if f["category"] == cat][:3]
        for f in picked:
            examples.append(f"- **{CATEGORY_TITLES[cat]}** {episode_link(s['run_dir'], f['episode_id'])} "
                            f"({f['scenario']}, {f['method']}): "
                            f"{f['evidence'] or '–'}")
    if examples:
        out.append("### Examples\n\n" + "\n".join(examples))
    return "\n\n".join(p for p in out if p)


def _pass_k(s: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    if not s.get("pass_k"):
        if s["repeats"] > 1:
            return "## pass^k\n\nNo scenario has a judged (non-infrastructure) episode: pass^k is not defined."
        return ("## pass^k\n\nEach scenario ran once (repeats = 1): pass^k needs repeats > 1 "
                "(set `repeats=k`).")
    rows = [[k, pct(v["pass_hat_k"]), ci(v["ci"]), pct(v["pass_at_k"]), ci(v["pass_at_k_ci"]), v["n_scenarios"]]
            for k, v in s["pass_k"].items()]
    return ("## pass^k\n\npass^k is the chance that k independent tries of a scenario all succeed; per scenario "
            "it is estimated without bias from its n judged tries with c successes as C(c,k)/C(n,k), then "
            "averaged over the scenarios with n >= k; pass@k = 1 - C(n-c,k)/C(n,k). Intervals: percentile "
            "bootstrap over scenarios (2000 resamples, fixed seed).\n\n"
            + table(["k", "pass^k", "95% CI", "pass@k", "95% CI", "Scenarios"], rows)
            + "\n\n" + _image("pass^k", figures.get("pass_k")))


def _breakdowns(s: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    out = ["## Breakdowns\n\nAgent SR with 95% Wilson intervals per value of each scenario design axis "
           "(evaluated episodes only), as in the paper's Figure 5 and Table 12.",
           _image("Breakdowns (Figure 5)", figures.get("breakdowns")),
           _image("Image source category", figures.get("image_source"))]
    for axis, title in AXES:
        groups = s["breakdowns"].get(axis) or {}
        ui = any("ui_sr" in g for g in groups.values())
        rows = [[v, g["n"], pct(g["agent_sr"]), ci(g["agent_sr_ci"]), num(g["entity_f1"]),
                 num(g["entity_f1_macro"]), pct(g["user_sr"]), *([pct(g.get("ui_sr"))] if ui else []),
                 num(g["avg_steps"], 1)] for v, g in groups.items()]
        note = ""
        if axis == "image_category":
            note = ("\n\nCategories group the source datasets as in the paper (Appendix D.4); a scenario counts "
                    "in every category it has an image from (from its image paths), else in the category of "
                    "its `dataset_type`, so counts can sum to more than the episodes.")
        out.append(f"### {title}\n\n" + table(["Value", "n", "Agent SR", "95% CI", "Entity F1 (micro)",
                                                 "Entity F1 (macro)", "User SR", *(["UI SR"] if ui else []),
                                                 "Avg steps"], rows) + note)
    return "\n\n".join(p for p in out if p)


def _not_evaluated(s: Mapping[str, Any]) -> str:
    """``3 (infrastructure 2, configuration 1)``: the rows left out of agent metrics, by failure class."""
    n = s.get("not_evaluated", s["infra_failures"])
    parts = [f"{k} {v}" for k, v in (s.get("failures") or {}).items() if v and k != "agent"]
    return f"{n} ({', '.join(parts)})" if parts else str(n)


def episode_link(run_dir: str, episode_id: str) -> str:
    """An episode id linked to its page in ``mmtsb view`` (default port)."""
    return f"[`{episode_id}`]({episode_url(run_dir, episode_id)})"


def _viewer(run_dir: str) -> str:
    return (f"## Viewer\n\nEvery episode of this run (the conversation with its tool calls, code and images, the "
            f"world diff against the expected specs with per-column scores, each judge criterion with its "
            f"analysis): run `mmtsb view {run_dir}` and open <{run_url(run_dir)}>; the episode ids above link to "
            f"their pages there (`mmtsb view --export DIR` writes a copy that opens from disk).")


def _infra(details: Mapping[str, Any], run_dir: str) -> str:
    infra = details["infra"]
    if not infra:
        return "## Episodes not evaluated\n\nNone."
    rows = [[episode_link(run_dir, i["episode_id"]), i["scenario"], i.get("failure_class", "infrastructure"), i["attempts"],
             i["reason"]] for i in infra]
    return ("## Episodes not evaluated\n\nNot agent failures: excluded from the agent metrics above. "
            "Infrastructure failures were retried (and a resumed run plays them again); configuration failures "
            "stop the run (a resumed run plays them again once the configuration is fixed); scenario failures "
            "name a file that cannot be played.\n\n"
            + table(["Episode", "Scenario", "Class", "Attempts", "Reason"], rows))


def _invalid_files(details: Mapping[str, Any]) -> str:
    """The selected files that failed validation (scenario failures without a row): never played."""
    invalid = details.get("invalid_scenarios") or []
    if not invalid:
        return ""
    rows = [[f"`{i['file']}`", "; ".join(str(e) for e in (i.get("errors") or [])[:3])] for i in invalid]
    return ("## Scenario files not played\n\nThese selected files failed validation (as `mmtsb scenarios validate` "
            "reports them): they were not played and count in no metric; fix them and run the same command again."
            "\n\n" + table(["File", "Errors"], rows))


# ---------------------------------------------------------------------------------------------- compare
def compare_report(summaries: Sequence[Mapping[str, Any]], figures: Mapping[str, str]) -> str:
    labels = [s["label"] for s in summaries]
    runs = [[i + 1, s["label"], f"`{s['run_dir']}`", s["config"]["agent_model"], s["config"]["user_model"],
             s["config"]["judge_model"], s["config"]["interface"], s["config"]["toolbox"], s["config"]["dataset"],
             s["config"]["config_hash"]] for i, s in enumerate(summaries)]
    ui = any("ui_sr" in s for s in summaries)
    head = [[s["label"], s["n_episodes"], s.get("not_evaluated", s["infra_failures"]), pct(s["agent_sr"]),
             ci(s["agent_sr_ci"]),
             num(s["entity_f1"]), num(s["entity_f1_macro"]), pct(s["user_sr"]),
             *([pct(s.get("ui_sr"))] if ui else []), num(s["avg_steps"], 1),
             num(s["surfaced_tool_recall"]), num(s["invoked_tool_recall"]),
             f"{s['usage']['agent']['mean_total_tokens']:.0f}", cost_text(s["cost_usd"], s.get("cost_known", True))]
            for s in summaries]
    tax = []
    for s in summaries:
        t = s["failure_taxonomy"]
        n = t["n_failures"]
        tax.append([s["label"], n] + [f"{t['counts'].get(c, 0)} ({pct(t['counts'].get(c, 0) / n if n else None)})"
                                      for c in CATEGORIES])
    parts = [
        f"# Comparison of {len(summaries)} runs",
        "## Runs\n\n" + table(["#", "Label", "Run folder", "Agent", "User", "Judge", "Interface", "Toolbox",
                                "Dataset", "Config hash"], runs),
        "> " + INFRA_NOTE,
        "## Headline metrics\n\n" + table(["Run", "Episodes", "Not evaluated", "Agent SR", "95% CI", "Entity F1 (micro)",
                                           "Entity F1 (macro)", "User SR", *(["UI SR"] if ui else []),
                                           "Avg steps", "Surfaced recall",
                                           "Invoked recall", "Agent tokens / ep.", "Cost (USD)"], head)
        + "\n\n" + " ".join(filter(None, [partial_judge_note([(s["label"], s) for s in summaries]), F1_NOTE])),
        _image("Headline metrics", figures.get("headline")),
        _image("User SR vs Agent SR (Figure 6a)", figures.get("user_vs_agent")),
        "## Failure taxonomy (paper §6.4, heuristic)\n\n"
        + table(["Run", "Failures"] + [CATEGORY_TITLES[c] for c in CATEGORIES], tax) + "\n\n" + TAXONOMY_NOTE,
        _image("Failure taxonomy (Figure 7)", figures.get("taxonomy")),
        _compare_pass_k(summaries, figures),
        _compare_breakdowns(summaries, labels, figures),
    ]
    return "\n\n".join(p for p in parts if p) + "\n"


def _compare_pass_k(summaries: Sequence[Mapping[str, Any]], figures: Mapping[str, str]) -> str:
    with_k = [s for s in summaries if s.get("pass_k")]
    if not with_k:
        return ""
    kmax = max(int(k) for s in with_k for k in s["pass_k"])
    rows = []
    for s in with_k:
        rows.append([s["label"]] + [f"{pct(s['pass_k'][str(k)]['pass_hat_k'])} {ci(s['pass_k'][str(k)]['ci'])}"
                                    if str(k) in s["pass_k"] else "–" for k in range(1, kmax + 1)])
    return ("## pass^k (runs with repeats > 1, bootstrap 95% CI)\n\n"
            + table(["Run"] + [f"k={k}" for k in range(1, kmax + 1)], rows) + "\n\n"
            + _image("pass^k", figures.get("pass_k")))


def _compare_breakdowns(summaries: Sequence[Mapping[str, Any]], labels: Sequence[str],
                        figures: Mapping[str, str]) -> str:
    out = ["## Breakdowns\n\nAgent SR per value (n in parentheses), runs side by side.",
           _image("Breakdowns (Figure 5)", figures.get("breakdowns")),
           _image("Image source category", figures.get("image_source"))]
    for axis, title in AXES:
        values: list[str] = []
        for s in summaries:
            values += [v for v in (s["breakdowns"].get(axis) or {}) if v not in values]
        rows = []
        for v in values:
            cells = []
            for s in summaries:
                g = (s["breakdowns"].get(axis) or {}).get(v)
                cells.append(f"{pct(g['agent_sr'])} ({g['n']})" if g else "–")
            rows.append([v] + cells)
        out.append(f"### {title}\n\n" + table(["Value"] + list(labels), rows))
    return "\n\n".join(p for p in out if p)
