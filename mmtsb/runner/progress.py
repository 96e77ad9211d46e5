"""Running totals of a run and their live display (rich), updated as each episode's row arrives."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from mmtsb.protocol.failures import is_excluded
from mmtsb.protocol.roles import cost_text
from mmtsb.runner.rows import role_keys


@dataclass
class RunningStats:
    """Done count, Agent SR and Entity F1 over scored episodes, infra failures, tokens and cost."""

    done: int = 0
    scored: int = 0
    passed: int = 0
    f1_sum: float = 0.0
    f1_n: int = 0
    infra: int = 0
    retries: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    partial_judge: bool = False      # some Agent SR verdict covered 4 of the 5 criteria (the static judge)

    def add(self, row: dict[str, Any]) -> None:
        self.done += 1
        self.tokens += sum(int(row.get(f"{r}_total_tokens") or 0) for r in role_keys())
        self.tokens += int(row.get("earlier_attempts_total_tokens") or 0)
        self.cost_usd += sum(float(row.get(f"{r}_cost_usd") or 0.0) for r in role_keys())
        self.cost_usd += float(row.get("earlier_attempts_cost_usd") or 0.0)
        self.cost_known = self.cost_known and all(row.get(f"{r}_cost_known", True) is not False for r in role_keys())
        if is_excluded(row):
            self.infra += 1
            return
        if row.get("agent_pass") is not None:
            self.partial_judge = self.partial_judge or row.get("agent_information_accuracy") is None
            self.scored += 1
            self.passed += int(bool(row["agent_pass"]))
        if row.get("entity_f1") is not None:
            self.f1_n += 1
            self.f1_sum += float(row["entity_f1"])

    def line(self) -> str:
        sr = f"{self.passed / self.scored:.3f}" if self.scored else "-"
        f1 = f"{self.f1_sum / self.f1_n:.3f}" if self.f1_n else "-"
        tokens = f"{self.tokens / 1000:.1f}k" if self.tokens >= 1000 else str(self.tokens)
        which = " (4/5 criteria: static judge)" if self.partial_judge else ""
        return (f"Agent SR {sr}{which} | Entity F1 {f1} | not evaluated {self.infra} ({self.retries} retries) | "
                f"{tokens} tok | {cost_text(self.cost_usd, self.cost_known)}")


class ProgressView:
    """A rich progress bar with the running metrics; a no-op when disabled or stdout is not a terminal."""

    def __init__(self, total: int, stats: RunningStats, *, enabled: bool, label: str = "episodes") -> None:
        self.stats = stats
        self.enabled = enabled and sys.stdout.isatty()
        self._progress: Any = None
        self._task: Any = None
        self._total, self._label = total, label

    def __enter__(self) -> ProgressView:
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
            from rich.text import Text

            stats = self.stats

            class RunProgress(Progress):
                """The bar, then the running metrics on a line of their own (they do not fit beside it)."""

                def get_renderables(self):  # type: ignore[no-untyped-def]
                    yield self.make_tasks_table(self.tasks)
                    yield Text(stats.line(), style="dim")

            self._progress = RunProgress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=30),
                                         MofNCompleteColumn(), TimeElapsedColumn(), refresh_per_second=4)
            self._progress.start()
            self._task = self._progress.add_task(self._label, total=self._total, completed=self.stats.done)
        return self

    def refresh(self) -> None:
        if self._progress is not None:
            self._progress.update(self._task, completed=self.stats.done)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self.refresh()
            self._progress.stop()
            self._progress = None
