"""Todoist projects, sections and sharing (collaborators and invites)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.todoist import core
from mmtsb.apps.todoist.core import AUTHED, check_color, check_text, get_project, me
from mmtsb.apps.todoist.schema import (APP, ATTACHMENTS, COMMENTS, INVITES, LINKS, NOTIFICATIONS, PROJECTS, SECTIONS,
                                       SUB_TASKS, TASK_LABELS, TASKS)
from mmtsb.apps.todoist.views import section_view, sections_of
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

_CASCADE = (PROJECTS, LINKS, SECTIONS, TASKS, SUB_TASKS, TASK_LABELS, COMMENTS, ATTACHMENTS, INVITES)


# ------------------------------------------------------------------------------------------ projects
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PROJECTS, LINKS))
def todoist_create_project(world: World, name: str, color: str | None = "charcoal", description: str = "",
                           is_favorite: bool | None = False) -> dict[str, Any]:
    """Creates a project owned by the logged-in user.

    Args:
        name: the project name (at least 1 character).
        color: one of 'charcoal', 'red', 'blue', 'green', 'orange', 'yellow' (default 'charcoal').
        description: a free-text description.
        is_favorite: mark the project as one of your favorites.

    Returns:
        {message, project_id}
    """
    check_text(name, "name")
    color = check_color(color) or "charcoal"
    _check_unique_name(world, me(world)["id"], name)
    project_id = core.create_project(world, me(world)["id"], name, color, description or "", is_inbox=False,
                                     is_favorite=bool(is_favorite))
    return {"message": "Project created.", "project_id": project_id}


@tool(domain=APP, requires=AUTHED, tables=(PROJECTS, LINKS))
def todoist_show_projects(world: World, query: str | None = "", color: str | None = None,
                          is_favorite: bool | None = None, is_archived: bool | None = None,
                          page_index: int | None = 0, page_limit: int | None = 5,
                          sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the projects you own or collaborate on, with color/favorite/archive filters.

    Args:
        query: words matched against project names and descriptions, best matches first; empty lists all.
        color: keep only projects of this color ('charcoal', 'red', 'blue', 'green', 'orange', 'yellow').
        is_favorite: keep only your favorite (true) or non-favorite (false) projects.
        is_archived: keep only archived (true) or active (false) projects.
        page_index: the page to return, from 0.
        page_limit: projects per page, at least 1.
        sort_by: '+created_at' or '-created_at' (also '+name'/'-name'); default -created_at without a query.

    Returns:
        list[{name, color, is_inbox, description, is_favorite, is_archived, created_at, project_id, owner,
        is_shared, collaborators}]
    """
    user_id = me(world)["id"]
    check_color(color)
    views = [core.project_view(world, p, user_id) for p in core.visible_projects(world, user_id)]
    if color is not None:
        views = [v for v in views if v["color"] == color]
    if is_favorite is not None:
        views = [v for v in views if v["is_favorite"] == is_favorite]
    if is_archived is not None:
        views = [v for v in views if v["is_archived"] == is_archived]
    views.sort(key=lambda v: v["project_id"])
    return core.open_search(views, query, lambda v: (v["name"], v["description"]), page_index, page_limit,
                            sort_by, ("created_at", "name"), default_sort="-created_at")


@tool(domain=APP, requires=AUTHED, tables=(PROJECTS, LINKS))
def todoist_show_project(world: World, project_id: int) -> dict[str, Any]:
    """Returns one project's details, including its owner and collaborators.

    Args:
        project_id: the project's id; 0 means your Inbox.

    Returns:
        {name, color, is_inbox, description, is_favorite, is_archived, created_at, project_id, owner, is_shared,
        collaborators}
    """
    user_id = me(world)["id"]
    return core.project_view(world, get_project(world, project_id, user_id), user_id)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PROJECTS, LINKS))
