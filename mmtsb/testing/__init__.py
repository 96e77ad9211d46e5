"""Test and benchmark helpers that stand in for external services (no network needed).

The names are imported on first use (PEP 562), so ``python -m mmtsb.testing.fake_llm`` runs the server module
without it being imported twice.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {"FakeLLMServer": "mmtsb.testing.fake_llm", "Reply": "mmtsb.testing.fake_replies",
            "Rule": "mmtsb.testing.fake_replies"}

__all__ = ["FakeLLMServer", "Reply", "Rule"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'mmtsb.testing' has no attribute {name!r}")
