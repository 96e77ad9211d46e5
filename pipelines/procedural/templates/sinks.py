"""Where a flow's written result goes: a note, a text file (optionally headed with the user's own details from
their profile), an email or a text to a friend (optionally signed with the user's phone number from their phone
account), or a Todoist to-do. A recipe computes the title and body; the outline's variant picks the sink, so one
recipe reaches several app domains. Also the Todoist projects the sets' to-dos go to."""

from __future__ import annotations

import functools
from typing import Any

from mmtsb.authoring.rows import project
from mmtsb.world.people import Person, base_people
from pipelines.procedural.templates.base import Material
from pipelines.procedural.templates.entities import Entity, slug

__all__ = ["DOC_SINKS", "PROJECTS", "doc_ask", "doc_criteria", "doc_entities", "me", "project_rows"]

#: the document sinks and the tools each adds
DOC_SINKS: dict[str, tuple[str, ...]] = {
    "note": ("simple_note_create_note", "simple_note_update_note"),
    "file": ("file_system_create_file", "file_system_update_file"),
    "file_profile": ("supervisor_show_profile", "file_system_create_file", "file_system_update_file"),
    "email": ("contacts_search_contacts", "gmail_send_email"),
    "email_phone": ("contacts_search_contacts", "phone_show_account", "gmail_send_email"),
    "text": ("contacts_search_contacts", "messages_send_text_message"),
    "task": ("todoist_show_projects", "todoist_create_task", "todoist_update_task"),
}
#: Todoist projects the to-dos go to: name -> (id, colour)
PROJECTS = {"Follow-ups": (401, "blue"), "Errands": (402, "green"), "Home admin": (403, "orange")}


@functools.cache
def me(email: str, uid: int) -> Person:
    """The main user as the base world knows them (name, phone, email)."""
    return next(p for p in base_people(email, uid) if p.id == uid)


def project_rows(names: list[str], uid: int) -> dict[str, list[dict[str, Any]]]:
    """The appworld rows of the named projects (and their owner links)."""
    rows = [project(PROJECTS[n][0], uid, n, PROJECTS[n][1]) for n in dict.fromkeys(names)]
    return {"todoist.projects": [r for r, _ in rows], "todoist.project_collaborator_links": [ln for _, ln in rows]}


def _friend_lookup(m: Material) -> tuple[str, dict[str, Any], str]:
    _, first, last, _ = m.friend
    return ("contacts_search_contacts", {"query": f"{first} {last}"}, "friend")


def file_path(title: str) -> str:
    return f"~/documents/{slug(title)}.txt"


def doc_entities(m: Material, key: str, title: str, body: str, final: bool) -> list[Entity]:
    """The entity carrying a written result ``title``/``body`` to the material's sink. Sent kinds (email,
    text) exist only once every image is in (``final``); the others are written as images arrive."""
    sink = m.sink or "note"
    fid, first, last, _ = m.friend
    user = me(m.user.email, m.user.id)
    if sink == "note":
        return [Entity(key, "note", {"title": title, "content": body}, f"the note '{title}'")]
    if sink in ("file", "file_profile"):
        path = file_path(title)
        content = body
        lookups: tuple = ()
        if sink == "file_profile":
            content = f"Prepared by {user.first_name} {user.last_name} ({user.email})\n{body}"
            lookups = (("supervisor_show_profile", {}, "my_profile"),)
        return [Entity(key, "file", {"path": path, "content": content}, f"the file {path.split('/')[-1]}", lookups)]
    if sink in ("email", "email_phone"):
        if not final:
            return []
        sign = m.user.first if sink == "email" else f"{m.user.first}\n{user.phone_number}"
        lookups = (_friend_lookup(m),) + ((("phone_show_account", {}, "my_phone"),) if sink == "email_phone" else ())
        return [Entity(key, "email", {"addresses": ["$friend.0.email"], "recipient_ids": [fid], "subject": title,
                                      "body": f"Hi {first},\n\n{body}\n\nBest,\n{sign}"},
                       f"the email to {first} {last}", lookups)]
    if sink == "text":
        if not final:
            return []
        return [Entity(key, "text", {"phone": "$friend.0.phone_number", "receiver_id": fid,
                                     "message": f"{title}:\n{body}"}, f"the text to {first} {last}",
                       (_friend_lookup(m),))]
    if sink == "task":
        return [Entity(key, "task", {"project": "Follow-ups", "project_id": PROJECTS["Follow-ups"][0], "title": title,
                                     "due": None, "priority": "medium", "description": body},
                       f"the to-do '{title}'")]
    raise ValueError(f"unknown document sink {sink!r}")


def doc_ask(m: Material, title: str, what: str) -> str:
    """How the user asks for a written result in the material's sink (``what``: what it must hold)."""
    sink = m.sink or "note"
    _, first, last, _ = m.friend
    if "ui" in m.modifiers:  # a UI twin: the user leaves the choice open (who exactly, which project)
        if sink in ("email", "email_phone"):
            sign = ", signed with my name and my phone number from my phone account" if sink == "email_phone" else ""
            return f"email {first} with the subject '{title}' and {what} in the message{sign}"
        if sink == "text":
            return f"text {first} a message starting '{title}:' with {what}"
        if sink == "task":
            return (f"add a to-do titled '{title}' to one of my Todoist projects with {what} in its description "
                    "(let me choose the project)")
    if sink == "note":
        return f"make a note titled '{title}' with {what}"
    if sink == "file":
        return f"save a text file named {file_path(title).split('/')[-1]} in my documents folder with {what}"
    if sink == "file_profile":
        return (f"save a text file named {file_path(title).split('/')[-1]} in my documents folder with {what}, "
                "its first line 'Prepared by <my full name> (<my email>)' taken from my profile")
    if sink == "email":
        return f"email {first} {last} (one of my contacts) with the subject '{title}' and {what} in the message"
    if sink == "email_phone":
        return (f"email {first} {last} (one of my contacts) with the subject '{title}' and {what} in the message, "
                "signed with my name and my phone number from my phone account")
    if sink == "text":
        return f"text {first} {last} (one of my contacts) a message starting '{title}:' with {what}"
    if sink == "task":
        return f"add a to-do titled '{title}' to my 'Follow-ups' project in Todoist with {what} in its description"
    raise ValueError(f"unknown document sink {sink!r}")


def doc_criteria(entities: list[Entity]) -> str:
    """The resolved criterion of written results."""
    out = []
    for e in entities:
        f = e.fields
        text = f.get("content") or f.get("body") or f.get("message") or f.get("description") or ""
        out.append(f"{e.label[0].upper() + e.label[1:]} must read {text!r}.")
    return " ".join(out)
