"""Todoist tasks and sub-tasks."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, parse_sort_by
from mmtsb.apps.todoist import core
from mmtsb.apps.todoist.core import (
    AUTHED,
    CLEAR,
    PRIORITY_RANK,
    check_due_date,
    check_priority,
    check_text,
    date_part,
    duration_fields,
    get_project,
    get_task,
    me,
)
from mmtsb.apps.todoist.schema import (
    APP,
    ATTACHMENTS,
    COMMENTS,
    LABELS,
    NOTIFICATIONS,
    SECTIONS,
    SUB_TASKS,
    TASK_LABELS,
    TASKS,
)
from mmtsb.apps.todoist.views import sections_of, sub_task_view, task_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

_TASK_SORTS = ("order_index", "due_date", "priority")
#: the due-date bounds that mean "no bound" (AppWorld's defaults)
DEFAULT_MIN_DUE, DEFAULT_MAX_DUE = "1500-01-01", "3000-01-01"


# ------------------------------------------------------------------------------------------ tasks
def _check_due_filters(due_today: bool, overdue: bool, min_due_date: str | None, max_due_date: str | None) -> None:
    """AppWorld refuses due-date filters that contradict each other."""
    narrowed = (min_due_date or DEFAULT_MIN_DUE) != DEFAULT_MIN_DUE or (max_due_date or DEFAULT_MAX_DUE) != DEFAULT_MAX_DUE
    if due_today and overdue:
        raise api_error("You cannot set both due_today and overdue to true.")
    if due_today and narrowed:
        raise api_error("You cannot set both due_today and min/max due date.")
    if overdue and narrowed:
        raise api_error("You cannot set both overdue and min/max due date.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TASKS,))
def todoist_create_task(world: World, project_id: int, title: str, section_id: int | None = None,
                        description: str | None = "", due_date: str | None = None, duration: float | None = None,
                        duration_unit: str | None = None, order_index: int = -1,
                        priority: str | None = "medium") -> dict[str, Any]:
    """Creates a task in a project (optionally in one of its sections) with due date, duration and priority.

    Args:
        project_id: the project's id; 0 means your Inbox.
        title: the task title (at least 1 character).
        section_id: a section of that project; omit for a task outside any section.
        description: free text.
        due_date: the due date as YYYY-MM-DD.
        duration: how long the task takes (> 0; needs duration_unit).
        duration_unit: 'minutes', 'hours' or 'days'.
        order_index: the position among the tasks of the same project and section: 0 = top, -1 = last
            (default), negative values count from the end.
        priority: 'high', 'medium' (default) or 'low'.

    Returns:
        {message, task_id}
    """
    user = me(world)
    user_id = user["id"]
    project = get_project(world, project_id, user_id)
    check_text(title, "title")
    if section_id is not None:
        section = core.get_section(world, section_id, user_id)
        if section["project_id"] != project["id"]:
            raise api_error(f"Section {section_id} belongs to another project, not to project {project['id']}.")
    due = check_due_date(due_date, allow_clear=False)
    priority = check_priority(priority) or "medium"
    dur = duration_fields(duration, duration_unit, updating=False)
    value = core.place(world, TASKS, core.task_group(world, project["id"], section_id), order_index)
    task_id = core.insert(world, TASKS, {
        "project_id": project["id"], "section_id": section_id, "user_id": user_id, "title": title,
        "description": description or "", "due_date": due, "priority": priority, "is_completed": False,
        "duration": dur.get("duration"), "duration_unit": dur.get("duration_unit"), "order_index": value,
        "assignee_id": None, "assigner_id": None, "created_at": core.now(world)})
    core.notify_collaborators(world, project, user, "task_added", f"added the task {title!r}", {"task_id": task_id})
    return {"message": "Task created.", "task_id": task_id}


@tool(domain=APP, requires=AUTHED, tables=(TASKS, SECTIONS, TASK_LABELS, LABELS))
def todoist_show_tasks(world: World, project_id: int, section_id: int | None = None,
                       assignee_email: str | None = None, assigner_email: str | None = None,
                       priority: str | None = None, is_completed: bool | None = None,
                       due_today: bool | None = False, label_id: int | None = None, overdue: bool | None = False,
                       min_due_date: str | None = "1500-01-01", max_due_date: str | None = "3000-01-01",
                       sort_by: str | None = "+order_index") -> dict[str, Any]:
    """Lists a project's tasks grouped by section, with filters.

    Args:
        project_id: the project's id; 0 means your Inbox.
        section_id: only this section's tasks; 0 = only tasks outside any section.
        assignee_email: only tasks assigned to this user.
        assigner_email: only tasks assigned by this user.
        priority: only tasks of this priority: 'high', 'medium' or 'low'.
        is_completed: only completed (true) or open (false) tasks.
        due_today: only tasks due today (not with overdue or a narrowed min/max_due_date).
        label_id: only tasks carrying this label.
        overdue: only open tasks whose due date is before today (not with due_today or a narrowed
            min/max_due_date).
        min_due_date: only tasks due on or after this date (YYYY-MM-DD). Tasks without a due date are kept
            unless min_due_date or max_due_date is narrowed from its default.
        max_due_date: only tasks due on or before this date (YYYY-MM-DD).
        sort_by: order inside each group: +/- order_index (default '+order_index'), due_date or priority
            ('-priority' puts high first); tasks without a due date go last.

    Returns:
        {project_id, no_section_tasks: list[task], sections: list[{section_id, name, order_index, tasks}]};
        each task is {project_id, section_id, title, description, due_date, priority, is_completed, duration,
        duration_unit, order_index, created_at, task_id, creator, assignee, assigner, labels, num_sub_tasks,
        num_comments}
    """
    user_id = me(world)["id"]
    project = get_project(world, project_id, user_id)
    check_priority(priority)
    _check_due_filters(bool(due_today), bool(overdue), min_due_date, max_due_date)
    spec = parse_sort_by(sort_by or "+order_index", _TASK_SORTS)
    tasks = world.select(TASKS, "project_id = ?", (project["id"],))
    tasks = _filter_tasks(world, tasks, assignee_email=assignee_email, assigner_email=assigner_email,
                          priority=priority, is_completed=is_completed, due_today=bool(due_today),
                          label_id=label_id, overdue=bool(overdue), min_due_date=min_due_date,
                          max_due_date=max_due_date)
    tasks = _sort_tasks(tasks, *spec) if spec else tasks
    sections = sections_of(world, project["id"])
    if section_id is not None and section_id != 0:
        section = core.get_section(world, section_id, user_id)
        if section["project_id"] != project["id"]:
            raise api_error(f"Section {section_id} does not belong to project {project['id']}.")
        sections = [section]
    no_section = [] if section_id not in (None, 0) else [t for t in tasks if t.get("section_id") is None]
    grouped = [] if section_id == 0 else [
        {"section_id": s["id"], "name": s["name"], "order_index": s.get("order_index"),
         "tasks": [task_view(world, t) for t in tasks if t.get("section_id") == s["id"]]} for s in sections]
    return {"project_id": project["id"], "no_section_tasks": [task_view(world, t) for t in no_section],
            "sections": grouped}


def _filter_tasks(world: World, tasks: list[dict[str, Any]], *, assignee_email: str | None,
                  assigner_email: str | None, priority: str | None, is_completed: bool | None, due_today: bool,
                  label_id: int | None, overdue: bool, min_due_date: str | None,
                  max_due_date: str | None) -> list[dict[str, Any]]:
    if assignee_email is not None:
        uid = core.require_user(world, assignee_email, "assignee_email")["id"]
        tasks = [t for t in tasks if t.get("assignee_id") == uid]
    if assigner_email is not None:
        uid = core.require_user(world, assigner_email, "assigner_email")["id"]
        tasks = [t for t in tasks if t.get("assigner_id") == uid]
    if priority is not None:
        tasks = [t for t in tasks if t.get("priority") == priority]
    if is_completed is not None:
        tasks = [t for t in tasks if bool(t.get("is_completed")) == is_completed]
    if label_id is not None:
        tagged = {r["task_id"] for r in world.select(TASK_LABELS, "label_id = ?", (label_id,))}
        tasks = [t for t in tasks if t["id"] in tagged]
    today = core.today(world).isoformat()
    if due_today:
        tasks = [t for t in tasks if date_part(t.get("due_date")) == today]
    if overdue:
        tasks = [t for t in tasks if not t.get("is_completed") and (date_part(t.get("due_date")) or "9999") < today]
    low = core.check_filter_date(min_due_date, "min_due_date") or DEFAULT_MIN_DUE
    high = core.check_filter_date(max_due_date, "max_due_date") or DEFAULT_MAX_DUE
    narrowed = low != DEFAULT_MIN_DUE or high != DEFAULT_MAX_DUE

    def in_range(t: dict[str, Any]) -> bool:
        due = date_part(t.get("due_date"))
        return not narrowed if due is None else low <= due <= high

    return [t for t in tasks if in_range(t)]


def _sort_tasks(tasks: list[dict[str, Any]], attr: str, descending: bool) -> list[dict[str, Any]]:
    def value(t: dict[str, Any]) -> Any:
        if attr == "priority":
            return PRIORITY_RANK.get(t.get("priority") or "", 0)
        if attr == "due_date":
            return date_part(t.get("due_date"))
        return t.get(attr)

    present = [t for t in tasks if value(t) is not None]
    missing = [t for t in tasks if value(t) is None]
    base = sorted(present, key=lambda t: (t.get("order_index") or 0, t["id"]))
    return sorted(base, key=value, reverse=descending) + sorted(missing, key=lambda t: (t.get("order_index") or 0,
                                                                                        t["id"]))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TASKS, NOTIFICATIONS))
def todoist_assign_or_unassign_task(world: World, task_id: int, assignee_email: str | None = None) -> dict[str, str]:
    """Assigns a task to a collaborator of its project (notifying them), or clears the assignee.

    Args:
        task_id: the task's id.
        assignee_email: the email of the project owner or a collaborator; omit (None) to unassign.

    Returns:
        {message}
    """
    user = me(world)
    task = get_task(world, task_id, user["id"])
    if assignee_email is None:
        if task.get("assignee_id") is None:
            return {"message": "The task was not assigned to anyone."}
        world.update(TASKS, task_id, {"assignee_id": None, "assigner_id": None})
        return {"message": "Task unassigned."}
    assignee = core.require_user(world, assignee_email, "assignee_email")
    project = world.get(core.PROJECTS, task["project_id"])
    if assignee["id"] not in core.member_ids(world, project):
        raise api_error(f"{assignee_email} is not a collaborator of project {project['id']} ({project['name']!r}); "
                        "invite them first with todoist_send_project_invite.")
    world.update(TASKS, task_id, {"assignee_id": assignee["id"], "assigner_id": user["id"]})
    core.notify(world, assignee["id"], "task_assigned", "Task assigned to you",
                f"{user['first_name']} {user['last_name']} assigned you the task {task['title']!r}.",
                {"task_id": task_id, "project_id": project["id"]})
    return {"message": f"Task assigned to {assignee_email}."}


@tool(domain=APP, requires=AUTHED, tables=(TASKS, TASK_LABELS, LABELS))
def todoist_show_task(world: World, task_id: int) -> dict[str, Any]:
    """Returns one task in detail.

    Args:
        task_id: the task's id.

    Returns:
        {project_id, section_id, title, description, due_date, priority, is_completed, duration, duration_unit,
        order_index, created_at, task_id, creator, assignee, assigner, labels, num_sub_tasks, num_comments}
    """
    return task_view(world, get_task(world, task_id, me(world)["id"]))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TASKS,))
def todoist_update_task(world: World, task_id: int, title: str | None = None, description: str | None = None,
                        due_date: str | None = None, duration: float | None = None,
                        duration_unit: str | None = None, is_completed: bool | None = None,
                        order_index: int | None = None, priority: str | None = None) -> dict[str, str]:
    """Edits a task's fields, including completing or reopening it. Omitted fields stay unchanged.

    Args:
        task_id: the task's id.
        title: the new title (at least 1 character).
        description: the new description (replaces the old one).
        due_date: the new due date as YYYY-MM-DD, or the string 'None' to remove the due date.
        duration: the new duration (> 0), or 0 to remove the duration.
        duration_unit: 'minutes', 'hours' or 'days'.
        is_completed: true completes the task, false reopens it.
        order_index: the new position among the tasks of its project and section: 0 = top, negative counts
            from the end.
        priority: 'high', 'medium' or 'low'.

    Returns:
        {message}
    """
    user = me(world)
    task = get_task(world, task_id, user["id"])
    _update_work_item(world, TASKS, task, order_index, "title, description, due_date, duration, duration_unit, "
                      "is_completed, order_index or priority", title=title, description=description,
                      due_date=due_date, duration=duration, duration_unit=duration_unit, is_completed=is_completed,
                      priority=priority)
    if order_index is not None:
        core.move(world, TASKS, core.task_group(world, task["project_id"], task.get("section_id")), task, order_index)
    core.notify_collaborators(world, world.get(core.PROJECTS, task["project_id"]), user, "task_updated",
                              f"updated the task {task['title']!r}", {"task_id": task_id})
    return {"message": "Task updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TASKS, SUB_TASKS, TASK_LABELS, COMMENTS, ATTACHMENTS))
def todoist_delete_task(world: World, task_id: int) -> dict[str, str]:
    """Deletes a task with its sub-tasks, label links and comments.

    Args:
        task_id: the task's id.

    Returns:
        {message}
    """
    user = me(world)
    task = get_task(world, task_id, user["id"])
    core.delete_task(world, task_id)
    core.notify_collaborators(world, world.get(core.PROJECTS, task["project_id"]), user, "task_deleted",
                              f"deleted the task {task['title']!r}", {"task_id": task_id})
    return {"message": "Task deleted."}


def _work_item_fields(item: dict[str, Any], *, title: str | None, description: str | None, due_date: str | None,
                      duration: float | None, duration_unit: str | None, is_completed: bool | None,
                      priority: str | None) -> dict[str, Any]:
    """Validated column changes shared by task and sub-task updates."""
    check_text(title, "title")
    check_priority(priority)
    due = check_due_date(due_date, allow_clear=True)
    fields: dict[str, Any] = {k: v for k, v in (("title", title), ("description", description),
                                                ("is_completed", is_completed), ("priority", priority))
                              if v is not None}
    if due is not None:
        fields["due_date"] = None if due == CLEAR else due
    fields.update(duration_fields(duration, duration_unit, item.get("duration_unit"), updating=True))
    return fields


def _update_work_item(world: World, key: str, item: dict[str, Any], order_index: int | None, fields_named: str,
                      **changes: Any) -> None:
    """Write a task's or sub-task's validated changes (the error names ``fields_named`` when there are none);
    a new ``order_index`` is the caller's to apply."""
    fields = _work_item_fields(item, **changes)
    if not fields and order_index is None:
        raise api_error(f"Nothing to update: give at least one of {fields_named}.")
    world.update(key, item["id"], fields)


