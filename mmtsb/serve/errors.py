"""Errors of the serving layer: each message says what failed, where the log is, and its last lines."""

from __future__ import annotations


class ServeError(RuntimeError):
    """The model server could not be started, reached or stopped."""


class VLLMStartError(ServeError):
    """vLLM exited (or could not be launched) before it became ready."""


class VLLMStartTimeout(VLLMStartError):
    """vLLM did not become ready within ``serve.startup_timeout_s``."""
