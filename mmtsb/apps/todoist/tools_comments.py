"""Todoist task comments and their file attachments (exchanged with the file-system app)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paginate
from mmtsb.apps.file_system import api as fs
from mmtsb.apps.file_system.core import DIRECTORIES as FS_DIRECTORIES, FILES as FS_FILES
from mmtsb.apps.todoist import core
from mmtsb.apps.todoist.core import AUTHED, get_comment, get_task, me, require_author
from mmtsb.apps.todoist.schema import APP, ATTACHMENTS, COMMENTS, TASKS
from mmtsb.apps.todoist.views import comment_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _attachment(world: World, comment_id: int, file_name: str) -> dict[str, Any]:
    rows = world.select(ATTACHMENTS, "task_comment_id = ? AND file_name = ?", (comment_id, (file_name or "").strip()))
    if not rows:
        raise api_error(f"Task comment {comment_id} has no attachment named {file_name!r}.")
    return rows[0]


def _attach(world: World, comment_id: int, name: str, content: str, overwrite: bool) -> None:
    existing = world.select(ATTACHMENTS, "task_comment_id = ? AND file_name = ?", (comment_id, name))
    if existing and not overwrite:
        raise api_error(f"Task comment {comment_id} already has an attachment named {name!r}; "
                        "pass overwrite=True to replace it.")
    # a replaced attachment is a new row (a new id), as in AppWorld: written before the old one goes
    core.insert(world, ATTACHMENTS, {"task_comment_id": comment_id, "file_name": name, "file_content": content,
                                     "created_at": core.now(world)})
    for row in existing:
        world.delete(ATTACHMENTS, row["id"])


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENTS, ATTACHMENTS))
def todoist_post_task_comment(world: World, task_id: int, content: str, attachment_file_paths: list[str] | None = None,
                              file_system_access_token: str | None = None) -> dict[str, Any]:
    """Comments on a task, optionally attaching files from your file system.

    Args:
        task_id: the task's id.
        content: the comment text (may be empty only when files are attached).
        attachment_file_paths: files to attach, as absolute paths (/...) or paths under your home (~/...).
        file_system_access_token: the access_token from file_system_login; required only with attachments.

    Returns:
        {message, task_comment_id}
    """
    user = me(world)
    user_id = user["id"]
    task = get_task(world, task_id, user_id)
    paths = list(attachment_file_paths or [])
    if not (content or "").strip() and not paths:
        raise api_error("content must not be empty (or attach at least one file).")
    loaded: list[tuple[str, str]] = []
    if paths:
        loaded = [fs.read_file(world, file_system_access_token, p, "attachment_file_paths")[:2] for p in paths]
        names = [n for n, _ in loaded]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise api_error(f"Two attachments share the file name {dupes[0]!r}; attach files with distinct names.")
    comment_id = core.insert(world, COMMENTS, {"task_id": task_id, "user_id": user_id, "content": content or "",
                                               "created_at": core.now(world)})
    for name, data in loaded:
        _attach(world, comment_id, name, data, overwrite=False)
    _notify(world, task, user, "task_comment_added", "commented on", comment_id)
    return {"message": "Comment posted.", "task_comment_id": comment_id}


@tool(domain=APP, requires=AUTHED, tables=(COMMENTS, ATTACHMENTS))
def todoist_show_task_comments(world: World, task_id: int, page_index: int | None = 0,
                               page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists a task's comments, oldest first.

    Args:
        task_id: the task's id.
        page_index: the page to return, from 0.
        page_limit: comments per page, 1 to 20.

    Returns:
        list[{task_id, content, created_at, task_comment_id, user, attachment_file_names}]
    """
    get_task(world, task_id, me(world)["id"])
    comments = world.select(COMMENTS, "task_id = ?", (task_id,), order_by="created_at, id")
    return [comment_view(world, c) for c in paginate(comments, page_index, page_limit)]


@tool(domain=APP, requires=AUTHED, tables=(COMMENTS, ATTACHMENTS))
def todoist_show_task_comment(world: World, task_comment_id: int) -> dict[str, Any]:
    """Returns one task comment.

    Args:
        task_comment_id: the comment's id.

    Returns:
        {task_id, content, created_at, task_comment_id, user, attachment_file_names}
    """
    return comment_view(world, get_comment(world, task_comment_id, me(world)["id"]))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENTS,))
