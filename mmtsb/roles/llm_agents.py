"""The LLM agents of the episode loop, made from an EpisodeConfig by :func:`make_llm_agent`.

- ``code_exec``: :class:`CodeExecAgent`, plain chat; the first ```python block of a reply runs in the sandbox.
- ``tool_use``: :class:`ToolUseAgent`, native tool calls over the discovery working set.
- ``hybrid``: :class:`ToolUseAgent` with ``execute_code`` offered as well.
"""

from __future__ import annotations

from typing import Any

from mmtsb.episode.config import EpisodeConfig
from mmtsb.roles.agents.code_exec import CodeExecAgent
from mmtsb.roles.agents.tool_use import ToolUseAgent
from mmtsb.protocol import Role

__all__ = ["CodeExecAgent", "ToolUseAgent", "make_llm_agent"]


def make_llm_agent(cfg: EpisodeConfig, shared: dict[str, Any]) -> Role:
    """The agent for ``cfg.agent`` over ``cfg.agent_model``; ``shared`` holds the process-wide objects."""
    cache = cfg.response_cache_dir
    if cfg.agent == "code_exec":
        return CodeExecAgent(cfg.agent_model, shared, response_cache_dir=cache)
    if cfg.agent in ("tool_use", "hybrid"):
        return ToolUseAgent(cfg.agent_model, shared, hybrid=cfg.agent == "hybrid", response_cache_dir=cache)
    raise ValueError(f"agent={cfg.agent!r} is not a model-driven agent; use code_exec, tool_use or hybrid")
