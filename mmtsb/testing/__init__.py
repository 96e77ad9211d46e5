"""Test and benchmark helpers that stand in for external services (no network needed)."""

from mmtsb.testing.fake_llm import FakeLLMServer
from mmtsb.testing.fake_replies import Reply, Rule

__all__ = ["FakeLLMServer", "Reply", "Rule"]
