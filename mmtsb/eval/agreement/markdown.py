"""``agreement.md``: the judge study as Markdown, in the order of the paper's Appendix B and C."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mmtsb.report.markdown import ci, num, pct, table

DEFINITIONS = (
    "Definitions. Items are (run, episode, party, criterion) with criterion `overall` for a judge's verdict on "
    "the party (the AND of its criteria). Raw agreement: share of items two raters label alike. Cohen's kappa "
    "(scikit-learn): agreement corrected for chance, over the items both raters labelled; undefined (–) when "
    "both give every item one and the same label. Fleiss' kappa (statsmodels): three or more raters over the "
    "items all of them labelled. Human majority: the label most annotators of an item gave (ties left out). "
    "Confusion matrices as the paper's Table 6 (rows: human majority; columns: the judge). FPR: share of human "
    "fails the judge passed; FNR: share of human passes the judge failed. Rankings: Agent SR of each run under "
    "each judge (its first repeat), correlated over the runs both judged (scipy: Spearman's rho, Kendall's "
    "tau-b). SD is the sample standard deviation (n - 1) of Agent SR over repeats, in percentage points, as the "
    "paper's Table 9; range is max - min. pass^k as in the run report (unbiased per scenario, bootstrap "
    "intervals over scenarios).")


def _img(title: str, name: str | None) -> str:
    return f"![{title}](figures/{name})" if name else ""


def _k(x: float | None) -> str:
    return num(x, 3)


def _points(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f}"


def render(result: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    parts = ["# Judge agreement study", _runs(result), DEFINITIONS]
    for party, data in result["agreement"].items():
        parts.append(_party(party, data, figures))
    parts += [_rankings(result["rankings"], figures), _variance(result, figures), _pass_k(result["pass_k"])]
    return "\n\n".join(p for p in parts if p) + "\n"


def _runs(result: Mapping[str, Any]) -> str:
    runs = [[r["run_id"], r["label"], f"`{r['path']}`", r["n_episodes"], r["rollout_repeats"],
             ", ".join(f"{j} (x{r['judge_repeats'][j]})" if j in r["judge_repeats"] else j for j in r["judges"])]
            for r in result["runs"]]
    raters = [[name, "judge", c["overall"], c["criteria"]] for name, c in result["raters"]["judges"].items()]
    raters += [[name, "human", c["overall"], c["criteria"]] for name, c in result["raters"]["humans"].items()]
    out = ["## Runs and raters",
           table(["Run", "Configuration", "Folder", "Episodes", "Rollout repeats", "Judges (repeats)"], runs),
           table(["Rater", "Kind", "Overall verdicts", "Criterion labels"], raters)]
    if result["notes"]:
        out.append("Notes:\n\n" + "\n".join(f"- {n}" for n in result["notes"]))
    if not result["raters"]["humans"]:
        out.append("No human labels were given (`--labels`): judges are compared with each other only.")
    return "\n\n".join(out)


def _party(party: str, data: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    b = data["overall"]
    out = [f"## {party} judge", "### Overall verdict"]
    if "majority" in b:
        m = b["majority"]
        out.append(f"Human majority: {m['n_items']} item(s) with a majority ({m['ties']} tie(s) left out), "
                   f"pass rate {pct(m['pass_rate'])}.")
    if "inter_annotator" in b:
        ia = b["inter_annotator"]
        line = (f"Inter-annotator agreement: mean pairwise raw agreement {_k(ia['raw']['mean'])} (range over pairs "
                f"{_k(ia['raw']['min'])}–{_k(ia['raw']['max'])}), mean pairwise Cohen's kappa "
                f"{_k(ia['kappa']['mean'])} ({_k(ia['kappa']['min'])}–{_k(ia['kappa']['max'])})")
        if "fleiss" in ia:
            line += (f", Fleiss' kappa {_k(ia['fleiss']['kappa'])} over the {ia['fleiss']['n_items']} item(s) all "
                     f"{ia['fleiss']['n_raters']} annotators labelled")
        out.append(line + ".")
    if b.get("vs_majority"):
        rows = [[j, v["n"], _k(v["raw"]), _k(v["kappa"]), _k(v["fpr"]), _k(v["fnr"]), _k(v["judge_pass_rate"]),
                 _k(v["human_pass_rate"])] for j, v in b["vs_majority"].items()]
        out.append("Judges against the human majority (the paper's Table 5):\n\n"
                   + table(["Judge", "n", "Raw", "Cohen's kappa", "FPR", "FNR", "Judge pass rate",
                            "Human pass rate"], rows))
        for j, v in b["vs_majority"].items():
            c = v["confusion"]
            out.append(f"Confusion matrix of {j} (the paper's Table 6):\n\n"
                       + table(["", "judge=pass", "judge=fail", "total"],
                               [["human=pass", c["tp"], c["fn"], c["tp"] + c["fn"]],
                                ["human=fail", c["fp"], c["tn"], c["fp"] + c["tn"]]]))
        out.append(_img("Confusion matrices", figures.get(f"{party}_confusion")))
    if "judges_fleiss" in b:
        f = b["judges_fleiss"]
        out.append(f"Fleiss' kappa of the {f['n_raters']} judges: {_k(f['kappa'])} over {f['n_items']} item(s).")
    if b["pairwise"]:
        out.append("Every pair of raters:\n\n" + table(
            ["Rater A", "Rater B", "n", "Raw", "Cohen's kappa"],
            [[p["a"], p["b"], p["n"], _k(p["raw"]), _k(p["kappa"])] for p in b["pairwise"]]))
        out.append(_img("Pairwise kappa", figures.get(f"{party}_kappa")))
    out.append(_criteria(party, data, figures))
    return "\n\n".join(p for p in out if p)


def _criteria(party: str, data: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    from mmtsb.eval.agreement.figures import criteria_comparisons

    if not data["criteria"]:
        return ""
    criteria, comparisons, _, _ = criteria_comparisons(data)
    if not comparisons:
        return ""
    rows = []
    for c in criteria:
        b = data["criteria"][c]
        found = b["vs_majority"] if b.get("vs_majority") else {f"{p['a']} vs {p['b']}": p for p in b["pairwise"]}
        rows.append([c, *[f"{_k(found[n]['raw'])} / {_k(found[n]['kappa'])} (n={found[n]['n']})" if n in found
                          else "–" for n in comparisons]])
    against = "each judge against the human majority" if any(data["criteria"][c].get("vs_majority")
                                                                for c in criteria) else "each pair of judges"
    return (f"### Per criterion\n\nRaw agreement / Cohen's kappa (n) per criterion, {against}.\n\n"
            + table(["Criterion", *comparisons], rows) + "\n\n" + _img("Per criterion", figures.get(f"{party}_criteria")))


def _rankings(r: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    sr = r["agent_sr"]
    if not sr:
        return ""
    judges = list(sr)
    runs: list[str] = []
    for j in judges:
        runs += [x for x in sr[j] if x not in runs]
    rows = [[run, *[pct(sr[j].get(run)) for j in judges]] for run in runs]
    out = ["## Model rankings across judges (the paper's Table 8)",
           "Agent SR of each run under each judge:\n\n" + table(["Run", *judges], rows)]
    if r["pairs"]:
        out.append("Rank correlation of the runs' Agent SR between judges:\n\n" + table(
            ["Judge A", "Judge B", "Runs", "Spearman rho", "p", "Kendall tau", "p"],
            [[p["a"], p["b"], p["n"], _k(p["spearman"]), _k(p["spearman_p"]), _k(p["kendall"]), _k(p["kendall_p"])]
             for p in r["pairs"]]))
    elif len(runs) < 2:
        out.append("Rank correlations need two or more runs (give several RUN_DIRs).")
    out.append(_img("Rankings", figures.get("rankings")))
    return "\n\n".join(p for p in out if p)


def _spread_table(entries: list[Mapping[str, Any]], what: str) -> str:
    k = max((len(e["values"]) for e in entries), default=0)
    rows = [[e["run"], e["judge"], *[_points(v) for v in e["values"]], *["–"] * (k - len(e["values"])),
             _points(e["mean"]), _points(e["sd"]), _points(e["range"])] for e in entries]
    return table(["Run", "Judge", *[f"{what} {i + 1}" for i in range(k)], "Mean", "SD", "Range"], rows)


def _variance(result: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    out = []
    if result["judge_variance"]:
        out.append("## Judge run-to-run variance (the paper's Table 9)\n\nAgent SR (%) of independent judge runs "
                   "over the same fixed trajectories (`mmtsb rejudge ... judge_repeats=k`):\n\n"
                   + _spread_table(result["judge_variance"], "Run"))
    if result["rollout_variance"]:
        out.append("## Rollout variance\n\nAgent SR (%) of each rollout repeat (`mmtsb run repeats=k`: a fresh "
                   "environment, user and agent per repeat) under each judge:\n\n"
                   + _spread_table(result["rollout_variance"], "Repeat"))
    if out:
        out.append(_img("Variance", figures.get("variance")))
    return "\n\n".join(p for p in out if p)


def _pass_k(pk: Mapping[str, Any]) -> str:
    if not pk:
        return ""
    rows = []
    for run, by_judge in pk.items():
        for judge, tbl in by_judge.items():
            for k, v in tbl.items():
                rows.append([run, judge, k, pct(v["pass_hat_k"]), ci(v["ci"]), pct(v["pass_at_k"]),
                             ci(v["pass_at_k_ci"]), v["n_scenarios"]])
    return ("## pass^k per judge\n\n" + table(["Run", "Judge", "k", "pass^k", "95% CI", "pass@k", "95% CI",
                                                "Scenarios"], rows))
