"""Compute: derive a new figure from the images (an even split, leave-time reminders or alarms, quantities a budget
buys, averages). The recipes live per content kind in
:mod:`pipelines.procedural.templates.kinds`."""

from __future__ import annotations

from pipelines.procedural.templates.base import RecipeTemplate
from pipelines.procedural.templates.kinds import recipes_for

__all__ = ["TEMPLATE"]

TEMPLATE = RecipeTemplate("compute", recipes_for("compute"))
