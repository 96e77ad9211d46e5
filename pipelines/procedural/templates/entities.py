"""The world entities a flow's outcome is made of (notes, events, reminders, contacts, emails, texts) and, per
kind, the reference-solution steps that create, find, update and delete one, its expected-change specs and its
seed row. Templates describe *what* must exist; this module knows *how* the tools get there."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mmtsb.apps.calendar.seed import PERSONAL_CALENDAR_ID
from mmtsb.authoring.clock import SEED_TIME, TZ
from mmtsb.authoring.rows import contact, note, reminder
from mmtsb.authoring.specs import (
    create_contact, create_email, create_event, create_note, create_reminder, create_text, update, update_note,
)
from mmtsb.eval.similarity import DATETIME_NAIVE_EQUAL, EXACT, ROUGE_L
from pipelines.items import SolutionStep

__all__ = ["DELETABLE", "SEEDABLE", "SENDABLE", "Entity", "Seed", "create_specs", "create_steps", "delete_steps",
           "find_steps", "seed_row", "update_spec", "update_steps"]

#: kinds that cannot be changed once made (a sent email or text)
SENDABLE = frozenset({"email", "text"})
#: kinds the tools can delete (what a goal change may undo)
DELETABLE = frozenset({"note", "event", "reminder", "contact"})
#: kinds a scenario can seed as an existing entity to find and update
SEEDABLE = DELETABLE


@dataclass(frozen=True)
class Entity:
    """One thing the outcome needs in the world. ``key`` identifies it across rounds (a running outcome updates
    the entity with the same key); ``label`` names it the way the user may (never an image value);
    ``lookups`` are read-only steps taken before it is first made (a contact search, a calendar check).

    Fields by kind: note {title, content}; event {title, start, end} (naive local ISO); reminder {content,
    when}; contact {first, last, email, phone}; email {addresses, recipient_ids, subject, body}; text {phone,
    receiver_id, message} (addresses and phone may be ``$saved`` references)."""

    key: str
    kind: str
    fields: Mapping[str, Any]
    label: str
    lookups: tuple[tuple[str, Mapping[str, Any], str | None], ...] = field(default=())  # (tool, arguments, save_as)


@dataclass(frozen=True)
class Seed:
    """An entity that exists before the conversation: with a ``key``, the outcome entity of that key is this
    one (found and updated, never created); without, it is background the flow reads (e.g. a calendar event to
    cross-reference)."""

    kind: str
    fields: Mapping[str, Any]
    row_id: Any
    key: str | None = None
    find_text: str = ""  # what the reference solution searches for (a title, a name)


def _step(tool: str, save_as: str | None = None, **arguments: Any) -> SolutionStep:
    return SolutionStep(tool=tool, arguments=arguments, save_as=save_as)


def create_steps(e: Entity, save: str) -> tuple[list[SolutionStep], str | None]:
    """The steps making ``e`` and the ``$`` reference to its id (None for sendables)."""
    f = e.fields
    if e.kind == "note":
        return [_step("simple_note_create_note", save, title=f["title"], content=f["content"])], f"${save}.note_id"
    if e.kind == "event":
        return [_step("search_calendars", "personal_cal", title="Personal"),
                _step("create_calendar_event", save, calendar_id="$personal_cal.0.calendar_id", title=f["title"],
                      start_datetime=f["start"] + TZ, end_datetime=f["end"] + TZ)], f"${save}"
    if e.kind == "reminder":
        return [_step("add_reminder", save, content=f["content"], reminder_datetime=f["when"] + TZ)], f"${save}"
    if e.kind == "contact":
        return [_step("contacts_add_contact", save, first_name=f["first"], last_name=f["last"], email=f["email"],
                      phone_number=f["phone"])], f"${save}.contact_id"
    if e.kind == "email":
        return [_step("gmail_send_email", email_addresses=list(f["addresses"]), subject=f["subject"],
                      body=f["body"])], None
    if e.kind == "text":
        return [_step("messages_send_text_message", phone_number=f["phone"], message=f["message"])], None
    raise ValueError(f"unknown entity kind {e.kind!r}")


def find_steps(seed: Seed, save: str) -> tuple[list[SolutionStep], str]:
    """The search finding a seeded entity, and the reference to its id."""
    if seed.kind == "note":
        return [_step("simple_note_search_notes", save, query=seed.find_text)], f"${save}.0.note_id"
    if seed.kind == "event":
        return [_step("search_calendar_events", save, title=seed.find_text)], f"${save}.0.calendar_event_id"
    if seed.kind == "reminder":
        return [_step("search_reminder", save, content=seed.find_text)], f"${save}.0.reminder_id"
    if seed.kind == "contact":
        return [_step("contacts_search_contacts", save, query=seed.find_text)], f"${save}.0.contact_id"
    raise ValueError(f"a {seed.kind} cannot be seeded")


def update_steps(e: Entity, ref: str) -> list[SolutionStep]:
    """The steps bringing the existing entity at ``ref`` to ``e``'s fields."""
    f = e.fields
    if e.kind == "note":
        return [_step("simple_note_update_note", note_id=ref, title=f["title"], content=f["content"])]
    if e.kind == "event":
        return [_step("modify_calendar_event", calendar_event_id=ref, title=f["title"], start_datetime=f["start"] + TZ,
                      end_datetime=f["end"] + TZ)]
    if e.kind == "reminder":
        return [_step("modify_reminder", reminder_id=ref, content=f["content"], reminder_datetime=f["when"] + TZ)]
    if e.kind == "contact":
        return [_step("contacts_update_contact", contact_id=ref, email=f["email"], phone_number=f["phone"])]
    raise ValueError(f"a {e.kind} cannot be updated")


