"""The run's progress display: plain periodic lines off a terminal (nohup, SLURM, CI), and on a terminal a rich
bar that per-episode log lines print above instead of through."""

from __future__ import annotations

import io
import logging
import re
import sys
import time

from rich.console import Console
from rich.file_proxy import FileProxy

from mmtsb.runner.progress import ProgressView, RunningStats

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _wait_for(caplog, text: str, timeout_s: float = 10.0) -> None:
    """Wait until a progress line with ``text`` was logged (the lines come from a thread, every interval)."""
    deadline = time.monotonic() + timeout_s
    while not any(text in r.getMessage() for r in caplog.records):
        assert time.monotonic() < deadline, f"no progress line with {text!r}"
        time.sleep(0.01)


def test_off_a_terminal_it_logs_whole_plain_lines_periodically_and_at_the_end(caplog):
    stats = RunningStats()
    with caplog.at_level(logging.INFO, logger="mmtsb.progress"):
        with ProgressView(3, stats, enabled=True, terminal=False, interval_s=0.05):
            _wait_for(caplog, "0/3 episodes")
            stats.add({"agent_pass": True, "entity_f1": 1.0})
            _wait_for(caplog, "1/3 episodes (33.3%) | 0:00:0")
            _wait_for(caplog, "Agent SR 1.000")
            stats.add({"agent_pass": False, "entity_f1": 0.5})
            stats.add({"agent_pass": True, "entity_f1": 1.0})
    lines = [r.getMessage() for r in caplog.records if r.name == "mmtsb.progress"]
    assert len(lines) >= 3                             # periodic lines (0/3, 1/3...), then the last one
    assert re.match(r"progress: 0/3 episodes \(0\.0%\) \| 0:00:0\d elapsed \| Agent SR -", lines[0])
    # an episode counted as done is already scored in the same line (never "1/3 ... Agent SR -")
    ones = [line for line in lines if line.startswith("progress: 1/3")]
    assert ones and all(re.match(r"progress: 1/3 episodes \(33\.3%\) \| 0:00:0\d elapsed, ~0:00:\d\d left \| "
                                 r"Agent SR 1\.000", line) for line in ones)
    # the static judge's Agent SR is marked as covering 4 of its 5 criteria (issue 13)
    assert re.match(r"progress: 3/3 episodes \(100\.0%\) \| 0:00:0\d elapsed \| Agent SR 0\.667 "
                    r"\(4/5 criteria: static judge\) \| Entity F1 0\.833", lines[-1])
    assert all("\n" not in line and "\r" not in line and "\x1b" not in line for line in lines)


def test_without_logging_set_up_the_lines_are_printed(capsys, monkeypatch):
    from mmtsb.runner import progress

    monkeypatch.setattr(progress.progress_log, "propagate", False)   # no handler anywhere for it
    with ProgressView(1, RunningStats(), enabled=True, terminal=False, interval_s=60):
        pass
    assert capsys.readouterr().out.startswith("progress: 0/1 episodes (0.0%) | 0:00:00 elapsed")


def test_on_a_terminal_log_lines_print_above_the_bar_not_through_it():
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=160)
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(name)s - %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    stats = RunningStats()
    try:
        with ProgressView(2, stats, enabled=True, terminal=True, console=console) as view:
            assert isinstance(handler.stream, FileProxy)   # the handler writes through rich's console now
            logging.getLogger("mmtsb.runner").warning("episode e1 done: agent_pass=True entity_f1=1.0")
            stats.add({"agent_pass": True, "entity_f1": 1.0})
            view.refresh()
        assert handler.stream is sys.stdout                 # restored when the bar is gone
    finally:
        root.removeHandler(handler)
    lines = [ANSI.sub("", line).strip() for line in buf.getvalue().replace("\r", "\n").splitlines()]
    assert "mmtsb.runner - episode e1 done: agent_pass=True entity_f1=1.0" in lines
    assert any(line.startswith("Agent SR 1.000") for line in lines)


def test_disabled_it_shows_nothing(capsys):
    with ProgressView(2, RunningStats(), enabled=False, terminal=False, interval_s=0.01):
        time.sleep(0.05)
    assert capsys.readouterr().out == ""
