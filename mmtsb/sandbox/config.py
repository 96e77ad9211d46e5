"""The sandbox's public value types: the limits an interpreter runs under and the result of one run.

Plain dataclasses, so they are cheap to build and trivially serialisable (the limits travel to the child as
JSON; the result is what the episode turns into an observation for the agent).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: what the agent is told when its interpreter had to be replaced before a run that then succeeded
RESET_NOTICE = ("The Python interpreter was restarted before this code ran: variables, imports and "
                "definitions from earlier runs are gone.")
GiB = 1 << 30
MiB = 1 << 20


@dataclass(frozen=True)
class SandboxLimits:
    """What one interpreter may consume. Every limit is enforced by the kernel or by the parent process.

    Attributes:
        wall_seconds: wall-clock budget of one ``run`` (time spent inside tool calls is not counted); past it
            the parent kills the interpreter and starts a fresh one.
        cpu_seconds: CPU budget of one ``run`` (RLIMIT_CPU soft limit, re-armed before each run).
        cpu_seconds_total: CPU budget of the interpreter's whole life (RLIMIT_CPU hard limit).
        memory_bytes: address-space limit of the interpreter process (RLIMIT_AS; the preloaded libraries
            take about 150 MiB of it).
        output_chars: cap on captured stdout and, separately, on the repr of the last value.
        file_size_bytes: largest file the interpreter may write into its scratch folder (RLIMIT_FSIZE).
        disk_quota_bytes: disk space the scratch folder may hold in all, over every run of the episode
            (files the interpreter keeps open or mapped after deleting them included). Past it, writes that
            grow a file fail inside the code with ``OSError: [Errno 27] File too large`` and a note until
            files are deleted; code that keeps writing anyway is stopped at 1.5 times the quota (at least
            16 MiB more). Enforced by the parent, see :mod:`mmtsb.sandbox.quota`.
        disk_quota_files: files and folders the scratch folder may hold (the same treatment; creating empty
            files is stopped at 1.5 times this, at least 1000 more).
        open_files: RLIMIT_NOFILE.
        max_code_chars: longest program accepted.
        max_message_bytes: largest frame the parent accepts from the interpreter (a tool call or a result).
        max_tool_calls: tool calls one run may make; later calls raise RuntimeError in the code (tool time
            does not count against ``wall_seconds``, so this bounds a run that only calls tools).
    """

    wall_seconds: float = 30.0
    cpu_seconds: int = 30
    cpu_seconds_total: int = 600
    memory_bytes: int = 1 * GiB
    output_chars: int = 10_000
    file_size_bytes: int = 64 * MiB
    disk_quota_bytes: int = 256 * MiB
    disk_quota_files: int = 10_000
    open_files: int = 256
    max_code_chars: int = 200_000
    max_message_bytes: int = 16 * MiB
    max_tool_calls: int = 1000

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if value <= 0:
                raise ValueError(f"SandboxLimits.{name} must be positive, got {value!r}")
        if self.memory_bytes < 256 * MiB:
            raise ValueError(f"SandboxLimits.memory_bytes must be at least 256 MiB (the preloaded libraries "
                             f"alone take about 150 MiB), got {self.memory_bytes}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ExecResult:
    """The outcome of one ``Interpreter.run``.

    Attributes:
        stdout: what the code printed (stdout and stderr), truncated at ``output_chars`` with a note; for a
            run stopped before it finished (time limit, interpreter death) the head it printed until then
            (the interpreter sends its output to the parent as it goes, up to the cap).
        value: repr of the last expression's value (None when there is none, or it is None).
        error: the exception as a short traceback (at most 3 frames of the agent's code) or a sandbox notice
            (timeout, interpreter death); None on success.
        blocked: the static check's verdict, "Execution blocked: ..." (nothing ran); None otherwise.
        images: ids of images that tool calls returned during the run, then those in the last value.
        duration: seconds the run took, as seen by the caller.
        reset: the interpreter was killed and replaced during this run: every variable is gone.
        timed_out: the wall-clock limit was hit (implies ``reset``).
        result_var: repr of a variable named ``result`` when there is no last value (reference behaviour).
        tool_calls: number of tool calls the code made.
        cpu_s: CPU seconds (user + system) the interpreter process used for this run (0 when nothing ran; a
            process replaced during the run counts in full, as does its replacement's start).
        disk_quota_exceeded: the scratch folder was over its disk quota during or after the run (a note in
            ``stdout`` tells the agent; a run stopped for it also has a ``DiskQuotaExceeded`` error).
    """

    stdout: str = ""
    value: str | None = None
    error: str | None = None
    blocked: str | None = None
    images: list[int] = field(default_factory=list)
    duration: float = 0.0
    reset: bool = False
    timed_out: bool = False
    result_var: str | None = None
    tool_calls: int = 0
    cpu_s: float = 0.0
    disk_quota_exceeded: bool = False

    @property
    def ok(self) -> bool:
        """True when the code ran to the end without an exception."""
        return self.error is None and self.blocked is None

    def to_text(self) -> str:
        """The observation the reference's ``execute_code`` returns: output, then value or error."""
        if self.blocked:
            return self.blocked
        parts = [self.stdout.rstrip("\n")] if self.stdout else []
        if self.reset and self.error is None:
            parts.insert(0, f"[{RESET_NOTICE}]")
        if self.error is not None:
            parts.append(f"Error: {self.error}")
        elif self.value is not None:
            parts.append(self.value)
        elif not parts and self.result_var is not None:
            parts.append(f"result = {self.result_var}")
        return "\n".join(parts) if parts else "Code executed successfully (no output)"