def delete_steps(kind: str, ref: str) -> list[SolutionStep]:
    """The step deleting the entity at ``ref``."""
    tool, arg = {"note": ("simple_note_delete_note", "note_id"), "event": ("remove_calendar_event", "calendar_event_id"),
                 "reminder": ("remove_reminder", "reminder_id"), "contact": ("contacts_delete_contact", "contact_id")}[kind]
    return [_step(tool, **{arg: ref})]


def create_specs(e: Entity, uid: int) -> list[dict[str, Any]]:
    """The expected-change specs of a created ``e``."""
    f = e.fields
    if e.kind == "note":
        return [create_note(uid, f["title"], f["content"])]
    if e.kind == "event":
        return [create_event(f["title"], f["start"], f["end"])]
    if e.kind == "reminder":
        return [create_reminder(f["content"], f["when"])]
    if e.kind == "contact":
        return [create_contact(uid, f["first"], f["last"], f["email"], f["phone"])]
    if e.kind == "email":
        return [create_email(uid, list(f["recipient_ids"]), f["subject"], f["body"])]
    if e.kind == "text":
        return create_text(uid, f["receiver_id"], f["message"])
    raise ValueError(f"unknown entity kind {e.kind!r}")


def update_spec(e: Entity, seed: Seed) -> dict[str, Any]:
    """The expected-change spec of the seeded entity ``seed`` ending as ``e``."""
    f = e.fields
    if e.kind == "note":
        return update_note(seed.row_id, f["content"])
    if e.kind == "event":
        return update("CALENDAR_EVENTS", seed.row_id, {"title": f["title"], "start_datetime": f["start"],
                                                       "end_datetime": f["end"]},
                      {"title": ROUGE_L, "start_datetime": DATETIME_NAIVE_EQUAL, "end_datetime": DATETIME_NAIVE_EQUAL},
                      id_column="calendar_event_id", source="agentsandbox")
    if e.kind == "reminder":
        return update("REMINDER", seed.row_id, {"content": f["content"], "reminder_datetime": f["when"]},
                      {"content": ROUGE_L, "reminder_datetime": DATETIME_NAIVE_EQUAL}, id_column="reminder_id",
                      source="agentsandbox")
    if e.kind == "contact":
        return update("phone.contacts", seed.row_id, {"email": f["email"], "phone_number": f["phone"]},
                      {"email": EXACT, "phone_number": EXACT})
    raise ValueError(f"a {e.kind} cannot be updated")


def seed_row(seed: Seed, uid: int) -> tuple[str, str, dict[str, Any]]:
    """Where a seed goes: (``appworld`` or ``agentsandbox``, the entities key, the row)."""
    f = seed.fields
    if seed.kind == "note":
        return "appworld", "simple_note.notes", note(seed.row_id, uid, f["title"], f["content"])
    if seed.kind == "contact":
        return "appworld", "phone.contacts", contact(seed.row_id, uid, f["first"], f["last"], f["email"], f["phone"], [])
    if seed.kind == "reminder":
        return "agentsandbox", "reminder", reminder(seed.row_id, f["content"], SEED_TIME + TZ, f["when"] + TZ)
    if seed.kind == "event":
        row = {"calendar_event_id": seed.row_id, "calendar_id": PERSONAL_CALENDAR_ID, "title": f["title"],
               "description": None, "start_datetime": f["start"] + TZ, "end_datetime": f["end"] + TZ,
               "is_all_day": False, "recurrence_frequency": None, "recurrence_interval": None,
               "recurrence_until_datetime": None, "recurrence_parent_id": None, "recurrence_exclude_datetime": [],
               "latitude": None, "longitude": None, "place_id": None, "formatted_address": None,
               "attendee_names": [], "attendee_emails": []}
        return "agentsandbox", "calendar_events", row
    raise ValueError(f"a {seed.kind} cannot be seeded")
