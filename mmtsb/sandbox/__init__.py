"""Sandboxed code execution: a persistent Python interpreter in a separate, confined process.

Agent code runs in a child forked from a warm template process (allowed libraries preloaded), confined by
rlimits, seccomp, Landlock, a private network namespace and a scrubbed environment; tools are plain functions
inside it whose calls are proxied to the parent as JSON. See :class:`Interpreter`, and :class:`SandboxServer`,
which owns the template (one per process that runs episodes) and reports the active layers.

Nothing is left behind: the scratch folder holds at most ``SandboxLimits.disk_quota_bytes`` (enforced by the
parent, :mod:`mmtsb.sandbox.quota`), and an episode's folder is removed when the episode ends
(:class:`ScratchFolder`; ``MMTSB_KEEP_SCRATCH=1`` keeps it for debugging, and says where).

Exports are resolved lazily so that the template process, which imports this package, stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mmtsb.sandbox.config import ExecResult, SandboxLimits
    from mmtsb.sandbox.forkserver import SandboxCPU, SandboxServer
    from mmtsb.sandbox.interpreter import Interpreter
    from mmtsb.sandbox.scratch import ScratchFolder

__all__ = ["ExecResult", "Interpreter", "SandboxCPU", "SandboxLimits", "SandboxServer", "ScratchFolder"]

_EXPORTS = {"ExecResult": "config", "SandboxLimits": "config", "Interpreter": "interpreter",
            "SandboxServer": "forkserver", "SandboxCPU": "forkserver", "ScratchFolder": "scratch"}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mmtsb.sandbox' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"mmtsb.sandbox.{module}"), name)