def todoist_update_project(world: World, project_id: int, name: str | None = None, color: str | None = None,
                           description: str | None = None, is_favorite: bool | None = None,
                           is_archived: bool | None = None) -> dict[str, str]:
    """Edits a project's name, color, description (owner only) or your favorite/archive flags for it.

    Args:
        project_id: the project's id; 0 means your Inbox (the Inbox cannot be renamed or archived).
        name: the new name (at least 1 character).
        color: the new color: 'charcoal', 'red', 'blue', 'green', 'orange' or 'yellow'.
        description: the new description (replaces the old one).
        is_favorite: mark (true) or unmark (false) the project as your favorite.
        is_archived: archive (true) or unarchive (false) the project for you.

    Returns:
        {message}
    """
    user = me(world)
    user_id = user["id"]
    project = get_project(world, project_id, user_id)
    check_text(name, "name")
    check_color(color)
    if name is not None:
        _check_unique_name(world, project["user_id"], name, project["id"])
    fields = {k: v for k, v in (("name", name), ("color", color), ("description", description)) if v is not None}
    flags = {k: v for k, v in (("is_favorite", is_favorite), ("is_archived", is_archived)) if v is not None}
    if not fields and not flags:
        raise api_error("Nothing to update: give name, color, description, is_favorite or is_archived.")
    if project.get("is_inbox") and ("name" in fields or flags.get("is_archived")):
        raise api_error("The Inbox project cannot be renamed or archived.")
    if fields:
        core.require_owner(project, user_id, f"change its {', '.join(fields)}")
        world.update(PROJECTS, project["id"], fields)
    if flags:
        link = core.link_of(world, project["id"], user_id)
        if link is None:  # an owner without a link row (older files): give them one
            world.insert(LINKS, {"id": max(world.next_id(LINKS), core.LINK_ID_OFFSET), "project_id": project["id"],
                                 "user_id": user_id, "is_favorite": False, "is_archived": False,
                                 "created_at": core.now(world), **flags})
        else:
            world.update(LINKS, link["id"], flags)
    core.notify_collaborators(world, project, user, "project_updated", "updated the project", {})
    return {"message": "Project updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=_CASCADE)
def todoist_delete_project(world: World, project_id: int) -> dict[str, str]:
    """Deletes a project you own, with its sections, tasks, collaborators and pending invites.

    The tasks go with their sub-tasks, label links and comments. To leave a project someone else owns, use
    todoist_remove_collaborator_from_project with your own email instead.

    Args:
        project_id: the project's id (the Inbox cannot be deleted).

    Returns:
        {message}
    """
    user = me(world)
    project = get_project(world, project_id, user["id"])
    if project.get("is_inbox"):
        raise api_error("The Inbox project cannot be deleted.")
    core.require_owner(project, user["id"], "delete it (collaborators can leave it with "
                                            "todoist_remove_collaborator_from_project)")
    core.notify_collaborators(world, project, user, "project_deleted", "deleted the project", {})
    core.delete_project(world, project["id"])
    return {"message": "Project deleted."}


# ------------------------------------------------------------------------------------------ sections
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SECTIONS,))
def todoist_create_section(world: World, project_id: int, name: str, order_index: int = -1) -> dict[str, Any]:
    """Adds a section to a project at a given position.

    Args:
        project_id: the project's id; 0 means your Inbox.
        name: the section name (at least 1 character).
        order_index: the position among the project's sections: 0 = top, -1 = last (default), negative
            values count from the end.

    Returns:
        {message, section_id}
    """
    user = me(world)
    project = get_project(world, project_id, user["id"])
    check_text(name, "name")
    _check_unique_section(world, project["id"], name)
    group = world.select(SECTIONS, "project_id = ?", (project["id"],))
    value = core.place(world, SECTIONS, group, order_index)
    section_id = core.insert(world, SECTIONS, {"project_id": project["id"], "name": name, "order_index": value,
                                               "created_at": core.now(world)})
    core.notify_collaborators(world, project, user, "project_updated", f"added the section {name!r}", {})
    return {"message": "Section created.", "section_id": section_id}


@tool(domain=APP, requires=AUTHED, tables=(SECTIONS, TASKS))
def todoist_show_sections(world: World, project_id: int) -> list[dict[str, Any]]:
    """Lists a project's sections in their display order.

    Args:
        project_id: the project's id; 0 means your Inbox.

    Returns:
        list[{project_id, name, order_index, created_at, section_id, num_tasks}]
    """
    project = get_project(world, project_id, me(world)["id"])
    return [section_view(world, s) for s in sections_of(world, project["id"])]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SECTIONS,))
