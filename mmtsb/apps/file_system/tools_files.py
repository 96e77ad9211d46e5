"""File tools: show, create, update, delete, check, copy and move single files of the logged-in user."""

from __future__ import annotations

import posixpath
from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.file_system.core import APP, AUTHED, DIRECTORIES, FILES, Tree, dir_text, now, parent_of
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _file_view(path: str, row: dict[str, Any]) -> dict[str, Any]:
    return {"file_id": row["id"], "path": path, "content": row.get("content") or "",
            "created_at": row.get("created_at"), "updated_at": row.get("updated_at")}


@tool(domain=APP, requires=AUTHED, tables=(FILES,))
def file_system_show_file(world: World, file_path: str) -> dict[str, Any]:
    """Returns a file's content and metadata.

    Args:
        file_path: the file, absolute (/home/<name>/notes.txt) or under your home directory (~/notes.txt).
            Paths are case-sensitive; use file_system_show_directory to find the exact name.

    Returns:
        {file_id, path, content, created_at, updated_at} (path is absolute)
    """
    tree = Tree.load(world)
    path = tree.require_file(file_path, "file_path")
    return _file_view(path, tree.files[path])


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FILES, DIRECTORIES))
def file_system_create_file(world: World, file_path: str, content: str | None = "",
                            overwrite: bool | None = False) -> dict[str, Any]:
    """Creates a file with given text content; missing parent directories are created (as AppWorld does).

    Args:
        file_path: where to create it, absolute (/...) or under your home directory (~/...); the file name has
            an extension (e.g. notes.txt) and the path must not end with '/'.
        content: the text to write (empty by default).
        overwrite: replace an existing file at that path (the new file gets a new file_id) instead of failing.

    Returns:
        {message, file_path} (the absolute path)
    """
    tree = Tree.load(world)
    if (file_path or "").strip().endswith("/"):
        raise api_error(f"file_path {file_path!r} ends with '/', which names a directory; give a file path.")
    path = tree.path(file_path, "file_path", "file")
    if tree.is_dir(path):
        raise api_error(f"file_path {file_path!r} is an existing directory.")
    if tree.is_file(path):
        if not overwrite:
            raise api_error(f"A file already exists at {path!r}; pass overwrite=True to replace it.")
        tree.remove_file(path)          # replaced by a new file (a new file_id), as in AppWorld
    tree.make_dirs(parent_of(path))
    tree.touch(parent_of(path))
    tree.add_file(path, content or "")
    return {"message": "File created.", "file_path": path}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FILES,))
def file_system_update_file(world: World, file_path: str, content: str) -> dict[str, Any]:
    """Replaces a file's content (the whole text; read it first with file_system_show_file to edit it).

    Args:
        file_path: the existing file, absolute (/...) or under your home directory (~/...).
        content: the new full content.

    Returns:
        {message, file_path} (the absolute path)
    """
    tree = Tree.load(world)
    path = tree.require_file(file_path, "file_path")
    tree.set_file(path, {"content": content, "updated_at": now(world)})
    return {"message": "File updated.", "file_path": path}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FILES, DIRECTORIES))
def file_system_delete_file(world: World, file_path: str) -> dict[str, Any]:
    """Deletes a file.

    Args:
        file_path: the existing file, absolute (/...) or under your home directory (~/...).

    Returns:
        {message, file_path} (the absolute path)
    """
    tree = Tree.load(world)
    path = tree.require_file(file_path, "file_path")
    tree.remove_file(path)
    tree.touch(parent_of(path))
    return {"message": "File deleted.", "file_path": path}


@tool(domain=APP, requires=AUTHED, tables=(FILES,))
def file_system_file_exists(world: World, file_path: str) -> dict[str, bool]:
    """Checks whether a file exists (false for a directory at that path).

    Args:
        file_path: the path to check, absolute (/...) or under your home directory (~/...); at least 1 character.

    Returns:
        {exists}
    """
    tree = Tree.load(world)
    return {"exists": tree.is_file(tree.path(file_path, "file_path", "file"))}


