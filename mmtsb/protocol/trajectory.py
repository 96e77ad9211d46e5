"""The trajectory of one episode as a typed, versioned model: what the loop records, what
``trajectories/<episode_id>.json`` holds, what the results row is derived from, and what re-judging and
viewers read.

Every file carries ``schema_version``. :func:`load_trajectory` reads the current format and the previous one
(version 1, written before this model existed: ``"version": 1`` and no ``schema_version``), upgrading it in
memory. Unknown keys are kept (``extra="allow"``): a judged party declared by a plugin adds its
``<party>_pass`` key, and a newer writer's fields survive a round trip through an older reader.

History:
- 1: the hand-built dict of the loop (``version: 1``); failed episodes carried only a few keys.
- 2: ``schema_version: 2``; every trajectory (failed episodes too) has every field, with defaults.
- 3: ``failure_class`` (why the episode did not end normally: mmtsb.protocol.failures; None when it did) and a
  verdict's ``error_class``; version 2 files read with both None (a row derives the class from its error).
- 4: ``steps`` is the paper's step count (messages of the agent and the user, :mod:`mmtsb.protocol.steps`);
  the agent's actions, ``steps`` until version 3, are ``agent_steps``. Older files are read with
  ``agent_steps`` = their ``steps`` and ``steps`` counted from their messages. ``run.provenance`` holds the
  code's git commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SCHEMA_VERSION = 4
#: the versions :func:`parse_trajectory` reads
READABLE_VERSIONS = (1, 2, 3, 4)


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow")


class ToolCallRecord(_Record):
    """A tool call as a role made it (``arguments`` or, when unusable, ``raw_arguments`` and ``parse_error``)."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str | None = None
    parse_error: str | None = None


class MessageRecord(_Record):
    """One row of the conversation (SPEC.md §3.1): who sent it to whom, who saw it, and what it carried."""

    index: int
    sender: str
    recipient: str
    content: str = ""
    image_ids: list[int] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    tool_call_id: str | None = None
    tool_name: str | None = None
    is_error: bool = False
    visible_to: list[str] = Field(default_factory=list)
    conversation_active: bool = True
    meta: dict[str, Any] = Field(default_factory=dict)


class ToolOutcomeRecord(_Record):
    """One executed tool call (from JSON tool calls or from the agent's code): its value or error."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    ok: bool = True
    value: Any = None
    error: dict[str, Any] | str | None = None     # {"type", "message"}; a plain message in hand-written files
    images: list[int] = Field(default_factory=list)
    duration_s: float = 0.0
    full_tool: str | None = None                  # a reduced-level call: the FULL tool it dispatched to


class ImageRecord(_Record):
    image_id: int
    source: str | None = None
    mime_type: str | None = None
    sha256: str | None = None


class UsageRecord(_Record):
    """Model usage of one role (or one judge) in the episode."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    api_calls: int = 0
    failed_calls: int = 0       # attempts that failed (retried, or the last one of a call that failed)
    cost_usd: float = 0.0
    cost_known: bool = True


class PromptRecord(_Record):
    version: str = "none"
    texts: dict[str, str] = Field(default_factory=dict)


class CriterionRecord(_Record):
    criterion: str
    passed: bool
    analysis: str = ""
    evidence: str = ""


class VerdictRecord(_Record):
    """A judge's verdict; ``passed`` is the AND of the criteria (no verdict when ``error`` is set)."""

    kind: str
    judge: str
    criteria: list[CriterionRecord] = Field(default_factory=list)
    reasoning: str = ""
    static: bool = False
    error: str | None = None
    error_class: str | None = None      # the failure class of ``error`` (mmtsb.protocol.failures)
    prompt_version: str = "none"
    usage: dict[str, Any] = Field(default_factory=dict)
    passed: bool = False


class TimingRecord(_Record):
    started_at: float | None = None
    duration_s: float | None = None
    agent_step_s: list[float] = Field(default_factory=list)
    agent_step_cpu_s: list[float] = Field(default_factory=list)


class BudgetRecord(_Record):
    max_messages: int | None = None
    rows: int | None = None
    max_steps: int | None = None
    max_interaction_steps: int | None = None
    wall_clock_s: float | None = None


