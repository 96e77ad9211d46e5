"""Todoist domain rules shared by the tool modules: who may see what, validation, ordering, cascades.

Visibility: a project is visible to its owner and to every user with a collaborator link to it (the
owner has one too). ``project_id`` 0 names the acting user's Inbox. When a user owns several inbox
projects (a scenario file seeded its own Inbox on top of the base one), the newest (highest id) is the
Inbox and the older ones are treated as gone. Tasks, sections, sub-tasks and comments are visible when
their project is; labels belong to one user.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date, datetime
from typing import Any

from mmtsb.apps.accounts import EMAIL_RE
from mmtsb.apps.common import api_error, check_open_page, current_user, search_rank, sort_rows
from mmtsb.apps.todoist.schema import (APP, ATTACHMENTS, COMMENTS, INVITES, LABELS, LINKS, NOTIFICATIONS, PROJECTS, SECTIONS,
                                       SUB_TASKS, TASK_LABELS, TASKS, USERS)
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)

COLORS = ("charcoal", "red", "blue", "green", "orange", "yellow")
PRIORITIES = ("high", "medium", "low")
PRIORITY_RANK = {"low": 1, "medium": 2, "high": 3}
DURATION_UNITS = ("minutes", "hours", "days")
CLEAR = "None"  # the literal string that clears a due date (TOOLS.md §4)

#: new rows continue the id ranges the released scenario files use (projects 400+, tasks 6500+, ...)
ID_FLOORS = {PROJECTS: 400, TASKS: 6500, LABELS: 2400, SECTIONS: 200, COMMENTS: 5000}
#: collaborator links follow the files' convention id = project_id + 50000
LINK_ID_OFFSET = 50000
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ---------------------------------------------------------------------------------------------- basics
def now(world: World) -> str:
    return world.clock.now_str()


def today(world: World) -> date:
    return world.clock.now().date()


def me(world: World) -> dict[str, Any]:
    """The logged-in Todoist user (PermissionError when logged out)."""
    return current_user(world, APP)


def insert(world: World, key: str, row: dict[str, Any]) -> int:
    """Insert a row with the next id of its table (never below the table's id floor)."""
    new_id = row.get("id") or max(world.next_id(key), ID_FLOORS.get(key, 1))
    world.insert(key, {**row, "id": new_id})
    return int(new_id)


def user_by_email(world: World, email: str) -> dict[str, Any] | None:
    rows = world.select(USERS, "lower(email) = lower(?)", (email.strip(),))
    return rows[0] if rows else None


def require_user(world: World, email: str, field: str = "email") -> dict[str, Any]:
    check_email(email, field)
    user = user_by_email(world, email)
    if user is None:
        raise api_error(f"No Todoist user with {field} {email!r}.")
    return user


def user_brief(world: World, user_id: int | None) -> dict[str, Any] | None:
    """``{name, email}`` of a user, or None (no user / unknown id)."""
    if user_id is None:
        return None
    user = world.get(USERS, user_id)
    if user is None:
        return None
    return {"name": f"{user['first_name']} {user['last_name']}".strip(), "email": user.get("email")}


# ---------------------------------------------------------------------------------------------- validation
def check_email(email: str | None, field: str = "email") -> str:
    if not isinstance(email, str) or not EMAIL_RE.match(email.strip()):
        raise api_error(f"Invalid {field} {email!r}: give a valid email address.")
    return email.strip()


def check_text(value: str | None, field: str) -> str | None:
    """Names and titles must have at least one non-blank character (None = not given)."""
    if value is not None and not value.strip():
        raise api_error(f"{field} must be at least 1 character long.")
    return value


def check_choice(value: str | None, field: str, allowed: Iterable[str]) -> str | None:
    allowed = tuple(allowed)
    if value is not None and value not in allowed:
        raise api_error(f"Invalid {field} {value!r}: use one of {', '.join(repr(a) for a in allowed)}.")
    return value


def check_color(value: str | None, field: str = "color") -> str | None:
    return check_choice(value, field, COLORS)


def check_priority(value: str | None) -> str | None:
    return check_choice(value, "priority", PRIORITIES)


def check_due_date(value: str | None, *, allow_clear: bool) -> str | None:
    """A ``YYYY-MM-DD`` date; with ``allow_clear`` the string 'None' is returned as :data:`CLEAR`."""
    if value is None:
        return None
    text = value.strip()
    if allow_clear and text == CLEAR:
        return CLEAR
    try:
        if not _DATE_RE.match(text):
            raise ValueError
        datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        hint = " or the string 'None' to remove the due date" if allow_clear else ""
        raise api_error(f"Invalid due_date {value!r}: use the format YYYY-MM-DD{hint}.") from None
    return text


def check_filter_date(value: str | None, field: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    try:
        datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise api_error(f"Invalid {field} {value!r}: use the format YYYY-MM-DD.") from None
    return text


def duration_fields(duration: float | None, unit: str | None, current_unit: str | None = None,
                    *, updating: bool) -> dict[str, Any]:
    """The duration/duration_unit columns to write. A duration of 0 removes the duration."""
    check_choice(unit, "duration_unit", DURATION_UNITS)
    if duration is None:
        if unit is None:
            return {}
        if updating and current_unit is not None:
            return {"duration_unit": unit}
        raise api_error("duration_unit was given without a duration: give duration too (a number >= 0).")
    if duration < 0:
        raise api_error(f"Invalid duration {duration!r}: it must be >= 0 (0 removes the duration).")
    if duration == 0:
        return {"duration": None, "duration_unit": None}
    unit = unit or current_unit
    if unit is None:
        raise api_error(f"duration_unit is required with a duration: use one of {', '.join(DURATION_UNITS)}.")
    return {"duration": float(duration), "duration_unit": unit}


def date_part(value: Any) -> str | None:
    """The ``YYYY-MM-DD`` part of a stored date or datetime."""
    return None if value in (None, "") else str(value)[:10]


# ---------------------------------------------------------------------------------------------- projects
def inbox_of(world: World, user_id: int) -> dict[str, Any] | None:
    """The user's Inbox: the newest inbox project they own."""
    rows = world.select(PROJECTS, "user_id = ? AND is_inbox = 1", (user_id,), order_by="id DESC")
    return rows[0] if rows else None


def is_shadowed(world: World, project: dict[str, Any]) -> bool:
    """An older inbox hidden by a newer one of the same owner."""
    if not project.get("is_inbox"):
        return False
    newest = inbox_of(world, project["user_id"])
    return newest is not None and newest["id"] != project["id"]


def link_of(world: World, project_id: int, user_id: int) -> dict[str, Any] | None:
    rows = world.select(LINKS, "project_id = ? AND user_id = ?", (project_id, user_id))
    return rows[0] if rows else None


def member_ids(world: World, project: dict[str, Any]) -> list[int]:
    """The owner, then every other collaborator, by link order."""
    ids = [project["user_id"]]
    for link in world.select(LINKS, "project_id = ?", (project["id"],)):
        if link["user_id"] not in ids:
            ids.append(link["user_id"])
    return ids


def can_see(world: World, project: dict[str, Any], user_id: int) -> bool:
    member = project["user_id"] == user_id or link_of(world, project["id"], user_id) is not None
    return member and not is_shadowed(world, project)


def visible_projects(world: World, user_id: int) -> list[dict[str, Any]]:
    linked = {r["project_id"] for r in world.select(LINKS, "user_id = ?", (user_id,))}
    rows = world.select(PROJECTS, f"user_id = ? OR id IN ({','.join('?' * len(linked)) or 'NULL'})",
                        (user_id, *linked))
    return [p for p in rows if not is_shadowed(world, p)]


def get_project(world: World, project_id: int, user_id: int) -> dict[str, Any]:
    """A project the user can see; ``project_id`` 0 is the user's Inbox, made on first use when the account has
    none (as AppWorld does: an account whose verification email could not be sent starts without one)."""
    if project_id == 0:
        inbox = inbox_of(world, user_id)
        if inbox is None:
            inbox = world.get(PROJECTS, create_project(world, user_id, "Inbox", "charcoal", "", is_inbox=True,
                                                       is_favorite=False))
        return inbox
    project = world.get(PROJECTS, project_id)
    if project is None or not can_see(world, project, user_id):
        raise api_error(f"Project with project_id={project_id} does not exist or is not shared with you.")
    return project


def require_owner(project: dict[str, Any], user_id: int, action: str) -> None:
    if project["user_id"] != user_id:
        raise api_error(f"Only the owner of project {project['id']} ({project['name']!r}) can {action}.")


def project_view(world: World, project: dict[str, Any], user_id: int) -> dict[str, Any]:
    link = link_of(world, project["id"], user_id) or {}
    members = member_ids(world, project)
    return {"name": project["name"], "color": project.get("color"), "is_inbox": bool(project.get("is_inbox")),
            "description": project.get("description") or "", "is_favorite": bool(link.get("is_favorite")),
            "is_archived": bool(link.get("is_archived")), "created_at": project.get("created_at"),
            "project_id": project["id"], "owner": user_brief(world, project["user_id"]),
            "is_shared": len(members) > 1,
            "collaborators": [b for b in (user_brief(world, m) for m in members) if b is not None]}


# ---------------------------------------------------------------------------------------------- other items
def _in_visible_project(world: World, key: str, row_id: int, user_id: int, missing: str) -> dict[str, Any]:
    """A row that sits in a project (a section, a task), when the user can see that project."""
    row = world.get(key, row_id)
    project = world.get(PROJECTS, row["project_id"]) if row else None
    if project is None or not can_see(world, project, user_id):
        raise api_error(missing)
    return row


def _of_visible_task(world: World, key: str, row_id: int, user_id: int, missing: str) -> dict[str, Any]:
    """A row that belongs to a task (a sub-task, a comment), when the user can see that task."""
    row = world.get(key, row_id)
    if row is None:
        raise api_error(missing)
    try:
        get_task(world, row["task_id"], user_id)
    except ValueError:
        raise api_error(missing) from None
    return row


def get_section(world: World, section_id: int, user_id: int) -> dict[str, Any]:
    return _in_visible_project(world, SECTIONS, section_id, user_id,
                               f"Section with section_id={section_id} does not exist or is not shared with you.")


def get_task(world: World, task_id: int, user_id: int) -> dict[str, Any]:
    return _in_visible_project(world, TASKS, task_id, user_id,
                               f"Task with task_id={task_id} does not exist or is not shared with you.")


def get_sub_task(world: World, sub_task_id: int, user_id: int) -> dict[str, Any]:
    return _of_visible_task(world, SUB_TASKS, sub_task_id, user_id,
                            f"Sub-task with sub_task_id={sub_task_id} does not exist.")


def get_label(world: World, label_id: int, user_id: int | None) -> dict[str, Any]:
    """A label by id; with ``user_id`` it must be that user's own label."""
    label = world.get(LABELS, label_id)
    if label is None or (user_id is not None and label["user_id"] != user_id):
        raise api_error(f"Label with label_id={label_id} does not exist.")
    return label


def get_comment(world: World, comment_id: int, user_id: int) -> dict[str, Any]:
    return _of_visible_task(world, COMMENTS, comment_id, user_id,
                            f"Task comment with task_comment_id={comment_id} does not exist.")


def require_author(comment: dict[str, Any], user_id: int, action: str) -> None:
    if comment["user_id"] != user_id:
        raise api_error(f"Only the author of task comment {comment['id']} can {action}.")


# ---------------------------------------------------------------------------------------------- ordering
def _position(order_index: int, size: int) -> int:
    """0 = top; negative counts from the end (-1 = after the last item)."""
    if order_index >= 0:
        return min(order_index, size)
    return max(size + 1 + order_index, 0)


def _sorted(group: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(group, key=lambda r: (r.get("order_index") is None, r.get("order_index") or 0, r["id"]))


def place(world: World, key: str, group: list[dict[str, Any]], order_index: int) -> int:
    """The order_index a new item gets at position ``order_index`` among ``group``; items at and after
    that position are pushed down only as far as needed to stay in order."""
    items = _sorted(group)
    pos = _position(order_index, len(items))
    if pos == len(items):
        values = [r["order_index"] for r in items if r.get("order_index") is not None]
        return max(values) + 1 if values else 0
    value = items[pos].get("order_index") or 0
    prev = value
    for item in items[pos:]:
        current = item.get("order_index")
        if current is None or current <= prev:
            world.update(key, item["id"], {"order_index": prev + 1})
            current = prev + 1
        prev = current
    return value


def move(world: World, key: str, group: list[dict[str, Any]], item: dict[str, Any], order_index: int) -> None:
    """Move ``item`` to a position within its group (the group renumbered 0..n-1 where it changed)."""
    others = [r for r in _sorted(group) if r["id"] != item["id"]]
    others.insert(_position(order_index, len(others)), item)
    for i, row in enumerate(others):
        if row.get("order_index") != i:
            world.update(key, row["id"], {"order_index": i})


def task_group(world: World, project_id: int, section_id: int | None) -> list[dict[str, Any]]:
    if section_id is None:
        return world.select(TASKS, "project_id = ? AND section_id IS NULL", (project_id,))
    return world.select(TASKS, "project_id = ? AND section_id = ?", (project_id, section_id))


# ---------------------------------------------------------------------------------------------- notifications
def notify(world: World, user_id: int, kind: str, title: str, message: str, data: dict[str, Any]) -> None:
    insert(world, NOTIFICATIONS, {"user_id": user_id, "type": kind, "title": title, "message": message,
                                  "read": False, "data": data, "created_at": now(world)})


def notify_collaborators(world: World, project: dict[str, Any], actor: dict[str, Any], kind: str, what: str,
                         data: dict[str, Any], *, skip: Iterable[int] = ()) -> None:
    """Tell every member of a project but the actor (and ``skip``) what the actor did, as AppWorld does for
    changes to a shared project, its sections, tasks and comments (``what``: "added the task 'Cake'")."""
    text = f"{actor['first_name']} {actor['last_name']} {what} in the project {project['name']!r}."
    for uid in member_ids(world, project):
        if uid != actor["id"] and uid not in skip:
            notify(world, uid, kind, kind.replace("_", " ").capitalize(), text, {"project_id": project["id"], **data})


# ---------------------------------------------------------------------------------------------- cascades
def _delete_where(world: World, key: str, where: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
    rows = world.select(key, where, params)
    for r in rows:
        world.delete(key, r["id"])
    return rows


def delete_comment(world: World, comment_id: int) -> None:
    _delete_where(world, ATTACHMENTS, "task_comment_id = ?", (comment_id,))
    world.delete(COMMENTS, comment_id)


def delete_task(world: World, task_id: int, *, keep_comments: bool = False) -> None:
    """A task with its sub-tasks, label links and (unless kept) comments with their attachments."""
    _delete_where(world, SUB_TASKS, "task_id = ?", (task_id,))
    _delete_where(world, TASK_LABELS, "task_id = ?", (task_id,))
    if not keep_comments:
        for comment in world.select(COMMENTS, "task_id = ?", (task_id,)):
            delete_comment(world, comment["id"])
    world.delete(TASKS, task_id)


def delete_section(world: World, section_id: int) -> int:
    """A section and the tasks in it; returns how many tasks went with it."""
    tasks = world.select(TASKS, "section_id = ?", (section_id,))
    for task in tasks:
        delete_task(world, task["id"])
    world.delete(SECTIONS, section_id)
    return len(tasks)


def delete_project(world: World, project_id: int) -> None:
    """A project with its tasks, sections, collaborator links and pending invites.

    Task comments survive their project's deletion: the released benchmark's expected changes count
    comments posted on tasks of a project that the same scenario later deletes (scenario_0006), so the
    reference's backend keeps them.
    """
    for task in world.select(TASKS, "project_id = ?", (project_id,)):
        delete_task(world, task["id"], keep_comments=True)
    _delete_where(world, SECTIONS, "project_id = ?", (project_id,))
    _delete_where(world, LINKS, "project_id = ?", (project_id,))
    _delete_where(world, INVITES, "project_id = ?", (project_id,))
    world.delete(PROJECTS, project_id)


def create_project(world: World, user_id: int, name: str, color: str, description: str, *, is_inbox: bool,
                   is_favorite: bool) -> int:
    """A project plus its owner's collaborator link (id = project_id + 50000)."""
    stamp = now(world)
    project_id = insert(world, PROJECTS, {"user_id": user_id, "name": name, "color": color, "is_inbox": is_inbox,
                                          "description": description, "created_at": stamp})
    link_id = project_id + LINK_ID_OFFSET
    if world.get(LINKS, link_id) is not None:
        link_id = max(world.next_id(LINKS), LINK_ID_OFFSET)
    world.insert(LINKS, {"id": link_id, "project_id": project_id, "user_id": user_id, "is_favorite": is_favorite,
                         "is_archived": False, "created_at": stamp})
    return project_id


# ---------------------------------------------------------------------------------------------- listings
def open_page(rows: list[Any], page_index: int | None, page_limit: int | None) -> list[Any]:
    """One page where the catalog only bounds page_limit from below (>= 1)."""
    page_index, page_limit = check_open_page(page_index, page_limit, "Invalid {field} {value}: it must be >= {bound}.")
    return rows[page_index * page_limit:(page_index + 1) * page_limit]


def open_search(rows: list[dict[str, Any]], query: str | None, text_of: Callable[[dict[str, Any]], Iterable[str | None]],
                page_index: int | None, page_limit: int | None, sort_by: str | None = None,
                allowed_sort: Iterable[str] = (), default_sort: str | None = None) -> list[dict[str, Any]]:
    """The listing convention (rank by relevance, page, sort in the page) with an open page_limit."""
    allowed_sort = list(allowed_sort)
    if query and query.strip():
        page = open_page(search_rank(rows, query, text_of), page_index, page_limit)
        return sort_rows(page, sort_by, allowed_sort) if sort_by else page
    return open_page(sort_rows(rows, sort_by or default_sort, allowed_sort), page_index, page_limit)
