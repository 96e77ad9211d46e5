"""The world entities a flow's outcome is made of and, per kind, the reference-solution steps that create, find,
update and delete one, its expected-change specs and its seed row. Templates describe *what* must exist; this
module knows *how* the tools get there.

Kinds and their fields: note {title, content}; event {title, start, end} (naive local ISO); reminder
{content, when}; contact {first, last, email, phone}; email {addresses, recipient_ids, subject, body}; text
{phone, receiver_id, message}; task {project, project_id, title, due, priority, description}; alarm {time,
label}; file {path (``~/...``), content}; expense {description, amount, payer_email, debtors: [[email, user id,
share]]} (the others' shares; the payer carries the rest);
request {email, receiver_id, amount, description}; cart and wish {query, product_id, quantity}; playlist
{title, songs: [[title, song id]]}; like {query, song_id}; follow {query, artist_id}; look {} (a check:
only its lookups run, nothing changes). ``addresses`` and
``phone`` may be ``$saved`` references."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mmtsb.apps.calendar.seed import PERSONAL_CALENDAR_ID
from mmtsb.apps.file_system.seed import home_path
from mmtsb.authoring.clock import SEED_TIME, TZ
from mmtsb.authoring.rows import contact, file, note, reminder, task, wish_entry
from mmtsb.authoring.specs import (
    create_alarm, create_cart_entry, create_contact, create_email, create_event, create_expense, create_file,
    create_link, create_note, create_payment_request, create_playlist, create_reminder, create_task, create_text,
    update, update_note, update_task,
)
from mmtsb.eval.similarity import DATETIME_NAIVE_EQUAL, EXACT, IGNORE, ROUGE_L
from pipelines.items import SolutionStep

__all__ = ["DELETABLE", "IDENTITY", "LOOKUP_TOOLS", "SEEDABLE", "SENDABLE", "UPDATABLE", "Entity", "Seed",
           "create_specs", "create_steps", "delete_steps", "find_steps", "search_save", "seed_row", "slug",
           "update_spec", "update_steps"]

#: kinds that cannot be changed once made (a sent email or text, money asked for or shared)
SENDABLE = frozenset({"email", "text", "expense", "request"})
#: kinds the tools can delete (what a goal change may undo)
DELETABLE = frozenset({"note", "event", "reminder", "contact", "task", "alarm", "file", "cart", "wish", "playlist",
                       "like", "follow"})
#: kinds an update can change in place; identity fields: a change there replaces the entity (delete, create)
UPDATABLE = frozenset({"note", "event", "reminder", "contact", "task", "alarm", "file", "cart", "wish", "playlist"})
IDENTITY = {"cart": ("product_id",), "wish": ("product_id",), "like": ("song_id",), "follow": ("artist_id",)}
#: kinds a scenario can seed as an existing entity to find and update
SEEDABLE = frozenset({"note", "event", "reminder", "contact", "task", "file", "wish"})
#: read-only lookups whose result, saved under one name, serves every later step (made once per scenario)
LOOKUP_TOOLS = frozenset({"search_calendars", "contacts_search_contacts", "search_calendar_events",
                          "todoist_show_projects", "amazon_search_products", "spotify_search_songs",
                          "spotify_search_artists", "phone_show_account", "supervisor_show_profile"})


def slug(text: str) -> str:
    """``Team offsite costs`` -> ``team_offsite_costs`` (file names)."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


@dataclass(frozen=True)
class Entity:
    """One thing the outcome needs in the world. ``key`` identifies it across rounds (a running outcome updates
    the entity with the same key); ``label`` names it the way the user may (never an image value);
    ``lookups`` are read-only steps taken before it is first made (a contact search, a calendar check)."""

    key: str
    kind: str
    fields: Mapping[str, Any]
    label: str
    lookups: tuple[tuple[str, Mapping[str, Any], str | None], ...] = field(default=())  # (tool, arguments, save_as)