def todoist_update_section(world: World, section_id: int, name: str | None = None,
                           order_index: int | None = None) -> dict[str, str]:
    """Renames or reorders a section.

    Args:
        section_id: the section's id.
        name: the new name (at least 1 character).
        order_index: the new position among the project's sections: 0 = top, negative counts from the end.

    Returns:
        {message}
    """
    user = me(world)
    section = core.get_section(world, section_id, user["id"])
    check_text(name, "name")
    if name is None and order_index is None:
        raise api_error("Nothing to update: give name and/or order_index.")
    if name is not None:
        _check_unique_section(world, section["project_id"], name, section_id)
        world.update(SECTIONS, section_id, {"name": name})
    if order_index is not None:
        group = world.select(SECTIONS, "project_id = ?", (section["project_id"],))
        core.move(world, SECTIONS, group, section, order_index)
    core.notify_collaborators(world, world.get(core.PROJECTS, section["project_id"]), user, "project_updated",
                              f"updated the section {section['name']!r}", {})
    return {"message": "Section updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SECTIONS, TASKS, SUB_TASKS, TASK_LABELS, COMMENTS))
def todoist_delete_section(world: World, section_id: int) -> dict[str, str]:
    """Deletes a section together with the tasks in it.

    Args:
        section_id: the section's id.

    Returns:
        {message}
    """
    user = me(world)
    section = core.get_section(world, section_id, user["id"])
    removed = core.delete_section(world, section_id)
    core.notify_collaborators(world, world.get(core.PROJECTS, section["project_id"]), user, "project_updated",
                              f"deleted the section {section['name']!r}", {})
    return {"message": f"Section deleted (with {removed} task{'s' if removed != 1 else ''})."}


# ------------------------------------------------------------------------------------------ sharing
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(LINKS, TASKS, NOTIFICATIONS))
def todoist_remove_collaborator_from_project(world: World, project_id: int, email: str) -> dict[str, str]:
    """Removes a collaborator from a project, or leaves it when the email is your own.

    Only the owner can remove others; the owner cannot be removed. Tasks assigned to the removed user are
    unassigned.

    Args:
        project_id: the project's id.
        email: the collaborator's email (your own to leave the project).

    Returns:
        {message}
    """
    user = me(world)
    user_id = user["id"]
    project = get_project(world, project_id, user_id)
    target = core.require_user(world, email)
    if target["id"] == project["user_id"]:
        raise api_error("The project owner cannot be removed; the owner can delete the project instead.")
    link = core.link_of(world, project["id"], target["id"])
    if link is None:
        raise api_error(f"{email} is not a collaborator of project {project['id']} ({project['name']!r}).")
    if target["id"] != user_id:
        core.require_owner(project, user_id, "remove other collaborators (you can remove yourself)")
    world.delete(LINKS, link["id"])
    for task in world.select(TASKS, "project_id = ? AND assignee_id = ?", (project["id"], target["id"])):
        world.update(TASKS, task["id"], {"assignee_id": None, "assigner_id": None})
    core.notify_collaborators(world, project, user, "collaborator_removed",
                              f"removed {target['first_name']} {target['last_name']}", {"email": target.get("email")},
                              skip=(target["id"],))
    if target["id"] != user_id:
        return {"message": f"{email} was removed from the project."}
    return {"message": "You left the project."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(INVITES, NOTIFICATIONS))
