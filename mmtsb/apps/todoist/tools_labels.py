"""Todoist labels and their attachment to tasks."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.todoist import core
from mmtsb.apps.todoist.core import AUTHED, ONLINE, check_color, check_text, get_label, get_task, me
from mmtsb.apps.todoist.schema import APP, LABELS, TASK_LABELS
from mmtsb.apps.todoist.views import label_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _check_unique_name(world: World, user_id: int, name: str, except_id: int | None = None) -> None:
    for label in world.select(LABELS, "user_id = ? AND lower(name) = lower(?)", (user_id, name.strip())):
        if label["id"] != except_id:
            raise api_error(f"You already have a label named {label['name']!r} (label_id={label['id']}).")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(LABELS,))
def todoist_create_label(world: World, name: str, color: str | None = "charcoal") -> dict[str, Any]:
    """Creates a label (label names are unique per user, ignoring case).

    Args:
        name: the label name (at least 1 character).
        color: 'charcoal' (default), 'red', 'blue', 'green', 'orange' or 'yellow'.

    Returns:
        {message, label_id}
    """
    user_id = me(world)["id"]
    check_text(name, "name")
    color = check_color(color) or "charcoal"
    _check_unique_name(world, user_id, name)
    label_id = core.insert(world, LABELS, {"user_id": user_id, "name": name, "color": color,
                                           "created_at": core.now(world)})
    return {"message": "Label created.", "label_id": label_id}


@tool(domain=APP, requires=AUTHED, tables=(LABELS, TASK_LABELS))
def todoist_search_labels(world: World, query: str | None = "", task_id: int | None = None,
                          color: str | None = None, task_attached: bool | None = True, page_index: int | None = 0,
                          page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches your labels, optionally relative to a task.

    Args:
        query: words matched against label names, best matches first; empty lists all.
        task_id: with a task: task_attached=true lists the labels on that task, false lists your labels
            that are not on it.
        color: keep only labels of this color ('charcoal', 'red', 'blue', 'green', 'orange', 'yellow').
        task_attached: see task_id (ignored without task_id).
        page_index: the page to return, from 0.
        page_limit: labels per page, at least 1.

    Returns:
        list[{name, color, label_id, creator}]
    """
    user_id = me(world)["id"]
    check_color(color)
    labels = world.select(LABELS, "user_id = ?", (user_id,))
    if task_id is not None:
        get_task(world, task_id, user_id)
        attached = [r["label_id"] for r in world.select(TASK_LABELS, "task_id = ?", (task_id,))]
        if task_attached is None or task_attached:
            labels = [lb for lb in (world.get(LABELS, i) for i in attached) if lb is not None]
        else:
            labels = [lb for lb in labels if lb["id"] not in attached]
    if color is not None:
        labels = [lb for lb in labels if lb.get("color") == color]
    page = core.open_search(labels, query, lambda lb: (lb["name"],), page_index, page_limit)
    return [label_view(world, lb) for lb in page]


@tool(domain=APP, requires=ONLINE, tables=(LABELS,))
def todoist_show_label(world: World, label_id: int) -> dict[str, Any]:
    """Returns one label.

    Args:
        label_id: the label's id.

    Returns:
        {name, color, label_id, creator}
    """
    return label_view(world, get_label(world, label_id, None))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(LABELS,))
def todoist_update_label(world: World, label_id: int, name: str | None = None,
                         color: str | None = None) -> dict[str, str]:
    """Renames or recolors one of your labels.

    Args:
        label_id: the label's id.
        name: the new name (at least 1 character, unique among your labels).
        color: the new color: 'charcoal', 'red', 'blue', 'green', 'orange' or 'yellow'.

    Returns:
        {message}
    """
    user_id = me(world)["id"]
    get_label(world, label_id, user_id)
    check_text(name, "name")
    check_color(color)
    fields = {k: v for k, v in (("name", name), ("color", color)) if v is not None}
    if not fields:
        raise api_error("Nothing to update: give name and/or color.")
    if name is not None:
        _check_unique_name(world, user_id, name, except_id=label_id)
    world.update(LABELS, label_id, fields)
    return {"message": "Label updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(LABELS, TASK_LABELS))
def todoist_delete_label(world: World, label_id: int) -> dict[str, str]:
    """Deletes one of your labels and removes it from every task.

    Args:
        label_id: the label's id.

    Returns:
        {message}
    """
    get_label(world, label_id, me(world)["id"])
    for link in world.select(TASK_LABELS, "label_id = ?", (label_id,)):
        world.delete(TASK_LABELS, link["id"])
    world.delete(LABELS, label_id)
    return {"message": "Label deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TASK_LABELS,))
def todoist_add_label_to_task(world: World, task_id: int, label_id: int) -> dict[str, str]:
    """Attaches one of your labels to a task.

    Args:
        task_id: the task's id.
        label_id: the label's id (create it first with todoist_create_label).

    Returns:
        {message}
    """
    user_id = me(world)["id"]
    get_task(world, task_id, user_id)
    label = get_label(world, label_id, user_id)
    if world.select(TASK_LABELS, "task_id = ? AND label_id = ?", (task_id, label_id)):
        raise api_error(f"Task {task_id} already has the label {label['name']!r}.")
    core.insert(world, TASK_LABELS, {"task_id": task_id, "label_id": label_id, "created_at": core.now(world)})
    return {"message": f"Label {label['name']!r} added to the task."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TASK_LABELS,))
def todoist_remove_label_from_task(world: World, task_id: int, label_id: int) -> dict[str, str]:
    """Detaches a label from a task.

    Args:
        task_id: the task's id.
        label_id: the label's id.

    Returns:
        {message}
    """
    get_task(world, task_id, me(world)["id"])
    links = world.select(TASK_LABELS, "task_id = ? AND label_id = ?", (task_id, label_id))
    if not links:
        raise api_error(f"Task {task_id} does not have the label with label_id={label_id}.")
    for link in links:
        world.delete(TASK_LABELS, link["id"])
    return {"message": "Label removed from the task."}
