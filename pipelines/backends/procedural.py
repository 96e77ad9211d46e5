"""The procedural backend: answers every model-backed stage from the ground truth of procedurally drawn images
(no model calls, so ``calls`` is always empty). Deterministic and picklable: it holds no state."""

from __future__ import annotations

from typing import Any

from pipelines.backends.base import Generated, GroupContext
from pipelines.items import (
    ARRIVALS, FLOWS, Critique, EntitySet, ImageVerdict, Outline, ScenarioDraft, SourceImage, ToolPick, Viability,
)
from pipelines.procedural.critic import critique
from pipelines.procedural.families import FAMILIES
from pipelines.procedural.templates import TEMPLATES

__all__ = ["ProceduralBackend", "arrival_scores"]

NO_TRUTH = "no ground truth: the procedural backend needs drawn images"


def arrival_scores(n_images: int) -> dict[str, int]:
    """How natural each arrival pattern is for a group of ``n_images``: all at once or one by one always; late
    needs a few images to be worth waiting for, mixed enough for a batch and stragglers."""
    return {"upfront": 3, "progressive": 3 if n_images >= 2 else 0, "late": 2 if n_images >= 3 else 1,
            "mixed": 2 if n_images >= 4 else (1 if n_images >= 2 else 0)}


class ProceduralBackend:
    """The :class:`~pipelines.backends.base.Backend` of the offline default."""

    name = "procedural"

    async def associate(self, image: SourceImage, catalog: str) -> Generated[ImageVerdict]:
        if not image.truth:
            return Generated(None, rejection=NO_TRUTH)
        family = FAMILIES.get(image.truth.get("family", ""))
        if family is None:
            return Generated(None, rejection=f"unknown image family {image.truth.get('family')!r}")
        tools = list(dict.fromkeys(t for tpl in TEMPLATES.values() for t in tpl.tools(family.name)))
        flows = [f for f, tpl in TEMPLATES.items() if family.name in tpl.families()]
        verdict = ImageVerdict(
            actionable=family.actionable, needs_visual_extraction=family.actionable,
            needs_tool_call=family.actionable and bool(tools), domains=list(family.domains),
            tools=[ToolPick(tool=t, reason=f"used by the {', '.join(flows)} flows over {family.noun}s") for t in tools],
            facts=family.facts(image.truth.get("content", {})),
            reason=(f"a {family.noun} ({family.category}) whose values feed {', '.join(family.domains)}"
                    if family.actionable else f"a {family.noun} with nothing to read and nothing to act on"))
        return Generated(verdict)

    async def viability(self, ctx: GroupContext) -> Generated[Viability]:
        flows = {f: TEMPLATES[f].viability(ctx) if f in TEMPLATES else 0 for f in FLOWS}
        arrivals = arrival_scores(len(ctx.images))
        assert set(arrivals) == set(ARRIVALS)
        best = [f for f, s in flows.items() if s]
        return Generated(Viability(flows=flows, arrivals=arrivals,
                                   reason=f"templates fitting the group: {', '.join(best) or 'none'}"))

    def _build(self, outline: Outline, ctx: GroupContext) -> tuple[ScenarioDraft, EntitySet] | str:
        template = TEMPLATES.get(outline.flow)
        if template is None:
            return f"no template for flow {outline.flow!r}"
        try:
            return template.build(outline, ctx)
        except ValueError as e:
            return f"{outline.flow}: {e}"

    async def expand(self, outline: Outline, ctx: GroupContext) -> Generated[ScenarioDraft]:
        built = self._build(outline, ctx)
        return Generated(None, rejection=built) if isinstance(built, str) else Generated(built[0])

    async def entities(self, outline: Outline, draft: ScenarioDraft, ctx: GroupContext,
                       errors: list[str]) -> Generated[EntitySet]:
        # the build is deterministic: a repair attempt (``errors`` non-empty) returns the same set, so the stage's
        # repair loop ends instead of retrying something that cannot learn
        built = self._build(outline, ctx)
        return Generated(None, rejection=built) if isinstance(built, str) else Generated(built[1])

    async def critique(self, outline: Outline, scenario: dict[str, Any], ctx: GroupContext) -> Generated[Critique]:
        return Generated(critique(scenario, ctx, outline))
