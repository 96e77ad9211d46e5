"""The items that flow through the six generation stages, as pydantic models.

Every stage reads the items of the stage before it and writes its own, each with lineage ids (image ids ->
cluster id -> outline id -> scenario id) so any scenario can be traced back to the images it came from. A
backend (the LLM one or the procedural one) produces the *outputs* (``ImageVerdict``, ``Viability``,
``ScenarioDraft``, ``EntitySet``, ``Critique``); the stage code around it does the rest (filtering, clustering,
sampling, validation, downsampling, the oracle check) the same way for both.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ARRIVALS", "CHALLENGES", "CRITERIA", "FLOWS", "Arrival", "Challenge", "Critique", "CriterionVerdict",
    "DraftRound", "EntitySet", "Flow", "Group", "ImageVerdict", "Outline", "ScenarioDraft", "SolutionStep",
    "SourceImage", "ToolPick", "Viability",
]

#: the seven information-flow types (paper §4.1), in the paper's order
FLOWS = ("aggregate", "compare", "filter", "compute", "validate", "lookup_chain", "cross_reference")
#: the four image-arrival patterns
ARRIVALS = ("upfront", "progressive", "late", "mixed")
#: the four challenge types ("none" is the cooperative baseline)
CHALLENGES = ("none", "goal_change", "error_correction", "state_mutation")
#: the critic's seven quality criteria (paper §5, stage 6)
CRITERIA = ("multimodal_necessity", "visual_realism", "self_containment", "conversation_step_integrity",
            "goal_flexibility", "visual_grounding_accuracy", "plausibility")

Flow = Literal["aggregate", "compare", "filter", "compute", "validate", "lookup_chain", "cross_reference"]
Arrival = Literal["upfront", "progressive", "late", "mixed"]
Challenge = Literal["none", "goal_change", "error_correction", "state_mutation"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SourceImage(_Strict):
    """One input image. ``truth`` is the content a procedurally drawn image shows (None for real photos):
    ``{"family": <image family name>, "content": {...}}``; the procedural backend reads it instead of looking."""

    image_id: str  # "img-" + the first 16 hex digits of the file's SHA-256
    path: str  # absolute path of the image file
    dataset_type: str  # e.g. "synthetic_receipt", or the manifest's dataset_type
    meta: dict[str, Any] = Field(default_factory=dict)  # the manifest's meta_data
    truth: dict[str, Any] | None = None


class ToolPick(_Strict):
    tool: str  # a tool name of the catalog
    reason: str


class ImageVerdict(_Strict):
    """Stage 1: what a vision model says one image is good for. Only images that need BOTH visual extraction and
    a tool call pass the strict filter."""

    actionable: bool
    needs_visual_extraction: bool
    needs_tool_call: bool
    domains: list[str] = Field(default_factory=list)  # app domains, most relevant first (see pipelines.catalog)
    tools: list[ToolPick] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list)  # what the model read off the image
    reason: str = ""


class Group(_Strict):
    """Stage 2: a cluster of 3-6 images of one domain, coherent by CLIP similarity."""

    cluster_id: str
    domain: str
    image_ids: list[str]
    mean_similarity: float  # mean pairwise cosine similarity of the members' embeddings


class Viability(_Strict):
    """Stage 2: how naturally a group supports each flow type and arrival pattern (0 impossible .. 3 ideal)."""

    flows: dict[str, int]  # every name of FLOWS -> 0..3
    arrivals: dict[str, int]  # every name of ARRIVALS -> 0..3
    reason: str = ""


class Outline(_Strict):
    """Stage 3: the plan of one scenario, sampled from a group's viable flow/arrival pairs (deterministic for a
    seed)."""

    outline_id: str
    cluster_id: str
    domain: str
    flow: Flow
    arrival: Arrival
    challenge: Challenge
    n_rounds: int = Field(ge=2, le=5)
    image_ids: list[str]  # in the order the scenario numbers them (image 1, 2, ...)
    required_tools: list[str]
    seed: int  # the outline's own seed, for the stages after it
    variant: str = ""  # a recipe variant: where the result goes ("note", "file", "email"...) and "+modifiers"
    name: str = ""  # the scenario's file name when a design fixes it (else derived from outline_id)


class DraftRound(_Strict):
    """One user round of a scenario draft."""

    provide: list[int] = Field(default_factory=list)  # 1-based image numbers delivered with this round
    query: str  # what the user says to open the round (deictic references to the images, no image values)
    instructions: str  # the user simulator's private instructions for the round
    transition: str = ""  # when the round is done and the user moves on


class ScenarioDraft(_Strict):
    """Stage 4: an outline expanded into a conversation."""

    title: str
    description: str
    persona: str  # who the user is, from the persona pool
    user_id: int  # the main user: a base person id of mmtsb/world/people.py
    goal: str  # the fully resolved goal (every value the agent must end up with)
    rounds: list[DraftRound]
    preexisting: list[str] = Field(default_factory=list)  # entities that must exist before the conversation
    criteria: str  # task completion criteria for the judge


class SolutionStep(_Strict):
    """One reference-solution step (the format of metadata.reference_solution, mmtsb/scenarios/solution.py)."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    save_as: str | None = None


class EntitySet(_Strict):
    """Stage 5: the initial world and the expected changes, plus the reference solution the oracle plays."""

    appworld_entities: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    agentsandbox_entities: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    entity_diff_specs: list[dict[str, Any]]
    solution: list[list[SolutionStep]]  # the steps of each round, one list per round
    replies: list[str]  # the oracle's closing reply of each round
    # UI twins: per round, the part after the user's pick on a screen (the reference solution's ``after_user``,
    # or None); what the scripted user picks (``metadata.ui_interactions``); the criteria's UI requirements
    after_user: list[dict[str, Any] | None] = Field(default_factory=list)
    ui_interactions: list[dict[str, Any]] = Field(default_factory=list)
    ui_requirements: list[str] = Field(default_factory=list)


class CriterionVerdict(_Strict):
    passed: bool
    reason: str = ""


class Critique(_Strict):
    """Stage 6: the critic's verdict on the seven criteria (every name of CRITERIA)."""

    criteria: dict[str, CriterionVerdict]

    @property
    def passed(self) -> bool:
        return all(v.passed for v in self.criteria.values())

    def failures(self) -> list[str]:
        return [f"{name}: {v.reason}" for name, v in self.criteria.items() if not v.passed]