# ------------------------------------------------------------------------------------------ sub-tasks
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SUB_TASKS,))
def todoist_create_sub_task(world: World, task_id: int, title: str, description: str | None = "",
                            due_date: str | None = None, duration: float | None = None,
                            duration_unit: str | None = None, priority: str | None = "medium",
                            order_index: int = -1) -> dict[str, Any]:
    """Adds a sub-task under a task.

    Args:
        task_id: the parent task's id.
        title: the sub-task title (at least 1 character).
        description: free text.
        due_date: the due date as YYYY-MM-DD.
        duration: how long it takes (> 0; needs duration_unit).
        duration_unit: 'minutes', 'hours' or 'days'.
        priority: 'high', 'medium' (default) or 'low'.
        order_index: the position among the task's sub-tasks: 0 = top, -1 = last (default), negative values
            count from the end.

    Returns:
        {message, sub_task_id}
    """
    user_id = me(world)["id"]
    get_task(world, task_id, user_id)
    check_text(title, "title")
    due = check_due_date(due_date, allow_clear=False)
    priority = check_priority(priority) or "medium"
    dur = duration_fields(duration, duration_unit, updating=False)
    value = core.place(world, SUB_TASKS, world.select(SUB_TASKS, "task_id = ?", (task_id,)), order_index)
    sub_id = core.insert(world, SUB_TASKS, {
        "task_id": task_id, "user_id": user_id, "title": title, "description": description or "", "due_date": due,
        "priority": priority, "is_completed": False, "duration": dur.get("duration"),
        "duration_unit": dur.get("duration_unit"), "order_index": value, "created_at": core.now(world)})
    return {"message": "Sub-task created.", "sub_task_id": sub_id}


