"""The flow-template interface, and the recipe-driven template every flow module instantiates.

A flow template scores how well a group fits it (stage 2) and builds the scenario draft and entity set for an
outline (stages 4-5). The shipped templates share one shape: per image family, a :class:`Recipe` turns the
group's ground truth into a :class:`Plan` (the goal, the goal a user may pivot to, seeded entities, the detail
a user may misstate), and :func:`~pipelines.procedural.templates.compose.compose` turns the plan into rounds
for the outline's arrival pattern and challenge. A new family is a new recipe; a new flow is a new module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mmtsb.authoring.model import User
from pipelines.backends.base import GroupContext
from pipelines.items import EntitySet, Outline, ScenarioDraft
from pipelines.procedural.families import FAMILIES, ImageFamily
from pipelines.procedural.templates.entities import Entity, Seed

__all__ = ["Content", "FlowTemplate", "Goal", "Item", "Material", "Misstatement", "Plan", "Recipe", "RecipeTemplate",
           "SENT_SINKS", "group_family", "group_kind", "ordinal"]

Content = dict[str, Any]
#: an image as a recipe sees it: its 1-based number in the scenario and its content
Item = tuple[int, Content]

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
#: sinks whose result is sent (cannot be undone or found stale)
SENT_SINKS = frozenset({"email", "email_phone", "text", "splitwise", "venmo"})


def ordinal(k: int) -> str:
    """1 -> ``first``."""
    return _ORDINALS[k - 1]


class FlowTemplate(Protocol):
    """One information-flow type (paper §4.1) over whichever image families it supports."""

    flow: str

    def families(self) -> tuple[str, ...]:
        """The image families it can build from."""
        ...

    def tools(self, family: str) -> tuple[str, ...]:
        """The tools its scenarios over ``family`` use (stage 1 reports them)."""
        ...

    def viability(self, ctx: GroupContext) -> int:
        """0 (impossible) .. 3 (ideal) for this group."""
        ...

    def build(self, outline: Outline, ctx: GroupContext) -> tuple[ScenarioDraft, EntitySet]:
        """The scenario for ``outline`` over the group's images, deterministic from ``outline.seed``; raises
        ValueError when the outline cannot be built (e.g. a goal change with no round left to pivot in)."""
        ...


@dataclass(frozen=True)
class Goal:
    """What the user wants done with the images. ``outcome`` gives the entities that must exist once the images
    delivered so far are handled (``final``: all of them are; sendables may only appear then); the same key in
    a later call means the same entity, updated."""

    ask: str  # the request as the user says it (deictic, no image values): "make a note titled ..."
    outcome: Callable[[list[Item], bool], list[Entity]]
    criteria: Callable[[list[Item]], str]  # the resolved criterion of the final state
    share: Callable[[list[Item]], str] | None = None  # the result in one sentence, for an email follow-up


@dataclass(frozen=True)
class Misstatement:
    """A detail the user gets wrong (error correction): the image contradicts it and the truth must win."""

    image: int  # 1-based image number
    what: str  # "total", "start time"
    wrong: str
    right: str


@dataclass(frozen=True)
class Plan:
    """Everything a recipe decides for one group; the composer does the rest."""

    title: str
    description: str
    goal: Goal
    pivot: Goal  # the goal a goal_change switches to (its entities replace the first goal's)
    seeds: tuple[Seed, ...] = ()
    rows: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)  # extra appworld rows (recipients)
    misstatement: Misstatement | None = None
    preexisting: tuple[str, ...] = ()


@dataclass(frozen=True)
class Material:
    """What a recipe builds from: the group's contents in scenario order, the outline's rng, the main user, a
    base contact of theirs to share results with (id, first, last, email), and the outline's variant: the
    ``sink`` the result goes to (a note, a file, an email...; empty: the recipe's default) and ``modifiers``
    (``offline``: the phone starts in airplane mode)."""

    items: list[Item]
    family: ImageFamily
    rng: random.Random
    user: User
    friend: tuple[int, str, str, str]
    sink: str = ""
    modifiers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recipe:
    """How one flow is built over one kind of content. ``sinks`` are the variants the recipe offers for where
    its result goes (the first is the default; an outline's ``variant`` picks one), each with the tools it
    uses beyond ``tools``."""

    make: Callable[[Material], Plan]
    tools: tuple[str, ...]
    fits: Callable[[list[Content]], bool] = lambda contents: True
    score: int = 3
    min_images: int = 2
    sinks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    families: tuple[str, ...] = ()  # only these families of the kind (empty: all), e.g. those showing durations
    undoable: frozenset[str] = frozenset()  # sent sinks whose outcome still has something to undo (a contact)

    def all_tools(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*self.tools, *(t for ts in self.sinks.values() for t in ts)]))

    def tools_for(self, sink: str) -> tuple[str, ...]:
        """The tools of the recipe with ``sink`` (the default sink when empty)."""
        sink = sink or next(iter(self.sinks), "")
        return tuple(dict.fromkeys([*self.tools, *self.sinks.get(sink, ())]))

    def supports(self, challenge: str, sink: str = "") -> bool:
        """Whether an outline with ``challenge`` can be built with ``sink``: a result that is sent (an email,
        a text, money asked for or shared) can be neither undone by a goal change nor seeded stale."""
        sink = sink or next(iter(self.sinks), "")
        return not (sink in SENT_SINKS and sink not in self.undoable and challenge in ("goal_change",
                                                                                     "state_mutation"))


def group_family(ctx: GroupContext) -> str | None:
    """The one family every image of the group was drawn by, or None (mixed, or no ground truth)."""
    names = {(im.truth or {}).get("family") for im in ctx.images}
    return names.pop() if len(names) == 1 and None not in names else None


def group_kind(ctx: GroupContext) -> str | None:
    """The one content kind every image of the group shows, or None (mixed, unknown family, no ground truth)."""
    kinds = {FAMILIES[f].kind if f in FAMILIES else None for f in ((im.truth or {}).get("family") for im in ctx.images)}
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


class RecipeTemplate:
    """A flow template made of per-kind recipes (a kind's recipe serves every family drawing that kind)."""

    def __init__(self, flow: str, recipes: Mapping[str, Recipe]) -> None:
        self.flow = flow
        self.recipes = dict(recipes)

    def kinds(self) -> tuple[str, ...]:
        return tuple(self.recipes)

    def families(self) -> tuple[str, ...]:
        """Every family whose kind has a recipe here."""
        return tuple(name for name, f in FAMILIES.items() if f.kind in self.recipes)

    def recipe_for(self, family: str) -> Recipe | None:
        fam = FAMILIES.get(family)
        return self.recipes.get(fam.kind) if fam else None

    def tools(self, family: str) -> tuple[str, ...]:
        recipe = self.recipe_for(family)
        return recipe.all_tools() if recipe else ()

    def viability(self, ctx: GroupContext) -> int:
        recipe = self.recipes.get(group_kind(ctx) or "")
        if recipe is None or len(ctx.images) < recipe.min_images:
            return 0
        if recipe.families and any((im.truth or {}).get("family") not in recipe.families for im in ctx.images):
            return 0
        return recipe.score if recipe.fits([im.truth["content"] for im in ctx.images]) else 0

    def build(self, outline: Outline, ctx: GroupContext) -> tuple[ScenarioDraft, EntitySet]:
        from pipelines.procedural.templates.compose import compose, material_of

        kind = group_kind(ctx)
        if kind not in self.recipes:
            raise ValueError(f"{self.flow}: no recipe for content kind {kind!r}")
        recipe = self.recipes[kind]
        sink = (outline.variant or "").split("+")[0]
        if sink and sink not in recipe.sinks:
            raise ValueError(f"{self.flow}/{kind}: no variant {sink!r} (have {sorted(recipe.sinks) or 'none'})")
        material = material_of(outline, ctx, FAMILIES[group_family(ctx) or next(
            f for f in FAMILIES if FAMILIES[f].kind == kind)])
        if recipe.families and any((im.truth or {}).get("family") not in recipe.families for im in ctx.images):
            raise ValueError(f"{self.flow}/{kind}: only the families {list(recipe.families)} show what it needs")
        if not recipe.fits([c for _, c in material.items]):
            raise ValueError(f"{self.flow}: the {kind} group does not fit this flow")
        return compose(outline, material, recipe.make(material))


def pick_money_error(rng: random.Random, right: float, avoid: Sequence[str]) -> str:
    """A plausible but wrong dollar amount for ``right`` (never a value shown on the images)."""
    from pipelines.procedural.families.base import money

    while True:
        wrong = round(right + rng.choice([-1, 1]) * rng.randint(3, 40) + rng.choice([0, 0.5, 0.25]), 2)
        if wrong > 0 and all(f"{wrong:.2f}" not in a for a in avoid):
            return money(wrong)