@dataclass(frozen=True)
class Seed:
    """An entity that exists before the conversation: with a ``key``, the outcome entity of that key is this
    one (found and updated, never created); without, it is background the flow reads (e.g. a calendar event to
    cross-reference). ``find_index`` is its place in the listing that finds it (tasks of its project)."""

    kind: str
    fields: Mapping[str, Any]
    row_id: Any
    key: str | None = None
    find_text: str = ""  # what the reference solution searches for (a title, a name)
    find_index: int = 0


def _step(tool: str, save_as: str | None = None, **arguments: Any) -> SolutionStep:
    return SolutionStep(tool=tool, arguments=arguments, save_as=save_as)


def _money_arg(x: float) -> float:
    return round(float(x), 2)


# ------------------------------------------------------------------------------------------ steps
def create_steps(e: Entity, save: str) -> tuple[list[SolutionStep], str | None]:
    """The steps making ``e`` and the ``$`` reference to its id (None for sendables)."""
    f = e.fields
    k = e.kind
    if k == "note":
        return [_step("simple_note_create_note", save, title=f["title"], content=f["content"])], f"${save}.note_id"
    if k == "event":
        return [_step("search_calendars", "personal_cal", title="Personal"),
                _step("create_calendar_event", save, calendar_id="$personal_cal.0.calendar_id", title=f["title"],
                      start_datetime=f["start"] + TZ, end_datetime=f["end"] + TZ)], f"${save}"
    if k == "reminder":
        return [_step("add_reminder", save, content=f["content"], reminder_datetime=f["when"] + TZ)], f"${save}"
    if k == "contact":
        return [_step("contacts_add_contact", save, first_name=f["first"], last_name=f["last"], email=f["email"],
                      phone_number=f["phone"])], f"${save}.contact_id"
    if k == "look":  # only its lookups: a check that changes nothing
        return [], None
    if k == "email":
        return [_step("gmail_send_email", email_addresses=list(f["addresses"]), subject=f["subject"],
                      body=f["body"])], None
    if k == "text":
        return [_step("messages_send_text_message", phone_number=f["phone"], message=f["message"])], None
    if k == "task":
        args = {"project_id": f"${_project_save(f['project'])}.0.project_id", "title": f["title"],
                "priority": f["priority"]}
        if f.get("due"):
            args["due_date"] = f["due"]
        if f.get("description"):
            args["description"] = f["description"]
        return ([_step("todoist_show_projects", _project_save(f["project"]), query=f["project"]),
                 _step("todoist_create_task", save, **args)], f"${save}.task_id")
    if k == "alarm":
        return [_step("alarms_create_alarm", save, time=f["time"], label=f["label"])], f"${save}.alarm_id"
    if k == "file":
        return [_step("file_system_create_file", file_path=f["path"], content=f["content"])], f["path"]
    if k == "expense":
        emails, amounts = _expense_split(f)
        return [_step("splitwise_record_expense", description=f["description"], paid_amount=_money_arg(f["amount"]),
                      payer_email=f["payer_email"], debtor_emails=emails, debt_amounts=amounts)], None
    if k == "request":
        return [_step("venmo_create_payment_request", user_email=f["email"], amount=_money_arg(f["amount"]),
                      description=f["description"])], None
    if k in ("cart", "wish"):
        search = search_save(f["query"])
        tool = "amazon_add_product_to_cart" if k == "cart" else "amazon_add_product_to_wish_list"
        return ([_step("amazon_search_products", search, query=f["query"]),
                 _step(tool, product_id=f"${search}.0.product_id", quantity=f["quantity"])],
                f"${search}.0.product_id")
    if k == "playlist":
        steps = [_step("spotify_create_playlist", save, title=f["title"])]
        for title, _ in f["songs"]:
            steps += _song_steps(title, "spotify_add_song_to_playlist", playlist_id=f"${save}.playlist_id")
        return steps, f"${save}.playlist_id"
    if k == "like":
        return _song_steps(f["query"], "spotify_like_song"), f"${search_save(f['query'])}.0.song_id"
    if k == "follow":
        search = search_save(f["query"])
        return ([_step("spotify_search_artists", search, query=f["query"]),
                 _step("spotify_follow_artist", artist_id=f"${search}.0.artist_id")], f"${search}.0.artist_id")
    raise ValueError(f"unknown entity kind {k!r}")


