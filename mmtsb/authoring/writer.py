"""Turn a :class:`~mmtsb.authoring.model.Definition` into a scenario file in the released format and write it
with its images, deterministically (same definitions, same bytes), so a committed set can be checked against
its source."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mmtsb.authoring.model import Definition, check_definition
from mmtsb.scenarios.script import ScriptRound, render_user_script

__all__ = ["PLACEHOLDER_IDS", "number_placeholder_ids", "scenario_json", "write_scenario", "write_set"]

#: device-side id columns of created rows: their values are placeholders (never compared), made unique per file
PLACEHOLDER_IDS = {"CALENDAR_EVENTS": ("calendar_event_id", "calendar_events_calendar_event_{}"),
                   "REMINDER": ("reminder_id", "reminder_{}")}


def number_placeholder_ids(specs: list[dict[str, Any]]) -> None:
    """Give each created device row its own placeholder id (200, 201, ...; seeds use 100+), in place."""
    counters: dict[str, int] = {}
    for spec in specs:
        ns = spec.get("namespace")
        if spec["operation"] == "create" and ns in PLACEHOLDER_IDS:
            column, pattern = PLACEHOLDER_IDS[ns]
            counters[ns] = counters.get(ns, 199) + 1
            spec["entity_data"][column] = pattern.format(counters[ns])


def scenario_json(d: Definition) -> dict[str, Any]:
    """The scenario file's content, in the released key order (checks ``d`` first; numbers its placeholder
    ids). The system message is the scripted user's script; ``metadata`` carries the taxonomy, the image
    arrival and the reference solution the oracle plays."""
    check_definition(d)
    script_rounds = [ScriptRound(i + 1, [k - 1 for k in r.provide], r.query, r.instructions)
                     for i, r in enumerate(d.rounds)]
    first_turn: dict[str, Any] = {"sender": "USER", "recipient": "AGENT", "content": script_rounds[0].query}
    if script_rounds[0].provide_image_ids:
        first_turn["image_ids"] = script_rounds[0].provide_image_ids
    solution = {"version": 1, "rounds": [{"round": i + 1, "steps": r.steps, "reply": r.reply}
                                         for i, r in enumerate(d.rounds)]}
    expected_tools = list(dict.fromkeys(s["tool"] for r in d.rounds for s in r.steps))
    appworld = dict(d.appworld)
    appworld.setdefault("gmail.users", [])
    number_placeholder_ids(d.specs)
    return {
        "name": d.name,
        "base_scenario": "base",
        "description": d.description,
        "difficulty": "easy",
        "appworld_base_task": "_base_",
        "device_state_id": d.user.email,
        "reference_time": d.reference_time,
        "agentsandbox_entities": d.agentsandbox,
        "appworld_entities": appworld,
        "image_paths": [d.image_path(i) for i in range(len(d.images))],
        "messages": [{"sender": "SYSTEM", "recipient": "USER",
                      "content": render_user_script(script_rounds, len(d.images))}, first_turn],
        "milestones": [],
        "entity_diff_specs": d.specs,
        "task_completion_criteria": d.criteria,
        "categories": ["APPWORLD", "MULTIPLE_USER_TURN"],
        "max_messages": 100,
        "metadata": {
            "original_scenario_id": d.name,
            "expected_tools": expected_tools,
            "image_arrival": {str(r.number): r.provide_names for r in script_rounds if r.provide_image_ids},
            "image_delivery_map": [{"query": r.query, "image_ids": r.provide_image_ids}
                                   for r in script_rounds[1:] if r.provide_image_ids],
            "scenario_metadata": {"num_images": len(d.images), "num_user_rounds": len(d.rounds),
                                  "selected_flow_type": d.flow, "image_arrival": d.arrival,
                                  "challenge_type": d.challenge, "require_disambiguation": d.disambiguation,
                                  "dataset_type": d.dataset_type},
            "reference_solution": solution,
        },
    }


def write_scenario(out_dir: Path, d: Definition, data: dict[str, Any]) -> list[Path]:
    """Draw ``d``'s images and write them and the file content ``data`` under ``out_dir`` (whose ``images/``
    folder must exist); returns the written paths."""
    written = []
    for i, (_, render) in enumerate(d.images):
        path = out_dir / d.image_path(i)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(render())
        written.append(path)
    path = out_dir / f"{d.name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [*written, path]


def write_set(out_dir: Path, scenarios: Iterable[tuple[Definition, dict[str, Any]]]) -> list[Path]:
    """Write a set of scenarios (each a definition and its file content) under ``out_dir``, creating it and
    its ``images/`` folder; returns the written paths."""
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    written = []
    for d, data in scenarios:
        written += write_scenario(out_dir, d, data)
    return written