def todoist_update_task_comment(world: World, task_comment_id: int, content: str | None = None) -> dict[str, str]:
    """Edits the text of a comment you wrote.

    Args:
        task_comment_id: the comment's id.
        content: the new text (replaces the old one).

    Returns:
        {message}
    """
    user = me(world)
    comment = get_comment(world, task_comment_id, user["id"])
    require_author(comment, user["id"], "edit it")
    if content is None:
        raise api_error("Nothing to update: give content.")
    world.update(COMMENTS, task_comment_id, {"content": content})
    _notify(world, world.get(TASKS, comment["task_id"]), user, "task_comment_updated", "edited a comment on",
            task_comment_id)
    return {"message": "Comment updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENTS, ATTACHMENTS))
def todoist_delete_task_comment(world: World, task_comment_id: int) -> dict[str, str]:
    """Deletes a comment you wrote (with its attachments).

    Args:
        task_comment_id: the comment's id.

    Returns:
        {message}
    """
    user = me(world)
    comment = get_comment(world, task_comment_id, user["id"])
    require_author(comment, user["id"], "delete it")
    core.delete_comment(world, task_comment_id)
    _notify(world, world.get(TASKS, comment["task_id"]), user, "task_comment_deleted", "deleted a comment on",
            task_comment_id)
    return {"message": "Comment deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ATTACHMENTS,))
def todoist_upload_attachment(world: World, task_comment_id: int, upload_from_file_path: str,
                              file_system_access_token: str, overwrite: bool | None = False) -> dict[str, Any]:
    """Attaches a file from your file system to a comment you wrote.

    Args:
        task_comment_id: the comment's id.
        upload_from_file_path: the file, as an absolute path (/...) or a path under your home (~/...).
        file_system_access_token: the access_token from file_system_login.
        overwrite: replace an attachment of the same file name instead of failing.

    Returns:
        {message, attachment_file_name}
    """
    user = me(world)
    comment = get_comment(world, task_comment_id, user["id"])
    require_author(comment, user["id"], "attach files to it")
    name, data, _ = fs.read_file(world, file_system_access_token, upload_from_file_path, "upload_from_file_path")
    _attach(world, task_comment_id, name, data, overwrite=bool(overwrite))
    _notify(world, world.get(TASKS, comment["task_id"]), user, "task_comment_updated", "attached a file to a comment on",
            task_comment_id)
    return {"message": "Attachment uploaded.", "attachment_file_name": name}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ATTACHMENTS, FS_FILES, FS_DIRECTORIES))
def todoist_download_attachment(world: World, task_comment_id: int, attachment_file_name: str,
                                file_system_access_token: str, download_to_file_path: str | None = None,
                                overwrite: bool | None = False) -> dict[str, Any]:
    """Saves a comment attachment into your file system.

    Args:
        task_comment_id: the comment's id.
        attachment_file_name: the attachment's file name (see attachment_file_names of the comment).
        file_system_access_token: the access_token from file_system_login.
        download_to_file_path: where to save: a file path or a directory (ending in /), absolute or under
            ~/; default ~/downloads/ keeping the attachment's name.
        overwrite: replace an existing file at that path instead of failing.

    Returns:
        {message, file_path}
    """
    comment = get_comment(world, task_comment_id, me(world)["id"])
    attachment = _attachment(world, comment["id"], attachment_file_name)
    path = fs.save_file(world, file_system_access_token, download_to_file_path, attachment["file_name"],
                        attachment.get("file_content") or "", bool(overwrite))
    return {"message": "Attachment downloaded.", "file_path": path}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ATTACHMENTS,))
def todoist_delete_attachment(world: World, task_comment_id: int, attachment_file_name: str) -> dict[str, str]:
    """Removes an attachment from a comment you wrote.

    Args:
        task_comment_id: the comment's id.
        attachment_file_name: the attachment's file name.

    Returns:
        {message}
    """
    user = me(world)
    comment = get_comment(world, task_comment_id, user["id"])
    require_author(comment, user["id"], "remove its attachments")
    world.delete(ATTACHMENTS, _attachment(world, comment["id"], attachment_file_name)["id"])
    _notify(world, world.get(TASKS, comment["task_id"]), user, "task_comment_updated",
            "removed an attachment from a comment on", task_comment_id)
    return {"message": "Attachment deleted."}


def _notify(world: World, task: dict[str, Any], actor: dict[str, Any], kind: str, did: str, comment_id: int) -> None:
    """Tell the task's project members what the actor did to a comment (as AppWorld does)."""
    core.notify_collaborators(world, world.get(core.PROJECTS, task["project_id"]), actor, kind,
                              f"{did} the task {task['title']!r}", {"task_id": task["id"], "task_comment_id": comment_id})
