"""Roles: agents (oracle, code-exec, tool-use, hybrid, informed), users (scripted, LLM) and judges (static, LLM).

Importing this package declares every built-in kind in the registry (:mod:`mmtsb.protocol.registry`), which
imports it on its first lookup. The LLM roles import litellm only when they first call a model.
"""

from mmtsb.roles import llm_user, oracle, scripted_user  # noqa: F401  (declare the built-in kinds)
from mmtsb.roles.agents import code_exec, informed, tool_use  # noqa: F401
from mmtsb.roles.judges import llm, static  # noqa: F401

__all__ = ["code_exec", "informed", "judges", "llm", "llm_user", "oracle", "scripted_user", "static", "tool_use"]