def _destination(tree: Tree, source: str, destination_file_path: str) -> str:
    """The target file path: into an existing directory (or one written with a trailing '/') it keeps its name."""
    text = (destination_file_path or "").strip()
    target = tree.path(text, "destination_file_path")
    if text.endswith("/") or tree.is_dir(target):
        if not tree.is_dir(target):
            raise api_error(f"Directory {dir_text(target)!r} does not exist; create it first with "
                            f"file_system_create_directory.")
        target = tree.path(dir_text(target) + posixpath.basename(source), "destination_file_path")
    if target == source:
        raise api_error("source_file_path and destination_file_path are the same file.")
    if tree.is_dir(target):
        raise api_error(f"destination_file_path {dir_text(target)!r} is a directory.")
    return target


def _place(tree: Tree, source: str, target: str, overwrite: bool | None, retain_dates: bool | None) -> None:
    """Write a copy of ``source`` at ``target`` (replacing an existing file only with ``overwrite``; missing
    directories are created, as AppWorld does)."""
    src = tree.files[source]
    stamp = now(tree.world)
    created = src.get("created_at") if retain_dates else stamp
    updated = src.get("updated_at") if retain_dates else stamp
    if tree.is_file(target):
        if not overwrite:
            raise api_error(f"A file already exists at {target!r}; pass overwrite=True to replace it.")
        tree.remove_file(target)        # replaced by a new file (a new file_id), as in AppWorld
    tree.make_dirs(parent_of(target))
    tree.touch(parent_of(target))
    tree.add_file(target, src.get("content") or "", src.get("compressed_data") or [], created, updated)


def _copy(world: World, source_file_path: str, destination_file_path: str, overwrite: bool | None,
          retain_dates: bool | None) -> tuple[Tree, str, str]:
    """Copy the source file to its destination: the loaded tree, and the source and target paths."""
    tree = Tree.load(world)
    source = tree.require_file(source_file_path, "source_file_path")
    target = _destination(tree, source, destination_file_path)
    _place(tree, source, target, overwrite, retain_dates)
    return tree, source, target


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FILES, DIRECTORIES))
def file_system_copy_file(world: World, source_file_path: str, destination_file_path: str,
                          overwrite: bool | None = False, retain_dates: bool | None = False) -> dict[str, Any]:
    """Copies a file, optionally keeping its timestamps.

    Args:
        source_file_path: the existing file to copy, absolute (/...) or under your home directory (~/...).
        destination_file_path: the new file's path; an existing directory (or a path ending with '/') receives a
            copy with the same file name. Missing directories are created.
        overwrite: replace an existing file at the destination instead of failing.
        retain_dates: give the copy the source's created_at/updated_at instead of the current time.

    Returns:
        {message, destination_file_path} (the absolute path)
    """
    target = _copy(world, source_file_path, destination_file_path, overwrite, retain_dates)[2]
    return {"message": "File copied.", "destination_file_path": target}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FILES, DIRECTORIES))
def file_system_move_file(world: World, source_file_path: str, destination_file_path: str,
                          overwrite: bool | None = False, retain_dates: bool | None = False) -> dict[str, Any]:
    """Moves/renames a file (the source is removed).

    Args:
        source_file_path: the existing file to move, absolute (/...) or under your home directory (~/...).
        destination_file_path: the new path; an existing directory (or a path ending with '/') receives the file
            under its current name. Missing directories are created.
        overwrite: replace an existing file at the destination instead of failing.
        retain_dates: keep the file's created_at/updated_at instead of stamping the current time.

    Returns:
        {message, destination_file_path} (the absolute path)
    """
    tree, source, target = _copy(world, source_file_path, destination_file_path, overwrite, retain_dates)
    tree.remove_file(source)
    tree.touch(parent_of(source))
    return {"message": "File moved.", "destination_file_path": target}
