"""The design of a benchmark set: one slot per scenario, chosen deterministically from the set's name and seed so
that the set covers the design axes evenly (flows, challenges, arrivals each within a few scenarios of an even
share), every app domain often, and the paper's four image categories about equally.

A slot fixes everything the pipeline needs to build its scenario without a model or clustering: the flow, the
arrival pattern, the challenge, the number of rounds, the recipe variant (where the result goes; ``+offline``
starts the phone in airplane mode), the content kind and the image family, each image's content and style
seed, and the outline seed. Every slot is built and critiqued while designing (cheap: no drawing, no world), so a
slot that cannot be built is replaced before the set is drawn; the pipeline then draws, validates, gold-checks
and oracle-checks it like any generated scenario. The design is computed whole and then filtered, so
regenerating a sample (``design.only``) gives the same slots as the whole set.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from pipelines.items import ARRIVALS, CHALLENGES, FLOWS, Group, Outline, SourceImage
from pipelines.procedural.families import FAMILIES, KNOB_FAMILIES, families_of_kind
from pipelines.procedural.families.base import PAPER_CATEGORY
from pipelines.procedural.families.metric import sample_group
from pipelines.procedural.templates import TEMPLATES
from pipelines.procedural.templates.kinds import KIND_RECIPES

__all__ = ["APP_DOMAINS", "IMAGE_CATEGORIES", "Slot", "design", "domains_of_tools", "slot_context", "slot_outline"]

#: the paper's 16 application domains (TOOLS.md §2)
APP_DOMAINS = ("alarms", "amazon", "contacts", "file_system", "gmail", "messages", "phone", "simple_note", "splitwise",
               "spotify", "supervisor", "todoist", "venmo", "calendar", "reminder", "setting")
IMAGE_CATEGORIES = ("Natural (text-rich)", "Natural (less text)", "Docs/Charts/Tables", "UI")
#: scenarios each domain should reach while designing (the gate is 10)
DOMAIN_TARGET = 14
#: every this-many slots one starts with the phone in airplane mode (the setting domain)
OFFLINE_EVERY = 22
#: sinks whose choice a UI twin can put on a screen (who gets it, which project), and how many slots should have
#: one so the UI set can pick its twins over every flow
PICKER_SINKS = frozenset({"email", "email_phone", "text", "task"})
PICKER_TARGET = 96
#: content kinds whose images are sampled as a coherent series rather than one by one
GROUP_SAMPLERS = {"metric": sample_group}


@dataclass(frozen=True)
class Slot:
    """One scenario of a designed set."""

    name: str
    index: int
    flow: str
    arrival: str
    challenge: str
    n_rounds: int
    kind: str
    family: str
    variant: str
    category: str
    contents: list[dict[str, Any]]
    style_seeds: list[int]
    seed: int
    domains: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def template(self) -> str:
        """The task template: flow, content kind and variant."""
        return f"{self.flow}/{self.kind}/{self.variant or 'default'}"


@functools.cache
def _tool_domains() -> dict[str, str]:
    from mmtsb.tools.toolbox import full_registry

    return {spec.name: spec.domain for spec in full_registry()}


def domains_of_tools(tools: list[str]) -> list[str]:
    """The app domains (of :data:`APP_DOMAINS`) the tools belong to, in that order."""
    doms = {_tool_domains().get(t) for t in tools}
    return [d for d in APP_DOMAINS if d in doms]


def _balanced(values: tuple[str, ...], n: int, rng: random.Random) -> list[str]:
    out = [values[i % len(values)] for i in range(n)]
    rng.shuffle(out)
    return out


def _digest(*parts: Any) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:12], 16)


def slot_context(slot: Slot, image_ids: list[str] | None = None, paths: list[str] | None = None):
    """The group context of a slot's images (``image_ids``/``paths`` as drawn, else placeholders)."""
    from pipelines.backends.base import GroupContext

    fam = FAMILIES[slot.family]
    ids = image_ids or [f"img-{slot.name}-{k}" for k in range(1, len(slot.contents) + 1)]
    images = [SourceImage(image_id=i, path=(paths[k] if paths else f"/nonexistent/{i}.jpg"),
                          dataset_type=fam.dataset_type, meta={"slug": slot.family},
                          truth={"family": slot.family, "content": c}) for k, (i, c) in enumerate(zip(ids, slot.contents))]
    group = Group(cluster_id=f"cl-{slot.name}", domain=fam.domains[0], image_ids=ids, mean_similarity=1.0)
    return GroupContext(group, images, [])


