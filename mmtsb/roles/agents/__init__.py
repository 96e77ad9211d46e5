"""The model-driven agents: code execution, tool use and hybrid, each declared as an agent kind of the registry
(:mod:`mmtsb.protocol.registry`)."""

from mmtsb.roles.agents.code_exec import CodeExecAgent
from mmtsb.roles.agents.tool_use import ToolUseAgent

__all__ = ["CodeExecAgent", "ToolUseAgent"]
