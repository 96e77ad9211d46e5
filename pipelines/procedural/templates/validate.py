"""Validate: check each image against a rule the user states and record the verdicts (a budget, an evening cut-off, an
early start, targets, weekend deadlines). The recipes live per content kind in
:mod:`pipelines.procedural.templates.kinds`."""

from __future__ import annotations

from pipelines.procedural.templates.base import RecipeTemplate
from pipelines.procedural.templates.kinds import recipes_for

__all__ = ["TEMPLATE"]

TEMPLATE = RecipeTemplate("validate", recipes_for("validate"))
