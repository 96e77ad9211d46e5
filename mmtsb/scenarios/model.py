"""The scenario file schema (SPEC.md §1) as pydantic models.

Tolerant of unknown keys (kept, never dropped), and keeping what the reference discards: every
category string, the metadata (expected tools, image arrival, delivery map) and milestones.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mmtsb.eval.specs import EntityDiffSpec
from mmtsb.world.clock import parse_datetime

RoleName = Literal["SYSTEM", "USER", "AGENT", "EXECUTION_ENVIRONMENT"]

#: ``agentsandbox_entities`` keys (lowercase in files) -> device namespace
AGENTSANDBOX_NAMESPACES = {"contact": "CONTACT", "messaging": "MESSAGING", "reminder": "REMINDER", "notes": "NOTES",
                           "calendars": "CALENDARS", "calendar_events": "CALENDAR_EVENTS", "setting": "SETTING"}


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class ScenarioMessage(_Open):
    """An initial conversation row: the SYSTEM->USER script, then the first USER->AGENT turn."""

    sender: RoleName
    recipient: RoleName
    content: str
    image_ids: list[int] | None = None


class ImageDelivery(_Open):
    """One later round's query and the image ids that must arrive with it."""

    query: str
    image_ids: list[int] = Field(default_factory=list)


class ScenarioTaxonomy(_Open):
    """``metadata.scenario_metadata``: the paper's design axes for breakdowns."""

    num_images: int | None = None
    num_user_rounds: int | None = None
    selected_flow_type: str | None = None
    image_arrival: str | None = None
    challenge_type: str | None = None
    require_disambiguation: bool | None = None
    dataset_type: str | None = None


class ScenarioMetadata(_Open):
    original_scenario_id: str | None = None
    expected_tools: list[str] = Field(default_factory=list)
    image_arrival: dict[str, list[str]] = Field(default_factory=dict)
    image_delivery_map: list[ImageDelivery] = Field(default_factory=list)
    scenario_metadata: ScenarioTaxonomy = Field(default_factory=ScenarioTaxonomy)


class Scenario(_Open):
    """One scenario file."""

    name: str
    base_scenario: str = "base"
    description: str = ""
    difficulty: str | None = None
    appworld_base_task: str = "_base_"
    device_state_id: str
    reference_time: datetime
    agentsandbox_entities: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    appworld_entities: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    image_paths: list[str] = Field(default_factory=list)
    messages: list[ScenarioMessage] = Field(min_length=1)  # at least the SYSTEM->USER script
    milestones: list[Any] = Field(default_factory=list)
    tool_allow_list: list[str] | None = None
    entity_diff_specs: list[EntityDiffSpec] = Field(default_factory=list)
    task_completion_criteria: str = ""
    categories: list[str] = Field(default_factory=list)
    max_messages: int = Field(60, strict=True)  # a JSON integer (true or 60.5 is refused)
    metadata: ScenarioMetadata = Field(default_factory=ScenarioMetadata)

    @field_validator("reference_time", mode="before")
    @classmethod
    def _parse_time(cls, v: Any) -> Any:
        if not isinstance(v, str):  # a number would pass as a Unix timestamp: the files write ISO 8601
            raise ValueError(f"must be an ISO 8601 date-time string such as 2026-04-16T23:51:15+00:00, got {v!r}")
        return parse_datetime(v)

    @field_validator("device_state_id")
    @classmethod
    def _email(cls, v: str) -> str:
        if "@" not in v:
            raise ValueError(f"must be the main user's email address, got {v!r}")
        return v

    @field_validator("max_messages")
    @classmethod
    def _positive(cls, v: int) -> int:
        if v <= 0:
            raise ValueError("must be a positive number of messages")
        return v

    @property
    def taxonomy(self) -> ScenarioTaxonomy:
        return self.metadata.scenario_metadata

    @property
    def expected_tools(self) -> list[str]:
        return self.metadata.expected_tools

    @property
    def user_script(self) -> str:
        """The SYSTEM->USER instructions (rounds with Query/Instructions)."""
        return next((m.content for m in self.messages if m.sender == "SYSTEM" and m.recipient == "USER"), "")
