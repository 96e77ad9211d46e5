"""Stage 5, entities: the backend writes the initial rows, the expected entity-diff specs and the reference
solution; the stage assembles the scenario file and validates it against the project's real table schemas (by
loading it into a World) and by a gold check. A failed attempt's problems are fed back to the backend (the
repair loop), at most ``entity_repairs`` times; every failed validation counts as a schema failure (the
paper's generator ablation reports them)."""

from __future__ import annotations

import json
from typing import Any

from pipelines.assemble import assemble, scenario_id_of
from pipelines.backends.base import Backend, CallRecord
from pipelines.items import Outline, ScenarioDraft
from pipelines.rows import call_columns
from pipelines.stages.s2_cluster import context_of
from pipelines.validation import scenario_problems

__all__ = ["NAME", "entities_task"]

NAME = "entities"
MAX_FED_BACK = 20  # problems quoted back to the backend per attempt


async def entities_task(backend: Backend, payload: dict[str, Any]) -> dict[str, Any]:
    outline = Outline.model_validate(payload["outline"])
    draft = ScenarioDraft.model_validate_json(payload["draft"])
    ctx = context_of(payload["context"])
    repairs = int(payload.get("entity_repairs", 2))
    calls: list[CallRecord] = []
    errors: list[str] = []
    history: list[list[str]] = []
    scenario, entities_json, reason = None, "", ""
    for _ in range(repairs + 1):
        gen = await backend.entities(outline, draft, ctx, errors[:MAX_FED_BACK])
        calls += gen.calls
        if gen.value is None:
            reason = gen.rejection or "no entities"
            break
        entities_json = gen.value.model_dump_json()
        try:
            definition, data = assemble(outline, draft, gen.value, ctx_images(ctx, outline))
            errors = scenario_problems(definition, data)
        except ValueError as exc:
            errors = [str(exc)]
        if not errors:
            scenario, reason = data, ""
            break
        history.append(errors)
        reason = f"invalid after {len(history)} attempt(s): {errors[0]}"
    return {"scenario_id": scenario_id_of(outline), "outline_id": outline.outline_id,
            "passed": scenario is not None, "reason": "" if scenario is not None else reason,
            "attempts": len(history) + (1 if scenario is not None else 0), "schema_failures": len(history),
            "validation_errors": json.dumps(history), "payload": entities_json,
            "scenario": json.dumps(scenario) if scenario is not None else "", **call_columns(calls)}


def ctx_images(ctx: Any, outline: Outline) -> list[Any]:
    """The group's images in the outline's order (image 1, 2, ...)."""
    by_id = {im.image_id: im for im in ctx.images}
    return [by_id[i] for i in outline.image_ids]
