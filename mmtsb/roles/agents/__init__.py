"""The model-driven agents: code execution, tool use and hybrid (see :mod:`mmtsb.roles.llm_agents`)."""

from mmtsb.roles.agents.code_exec import CodeExecAgent
from mmtsb.roles.agents.tool_use import ToolUseAgent

__all__ = ["CodeExecAgent", "ToolUseAgent"]
