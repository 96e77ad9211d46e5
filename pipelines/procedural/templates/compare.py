"""Compare: pick the image that wins on one measure (the most expensive expense, the earliest event, the cheapest
product, the longest song, the best month); the pick is revised as more images arrive. The recipes live per content kind in
:mod:`pipelines.procedural.templates.kinds`."""

from __future__ import annotations

from pipelines.procedural.templates.base import RecipeTemplate
from pipelines.procedural.templates.kinds import recipes_for

__all__ = ["TEMPLATE"]

TEMPLATE = RecipeTemplate("compare", recipes_for("compare"))