class Trajectory(_Record):
    """Everything recorded of one episode."""

    schema_version: int = SCHEMA_VERSION
    scenario: str
    scenario_file: str | None = None
    interface: str | None = None
    toolbox: str | None = None                # the toolbox level (tool recall maps level tools back to FULL)
    seed: int | None = None
    roles: dict[str, str | None] = Field(default_factory=dict)
    prompts: dict[str, PromptRecord] = Field(default_factory=dict)
    taxonomy: dict[str, Any] = Field(default_factory=dict)
    categories: list[str] = Field(default_factory=list)
    expected_tools: list[str] = Field(default_factory=list)
    messages: list[MessageRecord] = Field(default_factory=list)
    tool_calls: list[ToolOutcomeRecord] = Field(default_factory=list)
    code_runs: list[dict[str, Any]] = Field(default_factory=list)
    images: list[ImageRecord] = Field(default_factory=list)
    usage: dict[str, UsageRecord | None] = Field(default_factory=dict)
    timing: TimingRecord = Field(default_factory=TimingRecord)
    budgets: BudgetRecord = Field(default_factory=BudgetRecord)
    steps: int = 0                            # the paper's: messages of the agent and the user during play
    agent_steps: int = 0                      # ours: the agent's actions
    end_reason: str = "error"
    error: str | None = None
    failure_class: str | None = None          # mmtsb.protocol.failures.FailureClass; None: ended normally
    world_diff: dict[str, Any] | None = None
    entity_diff: dict[str, Any] | None = None
    judges: dict[str, VerdictRecord | None] = Field(default_factory=dict)
    agent_pass: bool | None = None
    user_pass: bool | None = None
    ui_pass: bool | None = None
    entity_f1: float | None = None
    ui_mode: bool = False
    ui: dict[str, Any] | None = None          # UI mode: renders, shown screens, interactions, surfaces
    run: dict[str, Any] = Field(default_factory=dict)   # run-level fields (episode id, repeat, attempt, actor)

    def passed(self, party: str) -> bool | None:
        """The verdict of the judge of ``party`` (agent, user, ui, or a plugin's), or None when not judged."""
        value = getattr(self, f"{party}_pass", None)
        if value is None and self.model_extra:
            value = self.model_extra.get(f"{party}_pass")
        return value

    def _omitted(self) -> set[str] | None:
        return {"ui"} if self.ui is None else None   # the UI section exists in UI mode only

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (what the file holds); values JSON cannot hold are written as ``str(value)``."""
        return self.model_dump(mode="json", fallback=str, exclude=self._omitted())

    def to_json(self) -> str:
        return self.model_dump_json(fallback=str, exclude=self._omitted())


class TrajectoryFormatError(ValueError):
    """A trajectory file that cannot be read: not JSON, an unknown schema version, or fields of wrong types."""


def parse_trajectory(data: dict[str, Any], *, source: str = "trajectory") -> Trajectory:
    """A trajectory from its JSON form in any readable version (see the module docstring)."""
    if not isinstance(data, dict):
        raise TrajectoryFormatError(f"{source}: expected a JSON object, got {type(data).__name__}")
    version = data.get("schema_version", data.get("version", 1))
    if version not in READABLE_VERSIONS:
        raise TrajectoryFormatError(f"{source}: schema_version {version!r} is not one this mmtsb reads "
                                    f"({', '.join(map(str, READABLE_VERSIONS))}); upgrade mmtsb")
    if version == 1:
        data = _upgrade_v1(data)
    if version in (1, 2, 3):
        data = _upgrade_steps(data)
    try:
        return Trajectory.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()[:5])
        raise TrajectoryFormatError(f"{source}: {problems}") from None


def _upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: the version key renamed; nulls where v2 has defaults (failed episodes' short records)."""
    out = {k: v for k, v in data.items() if k != "version"}
    out["schema_version"] = SCHEMA_VERSION
    for key in ("timing", "budgets"):
        if out.get(key) is None:
            out.pop(key, None)
    return out


def _upgrade_steps(data: dict[str, Any]) -> dict[str, Any]:
    """Versions 1-3 -> 4: their ``steps`` were the agent's actions; the paper's count comes from the messages."""
    from mmtsb.protocol.steps import count_interaction_steps

    out = dict(data)
    out["agent_steps"] = data.get("steps") or 0
    messages = data.get("messages") or []
    out["steps"] = count_interaction_steps(m for m in messages if isinstance(m, dict))
    out["schema_version"] = SCHEMA_VERSION
    return out


def load_trajectory(path: str | Path) -> Trajectory:
    """Read a trajectory file (current or previous format); errors name the file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise TrajectoryFormatError(f"{path}: cannot read the trajectory ({e})") from None
    return parse_trajectory(data, source=str(path))
