"""Lookup chain: one image starts a chain of dependent calls (a card -> contacts -> a message; a product -> Amazon
listing -> a note; an artist -> follow; an event -> calendar -> a text). The recipes live per content kind in
:mod:`pipelines.procedural.templates.kinds`."""

from __future__ import annotations

from pipelines.procedural.templates.base import RecipeTemplate
from pipelines.procedural.templates.kinds import recipes_for

__all__ = ["TEMPLATE"]

TEMPLATE = RecipeTemplate("lookup_chain", recipes_for("lookup_chain"))
