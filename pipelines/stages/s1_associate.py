"""Stage 1, image-tool association: the backend looks at each image with the compact domain/tool catalog and
says whether it is actionable, for which domains and tools, and what it shows. Strict filter: an image passes
only when a task on it needs BOTH visual extraction and a tool call, in at least one app domain."""

from __future__ import annotations

from typing import Any

from pipelines.backends.base import Backend
from pipelines.catalog import compact_catalog, is_action_domain
from pipelines.items import ImageVerdict, SourceImage
from pipelines.rows import generated_columns

__all__ = ["NAME", "associate_task", "verdict_rejection"]

NAME = "associate"


def verdict_rejection(verdict: ImageVerdict) -> str:
    """Why an image fails the strict filter ("" when it passes)."""
    if not verdict.actionable:
        return "not actionable"
    if not verdict.needs_visual_extraction:
        return "no visual extraction needed"
    if not verdict.needs_tool_call:
        return "no tool call needed"
    if not any(is_action_domain(d) for d in verdict.domains):
        return "no known app domain"
    return ""


async def associate_task(backend: Backend, payload: dict[str, Any]) -> dict[str, Any]:
    image = SourceImage.model_validate(payload)
    gen = await backend.associate(image, compact_catalog())
    reason = gen.rejection or (verdict_rejection(gen.value) if gen.value is not None else "no verdict")
    domains = [d for d in (gen.value.domains if gen.value else []) if is_action_domain(d)]
    return {"image_id": image.image_id, "path": image.path, "dataset_type": image.dataset_type,
            "domain": domains[0] if domains else "", "passed": not reason, "reason": reason,
            **generated_columns(gen)}