def slot_outline(slot: Slot, image_ids: list[str] | None = None) -> Outline:
    """The stage-3 outline a slot fixes."""
    ids = image_ids or [f"img-{slot.name}-{k}" for k in range(1, len(slot.contents) + 1)]
    recipe = KIND_RECIPES[slot.kind][slot.flow]
    return Outline(outline_id=f"ol-{slot.name}", cluster_id=f"cl-{slot.name}", domain=FAMILIES[slot.family].domains[0],
                   flow=slot.flow, arrival=slot.arrival, challenge=slot.challenge, n_rounds=slot.n_rounds,
                   image_ids=ids, required_tools=list(recipe.tools_for(slot.variant.split("+")[0])), seed=slot.seed,
                   variant=slot.variant, name=slot.name)


def _try_build(slot: Slot) -> list[str] | None:
    """The domains of the slot's scenario when it builds and passes the critic, else None."""
    from pipelines.assemble import assemble
    from pipelines.procedural.critic import critique

    ctx, outline = slot_context(slot), slot_outline(slot)
    try:
        draft, entity_set = TEMPLATES[slot.flow].build(outline, ctx)
        _, data = assemble(outline, draft, entity_set, ctx.images)
    except ValueError:
        return None
    if not critique(data, ctx, outline).passed:
        return None
    return domains_of_tools(data["metadata"]["expected_tools"])


def _sizes(arrival: str, challenge: str, rng: random.Random) -> tuple[int, int]:
    """Images and rounds that fit the arrival (mixed needs 4+ images, late 3+) and leave a goal change a round."""
    n_images = rng.choice([3, 4, 4, 5, 5, 6, 6, 6])
    if arrival == "mixed":
        n_images = max(4, n_images)
    lo = 3 if (arrival == "late" and challenge == "goal_change") else 2
    return n_images, rng.randint(lo, 5)


def _contents(kind: str, family: str, n: int, recipe: Any, rng: random.Random) -> list[dict[str, Any]] | None:
    sampler = GROUP_SAMPLERS.get(kind)
    for _ in range(40):
        contents = sampler(rng, n) if sampler else [FAMILIES[family].sample(rng) for _ in range(n)]
        if recipe.fits(contents):
            return contents
    return None


class _Designer:
    """The running counts behind the choices of one set's design."""

    def __init__(self, name: str, n: int, seed: int) -> None:
        self.name, self.n, self.seed = name, n, seed
        self.rng = random.Random(f"design:{name}:{seed}")
        self.domains: Counter[str] = Counter()
        self.categories: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()
        self.families: Counter[str] = Counter()
        self.seen: set[str] = set()
        self.pickers = 0

    def candidates(self, flow: str, challenge: str, category: str) -> list[tuple[str, str, str]]:
        """(kind, family, sink) combinations that can build the slot, best first for the set's balance."""
        out = []
        for kind, recipes in KIND_RECIPES.items():
            recipe = recipes.get(flow)
            if recipe is None:
                continue
            for fam in families_of_kind(kind):
                if PAPER_CATEGORY[fam.category] != category or (recipe.families and fam.name not in recipe.families):
                    continue
                for sink in (list(recipe.sinks) or [""]):
                    if not recipe.supports(challenge, sink):
                        continue
                    doms = domains_of_tools(list(recipe.tools_for(sink)))
                    need = sum(max(0, DOMAIN_TARGET - self.domains[d]) for d in doms)
                    picker = 0.3 if sink in PICKER_SINKS and self.pickers < PICKER_TARGET * self.n / 320 else 0.0
                    score = (need / DOMAIN_TARGET + picker - 0.35 * self.kinds[kind] / max(1, self.n / 8)
                             - 0.25 * self.families[fam.name] / max(1, self.n / len(KNOB_FAMILIES))
                             + self.rng.random() * 0.3)
                    out.append((score, kind, fam.name, sink))
        out.sort(key=lambda x: -x[0])
        return [(k, f, s) for _, k, f, s in out]

    def categories_for(self, flow: str, challenge: str) -> list[str]:
        ranked = sorted(IMAGE_CATEGORIES, key=lambda c: (self.categories[c], self.rng.random()))
        return [c for c in ranked if self.candidates(flow, challenge, c)]

    def slot(self, index: int, flow: str, arrival: str, challenge: str) -> Slot | None:
        name = f"{self.name}_{index:04d}"
        offline = index % OFFLINE_EVERY == 5
        for category in self.categories_for(flow, challenge):
            for kind, family, sink in self.candidates(flow, challenge, category)[:8]:
                recipe = KIND_RECIPES[kind][flow]
                for attempt in range(4):
                    rng = random.Random(_digest(self.name, self.seed, index, kind, family, sink, attempt))
                    n_images, n_rounds = _sizes(arrival, challenge, rng)
                    contents = _contents(kind, family, n_images, recipe, rng)
                    if contents is None:
                        continue
                    key = json.dumps(contents, sort_keys=True)
                    if key in self.seen:
                        continue
                    variant = sink + ("+offline" if offline else "")
                    slot = Slot(name, index, flow, arrival, challenge, n_rounds, kind, family, variant, category,
                                contents, [rng.randrange(2**31) for _ in contents], rng.randrange(2**31))
                    doms = _try_build(slot)
                    if doms is None:
                        continue
                    self.seen.add(key)
                    self.domains.update(doms)
                    self.categories[category] += 1
                    self.kinds[kind] += 1
                    self.families[family] += 1
                    self.pickers += sink in PICKER_SINKS
                    return Slot(**{**slot.to_dict(), "domains": doms})
        return None