def _expense_split(f: Mapping[str, Any]) -> tuple[list[str], list[float]]:
    """``debtor_emails`` and ``debt_amounts`` recording an expense the payer shares: the payer listed first with
    their own part, the amount less the others' shares to the cent (so an odd cent of an even split stays with the
    payer), then each other debtor with their share; the amounts add up to the paid amount exactly, as Splitwise
    requires."""
    cents = [round(float(d[2]) * 100) for d in f["debtors"]]
    own = round(float(f["amount"]) * 100) - sum(cents)
    if own < 0:
        raise ValueError(f"the shares of expense {f['description']!r} ({sum(cents) / 100:.2f}) exceed its amount "
                         f"({float(f['amount']):.2f})")
    return ([f["payer_email"], *(d[0] for d in f["debtors"])],
            [_money_arg(c / 100) for c in (own, *cents)])


def _project_save(name: str) -> str:
    return f"project_{slug(name)}"


def search_save(query: str) -> str:
    """The name a search for ``query`` is saved under (one search per product, song or artist)."""
    return f"found_{slug(query)[:40]}"


def _song_steps(title: str, tool: str, **extra: Any) -> list[SolutionStep]:
    search = search_save(title)
    return [_step("spotify_search_songs", search, query=title), _step(tool, song_id=f"${search}.0.song_id", **extra)]


def find_steps(seed: Seed, save: str) -> tuple[list[SolutionStep], str]:
    """The search finding a seeded entity, and the reference to its id."""
    f = seed.fields
    if seed.kind == "note":
        return [_step("simple_note_search_notes", save, query=seed.find_text)], f"${save}.0.note_id"
    if seed.kind == "event":
        return [_step("search_calendar_events", save, title=seed.find_text)], f"${save}.0.calendar_event_id"
    if seed.kind == "reminder":
        return [_step("search_reminder", save, content=seed.find_text)], f"${save}.0.reminder_id"
    if seed.kind == "contact":
        return [_step("contacts_search_contacts", save, query=seed.find_text)], f"${save}.0.contact_id"
    if seed.kind == "task":
        return ([_step("todoist_show_projects", _project_save(f["project"]), query=f["project"]),
                 _step("todoist_show_tasks", save, project_id=f"${_project_save(f['project'])}.0.project_id")],
                f"${save}.no_section_tasks.{seed.find_index}.task_id")
    if seed.kind == "file":
        return [_step("file_system_show_file", save, file_path=f["path"])], f["path"]
    if seed.kind == "wish":
        search = search_save(f["query"])
        return [_step("amazon_search_products", search, query=f["query"])], f"${search}.0.product_id"
    raise ValueError(f"a {seed.kind} cannot be seeded")


