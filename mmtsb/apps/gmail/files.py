"""The bridge to the file-system app for attachments (TOOLS.md §4: ``file_system_access_token``).

Attachments are read from, and downloads written to, the ``file_system.files`` table of the same World.
The token must be the access token of the current file_system login (what ``file_system_login`` returns).
Paths are absolute (``/home/<name>/...``) or relative to the home directory (``~/...``).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.gmail.core import AttachmentData, now
from mmtsb.world import device
from mmtsb.world.world import World

FILES = "file_system.files"
DIRECTORIES = "file_system.directories"
DEFAULT_DOWNLOAD_DIR = "~/downloads/"


def fs_user_id(world: World, token: str | None) -> int:
    """Check the file-system token and return the id of the user it belongs to."""
    if not world.has_table(FILES):
        raise api_error("The file_system app is not available, so files cannot be attached or downloaded.")
    session = device.session_of(world, "file_system")
    if not token or session is None or token != session["access_token"]:
        raise api_error("Invalid file_system_access_token: pass the access_token returned by file_system_login "
                        "(log in to file_system first if needed).")
    username = session["username"]
    for key in ("file_system.users", "gmail.users"):
        if world.has_table(key):
            rows = world.select(key, "lower(email) = lower(?)", (username,))
            if rows:
                return int(rows[0]["id"])
    raise api_error(f"The file_system account {username!r} no longer exists.")


def home_of(world: World, user_id: int) -> str:
    """The user's home directory (``/home/<name>/``), learned from their file-system rows."""
    for key in (DIRECTORIES, FILES):
        if not world.has_table(key):
            continue
        for row in world.select(key, "user_id = ? AND tilde_path LIKE '~/%' AND path IS NOT NULL", (user_id,)):
            suffix = str(row["tilde_path"])[1:]
            if str(row["path"]).endswith(suffix):
                return str(row["path"])[: len(str(row["path"])) - len(suffix)] + "/"
    first = ""
    for key in ("file_system.users", "gmail.users"):
        if world.has_table(key) and (user := world.get(key, user_id)) is not None:
            first = str(user.get("first_name") or "")
            break
    try:  # the file-system app's own convention, when that app is present
        from mmtsb.apps.file_system.seed import home_path
    except ImportError:
        return f"/home/{re.sub(r'[^a-z0-9]+', '', first.lower()) or 'user'}/"
    return home_path(first)


def split_path(world: World, user_id: int, path: str, field: str) -> tuple[str, str]:
    """``(absolute path, tilde path)`` for a user-given path."""
    text = (path or "").strip()
    home = home_of(world, user_id)
    if text.startswith("~"):
        rest = text[1:].lstrip("/")
        absolute = home + rest
    elif text.startswith("/"):
        absolute = text
    else:
        raise api_error(f"{field} must be an absolute path (/...) or start with ~/; got {path!r}.")
    trailing = absolute.endswith("/")
    absolute = posixpath.normpath(absolute) + ("/" if trailing else "")
    tilde = "~/" + absolute[len(home):] if absolute.startswith(home) else absolute
    return absolute, tilde


def read_files(world: World, token: str | None, paths: list[str], field: str) -> list[AttachmentData]:
    """Load files for attaching (every path must be an existing file of the token's user)."""
    if not paths:
        raise api_error(f"{field} must contain at least one file path.")
    user_id = fs_user_id(world, token)
    out = []
    for p in paths:
        absolute, _ = split_path(world, user_id, p, field)
        rows = world.select(FILES, "path = ? AND user_id = ?", (absolute.rstrip("/"), user_id))
        if not rows:
            raise api_error(f"No file exists at {p!r} in the file system ({field}).")
        row = rows[0]
        out.append(AttachmentData(posixpath.basename(absolute.rstrip("/")), row.get("content"),
                                  row.get("compressed_data")))
    return out


def _ensure_directories(world: World, user_id: int, directory: str) -> None:
    """Create missing directory rows down to ``directory`` (inside the home directory only)."""
    if not world.has_table(DIRECTORIES):
        return
    home = home_of(world, user_id)
    if not directory.startswith(home):
        return
    parts = [p for p in directory[len(home):].split("/") if p]
    current = home
    for part in ["", *parts]:
        current = current + (part + "/" if part else "")
        if world.select(DIRECTORIES, "path = ? AND user_id = ?", (current, user_id)):
            continue
        row = {"path": current, "tilde_path": "~/" + current[len(home):], "user_id": user_id,
               "created_at": now(world), "updated_at": now(world)}
        world.insert(DIRECTORIES, {k: v for k, v in row.items() if world.table(DIRECTORIES).has(k)})


def write_file(world: World, token: str | None, target: str | None, file_name: str, content: str | None,
               compressed: Any, overwrite: bool) -> str:
    """Save an attachment into the file system; returns the absolute path written."""
    user_id = fs_user_id(world, token)
    absolute, _ = split_path(world, user_id, target or DEFAULT_DOWNLOAD_DIR, "download_to_file_path")
    is_dir = absolute.endswith("/") or (world.has_table(DIRECTORIES) and bool(
        world.select(DIRECTORIES, "path = ? AND user_id = ?", (absolute + "/", user_id))))
    if is_dir:
        absolute = absolute.rstrip("/") + "/" + file_name
    if world.has_table(DIRECTORIES) and world.select(DIRECTORIES, "path = ? AND user_id = ?",
                                                      (absolute + "/", user_id)):
        raise api_error(f"{absolute!r} is a directory; give a file path or a directory ending with '/'.")
    home = home_of(world, user_id)
    tilde = "~/" + absolute[len(home):] if absolute.startswith(home) else absolute
    existing = world.select(FILES, "path = ? AND user_id = ?", (absolute, user_id))
    t = world.table(FILES)
    if existing:
        if not overwrite:
            raise api_error(f"A file already exists at {absolute!r}; pass overwrite=true to replace it.")
        fields = {"content": content, "compressed_data": compressed, "updated_at": now(world)}
        world.update(FILES, existing[0]["id"], {k: v for k, v in fields.items() if t.has(k)})
        return absolute
    _ensure_directories(world, user_id, posixpath.dirname(absolute) + "/")
    row = {"path": absolute, "tilde_path": tilde, "user_id": user_id, "content": content,
           "compressed_data": compressed if compressed is not None else [], "created_at": now(world),
           "updated_at": now(world)}
    world.insert(FILES, {k: v for k, v in row.items() if t.has(k)})
    return absolute