@tool(domain=APP, requires=AUTHED, tables=(SUB_TASKS,))
def todoist_show_sub_tasks(world: World, task_id: int) -> list[dict[str, Any]]:
    """Lists a task's sub-tasks in their order.

    Args:
        task_id: the parent task's id.

    Returns:
        list[{task_id, title, description, due_date, priority, is_completed, duration, duration_unit, order_index,
        created_at, sub_task_id}]
    """
    get_task(world, task_id, me(world)["id"])
    subs = world.select(SUB_TASKS, "task_id = ?", (task_id,))
    subs.sort(key=lambda s: (s.get("order_index") is None, s.get("order_index") or 0, s["id"]))
    return [sub_task_view(s) for s in subs]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SUB_TASKS,))
def todoist_update_sub_task(world: World, sub_task_id: int, title: str | None = None,
                            description: str | None = None, due_date: str | None = None,
                            duration: float | None = None, duration_unit: str | None = None,
                            priority: str | None = None, is_completed: bool | None = None,
                            order_index: int | None = None) -> dict[str, str]:
    """Edits a sub-task. Omitted fields stay unchanged.

    Args:
        sub_task_id: the sub-task's id.
        title: the new title (at least 1 character).
        description: the new description.
        due_date: the new due date as YYYY-MM-DD, or the string 'None' to remove it.
        duration: the new duration (> 0), or 0 to remove the duration.
        duration_unit: 'minutes', 'hours' or 'days'.
        priority: 'high', 'medium' or 'low'.
        is_completed: true completes the sub-task, false reopens it.
        order_index: the new position among the task's sub-tasks: 0 = top, negative counts from the end.

    Returns:
        {message}
    """
    sub = core.get_sub_task(world, sub_task_id, me(world)["id"])
    _update_work_item(world, SUB_TASKS, sub, order_index, "title, description, due_date, duration, duration_unit, "
                      "priority, is_completed or order_index", title=title, description=description,
                      due_date=due_date, duration=duration, duration_unit=duration_unit, is_completed=is_completed,
                      priority=priority)
    if order_index is not None:
        core.move(world, SUB_TASKS, world.select(SUB_TASKS, "task_id = ?", (sub["task_id"],)), sub, order_index)
    return {"message": "Sub-task updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SUB_TASKS,))
def todoist_delete_sub_task(world: World, sub_task_id: int) -> dict[str, str]:
    """Deletes a sub-task.

    Args:
        sub_task_id: the sub-task's id.

    Returns:
        {message}
    """
    core.get_sub_task(world, sub_task_id, me(world)["id"])
    world.delete(SUB_TASKS, sub_task_id)
    return {"message": "Sub-task deleted."}
