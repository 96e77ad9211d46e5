"""Writing receipts into the file-system app (TOOLS.md §4: the ``file_system_access_token`` convention).

The caller passes the access token that ``file_system_login`` returned; the receipt lands in that user's
``file_system.files`` (parent directories are created as needed). Paths are absolute (``/home/<name>/...``)
or under the home directory (``~/...``); a path ending with ``/`` or naming an existing directory receives
the receipt under its default file name. Only columns the file-system tables have are written.
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
DEFAULT_DIR = "~/downloads/"


def fs_user(world: World, token: str | None) -> dict[str, Any]:
    """The file-system user a valid access token belongs to."""
    session = device.session_of(world, FS) if world.has_table(FILES) else None
    if session is None or not token or token.strip() != session["access_token"]:
        raise api_error("Invalid file_system_access_token: log in with file_system_login and pass the "
                        "access_token it returns.")
    return current_user(world, FS)


def home_of(world: World, user: dict[str, Any]) -> str:
    """The user's home directory (``/home/<name>/``), learned from their rows when possible."""
    for key in (DIRS, FILES):
        if not world.has_table(key):
            continue
        for row in world.select(key, "user_id = ? AND tilde_path LIKE '~/%'", (user["id"],)):
            path, tilde = str(row.get("path") or ""), str(row["tilde_path"])
            if path.endswith(tilde[2:]):
                return path[:len(path) - len(tilde[2:])] or "/"
    from mmtsb.apps.file_system import home_path  # lazy: the file-system app owns the home rule

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


def _tilde(home: str, path: str) -> str:
    return "~/" + path[len(home):] if path.startswith(home) else path


def _only(world: World, key: str, row: dict[str, Any]) -> dict[str, Any]:
    t = world.table(key)
    return {k: v for k, v in row.items() if t.has(k)}


def write_receipt(world: World, token: str | None, target: str | None, file_name: str, content: str,
                  overwrite: bool) -> str:
    """Save a receipt; returns the absolute path written."""
    user = fs_user(world, token)
    full = resolve(world, user, target or DEFAULT_DIR, "download_to_file_path")
    is_dir = world.has_table(DIRS) and bool(world.select(DIRS, "path = ? AND user_id = ?",
                                                         (full.rstrip("/") + "/", user["id"])))
    if full.endswith("/") or is_dir:
        full = full.rstrip("/") + "/" + file_name
    now = world.clock.now_str()
    home = home_of(world, user)
    existing = world.select(FILES, "path = ? AND user_id = ?", (full, user["id"]))
    if existing:
        if not overwrite:
            raise api_error(f"A file already exists at {full!r}; pass overwrite=True to replace it.")
        world.update(FILES, existing[0]["id"], _only(world, FILES, {"content": content, "updated_at": now}))
        return full
    _ensure_parents(world, user, home, full, now)
    world.insert(FILES, _only(world, FILES, {"id": world.next_id(FILES), "path": full,
                                             "tilde_path": _tilde(home, full), "user_id": user["id"],
                                             "content": content, "compressed_data": [], "created_at": now,
                                             "updated_at": now}))
    return full


def _ensure_parents(world: World, user: dict[str, Any], home: str, full: str, now: str) -> None:
    """Create the missing directories between the home directory and the file."""
    if not world.has_table(DIRS):
        return
    current = "/"
    for part in posixpath.dirname(full).strip("/").split("/"):
        if not part:
            continue
        current += part + "/"
        if len(current) <= len(home) and home.startswith(current):
            continue  # the home directory and its ancestors belong to the file system itself
        if not world.select(DIRS, "path = ? AND user_id = ?", (current, user["id"])):
            world.insert(DIRS, _only(world, DIRS, {"id": world.next_id(DIRS), "path": current,
                                                   "tilde_path": _tilde(home, current), "user_id": user["id"],
                                                   "created_at": now, "updated_at": now}))
