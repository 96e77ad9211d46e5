"""A readable summary of one episode for the terminal (rich)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mmtsb.episode.loop import EpisodeResult
from mmtsb.protocol.roles import cost_text
from mmtsb.text import error_headline


def render_summary(result: EpisodeResult, console: Console | None = None) -> None:
    console = console or Console()
    t = result.trajectory
    table = Table(title=f"episode {result.scenario}", show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value")
    table.add_row("roles", ", ".join(f"{k}={v}" for k, v in t["roles"].items() if v))
    table.add_row("interface", str(t["interface"]))
    table.add_row("end reason", result.end_reason)
    table.add_row("steps", f"{result.steps} (agent and user messages, the paper's count); "
                           f"{result.agent_steps} agent actions")
    table.add_row("messages", f"{len(t['messages'])} ({t['budgets']['rows']} counted of {t['budgets']['max_messages']})")
    ed = t["entity_diff"]
    table.add_row("entity F1", f"{ed['f1']:.3f} (micro {ed['micro_f1']:.3f}, reference macro {ed['reference_f1']:.3f})")
    if ed.get("unexpected_writes"):
        table.add_row("unexpected writes", str(len(ed["unexpected_writes"])))
    for kind, verdict in t["judges"].items():
        if verdict is None:
            continue
        crits = ", ".join(f"{c['criterion']}={'pass' if c['passed'] else 'FAIL'}" for c in verdict["criteria"])
        label = "PASS" if verdict["passed"] else "FAIL"
        extra = f" error: {verdict['error']}" if verdict.get("error") else ""
        if kind == "agent" and verdict["criteria"] and "information_accuracy" not in {c["criterion"] for c in
                                                                                     verdict["criteria"]}:
            extra += " (4 of the 5 criteria: information_accuracy needs a model judge)"
        table.add_row(f"{kind} judge ({verdict['judge']})", escape(f"{label} [{crits}]{extra}"))
    usage = {k: v for k, v in t["usage"].items() if v and v.get("api_calls")}
    for role, u in usage.items():
        table.add_row(f"usage {role}", f"{u['total_tokens']} tokens in {u['api_calls']} calls, "
                                       f"{cost_text(u['cost_usd'], u.get('cost_known', True))}")
    table.add_row("duration", f"{t['timing']['duration_s']:.2f} s")
    if result.error:
        table.add_row("error", escape(error_headline(result.error)))
    console.print(table)
