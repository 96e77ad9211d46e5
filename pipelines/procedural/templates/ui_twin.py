"""UI twins (the ``ui`` modifier): the choice a nominal scenario settles in words is made on a screen the agent
designs (A2UI), and the user's criterion stays private, as in the paper's UI variants.

Two choices carry over to every written-result recipe: *who* gets a result sent by email or text (the user says
only a first name that two contacts share, and privately means one of them), and *which project* a to-do goes to
(the user asks to choose among their Todoist projects and privately wants one). In the round that would create
the entity, the reference solution looks the options up, renders them as cards with one button each and shows
the screen; once the user has picked, it makes the entity from the picked option (``$picked.context...``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mmtsb.authoring.rows import contact
from mmtsb.authoring.ui.screens import contact_cards, escape
from mmtsb.ui.examples import button, column, comp, lit, screen, text
from pipelines.items import SolutionStep
from pipelines.procedural.templates.base import Material
from pipelines.procedural.templates.entities import Entity
from pipelines.procedural.templates.sinks import PROJECTS, project_rows

__all__ = ["DECOY_LASTS", "UIPick", "ui_pick"]

#: the last names of the second contact who shares the friend's first name, and how the user knows them
DECOY_LASTS = (("Peterson", "accountant"), ("Alvarez", "neighbour"), ("Nakamura", "dentist"), ("Okafor", "landlord"))
DECOY_ID = 271
PICKED = "picked"


@dataclass
class UIPick:
    """How one entity's creation becomes a choice on a screen."""

    before: list[SolutionStep]  # look the options up, render them, show the screen
    rewrite: Callable[[list[SolutionStep]], list[SolutionStep]]  # the entity's steps, reading the pick
    reply: str  # what the agent says with the screen
    fallback: dict[str, Any]  # the action used when the user answers in words
    choose: str  # the visible text the scripted user picks
    message: str
    fallback_text: str
    instruction: str  # the user's private instruction for the round
    requirement: str  # the round's line under "UI Requirements:"
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _step(tool: str, save_as: str | None = None, **arguments: Any) -> SolutionStep:
    return SolutionStep(tool=tool, arguments=arguments, save_as=save_as)


def _show(ui_json: list[dict[str, Any]]) -> list[SolutionStep]:
    return [_step("ui_get_quick_start"), _step("render_ui_screen", ui_json=escape(ui_json)),
            _step("show_ui_to_user")]


def _replace(value: Any, old: str, new: str) -> Any:
    if value == old:
        return new
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, old, new) for k, v in value.items()}
    return value


def _recipient(e: Entity, m: Material) -> UIPick:
    fid, first, last, email = m.friend
    decoy_last, role = DECOY_LASTS[fid % len(DECOY_LASTS)]
    decoy = {"name": f"{first} {decoy_last}", "email": f"{first}.{decoy_last}@homemail.example".lower(),
             "phone": "(555) 014-0271", "detail": role}
    from pipelines.procedural.templates.sinks import me

    friend = me(email, fid)
    real = {"name": f"{first} {last}", "email": email, "phone": friend.phone_number, "detail": "friend"}
    field_name, ref_key = ("email", "$friend.0.email") if e.kind == "email" else ("phone", "$friend.0.phone_number")
    verb = "Email" if e.kind == "email" else "Text"
    people = [real, decoy] if fid % 2 else [decoy, real]
    ui_json = contact_cards("choose-recipient", f"Which {first} should get it?",
                            [{**p, "detail": f"{p[field_name]} - {p['detail']}"} for p in people], "choose_contact",
                            verb, ("name", field_name))

    def rewrite(steps: list[SolutionStep]) -> list[SolutionStep]:
        out = []
        for s in steps:
            if s.tool == "contacts_search_contacts" and s.save_as == "friend":
                continue
            out.append(SolutionStep(tool=s.tool, arguments=_replace(dict(s.arguments), ref_key,
                                                                    f"${PICKED}.context.{field_name}"),
                                    save_as=s.save_as))
        return out

    what = "email" if e.kind == "email" else "text"
    return UIPick(
        before=[_step("contacts_search_contacts", "same_name", query=first), *_show(ui_json)],
        rewrite=rewrite, reply=f"You have two contacts named {first}. Which one should get the {what}? Pick on "
                               "the screen.",
        fallback={"name": "choose_contact", "context": {"name": real["name"], field_name: real[field_name]}},
        choose=real["name"], message=f"Done, I picked {real['name']} on the screen.",
        fallback_text=f"I mean {real['name']}, my friend, not {decoy['name']}.",
        instruction=(f"You have two contacts named {first}. When the assistant shows them, select {real['name']} via "
                     f"`ui_user_interact`. If no interactive UI is shown, tell it you mean {real['name']}, your "
                     f"friend (not {decoy['name']}, your {role})."),
        requirement=(f"The agent must present the contacts named {first} in a structured interactive UI that lets "
                     f"the user choose who gets the {what}."),
        rows={"phone.contacts": [contact(DECOY_ID, m.user.id, first, decoy_last, decoy["email"], decoy["phone"],
                                         [role])]})


def _project(e: Entity, m: Material) -> UIPick:
    target = e.fields["project"]
    names = [n for n in PROJECTS if n != target]
    options = sorted([target, *names])
    ui_json = screen("choose-project", [
        column("root", "heading", "hint", *(f"card{i}" for i in range(len(options)))),
        text("heading", f"Which project should '{e.fields['title']}' go to?", hint="h3"),
        text("hint", "Tap the project.", hint="caption"),
        *[c for i, name in enumerate(options) for c in (
            comp(f"card{i}", "Card", child=f"body{i}"), column(f"body{i}", f"name{i}", f"act{i}"),
            text(f"name{i}", name, hint="h4"), text(f"act{i}-label", f"Use {name}"),
            button(f"act{i}", f"act{i}-label", "choose_project", context={"project": lit(name)}))]])

    def rewrite(steps: list[SolutionStep]) -> list[SolutionStep]:
        return [SolutionStep(tool=s.tool, arguments=_replace(dict(s.arguments), target, f"${PICKED}.context.project")
                             if s.tool == "todoist_show_projects" else dict(s.arguments), save_as=s.save_as)
                for s in steps]

    return UIPick(
        before=[_step("todoist_show_projects", "all_projects"), *_show(ui_json)],
        rewrite=rewrite, reply="Which project should the to-do go to? Pick one on the screen.",
        fallback={"name": "choose_project", "context": {"project": target}},
        choose=target, message=f"Done, I picked {target} on the screen.",
        fallback_text=f"Put it in my '{target}' project.",
        instruction=(f"When the assistant shows your Todoist projects, pick '{target}' via `ui_user_interact`. If no "
                     f"interactive UI is shown, tell it to use your '{target}' project."),
        requirement="The agent must present the user's Todoist projects in a structured interactive UI that lets "
                    "the user choose the project for the to-do.",
        rows=project_rows(options, m.user.id))


def ui_pick(e: Entity, m: Material) -> UIPick | None:
    """The screen a UI twin shows before making ``e``: a recipient picker for an email or a text to the friend,
    a project picker for a written result's to-do; None for anything else."""
    if e.kind in ("email", "text") and "$friend.0." in str(e.fields):
        return _recipient(e, m)
    if e.kind == "task" and e.fields.get("project") == "Follow-ups" and e.fields.get("description"):
        return _project(e, m)
    return None
