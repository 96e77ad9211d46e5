"""Splitwise groups: create, show, edit, soft-delete and restore; members, invitation codes, leaving."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, check_open_page
from mmtsb.apps.splitwise.core import (APP, AUTHED, EXPENSES, GROUPS, MEMBERS, NOTIFICATIONS, PAYMENTS, full_name, insert,
                                       is_member, me, member_ids, my_group, new_invitation_code, notify, now,
                                       user_by_email)
from mmtsb.apps.splitwise.views import group_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _add_member(world: World, group_id: int, user_id: int) -> None:
    insert(world, MEMBERS, {"group_id": group_id, "user_id": user_id, "joined_at": now(world)})


def _check_unique_name(world: World, creator_id: int, name: str, group_id: int | None = None) -> None:
    """The groups a user created have distinct names (AppWorld's uniqueness of (user, name))."""
    if any(g["id"] != group_id for g in world.select(GROUPS, "user_id = ? AND name = ?", (creator_id, name))):
        raise api_error(f"You already created a group named {name!r}; group names must be unique.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(GROUPS, MEMBERS, NOTIFICATIONS))
def splitwise_create_group(world: World, name: str, member_emails: list[str],
                           description: str | None = None) -> dict[str, Any]:
    """Creates an expense-sharing group; you become its creator and first member.

    Args:
        name: the group name (at least 1 character).
        member_emails: emails of the other Splitwise users to add (may be empty; your own email is skipped).
        description: what the group is for.

    Returns:
        {message, group_id}
    """
    if not isinstance(name, str) or not name.strip():
        raise api_error("name must be at least 1 character long.")
    user = me(world)
    _check_unique_name(world, int(user["id"]), name.strip())
    others: dict[int, dict[str, Any]] = {}
    for i, email in enumerate(member_emails or []):
        member = user_by_email(world, email, f"member_emails[{i}]")
        if int(member["id"]) != int(user["id"]):
            others[int(member["id"])] = member
    group_id = insert(world, GROUPS, {"user_id": user["id"], "name": name.strip(), "description": description or "",
                                     "created_at": now(world), "invitation_code": new_invitation_code(world),
                                     "deleted": False})
    for uid in [int(user["id"]), *others]:
        _add_member(world, group_id, uid)
    notify(world, others, "group_added", "Added to a group",
           f"{full_name(user)} added you to the group '{name.strip()}'.", {"group_id": group_id})
    return {"message": "Group created.", "group_id": group_id}


@tool(domain=APP, requires=AUTHED, tables=(GROUPS,))
def splitwise_show_groups(world: World, delete: bool | None = False, page_index: int | None = 0,
                          page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists the groups you belong to, newest first.

    Args:
        delete: false lists active groups, true lists deleted ones (which you can restore).
        page_index: the page to return, from 0.
        page_limit: groups per page, at least 1.

    Returns:
        list[{group_id, name, description, created_at, deleted, creator, members, invitation_code}]
    """
    page_index, page_limit = check_open_page(page_index, page_limit, "{field} must be >= {bound}; got {value}.")
    user_id = int(me(world)["id"])
    ids = [r["group_id"] for r in world.select(MEMBERS, "user_id = ?", (user_id,))]
    groups = [g for g in (world.get(GROUPS, gid) for gid in dict.fromkeys(ids)) if g is not None]
    groups = [g for g in groups if bool(g.get("deleted")) == bool(delete)]
    groups.sort(key=lambda g: (g.get("created_at") or "", g["id"]), reverse=True)
    return [group_view(world, g) for g in groups[page_index * page_limit:(page_index + 1) * page_limit]]


@tool(domain=APP, requires=AUTHED, tables=(GROUPS,))
def splitwise_show_group(world: World, group_id: int) -> dict[str, Any]:
    """Returns one of your groups with its members.

    Args:
        group_id: the group's id (see splitwise_show_groups).

    Returns:
        {group_id, name, description, created_at, deleted, creator, members, invitation_code}
    """
    return group_view(world, my_group(world, group_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(GROUPS, NOTIFICATIONS))
def splitwise_update_group(world: World, group_id: int, name: str | None = None,
                           description: str | None = None) -> dict[str, str]:
    """Renames or re-describes a group you belong to (the other members are notified).

    Args:
        group_id: the group's id.
        name: the new name (at least 1 character).
        description: the new description (replaces the old one).

    Returns:
        {message}
    """
    group = my_group(world, group_id, allow_deleted=False)
    if name is not None and not name.strip():
        raise api_error("name must be at least 1 character long.")
    if name is not None:
        _check_unique_name(world, int(group["user_id"]), name.strip(), group_id)
    fields = {k: v for k, v in (("name", name.strip() if name else None), ("description", description))
              if v is not None}
    if not fields:
        raise api_error("Nothing to update: give name and/or description.")
    world.update(GROUPS, group_id, fields)
    notify(world, member_ids(world, group_id), "group_updated", "Group updated",
           f"{full_name(me(world))} updated the group '{fields.get('name', group['name'])}'.", {"group_id": group_id})
    return {"message": "Group updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(GROUPS, EXPENSES, PAYMENTS, NOTIFICATIONS))
def splitwise_delete_group(world: World, group_id: int) -> dict[str, str]:
    """Soft-deletes a group you belong to with its expenses and payments, which stop counting in balances. Any
    member can restore it with splitwise_undelete_group.

    Args:
        group_id: the group's id.

    Returns:
        {message}
    """
    group = my_group(world, group_id)
    if group.get("deleted"):
        raise api_error(f"Group with group_id={group_id} is already deleted.")
    world.update(GROUPS, group_id, {"deleted": True})
    _mark_records_deleted(world, group_id, True)
    user = me(world)
    notify(world, member_ids(world, group_id), "group_deleted", "Group deleted",
           f"{full_name(user)} deleted the group '{group['name']}'.", {"group_id": group_id})
    return {"message": "Group deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(GROUPS, EXPENSES, PAYMENTS, NOTIFICATIONS))
def splitwise_undelete_group(world: World, group_id: int) -> dict[str, str]:
    """Restores a deleted group you belong to, with all its expenses and payments (as AppWorld does, also those
    deleted one by one before).

    Args:
        group_id: the group's id (see splitwise_show_groups with delete=true).

    Returns:
        {message}
    """
    group = my_group(world, group_id)
    if not group.get("deleted"):
        raise api_error(f"Group with group_id={group_id} is not deleted.")
    world.update(GROUPS, group_id, {"deleted": False})
    _mark_records_deleted(world, group_id, False)
    notify(world, member_ids(world, group_id), "group_restored", "Group restored",
           f"{full_name(me(world))} restored the group '{group['name']}'.", {"group_id": group_id})
    return {"message": "Group restored."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(MEMBERS, NOTIFICATIONS))
def splitwise_add_member_to_group(world: World, group_id: int, user_email: str) -> dict[str, str]:
    """Adds a Splitwise user to a group you belong to.

    Args:
        group_id: the group's id.
        user_email: the email of the user to add.

    Returns:
        {message}
    """
    group = my_group(world, group_id, allow_deleted=False)
    user = user_by_email(world, user_email, "user_email")
    if is_member(world, group_id, int(user["id"])):
        raise api_error(f"{user['email']} is already a member of group {group_id}.")
    _add_member(world, group_id, int(user["id"]))
    others = [m for m in member_ids(world, group_id) if m != int(user["id"])]
    notify(world, others, "group_member_added", "Member added",
           f"{full_name(me(world))} added {full_name(user)} to the group '{group['name']}'.", {"group_id": group_id},
           actor_too=True)
    return {"message": f"{full_name(user)} added to the group."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(MEMBERS, NOTIFICATIONS))
def splitwise_remove_member_from_group(world: World, group_id: int, user_email: str) -> dict[str, str]:
    """Removes another member from a group you belong to (the remaining members are notified).

    Args:
        group_id: the group's id.
        user_email: the email of the member to remove (use splitwise_exit_group to leave yourself).

    Returns:
        {message}
    """
    group = my_group(world, group_id, allow_deleted=False)
    user = user_by_email(world, user_email, "user_email")
    if int(user["id"]) == int(me(world)["id"]):
        raise api_error("To leave a group yourself, use splitwise_exit_group.")
    rows = world.select(MEMBERS, "group_id = ? AND user_id = ?", (group_id, user["id"]))
    if not rows:
        raise api_error(f"{user['email']} is not a member of group {group_id}.")
    for r in rows:
        world.delete(MEMBERS, r["id"])
    notify(world, member_ids(world, group_id), "group_member_removed", "Member removed",
           f"{full_name(me(world))} removed {full_name(user)} from the group '{group['name']}'.", {"group_id": group_id},
           actor_too=True)
    return {"message": f"{full_name(user)} removed from the group."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(MEMBERS, NOTIFICATIONS))
def splitwise_exit_group(world: World, group_id: int) -> dict[str, str]:
    """Leaves a group (the remaining members are notified; balances in it stay as they are).

    Args:
        group_id: the group's id.

    Returns:
        {message}
    """
    group = my_group(world, group_id)
    user = me(world)
    for r in world.select(MEMBERS, "group_id = ? AND user_id = ?", (group_id, user["id"])):
        world.delete(MEMBERS, r["id"])
    notify(world, member_ids(world, group_id), "group_left", "Member left",
           f"{full_name(user)} left the group '{group['name']}'.", {"group_id": group_id})
    return {"message": "You left the group."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(GROUPS,))
def splitwise_regenerate_invitation_code(world: World, group_id: int) -> dict[str, str]:
    """Issues a new join code for a group you belong to; the old code stops working.

    Args:
        group_id: the group's id.

    Returns:
        {message, invitation_code}
    """
    my_group(world, group_id, allow_deleted=False)
    code = new_invitation_code(world)
    world.update(GROUPS, group_id, {"invitation_code": code})
    return {"message": "Invitation code regenerated.", "invitation_code": code}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(MEMBERS, NOTIFICATIONS))
def splitwise_accept_group_invitation(world: World, invitation_code: str) -> dict[str, Any]:
    """Joins a group using its invitation code (shared by a member).

    Args:
        invitation_code: the group's current invitation code (case-insensitive).

    Returns:
        {message}
    """
    code = (invitation_code or "").strip()
    groups = world.select(GROUPS, "upper(invitation_code) = upper(?)", (code,)) if code else []
    if not groups:
        raise api_error(f"No group has the invitation code {invitation_code!r}; it may have been regenerated.")
    group = groups[0]
    if group.get("deleted"):
        raise api_error(f"The group '{group['name']}' was deleted; its invitation can't be accepted.")
    user = me(world)
    if is_member(world, group["id"], int(user["id"])):
        raise api_error(f"You are already a member of the group '{group['name']}' (group_id={group['id']}).")
    _add_member(world, group["id"], int(user["id"]))
    notify(world, member_ids(world, group["id"]), "group_joined", "New member",
           f"{full_name(user)} joined the group '{group['name']}'.", {"group_id": group["id"]})
    return {"message": f"You joined the group '{group['name']}'.", "group_id": group["id"]}


def _mark_records_deleted(world: World, group_id: int, deleted: bool) -> None:
    """Mark every expense and payment of a group deleted (or not), as AppWorld's delete/undelete_group do."""
    for key in (EXPENSES, PAYMENTS):
        for row in world.select(key, "group_id = ?", (group_id,)):
            if bool(row.get("deleted")) != deleted:
                world.update(key, row["id"], {"deleted": deleted})