@functools.cache
def design(name: str, n: int, seed: int) -> tuple[Slot, ...]:
    """The ``n`` slots of the set ``name`` (deterministic for the name, size and seed). Flows, challenges and
    arrivals are dealt in equal shares; a slot whose combination no recipe can build trades its challenge and
    arrival with a later slot's."""
    d = _Designer(name, n, seed)
    flows = _balanced(FLOWS, n, d.rng)
    challenges = _balanced(CHALLENGES, n, d.rng)
    arrivals = _balanced(ARRIVALS, n, d.rng)
    slots: list[Slot] = []
    for i in range(n):
        made = None
        for j in range(i, n):
            challenges[i], challenges[j] = challenges[j], challenges[i]
            arrivals[i], arrivals[j] = arrivals[j], arrivals[i]
            made = d.slot(i + 1, flows[i], arrivals[i], challenges[i])
            if made is not None:
                break
            challenges[i], challenges[j] = challenges[j], challenges[i]
            arrivals[i], arrivals[j] = arrivals[j], arrivals[i]
        if made is None:
            raise ValueError(f"{name}: no recipe builds slot {i + 1} ({flows[i]}); add recipes for it")
        slots.append(made)
    return tuple(slots)


#: the variants of a designed set and the suffix of their names
VARIANTS = {"nominal": "", "hard": "_hard", "text": "_text", "ui": "_ui"}


def ui_convertible(slot: Slot) -> bool:
    """Whether a slot is a candidate for a UI twin: its result goes by email or text (who gets it) or to a to-do
    (which project), or it is a comparison, whose result is often shared by email at the end. Building the twin
    decides (:func:`variant_slots` keeps only twins with a choice on a screen)."""
    sink = slot.variant.split("+")[0]
    return slot.flow == "compare" or sink in ("email", "email_phone", "text", "task")


@functools.cache
def variant_slots(base: str, n: int, seed: int, variant: str, n_ui: int = 64) -> tuple[Slot, ...]:
    """The slots of ``variant`` of the design ``base``: renamed twins (``<base>_hard_0007`` twins
    ``<base>_0007``); text twins carry the ``text`` modifier; UI twins the ``ui`` modifier, for ``n_ui`` slots
    with a choice, dealt round-robin over the flows so the UI set covers every flow that has such slots (in
    mmtsb_v1 six of the seven: no cross-reference recipe sends its result to a person or a project)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown design variant {variant!r}; known: {sorted(VARIANTS)}")
    slots = design(base, n, seed)

    def twin(s: Slot, modifier: str = "") -> Slot:
        return Slot(**{**s.to_dict(), "name": f"{base}{VARIANTS[variant]}_{s.index:04d}",
                       "variant": s.variant + (f"+{modifier}" if modifier else "")})

    if variant in ("nominal", "hard"):
        return tuple(twin(s) for s in slots)
    if variant == "text":
        return tuple(twin(s, "text") for s in slots)
    by_flow: dict[str, list[Slot]] = {f: [] for f in FLOWS}
    for s in slots:
        if ui_convertible(s):
            by_flow[s.flow].append(s)
    picked: list[Slot] = []
    while len(picked) < n_ui and any(by_flow.values()):
        for f in FLOWS:
            while by_flow[f] and len(picked) < n_ui:
                candidate = twin(by_flow[f].pop(0), "ui")
                if _try_build(candidate) is not None:
                    picked.append(candidate)
                    break
    return tuple(sorted(picked, key=lambda s: s.index))
