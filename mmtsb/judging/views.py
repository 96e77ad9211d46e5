"""A run's rows as each judge sees them, and the column per judge that ``summary.json`` and ``report.md`` gain.

The rows of ``episodes.parquet`` carry the run's own judge's verdicts. :func:`rows_under` gives the same rows
with one re-judged label's verdicts in their place (``<party>_pass``, the criteria, the judge error), so every
metric of the report (Agent SR with its interval, User SR, criteria rates, pass^k) is computed for that judge
by the report's own functions. An episode whose only failure was its original judge's (no verdict) counts
under a judge that gave one; an episode the new judge could not judge is left out as the report leaves out
a verdict-less episode.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from mmtsb.eval.agreement.stats import spread
from mmtsb.judging.store import StoreError, VerdictStore, labels
from mmtsb.protocol import registry
from mmtsb.protocol.failures import FailureClass, is_excluded, row_failure_class
from mmtsb.report.data import Row, RunData, episode_key

RUN_JUDGE = "run"          # the key of the run's own judge in the per-judge summary
HEADLINE = ("agent_sr", "agent_sr_ci", "n_judged", "user_sr", "user_sr_ci", "n_user_judged", "ui_sr", "ui_sr_ci",
            "n_ui_judged")


def played(row: Row) -> bool:
    """Whether an episode played to its end (a platform, configuration or scenario failure ends it with
    ``end_reason`` error: nothing to judge)."""
    return row.get("end_reason") != "error"


def verdict_columns(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """The judge columns of every judged party as a stored verdict row gives them (its pass, criteria, error and
    judge name; all None for a party this judge did not judge)."""
    out: dict[str, Any] = {}
    judged = set(json.loads(verdict.get("parties") or "[]"))
    for name, party in registry.judged_parties().items():
        for column in (f"{name}_pass", f"{name}_judge_error", f"{name}_judge",
                       *(party.column(c) for c in party.criteria)):
            out[column] = verdict.get(column) if name in judged else None
    return out


def row_under(row: Row, verdict: Mapping[str, Any] | None) -> Row:
    """``row`` with a judge's verdict in place of the run judge's (None: that judge gave the episode none)."""
    out = dict(row)
    if not played(row):
        return out
    if verdict is None:
        for name in registry.judged_parties():
            out[f"{name}_pass"] = None
        out.update({"failure_class": FailureClass.INFRASTRUCTURE.value, "infra_failure": True,
                    "agent_judge_error": "not judged by this judge"})
        return out
    out.update(verdict_columns(verdict))
    original = row_failure_class(row)
    judge_only = original is not None and original != FailureClass.AGENT and is_excluded(row)
    if "agent" not in json.loads(verdict.get("parties") or "[]"):   # the run's exclusion stands
        return out
    if out.get("agent_judge_error"):   # no agent verdict: the episode cannot be scored by this judge
        out.update({"failure_class": FailureClass.INFRASTRUCTURE.value, "infra_failure": True})
    elif judge_only:                   # excluded only because the run's judge gave no verdict
        out.update({"failure_class": None, "infra_failure": False})
    return out


def rows_under(rows: Sequence[Row], verdicts: Sequence[Mapping[str, Any]], judge_repeat: int = 0) -> list[Row]:
    """Every row as judge repeat ``judge_repeat`` of a label's verdicts sees it."""
    by_episode = {str(v["episode_id"]): v for v in verdicts if int(v.get("judge_repeat") or 0) == judge_repeat}
    return [row_under(r, by_episode.get(episode_key(r))) for r in rows]


def judge_repeats(verdicts: Sequence[Mapping[str, Any]]) -> int:
    return 1 + max((int(v.get("judge_repeat") or 0) for v in verdicts), default=-1)


def evaluated(rows: Sequence[Row]) -> list[Row]:
    return [r for r in rows if not is_excluded(r)]


def run_judge_name(data: RunData) -> str:
    names = dict.fromkeys(str(r.get("agent_judge")) for r in data.rows if r.get("agent_judge"))
    return "+".join(names) or "?"


def _agreement_with_run(rows: Sequence[Row], judged: Sequence[Row]) -> dict[str, Any]:
    """How often a judge's agent verdict matches the run judge's, over episodes both judged."""
    pairs = [(a.get("agent_pass"), b.get("agent_pass")) for a, b in zip(rows, judged)
             if not is_excluded(a) and not is_excluded(b) and a.get("agent_pass") is not None
             and b.get("agent_pass") is not None]
    return {"agreement_with_run": sum(x == y for x, y in pairs) / len(pairs) if pairs else None,
            "n_compared": len(pairs)}


def judge_summary(rows: Sequence[Row], name: str) -> dict[str, Any]:
    """The report's headline and criteria metrics of rows as one judge sees them."""
    from mmtsb.report.metrics import criteria_rates, group_metrics

    ev = evaluated(rows)
    head = group_metrics(ev)
    return {"judge": name, **{k: head[k] for k in HEADLINE if k in head}, "criteria": criteria_rates(ev)}


