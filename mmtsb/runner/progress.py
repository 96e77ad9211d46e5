"""Running totals of a run and their display (a rich bar on a terminal, plain periodic lines off one), updated
as each episode's row arrives."""

from __future__ import annotations

import logging
import sys
import threading
import time
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
        """Count one finished row. Everything is read from the row before any count changes, so a progress line
        drawn meanwhile (another thread) never shows an episode done but not yet scored."""
        roles = role_keys()
        tokens = sum(int(row.get(f"{r}_total_tokens") or 0) for r in roles)
        tokens += int(row.get("earlier_attempts_total_tokens") or 0)
        cost = sum(float(row.get(f"{r}_cost_usd") or 0.0) for r in roles)
        cost += float(row.get("earlier_attempts_cost_usd") or 0.0)
        cost_known = all(row.get(f"{r}_cost_known", True) is not False for r in roles)
        excluded = is_excluded(row)
        self.tokens += tokens
        self.cost_usd += cost
        self.cost_known = self.cost_known and cost_known
        if excluded:
            self.infra += 1
        else:
            if row.get("agent_pass") is not None:
                self.partial_judge = self.partial_judge or row.get("agent_information_accuracy") is None
                self.scored += 1
                self.passed += int(bool(row["agent_pass"]))
            if row.get("entity_f1") is not None:
                self.f1_n += 1
                self.f1_sum += float(row["entity_f1"])
        self.done += 1

    def line(self) -> str:
        sr = f"{self.passed / self.scored:.3f}" if self.scored else "-"
        f1 = f"{self.f1_sum / self.f1_n:.3f}" if self.f1_n else "-"
        tokens = f"{self.tokens / 1000:.1f}k" if self.tokens >= 1000 else str(self.tokens)
        which = " (4/5 criteria: static judge)" if self.partial_judge else ""
        return (f"Agent SR {sr}{which} | Entity F1 {f1} | not evaluated {self.infra} ({self.retries} retries) | "
                f"{tokens} tok | {cost_text(self.cost_usd, self.cost_known)}")


#: seconds between two plain progress lines off a terminal (``runner.progress_interval_s``)
DEFAULT_INTERVAL_S = 30.0
progress_log = logging.getLogger("mmtsb.progress")


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class ProgressView:
    """The run's progress, shown the way the output can take it.

    - On a terminal: a rich progress bar with the running metrics. While it is drawn, the log handlers that
      write to the terminal write through rich's console instead, so per-episode log lines appear above the
      bar and never through it.
    - Off a terminal (nohup, SLURM, CI, a pipe): a plain line every ``interval_s`` seconds and a last one at
      the end, e.g. ``progress: 120/1000 episodes (12.0%) | 0:05:12 elapsed, ~0:38:08 left | Agent SR ...``,
      logged through ``mmtsb.progress`` like every other line (printed when logging is not set up), so
      lines never interleave with per-episode log lines.
    - Disabled: nothing.
    """

    def __init__(self, total: int, stats: RunningStats, *, enabled: bool, label: str = "episodes",
                 interval_s: float = DEFAULT_INTERVAL_S, terminal: bool | None = None, console: Any = None) -> None:
        self.stats = stats
        self.enabled = enabled
        self.terminal = sys.stdout.isatty() if terminal is None else terminal
        self.interval_s = interval_s
        self._console = console                # a rich Console (tests); default: rich's own
        self._progress: Any = None
        self._task: Any = None
        self._total, self._label = total, label
        self._started = time.monotonic()
        self._done_at_start = stats.done
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._swapped: list[tuple[logging.StreamHandler, Any]] = []

    def __enter__(self) -> ProgressView:
        self._started = time.monotonic()
        self._done_at_start = self.stats.done
        if not self.enabled:
            return self
        if self.terminal:
            self._start_bar()
        else:
            self._ticker = threading.Thread(target=self._tick, name="mmtsb-progress", daemon=True)
            self._ticker.start()
        return self

    # ---------------------------------------------------------------- plain lines (off a terminal)
    def plain_line(self) -> str:
        """``progress: done/total episodes (pct) | elapsed, ~left | <the running metrics>``."""
        done, total = self.stats.done, self._total
        elapsed = time.monotonic() - self._started
        share = f" ({100 * done / total:.1f}%)" if total else ""
        rate = (done - self._done_at_start) / elapsed if elapsed > 0 else 0.0
        left = f", ~{_clock((total - done) / rate)} left" if rate > 0 and done < total else ""
        return f"progress: {done}/{total} {self._label}{share} | {_clock(elapsed)} elapsed{left} | {self.stats.line()}"

    def _emit(self) -> None:
        line = self.plain_line()
        if progress_log.isEnabledFor(logging.INFO) and progress_log.hasHandlers():
            progress_log.info(line)
        else:   # logging not set up (a script calling execute_run): one whole line on stdout
            print(line, flush=True)

    def _tick(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._emit()

    # ---------------------------------------------------------------- the bar (on a terminal)
    def _start_bar(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        from rich.text import Text

        stats = self.stats

        class RunProgress(Progress):
            """The bar, then the running metrics on a line of their own (they do not fit beside it)."""

            def get_renderables(self):  # type: ignore[no-untyped-def]
                yield self.make_tasks_table(self.tasks)
                yield Text(stats.line(), style="dim")

        before = (sys.stdout, sys.stderr)
        self._progress = RunProgress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=30),
                                     MofNCompleteColumn(), TimeElapsedColumn(), refresh_per_second=4,
                                     console=self._console)
        self._progress.start()
        self._task = self._progress.add_task(self._label, total=self._total, completed=self.stats.done)
        self._route_log_handlers(before)

    def _route_log_handlers(self, before: tuple[Any, Any]) -> None:
        """Point the log handlers that write to the terminal at rich's redirected streams (lines above the bar)."""
        redirected = {id(before[0]): sys.stdout, id(before[1]): sys.stderr,
                      id(sys.__stdout__): sys.stdout, id(sys.__stderr__): sys.stderr}
        for logger in (logging.getLogger(), logging.getLogger("mmtsb")):
            for handler in logger.handlers:
                if isinstance(handler, logging.StreamHandler) and not isinstance(handler, logging.FileHandler):
                    target = redirected.get(id(handler.stream))
                    if target is not None and target is not handler.stream:
                        self._swapped.append((handler, handler.setStream(target)))

    def refresh(self) -> None:
        if self._progress is not None:
            self._progress.update(self._task, completed=self.stats.done)

    def __exit__(self, *exc: object) -> None:
        if self._ticker is not None:
            self._stop.set()
            self._ticker.join()
            self._ticker = None
            self._emit()   # the last line: where the run ended
        if self._progress is not None:
            self.refresh()
            for handler, stream in reversed(self._swapped):
                handler.setStream(stream)
            self._swapped.clear()
            self._progress.stop()
            self._progress = None
