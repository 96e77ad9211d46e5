"""Assemble a scenario file in the released format from a stage-3 outline, a stage-4 draft and a stage-5 entity
set, through the authoring kit's writer (so generated files follow the same conventions as the shipped sets:
key order, the scripted user's script, the reference solution, ``scenario_metadata``)."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmtsb.authoring.model import Definition, Round, known_user
from mmtsb.authoring.writer import scenario_json
from pipelines.items import EntitySet, Outline, ScenarioDraft, SourceImage

__all__ = ["GeneratedDefinition", "assemble", "definition_of", "scenario_id_of"]


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

    @property
    def name(self) -> str:
        return self.scenario_id

    def image_path(self, index: int) -> str:
        return f"images/{self.scenario_id}_{index + 1}_{self.images[index][0]}{self.image_suffixes[index]}"


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
    rounds = [Round(list(r.provide), r.query, r.instructions,
                    [s.model_dump(exclude_none=True) for s in steps], reply)
              for r, steps, reply in zip(draft.rounds, entities.solution, entities.replies)]
    dataset_type = Counter(im.dataset_type for im in images).most_common(1)[0][0]
    sid = scenario_id_of(outline)
    return GeneratedDefinition(
        number=0, user=user, description=draft.description, flow=outline.flow, arrival=outline.arrival,
        challenge=outline.challenge, disambiguation=False, dataset_type=dataset_type,
        images=[(str(im.meta.get("slug") or im.image_id), _reader(im.path)) for im in images],
        rounds=rounds, specs=[dict(s) for s in entities.entity_diff_specs], criteria=draft.criteria,
        appworld={k: [dict(r) for r in v] for k, v in entities.appworld_entities.items()},
        agentsandbox={k: [dict(r) for r in v] for k, v in entities.agentsandbox_entities.items()},
        series="generated", scenario_id=sid, image_suffixes=tuple(Path(im.path).suffix or ".png" for im in images))


def assemble(outline: Outline, draft: ScenarioDraft, entities: EntitySet,
             images: list[SourceImage]) -> tuple[GeneratedDefinition, dict[str, Any]]:
    """The definition and the scenario file content; ``metadata.generation`` records the lineage (outline,
    cluster and image ids) so a file can be traced back through the stage tables."""
    definition = definition_of(outline, draft, entities, images)
    data = scenario_json(definition)
    data["metadata"]["generation"] = {"scenario_id": definition.scenario_id, "outline_id": outline.outline_id,
                                      "cluster_id": outline.cluster_id, "image_ids": list(outline.image_ids),
                                      "domain": outline.domain, "title": draft.title, "persona": draft.persona,
                                      "goal": draft.goal}
    return definition, data
