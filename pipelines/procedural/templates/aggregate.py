"""Aggregate: gather the values of every image into one result (an expense total, a list of events or people, a cart,
a playlist, totals per category, to-dos). The recipes live per content kind in
:mod:`pipelines.procedural.templates.kinds`."""

from __future__ import annotations

from pipelines.procedural.templates.base import RecipeTemplate
from pipelines.procedural.templates.kinds import recipes_for

__all__ = ["TEMPLATE"]

TEMPLATE = RecipeTemplate("aggregate", recipes_for("aggregate"))
