"""Stricter versions of the stage outputs, for validating what a model sent.

Why: the pipeline's models (:mod:`pipelines.items`) describe the data; a model's reply must also be complete
(every flow, arrival and criterion scored) and agree with the outline (round count, each image delivered
once). Doing these checks as pydantic validators makes them ordinary validation errors, which the repair loop
quotes back to the model. The values handed on are always the plain item models (:func:`plain`).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationInfo, model_validator

from pipelines.items import ARRIVALS, CRITERIA, FLOWS, Critique, EntitySet, ScenarioDraft, Viability

__all__ = ["CheckedCritique", "CheckedDraft", "CheckedEntitySet", "CheckedViability", "plain"]

M = TypeVar("M", bound=BaseModel)


def _keys_problems(field: str, got: dict[str, Any], expected: tuple[str, ...]) -> list[str]:
    missing = [k for k in expected if k not in got]
    unknown = [k for k in got if k not in expected]
    out = []
    if missing:
        out.append(f"{field} is missing {', '.join(missing)}")
    if unknown:
        out.append(f"{field} has unknown keys {', '.join(unknown)} (allowed: {', '.join(expected)})")
    return out


def _context(info: ValidationInfo) -> dict[str, Any]:
    return info.context if isinstance(info.context, dict) else {}


class CheckedViability(Viability):
    """Every flow and arrival scored, each score a whole number 0..3."""

    @model_validator(mode="after")
    def _complete(self) -> CheckedViability:
        problems = [*_keys_problems("flows", self.flows, FLOWS), *_keys_problems("arrivals", self.arrivals, ARRIVALS)]
        for field, scores in (("flows", self.flows), ("arrivals", self.arrivals)):
            problems += [f"{field}.{k} = {v} is outside 0..3" for k, v in scores.items() if not 0 <= v <= 3]
        if problems:
            raise ValueError("; ".join(problems))
        return self


class CheckedCritique(Critique):
    """A verdict for every criterion of CRITERIA, and no other."""

    @model_validator(mode="after")
    def _complete(self) -> CheckedCritique:
        if problems := _keys_problems("criteria", self.criteria, CRITERIA):
            raise ValueError("; ".join(problems))
        return self


def delivery_problems(rounds: list[list[int]], n_images: int, arrival: str) -> list[str]:
    """What is wrong with which rounds deliver which images (1-based numbers) for ``arrival``."""
    problems = []
    given = [n for r in rounds for n in r]
    if bad := sorted({n for n in given if not 1 <= n <= n_images}):
        problems.append(f"provide has image numbers outside 1..{n_images}: {bad}")
    if twice := sorted({n for n in given if given.count(n) > 1}):
        problems.append(f"images delivered more than once: {twice}")
    if never := [n for n in range(1, n_images + 1) if n not in given]:
        problems.append(f"images never delivered: {never}")
    delivering = [i for i, r in enumerate(rounds) if r]
    if arrival == "upfront" and delivering and delivering != [0]:
        problems.append("arrival upfront: every image must be provided in round 1")
    if arrival == "late" and rounds and rounds[0]:
        problems.append("arrival late: round 1 must provide no image")
    if arrival in ("progressive", "mixed") and len(delivering) < 2:
        problems.append(f"arrival {arrival}: images must arrive in at least two different rounds")
    return problems


class CheckedDraft(ScenarioDraft):
    """A draft that fits its outline: validate with context ``{"n_rounds", "n_images", "arrival"}``."""

    @model_validator(mode="after")
    def _fits_outline(self, info: ValidationInfo) -> CheckedDraft:
        ctx = _context(info)
        problems = []
        if (n_rounds := ctx.get("n_rounds")) is not None and len(self.rounds) != n_rounds:
            problems.append(f"rounds has {len(self.rounds)} entries, the outline asks for exactly {n_rounds}")
        if (n_images := ctx.get("n_images")) is not None:
            problems += delivery_problems([r.provide for r in self.rounds], n_images, str(ctx.get("arrival")))
        if problems:
            raise ValueError("; ".join(problems))
        return self


class CheckedEntitySet(EntitySet):
    """Specs with a known operation and similarity names only; one solution list and reply per round (context
    ``{"n_rounds"}``)."""

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> CheckedEntitySet:
        from mmtsb.eval.similarity import JSON_SIMILARITY_NAMES

        problems = []
        for i, spec in enumerate(self.entity_diff_specs):
            if spec.get("operation") not in ("create", "update", "delete"):
                problems.append(f"entity_diff_specs.{i}.operation must be create, update or delete")
            measures = spec.get("column_similarity_measure")
            if not isinstance(measures, dict):
                problems.append(f"entity_diff_specs.{i}.column_similarity_measure must be an object")
                continue
            if bad := sorted({str(v) for v in measures.values() if v not in JSON_SIMILARITY_NAMES}):
                problems.append(f"entity_diff_specs.{i}.column_similarity_measure uses unknown names {bad} "
                                f"(allowed: {', '.join(JSON_SIMILARITY_NAMES)})")
        if (n_rounds := _context(info).get("n_rounds")) is not None:
            for field, value in (("solution", self.solution), ("replies", self.replies)):
                if len(value) != n_rounds:
                    problems.append(f"{field} has {len(value)} entries, one per round is needed ({n_rounds})")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def plain(value: BaseModel, model: type[M]) -> M:
    """``value`` (a checked subclass instance) as the plain item model ``model``."""
    return value if type(value) is model else model.model_validate(value.model_dump())
