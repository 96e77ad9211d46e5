"""How Todoist rows are shown to the agent (the catalog's return shapes, plus a few helpful extras)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.todoist.core import date_part, user_brief
from mmtsb.apps.todoist.schema import ATTACHMENTS, COMMENTS, LABELS, SECTIONS, SUB_TASKS, TASK_LABELS, TASKS
from mmtsb.world.world import World


def label_view(world: World, label: dict[str, Any]) -> dict[str, Any]:
    return {"name": label["name"], "color": label.get("color"), "label_id": label["id"],
            "creator": user_brief(world, label.get("user_id"))}


def task_labels(world: World, task_id: int) -> list[dict[str, Any]]:
    out = []
    for link in world.select(TASK_LABELS, "task_id = ?", (task_id,)):
        label = world.get(LABELS, link["label_id"])
        if label is not None:
            out.append({"label_id": label["id"], "name": label["name"], "color": label.get("color")})
    return out


def task_view(world: World, task: dict[str, Any]) -> dict[str, Any]:
    return {"project_id": task["project_id"], "section_id": task.get("section_id"), "title": task["title"],
            "description": task.get("description"), "due_date": date_part(task.get("due_date")),
            "priority": task.get("priority"), "is_completed": bool(task.get("is_completed")),
            "duration": task.get("duration"), "duration_unit": task.get("duration_unit"),
            "order_index": task.get("order_index"), "created_at": task.get("created_at"), "task_id": task["id"],
            "creator": user_brief(world, task.get("user_id")), "assignee": user_brief(world, task.get("assignee_id")),
            "assigner": user_brief(world, task.get("assigner_id")), "labels": task_labels(world, task["id"]),
            "num_sub_tasks": len(world.select(SUB_TASKS, "task_id = ?", (task["id"],))),
            "num_comments": len(world.select(COMMENTS, "task_id = ?", (task["id"],)))}


def sub_task_view(sub: dict[str, Any]) -> dict[str, Any]:
    return {"task_id": sub["task_id"], "title": sub["title"], "description": sub.get("description"),
            "due_date": date_part(sub.get("due_date")), "priority": sub.get("priority"),
            "is_completed": bool(sub.get("is_completed")), "duration": sub.get("duration"),
            "duration_unit": sub.get("duration_unit"), "order_index": sub.get("order_index"),
            "created_at": sub.get("created_at"), "sub_task_id": sub["id"]}


def section_view(world: World, section: dict[str, Any]) -> dict[str, Any]:
    return {"project_id": section["project_id"], "name": section["name"], "order_index": section.get("order_index"),
            "created_at": section.get("created_at"), "section_id": section["id"],
            "num_tasks": len(world.select(TASKS, "section_id = ?", (section["id"],)))}


def attachment_names(world: World, comment_id: int) -> list[str]:
    return [a["file_name"] for a in world.select(ATTACHMENTS, "task_comment_id = ?", (comment_id,))]


def comment_view(world: World, comment: dict[str, Any]) -> dict[str, Any]:
    return {"task_id": comment["task_id"], "content": comment.get("content"), "created_at": comment.get("created_at"),
            "task_comment_id": comment["id"], "user": user_brief(world, comment.get("user_id")),
            "attachment_file_names": attachment_names(world, comment["id"])}


def notification_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"notification_id": row["id"], "type": row.get("type"), "title": row.get("title"),
            "message": row.get("message"), "read": bool(row.get("read")), "created_at": row.get("created_at"),
            "data": row.get("data") or {}}


def sections_of(world: World, project_id: int) -> list[dict[str, Any]]:
    rows = world.select(SECTIONS, "project_id = ?", (project_id,))
    return sorted(rows, key=lambda r: (r.get("order_index") is None, r.get("order_index") or 0, r["id"]))