def todoist_send_project_invite(world: World, project_id: int, email: str) -> dict[str, Any]:
    """Invites a Todoist user to collaborate on a project; they get the invite code by email.

    The invitee joins with the returned invite code through todoist_accept_project_invite. Inviting someone
    again while their invite is pending mails them the same code again.

    Args:
        project_id: the project's id (the Inbox cannot be shared).
        email: the invitee's email address (they need a Todoist account).

    Returns:
        {message, invite_code}
    """
    inviter = me(world)
    project = get_project(world, project_id, inviter["id"])
    email = core.check_email(email)
    if project.get("is_inbox"):
        raise api_error("The Inbox project cannot be shared.")
    invitee = core.require_user(world, email)
    if invitee["id"] in core.member_ids(world, project):
        raise api_error(f"{email} already collaborates on project {project['id']} ({project['name']!r}).")
    pending = world.select(INVITES, "project_id = ? AND lower(invitee_email) = lower(?)", (project["id"], email))
    if pending:
        code = pending[0]["invite_code"]
    else:
        code = world.new_uuid().replace("-", "")[:12]
        core.insert(world, INVITES, {"project_id": project["id"], "inviter_id": inviter["id"],
                                     "invitee_email": email, "invite_code": code, "created_at": core.now(world)})
    who = f"{inviter['first_name']} {inviter['last_name']}"
    text = f"{who} invited you to collaborate on the Todoist project {project['name']!r}. Invite code: {code}."
    _email(world, email, f"{who} invited you to a Todoist project", text)
    return {"message": f"Invite sent to {email}.", "invite_code": code}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(INVITES, LINKS, NOTIFICATIONS))
def todoist_accept_project_invite(world: World, invite_code: str) -> dict[str, Any]:
    """Joins a project with an invite code sent to your email (the project's members are notified).

    Args:
        invite_code: the code from the invitation email.

    Returns:
        {message, project_id}
    """
    user = me(world)
    invite = _invite(world, invite_code)
    if (invite["invitee_email"] or "").lower() != (user.get("email") or "").lower():
        raise api_error("This invite was sent to another email address; only its invitee can accept it.")
    project = world.get(PROJECTS, invite["project_id"])
    if project is None:
        raise api_error("The project of this invite no longer exists.")
    if user["id"] in core.member_ids(world, project):
        raise api_error(f"You already collaborate on project {project['id']} ({project['name']!r}).")
    world.delete(INVITES, invite["id"])
    world.insert(LINKS, {"id": max(world.next_id(LINKS), core.LINK_ID_OFFSET), "project_id": project["id"],
                         "user_id": user["id"], "is_favorite": False, "is_archived": False,
                         "created_at": core.now(world)})
    core.notify_collaborators(world, project, user, "collaborator_joined", "joined", {"email": user.get("email")})
    return {"message": f"You joined the project {project['name']!r}.", "project_id": project["id"]}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(INVITES,))
def todoist_delete_project_invite(world: World, invite_code: str) -> dict[str, str]:
    """Cancels an invite you sent (only its inviter can delete it, as in AppWorld; an invitee just leaves it
    unaccepted).

    Args:
        invite_code: the invite's code.

    Returns:
        {message}
    """
    user = me(world)
    invite = _invite(world, invite_code)
    if invite.get("inviter_id") != user["id"]:
        raise api_error("You are not authorized to delete this invite as you are not the inviter of this project "
                        "invite.")
    world.delete(INVITES, invite["id"])
    return {"message": "Invite cancelled."}


def _check_unique_section(world: World, project_id: int, name: str, section_id: int | None = None) -> None:
    """A project's sections have distinct names (AppWorld's uniqueness of (project, name))."""
    if any(r["id"] != section_id for r in world.select(SECTIONS, "project_id = ? AND name = ?", (project_id, name))):
        raise api_error(f"The project already has a section named {name!r}; section names must be unique.")


def _check_unique_name(world: World, owner_id: int, name: str, project_id: int | None = None) -> None:
    """An owner's projects have distinct names (AppWorld's uniqueness of (user, name))."""
    if any(p["id"] != project_id for p in world.select(PROJECTS, "user_id = ? AND name = ?", (owner_id, name))):
        raise api_error(f"You already have a project named {name!r}; project names must be unique.")


def _invite(world: World, invite_code: str) -> dict[str, Any]:
    rows = world.select(INVITES, "invite_code = ?", ((invite_code or "").strip(),))
    if not rows:
        raise api_error(f"No project invite with invite_code {invite_code!r}.")
    return rows[0]


def _email(world: World, to: str, subject: str, body: str) -> None:
    """Deliver a notification email when the Gmail app knows the address (best effort)."""
    if not world.has_table("gmail.emails"):
        return
    try:
        from mmtsb.apps.gmail.delivery import deliver_system_email
    except ImportError:
        return
    deliver_system_email(world, sender_name="Todoist", recipient_email=to, subject=subject, body=body)
