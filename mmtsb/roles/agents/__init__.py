"""The model-driven agents: code execution, tool use, hybrid and the informed solvability oracle, each declared
as an agent kind of the registry (:mod:`mmtsb.protocol.registry`)."""

from mmtsb.roles.agents.code_exec import CodeExecAgent
from mmtsb.roles.agents.informed import InformedCodeExecAgent, InformedToolUseAgent
from mmtsb.roles.agents.tool_use import ToolUseAgent

__all__ = ["CodeExecAgent", "InformedCodeExecAgent", "InformedToolUseAgent", "ToolUseAgent"]
