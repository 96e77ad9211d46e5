"""Receipts: reading them from, and downloading them into, the file-system app (``file_system_access_token``).

The caller passes the access token that ``file_system_login`` returned (TOOLS.md §4). Paths are absolute
(``/home/<name>/...``) or under the home directory (``~/...``); downloads default to ``~/downloads/``.
Both expenses and payments keep a receipt as ``receipt_file_name`` / ``receipt_file_content`` and count
downloads in ``receipt_download_count``.
"""

from __future__ import annotations

import posixpath
from typing import Any

from mmtsb.apps.common import api_error, current_user
from mmtsb.apps.splitwise.core import now
from mmtsb.world import device
from mmtsb.world.world import World

FS = "file_system"
FILES = "file_system.files"
DIRS = "file_system.directories"


def fs_user(world: World, token: str | None) -> dict[str, Any]:
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
            if tilde.startswith("~/") and path.endswith(tilde[2:]) and len(path) > len(tilde[2:]):
                return path[:len(path) - len(tilde[2:])]
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


def read_receipt(world: World, token: str | None, path: str, field: str = "receipt_file_path") -> tuple[str, str]:
    """``(file name, content)`` of one of the token user's files."""
    user = fs_user(world, token)
    full = resolve(world, user, path, field)
    rows = world.select(FILES, "path = ? AND user_id = ?", (full.rstrip("/"), user["id"]))
    if not rows:
        raise api_error(f"File {path!r} does not exist in your file system ({field}).")
    return posixpath.basename(full.rstrip("/")), rows[0].get("content") or ""


def _tilde(world: World, user: dict[str, Any], path: str) -> str:
    home = home_of(world, user)
    return "~/" + path[len(home):] if path.startswith(home) else path


def _only(world: World, key: str, row: dict[str, Any]) -> dict[str, Any]:
    t = world.table(key)
    return {k: v for k, v in row.items() if t.has(k)}


def _is_dir(world: World, user: dict[str, Any], path: str) -> bool:
    return world.has_table(DIRS) and bool(
        world.select(DIRS, "path = ? AND user_id = ?", (path.rstrip("/") + "/", user["id"])))


def write_download(world: World, token: str | None, target: str | None, file_name: str, content: str,
                   overwrite: bool) -> str:
    """Save ``content`` at ``target`` (a file path, or a directory to put ``file_name`` in; default
    ``~/downloads/``); returns the absolute path written."""
    user = fs_user(world, token)
    full = resolve(world, user, target or "~/downloads/", "download_to_file_path")
    if full.endswith("/") or _is_dir(world, user, full):
        full = full.rstrip("/") + "/" + file_name
    stamp = now(world)
    existing = world.select(FILES, "path = ? AND user_id = ?", (full, user["id"]))
    if existing:
        if not overwrite:
            raise api_error(f"A file already exists at {full!r}; pass overwrite=True to replace it.")
        world.update(FILES, existing[0]["id"], _only(world, FILES, {"content": content, "updated_at": stamp}))
        return full
    _ensure_parents(world, user, full, stamp)
    world.insert(FILES, _only(world, FILES, {"id": world.next_id(FILES), "path": full,
                                             "tilde_path": _tilde(world, user, full), "user_id": user["id"],
                                             "content": content, "compressed_data": [], "created_at": stamp,
                                             "updated_at": stamp}))
    return full


def _ensure_parents(world: World, user: dict[str, Any], full: str, stamp: str) -> None:
    """Create the missing directories between the home directory and the file."""
    if not world.has_table(DIRS):
        return
    home = home_of(world, user)
    current = "/"
    for part in posixpath.dirname(full).strip("/").split("/"):
        if not part:
            continue
        current += part + "/"
        if len(current) <= len(home) and home.startswith(current):
            continue  # the home directory and its ancestors belong to the file system itself
        if not world.select(DIRS, "path = ? AND user_id = ?", (current, user["id"])):
            world.insert(DIRS, _only(world, DIRS, {"id": world.next_id(DIRS), "path": current,
                                                   "tilde_path": _tilde(world, user, current),
                                                   "user_id": user["id"], "created_at": stamp,
                                                   "updated_at": stamp}))


# ---------------------------------------------------------------------------------------------- receipts
def attach(world: World, key: str, record: dict[str, Any], path: str, token: str, overwrite: bool | None) -> None:
    """Store a file as the receipt of an expense or payment row of table ``key``."""
    if record.get("receipt_file_name") and not overwrite:
        raise api_error(f"This record already has a receipt ({record['receipt_file_name']!r}); pass "
                        "overwrite=True to replace it.")
    name, content = read_receipt(world, token, path)
    world.update(key, record["id"], {"receipt_file_name": name, "receipt_file_content": content})


def detach(world: World, key: str, record: dict[str, Any]) -> None:
    if not record.get("receipt_file_name"):
        raise api_error("This record has no receipt file to delete.")
    world.update(key, record["id"], {"receipt_file_name": None, "receipt_file_content": None})


def download(world: World, key: str, record: dict[str, Any], token: str, target: str | None,
             overwrite: bool | None) -> str:
    """Write the receipt into the file system and count the download; returns the path written."""
    if not record.get("receipt_file_name"):
        raise api_error("This record has no receipt file to download.")
    path = write_download(world, token, target, record["receipt_file_name"],
                          record.get("receipt_file_content") or "", bool(overwrite))
    world.update(key, record["id"], {"receipt_download_count": int(record.get("receipt_download_count") or 0) + 1})
    return path
