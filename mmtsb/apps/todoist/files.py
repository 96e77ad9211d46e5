"""Reading and writing the logged-in user's files in the file-system app (comment attachments).

Todoist reaches the file system the way the reference does: the caller passes the access token that
``file_system_login`` returned. Rows follow the file-system app's layout (``file_system.files`` and
``file_system.directories`` with ``path``, ``tilde_path``, ``user_id``, ...); only columns that exist are
written, so this keeps working as that app grows.
"""

from __future__ import annotations

import posixpath
from typing import Any

from mmtsb.apps.common import api_error, current_user
from mmtsb.world import device
from mmtsb.world.world import World

FS = "file_system"
FILES = "file_system.files"
DIRS = "file_system.directories"


def check_token(world: World, token: str | None) -> dict[str, Any]:
    """The file-system user behind a valid access token."""
    session = device.session_of(world, FS)
    if not world.has_table(FILES) or session is None or not token or token.strip() != session["access_token"]:
        raise api_error("Invalid file_system_access_token: log in with file_system_login and pass the "
                        "access_token it returns.")
    return current_user(world, FS)


def home_of(world: World, user: dict[str, Any]) -> str:
    """The user's home directory (``/home/<name>/``), learned from their rows when possible."""
    for key in (DIRS, FILES):
        if not world.has_table(key):
            continue
        for row in world.select(key, "user_id = ?", (user["id"],)):
            path, tilde = row.get("path") or "", row.get("tilde_path") or ""
            if tilde.startswith("~/") and path.endswith(tilde[2:]):
                return path[:len(path) - len(tilde[2:])] or "/"
    from mmtsb.apps.file_system import home_path  # lazy: the file-system app owns the home-directory rule

    return home_path(user.get("first_name") or "")


def resolve(world: World, user: dict[str, Any], path: str, field: str) -> str:
    """An absolute path from ``/...`` or ``~/...`` (a trailing ``/`` is kept)."""
    text = (path or "").strip()
    if text == "~" or text.startswith("~/"):
        text = home_of(world, user) + text[2:]
    elif not text.startswith("/"):
        raise api_error(f"Invalid {field} {path!r}: give an absolute path (/...) or one under your home (~/...).")
    trailing = text.endswith("/")
    norm = posixpath.normpath(text)
    return norm + "/" if trailing and norm != "/" else norm


def tilde(world: World, user: dict[str, Any], path: str) -> str:
    home = home_of(world, user)
    return "~/" + path[len(home):] if path.startswith(home) else path


def read_file(world: World, user: dict[str, Any], path: str, field: str) -> tuple[str, str]:
    """``(file name, content)`` of one of the user's files."""
    full = resolve(world, user, path, field)
    rows = world.select(FILES, "path = ? AND user_id = ?", (full, user["id"]))
    if not rows:
        raise api_error(f"File {path!r} does not exist in your file system.")
    return posixpath.basename(full), rows[0].get("content") or ""


def _is_dir(world: World, user: dict[str, Any], path: str) -> bool:
    if not world.has_table(DIRS):
        return False
    return bool(world.select(DIRS, "path = ? AND user_id = ?", (path.rstrip("/") + "/", user["id"])))


def write_file(world: World, user: dict[str, Any], target: str | None, file_name: str, content: str,
               overwrite: bool) -> str:
    """Save ``content`` at ``target`` (a file path, or a directory to put ``file_name`` in; default
    ``~/downloads``); returns the absolute path written."""
    full = resolve(world, user, target or "~/downloads/", "download_to_file_path")
    if full.endswith("/") or _is_dir(world, user, full):
        full = full.rstrip("/") + "/" + file_name
    now = world.clock.now_str()
    existing = world.select(FILES, "path = ? AND user_id = ?", (full, user["id"]))
    if existing:
        if not overwrite:
            raise api_error(f"A file already exists at {full!r}; pass overwrite=True to replace it.")
        world.update(FILES, existing[0]["id"], _only(world, FILES, {"content": content, "updated_at": now}))
        return full
    _ensure_parents(world, user, full, now)
    world.insert(FILES, _only(world, FILES, {"id": world.next_id(FILES), "path": full,
                                             "tilde_path": tilde(world, user, full), "user_id": user["id"],
                                             "content": content, "compressed_data": [], "created_at": now,
                                             "updated_at": now}))
    return full


def _ensure_parents(world: World, user: dict[str, Any], full: str, now: str) -> None:
    if not world.has_table(DIRS):
        return
    home = home_of(world, user)
    parts = posixpath.dirname(full).strip("/").split("/")
    current = "/"
    for part in parts:
        if not part:
            continue
        current += part + "/"
        if len(current) <= len(home) and home.startswith(current):
            continue  # the home directory and its ancestors are the file system's own business
        if not world.select(DIRS, "path = ? AND user_id = ?", (current, user["id"])):
            world.insert(DIRS, _only(world, DIRS, {"id": world.next_id(DIRS), "path": current,
                                                   "tilde_path": tilde(world, user, current), "user_id": user["id"],
                                                   "created_at": now, "updated_at": now}))


def _only(world: World, key: str, row: dict[str, Any]) -> dict[str, Any]:
    t = world.table(key)
    return {k: v for k, v in row.items() if t.has(k)}
