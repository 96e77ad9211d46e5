"""Seed-row builders for a scenario's initial world (``appworld_entities`` / ``agentsandbox_entities``): rows
in the released files' column layout, so seeded people, contacts, projects, tasks, notes and reminders need only
the values that matter."""

from __future__ import annotations

from typing import Any

from mmtsb.authoring.clock import SEED_TIME

__all__ = ["contact", "gmail_user", "note", "phone_user", "project", "reminder", "task"]


def gmail_user(uid: int, first: str, last: str, email: str, *, contact: bool = True) -> dict[str, Any]:
    """A gmail.users row: contact-style people (id 200+) or email-only recipients (id 10100+)."""
    if contact:
        return {"id": uid, "first_name": first, "last_name": last, "email": email, "password": "default_password",
                "status": "active", "created_at": "2025-01-01T00:00:00", "last_logged_in": "2025-01-01T00:00:00"}
    return {"id": uid, "first_name": first, "last_name": last, "email": email, "password": "placeholder_password",
            "status": "active"}


def phone_user(uid: int, first: str, last: str, phone: str) -> dict[str, Any]:
    """A phone.users row: the phone-side account of a person the main user can text."""
    return {"id": uid, "first_name": first, "last_name": last, "phone_number": phone, "password": "default_password",
            "created_at": "2025-01-01T00:00:00", "last_logged_in": "2025-01-01T00:00:00"}


def contact(cid: int, owner: int, first: str, last: str, email: str | None, phone: str | None,
            relationships: list[str], created_at: str = "2025-09-12T10:00:00") -> dict[str, Any]:
    """A phone.contacts row owned by ``owner`` (addresses and birthday left empty)."""
    return {"id": cid, "user_id": owner, "first_name": first, "last_name": last, "email": email,
            "phone_number": phone, "relationships": relationships, "birthday": None, "home_address": None,
            "work_address": None, "created_at": created_at}


def project(pid: int, owner: int, name: str, color: str = "charcoal",
            created_at: str = SEED_TIME) -> tuple[dict[str, Any], dict[str, Any]]:
    """A todoist.projects row and its owner's collaborator link (id = project id + 50000)."""
    row = {"id": pid, "user_id": owner, "name": name, "color": color, "is_inbox": False, "description": "",
           "created_at": created_at}
    link = {"id": pid + 50000, "project_id": pid, "user_id": owner, "is_favorite": False, "is_archived": False,
            "created_at": created_at}
    return row, link


def task(tid: int, pid: int, owner: int, title: str, order: int, *, due: str | None = None,
         priority: str = "medium", description: str | None = None) -> dict[str, Any]:
    """An open todoist.tasks row outside any section; ``order`` is its place in the project and the minute of
    its creation time on the seed day."""
    return {"id": tid, "project_id": pid, "section_id": None, "user_id": owner, "title": title,
            "description": description, "due_date": due, "priority": priority, "is_completed": False,
            "duration": None, "duration_unit": None, "order_index": order, "assignee_id": None, "assigner_id": None,
            "created_at": f"2026-04-10T09:{order:02d}:00"}


def note(nid: int, owner: int, title: str, content: str, *, stamp: str = SEED_TIME) -> dict[str, Any]:
    """An unpinned simple_note.notes row without tags, created and last updated at ``stamp``."""
    return {"id": nid, "user_id": owner, "title": title, "content": content, "tags": [], "created_at": stamp,
            "updated_at": stamp, "pinned": False}


def reminder(rid: str, content: str, created: str, when: str) -> dict[str, Any]:
    """A device-side reminder row (``agentsandbox_entities["reminder"]``) without a location."""
    return {"reminder_id": rid, "content": content, "creation_datetime": created, "reminder_datetime": when,
            "latitude": None, "longitude": None}
