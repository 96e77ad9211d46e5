"""Convert a starter definition into a UI-mode scenario file: the converted rounds' text and steps, the
``UI_MODE`` category, the criteria's ``UI Requirements:`` section and the two metadata extensions."""

from __future__ import annotations

import copy
from typing import Any

from mmtsb.authoring.model import Definition, Round
from mmtsb.authoring.ui.model import UIVariant
from mmtsb.authoring.writer import scenario_json as base_scenario_json
from mmtsb.scenarios.solution import ReferenceSolution
from mmtsb.ui.mode import UI_CATEGORY

__all__ = ["definition", "scenario_json"]


def definition(v: UIVariant) -> Definition:
    """The base definition, renamed into the ``ui`` series, with the UI rounds' query, instructions,
    first-part steps and reply."""
    base = v.base()
    d = copy.deepcopy(base)
    d.number, d.series = v.number, "ui"
    if v.edit is not None:
        v.edit(d)
    for ui in v.rounds:
        old = d.rounds[ui.round - 1]
        d.rounds[ui.round - 1] = Round(old.provide, ui.query, ui.instructions, ui.steps, ui.reply)
    d.description = f"{base.description} {v.description}"
    return d


def scenario_json(v: UIVariant, d: Definition | None = None) -> dict[str, Any]:
    """The UI scenario file: the nominal layout plus UI_MODE, UI Requirements and two ``metadata`` extensions
    the offline roles need.

    - ``reference_solution``: the converted round renders the screen (``render_ui_screen``), shows it
      (``show_ui_to_user``) and replies; its ``after_user`` part runs once the user has chosen, reading the
      choice from the UI action saved under ``ui_action_as`` (mmtsb/scenarios/solution.py);
    - ``ui_interactions``: what the scripted user picks on the screen, what it says afterwards, and what it
      says when no interactive UI is shown (mmtsb/scenarios/script.py ``UIInteraction``).

    ``d`` is ``definition(v)`` when the caller already has it.
    """
    d = definition(v) if d is None else d
    data = base_scenario_json(d)
    requirements = "\n".join(f"- {ui.requirement}" for ui in v.rounds)
    data["task_completion_criteria"] = f"{v.criteria or d.criteria}\n\nUI Requirements:\n{requirements}"
    data["categories"] = [*data["categories"], UI_CATEGORY]
    meta = data["metadata"]
    solution = meta["reference_solution"]
    for ui in v.rounds:
        solution["rounds"][ui.round - 1]["after_user"] = {
            "ui_action_as": "picked", "ui_action_fallback": ui.fallback_action, "steps": ui.after_steps,
            "reply": ui.after_reply}
    meta["expected_tools"] = [*ReferenceSolution.from_data(solution).tools(), "ui_user_interact"]
    interactions = []
    for ui in v.rounds:
        entry = {"round": ui.round, "choose": ui.choose, "message": ui.message, "fallback": ui.fallback}
        if ui.field_values:
            entry["field_values"] = ui.field_values
        interactions.append(entry)
    meta["ui_interactions"] = interactions
    return data
