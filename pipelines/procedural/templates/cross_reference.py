"""Cross reference: match the images against what the world already holds and act on the matches (calendar, contacts,
Splitwise, the wish list, liked songs, Todoist). The recipes live per content kind in
:mod:`pipelines.procedural.templates.kinds`."""

from __future__ import annotations

from pipelines.procedural.templates.base import RecipeTemplate
from pipelines.procedural.templates.kinds import recipes_for

__all__ = ["TEMPLATE"]

TEMPLATE = RecipeTemplate("cross_reference", recipes_for("cross_reference"))