def update_steps(e: Entity, ref: str, old: Entity | None = None) -> list[SolutionStep]:
    """The steps bringing the existing entity at ``ref`` (last seen as ``old``, when the solution made it) to
    ``e``'s fields."""
    f = e.fields
    k = e.kind
    if k == "note":
        return [_step("simple_note_update_note", note_id=ref, title=f["title"], content=f["content"])]
    if k == "event":
        return [_step("modify_calendar_event", calendar_event_id=ref, title=f["title"], start_datetime=f["start"] + TZ,
                      end_datetime=f["end"] + TZ)]
    if k == "reminder":
        return [_step("modify_reminder", reminder_id=ref, content=f["content"], reminder_datetime=f["when"] + TZ)]
    if k == "contact":
        return [_step("contacts_update_contact", contact_id=ref, email=f["email"], phone_number=f["phone"])]
    if k == "task":
        args = {"task_id": ref, "title": f["title"], "priority": f["priority"]}
        if f.get("due"):
            args["due_date"] = f["due"]
        if f.get("description"):
            args["description"] = f["description"]
        return [_step("todoist_update_task", **args)]
    if k == "alarm":
        return [_step("alarms_update_alarm", alarm_id=ref, time=f["time"], label=f["label"])]
    if k == "file":
        return [_step("file_system_update_file", file_path=f["path"], content=f["content"])]
    if k == "cart":
        return [_step("amazon_update_product_quantity_in_cart", product_id=ref, quantity=f["quantity"])]
    if k == "wish":
        return [_step("amazon_update_product_quantity_in_wish_list", product_id=ref, quantity=f["quantity"])]
    if k == "playlist":
        had = {t for t, _ in (old.fields["songs"] if old else [])}
        want = {t for t, _ in f["songs"]}
        steps = []
        if old is not None and old.fields["title"] != f["title"]:
            steps.append(_step("spotify_update_playlist", playlist_id=ref, title=f["title"]))
        for title, _ in f["songs"]:
            if title not in had:
                steps += _song_steps(title, "spotify_add_song_to_playlist", playlist_id=ref)
        for title, _ in (old.fields["songs"] if old else []):
            if title not in want:
                steps.append(_step("spotify_remove_song_from_playlist", playlist_id=ref,
                                   song_id=f"${search_save(title)}.0.song_id"))
        return steps
    raise ValueError(f"a {k} cannot be updated")


def delete_steps(kind: str, ref: str) -> list[SolutionStep]:
    """The step deleting the entity at ``ref``."""
    tool, arg = {"note": ("simple_note_delete_note", "note_id"), "event": ("remove_calendar_event", "calendar_event_id"),
                 "reminder": ("remove_reminder", "reminder_id"), "contact": ("contacts_delete_contact", "contact_id"),
                 "task": ("todoist_delete_task", "task_id"), "alarm": ("alarms_delete_alarm", "alarm_id"),
                 "file": ("file_system_delete_file", "file_path"),
                 "cart": ("amazon_delete_product_from_cart", "product_id"),
                 "wish": ("amazon_delete_product_from_wish_list", "product_id"),
                 "playlist": ("spotify_delete_playlist", "playlist_id"), "like": ("spotify_unlike_song", "song_id"),
                 "follow": ("spotify_unfollow_artist", "artist_id")}[kind]
    return [_step(tool, **{arg: ref})]


# ------------------------------------------------------------------------------------------ specs and seeds
def create_specs(e: Entity, uid: int) -> list[dict[str, Any]]:
    """The expected-change specs of a created ``e``."""
    f = e.fields
    k = e.kind
    if k == "look":
        return []
    if k == "note":
        return [create_note(uid, f["title"], f["content"])]
    if k == "event":
        return [create_event(f["title"], f["start"], f["end"])]
    if k == "reminder":
        return [create_reminder(f["content"], f["when"])]
    if k == "contact":
        return [create_contact(uid, f["first"], f["last"], f["email"], f["phone"])]
    if k == "email":
        return [create_email(uid, list(f["recipient_ids"]), f["subject"], f["body"])]
    if k == "text":
        return create_text(uid, f["receiver_id"], f["message"])
    if k == "task":
        return [create_task(f["project_id"], uid, f["title"], priority=f["priority"], description=f.get("description"),
                            due=f.get("due"))]
    if k == "alarm":
        return [create_alarm(uid, f["time"], f["label"])]
    if k == "file":
        return [create_file(uid, f["path"], f["content"])]
    if k == "expense":
        return create_expense(uid, [d[1] for d in f["debtors"]], f["description"], _money_arg(f["amount"]),
                              [_money_arg(d[2]) for d in f["debtors"]])
    if k == "request":
        return [create_payment_request(uid, f["receiver_id"], _money_arg(f["amount"]), f["description"])]
    if k in ("cart", "wish"):
        return [create_cart_entry(uid, f["product_id"], f["quantity"],
                                  "amazon.cart_entries" if k == "cart" else "amazon.wish_list_entries")]
    if k == "playlist":
        return create_playlist(uid, f["title"], [s for _, s in f["songs"]])
    if k == "like":
        return [create_link("spotify.song_likes", uid, "song_id", f["song_id"])]
    if k == "follow":
        return [create_link("spotify.artist_followers", uid, "artist_id", f["artist_id"])]
    raise ValueError(f"unknown entity kind {k!r}")


