"""The contract between the stage code and whatever produces a stage's judgement: a model (``llm``) or a
deterministic generator (``procedural``).

A backend answers five questions, one per model-backed stage; each answer is a :class:`Generated` holding the
typed value (or ``None`` with the rejection reason) and the record of every model call it took (none for the
procedural backend), so the stage can write tokens, cost and prompt hashes beside the item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pipelines.items import (
    Critique, EntitySet, Group, ImageVerdict, Outline, ScenarioDraft, SourceImage, Viability,
)

__all__ = ["Backend", "CallRecord", "Generated", "GroupContext"]

T = TypeVar("T")


@dataclass(frozen=True)
class CallRecord:
    """One model call of a stage (a repair retry is a call of its own)."""

    model: str
    prompt_hash: str  # sha256 of the canonical request messages (first 16 hex digits)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    cached: bool = False
    error: str | None = None  # why this call's output was not accepted (malformed JSON, schema, refusal)


@dataclass
class Generated(Generic[T]):
    """A backend's answer: ``value``, or ``None`` and ``rejection`` (a short reason that goes to the funnel)."""

    value: T | None
    calls: list[CallRecord] = field(default_factory=list)
    rejection: str | None = None

    @property
    def ok(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class GroupContext:
    """A group of images with what stage 1 said about each, in the group's order."""

    group: Group
    images: list[SourceImage]
    verdicts: list[ImageVerdict]


class Backend(Protocol):
    """What the model-backed stages ask. Implementations must be picklable (Ray ships them to actors) and must
    never raise for a bad model output: they return ``Generated(None, calls, rejection=...)`` instead."""

    name: str

    # Optional: ``def prepare(self) -> None``, one-time per-process set-up (imports, clients) that a stage
    # actor runs when it starts, before its first item.

    async def associate(self, image: SourceImage, catalog: str) -> Generated[ImageVerdict]:
        """Stage 1: is ``image`` actionable (needs visual extraction AND a tool call), for which domains and
        tools, and what facts does it show? ``catalog`` is the compact domain/tool description
        (:func:`pipelines.catalog.compact_catalog`)."""
        ...

    async def viability(self, ctx: GroupContext) -> Generated[Viability]:
        """Stage 2: score each flow type and arrival pattern 0-3 for the group."""
        ...

    async def expand(self, outline: Outline, ctx: GroupContext) -> Generated[ScenarioDraft]:
        """Stage 4: expand the outline into rounds (deictic image references, transitions, the challenge), a
        fully resolved goal, the entities that must pre-exist and a persona."""
        ...

    async def entities(self, outline: Outline, draft: ScenarioDraft, ctx: GroupContext,
                       errors: list[str]) -> Generated[EntitySet]:
        """Stage 5: initial entities, expected entity-diff specs and the reference solution. ``errors`` holds
        the validation problems of the previous attempt (empty on the first): the repair loop feeds them
        back."""
        ...

    async def critique(self, outline: Outline, scenario: dict[str, Any], ctx: GroupContext) -> Generated[Critique]:
        """Stage 6: judge the assembled scenario file on the seven quality criteria."""
        ...
