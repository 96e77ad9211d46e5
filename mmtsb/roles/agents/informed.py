"""The informed agent: the paper's oracle solvability check (§5.1). A model agent that gets everything a normal
agent gets plus the scenario's ground truth, appended to its system prompt: the expected entity changes (the
compared columns of each ``entity_diff_specs`` entry with their expected values, the ids of rows to update or
delete), the task completion criteria and ``metadata.expected_tools``. A strong model with this knowledge that
still fails a scenario points at a broken scenario, not a weak agent.

``informed`` plays the tool-use interface (structured tool calls); ``informed_hybrid`` and
``informed_code_exec`` play the other model interfaces with the same privileged block. Unlike the model-free
``oracle`` (which replays ``metadata.reference_solution``), it needs a model and no reference solution.
"""

from __future__ import annotations

import json
from typing import Any

from mmtsb.eval.similarity import IGNORE, create_similarity_names, update_similarity_names
from mmtsb.eval.specs import EntityDiffSpec
from mmtsb.protocol.episode_config import ConfigError
from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.registry import RoleRequest, agent_kind
from mmtsb.protocol.view import EpisodeView
from mmtsb.roles.agents.base import LLMAgent
from mmtsb.roles.agents.code_exec import CodeExecAgent
from mmtsb.roles.agents.tool_use import ToolUseAgent
from mmtsb.scenarios.model import Scenario

#: appended to the interface's own prompt version (``mmtsb-agent-tools-1+informed-1``)
INFORMED_PROMPT_VERSION = "informed-1"

INFORMED_HEADING = "GROUND TRUTH (FOR THE SOLVABILITY CHECK ONLY)"

INFORMED_INTRO = """\
This run is a solvability check of the scenario, not an evaluation of you: you are told below what a correct \
outcome looks like, so that a failure shows a problem in the scenario rather than in the assistant. The user \
does not know you have this information; never mention or quote it.
- Still work as the assistant described above: follow the conversation round by round, make each change when \
the user's request calls for it, and take ids, names and other values from tool results or the images where \
you can. Use the ground truth to resolve what you would otherwise have to guess.
- Aim for exactly these changes: create, update or delete nothing else."""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def compared_values(spec: EntityDiffSpec) -> dict[str, Any]:
    """The expected values of the columns the evaluator compares (ignored columns and the row id left out)."""
    row = spec.expected_row()
    if spec.operation == "create":
        names = create_similarity_names(spec.column_similarity_measure, row)
    elif spec.operation == "update":
        names = update_similarity_names(spec.column_similarity_measure, row, frozenset(), spec.table_key)
    else:
        return {}
    return {col: value for col, value in row.items() if names.get(col) != IGNORE and col != spec.entity_id_column}


def render_spec(spec: EntityDiffSpec) -> str:
    """One expected change on one line: operation, table or namespace, the row id (update/delete), the values."""
    where = spec.table_key
    if spec.operation != "create":
        where += f" where {spec.entity_id_column} = {_json(spec.entity_id_value)}"
    values = compared_values(spec)
    if spec.operation == "delete":
        return f"delete from {where}"
    verb = "create in" if spec.operation == "create" else "update"
    return f"{verb} {where}: {_json(values) if values else '(no compared columns: the row only has to exist)'}"


def informed_block(scenario: Scenario) -> str:
    """The privileged section appended to the agent's system prompt."""
    specs = scenario.entity_diff_specs
    changes = "\n".join(f"{i}. {render_spec(s)}" for i, s in enumerate(specs, 1)) if specs else \
        "(none: the scenario expects no change to the data)"
    criteria = scenario.task_completion_criteria.strip() or "(none given)"
    tools = ", ".join(scenario.expected_tools) or "(none listed)"
    return "\n\n".join([
        INFORMED_HEADING, INFORMED_INTRO,
        "EXPECTED CHANGES TO THE DATA by the end of the conversation (the columns that are compared, with their "
        "expected values; free text is compared approximately):\n" + changes,
        "TASK COMPLETION CRITERIA:\n" + criteria,
        "EXPECTED TOOLS (look them up with api_docs_search_api_docs for their exact parameters): " + tools,
    ])


class InformedMixin(LLMAgent):
    """Appends :func:`informed_block` to the system prompt of the model agent it is mixed into."""

    def informed_setup(self, agent_kind_name: str, settings: ModelSettings) -> None:
        self.kind = agent_kind_name
        self.name = f"{agent_kind_name}:{settings.model}"

    def build_system_prompt(self, ctx: EpisodeView) -> str:
        base = super().build_system_prompt(ctx)   # the interface's prompt (it may set prompt_version)
        self.prompt_version = f"{self.prompt_version}+{INFORMED_PROMPT_VERSION}"
        return f"{base}\n\n{informed_block(ctx.scenario)}"


class InformedToolUseAgent(InformedMixin, ToolUseAgent):
    """The tool-use (or hybrid) agent with the scenario's ground truth in its system prompt."""

    def __init__(self, settings: ModelSettings, shared: dict[str, Any], *, agent_kind_name: str = "informed",
                 hybrid: bool = False, response_cache_dir: str | None = None) -> None:
        super().__init__(settings, shared, hybrid=hybrid, response_cache_dir=response_cache_dir)
        self.informed_setup(agent_kind_name, settings)


class InformedCodeExecAgent(InformedMixin, CodeExecAgent):
    """The code-execution agent with the scenario's ground truth in its system prompt."""

    def __init__(self, settings: ModelSettings, shared: dict[str, Any], *,
                 agent_kind_name: str = "informed_code_exec", response_cache_dir: str | None = None) -> None:
        super().__init__(settings, shared, response_cache_dir=response_cache_dir)
        self.informed_setup(agent_kind_name, settings)


def _check_model(req: RoleRequest, kind: str) -> None:
    if not req.settings.model:
        raise ConfigError(f"agent={kind} is an LLM agent and needs a model: set agent_model.model=<litellm model id> "
                          f"(mmtsb run: model=<model entry> model.kind={kind}, or model.kind={kind} "
                          "model.model=<litellm model id>)")


@agent_kind("informed", interface="tool_use")
def informed_agent(req: RoleRequest) -> InformedToolUseAgent:
    """Solvability oracle: a tool-use model agent told the expected changes, criteria and tools."""
    _check_model(req, "informed")
    return InformedToolUseAgent(req.settings, req.shared, response_cache_dir=req.response_cache_dir)


@agent_kind("informed_hybrid", interface="hybrid")
def informed_hybrid_agent(req: RoleRequest) -> InformedToolUseAgent:
    """Solvability oracle through the hybrid interface (tool calls plus execute_code)."""
    _check_model(req, "informed_hybrid")
    return InformedToolUseAgent(req.settings, req.shared, agent_kind_name="informed_hybrid", hybrid=True,
                                response_cache_dir=req.response_cache_dir)


@agent_kind("informed_code_exec", interface="code_exec")
def informed_code_exec_agent(req: RoleRequest) -> InformedCodeExecAgent:
    """Solvability oracle through the code-execution interface (Python blocks)."""
    _check_model(req, "informed_code_exec")
    return InformedCodeExecAgent(req.settings, req.shared, response_cache_dir=req.response_cache_dir)
