"""Filter: act only on the images that pass a condition the user sets (amounts over a threshold, evening events, local
numbers, cheap products, long songs, weekend trips, due-soon items). The recipes live per content kind in
:mod:`pipelines.procedural.templates.kinds`."""

from __future__ import annotations

from pipelines.procedural.templates.base import RecipeTemplate
from pipelines.procedural.templates.kinds import recipes_for

__all__ = ["TEMPLATE"]

TEMPLATE = RecipeTemplate("filter", recipes_for("filter"))
