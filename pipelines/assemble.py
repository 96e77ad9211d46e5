"""Assemble a scenario file in the released format from a stage-3 outline, a stage-4 draft and a stage-5 entity
set, through the authoring kit's writer (so generated files follow the same conventions as the shipped sets:
key order, the scripted user's script, the reference solution, ``scenario_metadata``)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmtsb.authoring.model import Definition, Round, known_user
from mmtsb.authoring.writer import scenario_json
from pipelines.items import EntitySet, Outline, ScenarioDraft, SourceImage

__all__ = ["GeneratedDefinition", "assemble", "content_digest", "definition_of", "scenario_id_of"]


def scenario_id_of(outline: Outline) -> str:
    """The scenario's id (and file stem): the name a design gave the outline, else derived from its id (stable
    across reruns)."""
    if outline.name:
        return outline.name
    return "gen_" + hashlib.sha256(outline.outline_id.encode()).hexdigest()[:12]


@dataclass
class GeneratedDefinition(Definition):
    """A definition whose file and image names come from the scenario id instead of a set number."""

    scenario_id: str = ""
    image_suffixes: tuple[str, ...] = ()
    image_folders: tuple[str, ...] = ()  # a sub-folder of images/ per image (a design's dataset types), or none

    @property
    def name(self) -> str:
        return self.scenario_id

    def image_path(self, index: int) -> str:
        folder = f"{self.image_folders[index]}/" if self.image_folders and self.image_folders[index] else ""
        return f"images/{folder}{self.scenario_id}_{index + 1}_{self.images[index][0]}{self.image_suffixes[index]}"


def content_digest(truths: list[dict[str, Any] | None]) -> str:
    """A digest of what the images show (their ground truth, in order): two scenarios over the same content
    have the same digest, however their images are drawn."""
    return hashlib.sha256(json.dumps([t.get("content") if t else None for t in truths], sort_keys=True)
                          .encode()).hexdigest()[:16]


def _add_ui(data: dict[str, Any], entities: EntitySet) -> None:
    """A UI twin's file: the ``after_user`` parts of the reference solution, the ``UI_MODE`` category, the
    criteria's ``UI Requirements:`` and the scripted user's picks (``metadata.ui_interactions``)."""
    from mmtsb.scenarios.solution import ReferenceSolution
    from mmtsb.ui.mode import UI_CATEGORY

    meta = data["metadata"]
    for r, after in zip(meta["reference_solution"]["rounds"], entities.after_user):
        if after:
            r["after_user"] = after
    meta["expected_tools"] = [*ReferenceSolution.from_data(meta["reference_solution"]).tools(), "ui_user_interact"]
    meta["ui_interactions"] = list(entities.ui_interactions)
    data["categories"] = [*data["categories"], UI_CATEGORY]
    data["task_completion_criteria"] += "\n\nUI Requirements:\n" + "\n".join(f"- {x}" for x in entities.ui_requirements)


def _reader(path: str):
    return lambda: Path(path).read_bytes()


def definition_of(outline: Outline, draft: ScenarioDraft, entities: EntitySet,
                  images: list[SourceImage]) -> GeneratedDefinition:
    """The authoring-kit definition of one generated scenario (``images`` in the outline's order). Raises
    ValueError for a draft whose rounds and solution disagree, or whose main user is not a base person."""
    if len(entities.solution) != len(draft.rounds) or len(entities.replies) != len(draft.rounds):
        raise ValueError(f"the reference solution has {len(entities.solution)} round(s) and "
                         f"{len(entities.replies)} repl(ies) for {len(draft.rounds)} round(s) of the draft")
    try:
        user = known_user(draft.user_id)
    except KeyError:
        raise ValueError(f"user_id {draft.user_id} is not a base person with a known identity") from None
    text_twin = "text" in outline.variant.split("+")[1:]  # the content travels in the user's words
    rounds = [Round([] if text_twin else list(r.provide), r.query, r.instructions,
                    [s.model_dump(exclude_none=True) for s in steps], reply)
              for r, steps, reply in zip(draft.rounds, entities.solution, entities.replies)]
    dataset_type = Counter(im.dataset_type for im in images).most_common(1)[0][0]
    sid = scenario_id_of(outline)
    if text_twin:
        images, dataset_type = [], "text"
    return GeneratedDefinition(
        number=0, user=user, description=draft.description, flow=outline.flow, arrival=outline.arrival,
        challenge=outline.challenge, disambiguation=False, dataset_type=dataset_type,
        images=[(str(im.meta.get("slug") or im.image_id), _reader(im.path)) for im in images],
        rounds=rounds, specs=[dict(s) for s in entities.entity_diff_specs], criteria=draft.criteria,
        appworld={k: [dict(r) for r in v] for k, v in entities.appworld_entities.items()},
        agentsandbox={k: [dict(r) for r in v] for k, v in entities.agentsandbox_entities.items()},
        series="generated", scenario_id=sid, image_suffixes=tuple(Path(im.path).suffix or ".png" for im in images),
        image_folders=tuple(str(im.meta.get("folder") or "") for im in images))


def assemble(outline: Outline, draft: ScenarioDraft, entities: EntitySet,
             images: list[SourceImage]) -> tuple[GeneratedDefinition, dict[str, Any]]:
    """The definition and the scenario file content; ``metadata.generation`` records the lineage (outline,
    cluster and image ids) so a file can be traced back through the stage tables."""
    definition = definition_of(outline, draft, entities, images)
    data = scenario_json(definition)
    if entities.after_user:
        _add_ui(data, entities)
    truths = [im.truth for im in images]  # in the outline's order
    data["metadata"]["generation"] = {"scenario_id": definition.scenario_id, "outline_id": outline.outline_id,
                                      "cluster_id": outline.cluster_id, "image_ids": list(outline.image_ids),
                                      "domain": outline.domain, "title": draft.title, "persona": draft.persona,
                                      "goal": draft.goal, "variant": outline.variant,
                                      "families": sorted({t["family"] for t in truths if t}),
                                      "content_digest": content_digest(truths)}
    return definition, data