def update_spec(e: Entity, seed: Seed) -> dict[str, Any]:
    """The expected-change spec of the seeded entity ``seed`` ending as ``e``."""
    f = e.fields
    k = e.kind
    if k == "note":
        return update_note(seed.row_id, f["content"])
    if k == "event":
        return update("CALENDAR_EVENTS", seed.row_id, {"title": f["title"], "start_datetime": f["start"],
                                                       "end_datetime": f["end"]},
                      {"title": ROUGE_L, "start_datetime": DATETIME_NAIVE_EQUAL, "end_datetime": DATETIME_NAIVE_EQUAL},
                      id_column="calendar_event_id", source="agentsandbox")
    if k == "reminder":
        return update("REMINDER", seed.row_id, {"content": f["content"], "reminder_datetime": f["when"]},
                      {"content": ROUGE_L, "reminder_datetime": DATETIME_NAIVE_EQUAL}, id_column="reminder_id",
                      source="agentsandbox")
    if k == "contact":
        return update("phone.contacts", seed.row_id, {"email": f["email"], "phone_number": f["phone"]},
                      {"email": EXACT, "phone_number": EXACT})
    if k == "task":
        fields = {"title": f["title"], "priority": f["priority"]}
        if f.get("due"):
            fields["due_date"] = f["due"]
        return update_task(seed.row_id, **fields)
    if k == "file":
        return update("file_system.files", seed.row_id, {"content": f["content"], "updated_at": SEED_TIME},
                      {"content": ROUGE_L, "updated_at": IGNORE})
    if k == "wish":
        return update("amazon.wish_list_entries", seed.row_id, {"quantity": f["quantity"]}, {"quantity": EXACT})
    raise ValueError(f"a {k} cannot be updated")


def seed_row(seed: Seed, uid: int, first_name: str = "") -> tuple[str, str, dict[str, Any]]:
    """Where a seed goes: (``appworld`` or ``agentsandbox``, the entities key, the row); ``first_name`` is the
    main user's (their home folder)."""
    f = seed.fields
    if seed.kind == "note":
        return "appworld", "simple_note.notes", note(seed.row_id, uid, f["title"], f["content"])
    if seed.kind == "contact":
        return "appworld", "phone.contacts", contact(seed.row_id, uid, f["first"], f["last"], f["email"], f["phone"], [])
    if seed.kind == "reminder":
        return "agentsandbox", "reminder", reminder(seed.row_id, f["content"], SEED_TIME + TZ, f["when"] + TZ)
    if seed.kind == "task":
        return "appworld", "todoist.tasks", task(seed.row_id, f["project_id"], uid, f["title"], seed.find_index,
                                                 due=f.get("due"), priority=f["priority"],
                                                 description=f.get("description"))
    if seed.kind == "file":
        return "appworld", "file_system.files", file(seed.row_id, uid, home_path(first_name), f["path"], f["content"])
    if seed.kind == "wish":
        return "appworld", "amazon.wish_list_entries", wish_entry(seed.row_id, uid, f["product_id"], f["quantity"])
    if seed.kind == "event":
        row = {"calendar_event_id": seed.row_id, "calendar_id": PERSONAL_CALENDAR_ID, "title": f["title"],
               "description": None, "start_datetime": f["start"] + TZ, "end_datetime": f["end"] + TZ,
               "is_all_day": False, "recurrence_frequency": None, "recurrence_interval": None,
               "recurrence_until_datetime": None, "recurrence_parent_id": None, "recurrence_exclude_datetime": [],
               "latitude": None, "longitude": None, "place_id": None, "formatted_address": None,
               "attendee_names": [], "attendee_emails": []}
        return "agentsandbox", "calendar_events", row
    raise ValueError(f"a {seed.kind} cannot be seeded")