def judges_summary(data: RunData) -> dict[str, Any] | None:
    """Per judge (the run's own, then each re-judged label): Agent SR, User SR (UI SR) with intervals, criteria
    pass rates, agreement with the run's judge, usage; for labels judged k > 1 times, Agent SR per repeat with
    its SD and range. None when the run was never re-judged."""
    found = labels(data.run_dir)
    if not found:
        return None
    out: dict[str, Any] = {RUN_JUDGE: judge_summary(data.rows, run_judge_name(data))}
    for label in found:
        store = VerdictStore(data.run_dir, label)
        verdicts = store.rows()
        try:
            record = store.judge()
        except StoreError:   # a damaged judge.json: the verdicts still count, under the label's name
            record = None
        k = judge_repeats(verdicts)
        first = rows_under(data.rows, verdicts, 0)
        entry = judge_summary(first, record.name if record is not None else label)
        entry.update(_agreement_with_run(data.rows, first))
        by_repeat = [group_metrics_sr(rows_under(data.rows, verdicts, r)) for r in range(k)]
        entry.update({"judge_repeats": k, "agent_sr_by_repeat": by_repeat,
                      "agent_sr_spread": spread([v for v in by_repeat if v is not None]),
                      "n_verdicts": len(verdicts),
                      "total_tokens": sum(int(v.get(f"{p}_judge_total_tokens") or 0) for v in verdicts
                                          for p in registry.judged_parties()),
                      "cost_usd": sum(float(v.get(f"{p}_judge_cost_usd") or 0.0) for v in verdicts
                                      for p in registry.judged_parties())})
        out[label] = entry
    return out


def group_metrics_sr(rows: Sequence[Row]) -> float | None:
    from mmtsb.report.metrics import group_metrics

    return group_metrics(evaluated(rows))["agent_sr"]


# ---------------------------------------------------------------------------------------------- markdown
def judges_markdown(summary: Mapping[str, Any]) -> str:
    """The report's "Judges" section: one column per judge (empty when the run was never re-judged)."""
    from mmtsb.report.markdown import ci, num, pct, table

    judges = summary.get("judges")
    if not judges:
        return ""
    names = list(judges)
    header = ["Metric", *[f"{n} ({j['judge']})" if n != RUN_JUDGE else f"run judge ({j['judge']})"
                          for n, j in judges.items()]]

    def row(title: str, cell: Any) -> list[Any]:
        return [title, *[cell(judges[n]) for n in names]]

    rows = [row("Agent SR", lambda j: f"{pct(j.get('agent_sr'))} {ci(j.get('agent_sr_ci'))} (n={j.get('n_judged')})"),
            row("User SR", lambda j: f"{pct(j.get('user_sr'))} (n={j.get('n_user_judged')})")]
    if any("ui_sr" in j for j in judges.values()):
        rows.append(row("UI SR", lambda j: f"{pct(j.get('ui_sr'))} (n={j.get('n_ui_judged')})"))
    criteria: list[str] = []
    for j in judges.values():
        criteria += [c for c, v in (j.get("criteria") or {}).items() if v.get("n") and c not in criteria]
    for c in criteria:
        rows.append(row(c, lambda j, c=c: pct(((j.get("criteria") or {}).get(c) or {}).get("pass_rate"))))
    rows += [row("Agreement with the run judge (agent)", lambda j: pct(j.get("agreement_with_run"))),
             row("Judge repeats", lambda j: j.get("judge_repeats", 1)),
             row("Agent SR per repeat", lambda j: ", ".join(pct(v) for v in j.get("agent_sr_by_repeat") or [])
                 or "–"),
             row("Agent SR SD / range over repeats (points)",
                 lambda j: _sd_range(j.get("agent_sr_spread"), num)),
             row("Judge tokens / cost (USD)", lambda j: f"{j.get('total_tokens', '–')} / "
                 f"{num(j.get('cost_usd'), 4)}" if "total_tokens" in j else "–")]
    return ("## Judges\n\nThe run's trajectories judged again by other judges (`mmtsb rejudge`), one column "
            "per judge: the run's own judge first, then each label under `rejudge/`. Metrics of each column come "
            "from that judge's verdicts (its first repeat); an episode a judge could not judge is left out of its "
            "column. Agreement with the run judge: the share of episodes both judged where their agent verdicts "
            "match. `mmtsb agreement` gives the full study (kappa, human labels, rankings).\n\n"
            + table(header, rows))


def _sd_range(s: Mapping[str, Any] | None, num: Any) -> str:
    if not s or s.get("sd") is None:
        return "–"
    return f"{num(100 * s['sd'], 2)} / {num(100 * s['range'], 2)}"
