"""The recipes, one module per content kind: ``RECIPES[flow][kind]`` is how ``flow`` is built over images of
``kind`` (the flow modules gather theirs from here)."""

from __future__ import annotations

from pipelines.procedural.templates.base import Recipe
from pipelines.procedural.templates.kinds import (
    departure, event, expense, metric, music, person, product, task,
)

__all__ = ["KIND_RECIPES", "recipes_for"]

#: kind -> flow -> recipe
KIND_RECIPES: dict[str, dict[str, Recipe]] = {
    "expense": expense.RECIPES, "event": event.RECIPES, "person": person.RECIPES, "product": product.RECIPES,
    "music": music.RECIPES, "departure": departure.RECIPES, "metric": metric.RECIPES, "task": task.RECIPES,
}


def recipes_for(flow: str) -> dict[str, Recipe]:
    """Every kind's recipe for ``flow``."""
    return {kind: recipes[flow] for kind, recipes in KIND_RECIPES.items() if flow in recipes}
