"""Directory tools: create, delete, list, check, copy and move directory trees of the logged-in user."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.file_system.core import (
    APP,
    AUTHED,
    DIRECTORIES,
    FILES,
    Tree,
    dir_text,
    is_under,
    now,
    parent_of,
)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

ENTRY_TYPES = ("all", "files", "directories")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DIRECTORIES,))
def file_system_create_directory(world: World, directory_path: str, recursive: bool | None = False,
                                 allow_if_exists: bool | None = True) -> dict[str, str]:
    """Creates a directory, optionally with missing parents.

    Args:
        directory_path: the new directory, absolute (/home/<name>/trips/) or under your home directory (~/trips/);
            a directory name has no extension (no '.').
        recursive: also create missing parent directories; without it the parent must already exist.
        allow_if_exists: succeed without changes when the directory already exists (fail when false).

    Returns:
        {message}
    """
    tree = Tree.load(world)
    path = tree.path(directory_path, "directory_path", "directory")
    if tree.is_file(path):
        raise api_error(f"A file already exists at {path!r}; a directory cannot have the same path.")
    if tree.is_dir(path):
        if allow_if_exists is False:
            raise api_error(f"Directory {dir_text(path)!r} already exists.")
        return {"message": f"Directory {dir_text(path)} already exists."}
    if not recursive:
        tree.require_parent(path, "directory_path")
    created = tree.make_dirs(path)
    extra = f" (with {len(created) - 1} missing parent directories)" if len(created) > 1 else ""
    return {"message": f"Directory {dir_text(path)} created{extra}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DIRECTORIES, FILES))
def file_system_delete_directory(world: World, directory_path: str) -> dict[str, str]:
    """Deletes a directory and everything under it (not the root or your home directory).

    Args:
        directory_path: the existing directory, absolute (/...) or under your home directory (~/...).

    Returns:
        {message}
    """
    tree = Tree.load(world)
    path = tree.require_dir(directory_path, "directory_path")
    tree.protect(path, "directory_path")
    dirs, files = tree.below(path)
    tree.remove_tree(path)
    tree.touch(parent_of(path))
    return {"message": f"Directory {dir_text(path)} deleted with {len(files)} files and {len(dirs)} "
                       f"subdirectories."}


@tool(domain=APP, requires=AUTHED, tables=(DIRECTORIES, FILES))
def file_system_show_directory(world: World, directory_path: str | None = "/", substring: str | None = None,
                               entry_type: str | None = "all", recursive: bool | None = True) -> list[str]:
    """Lists files and/or subdirectories under a path, optionally recursively and filtered by substring.

    Args:
        directory_path: the directory to list, absolute (/...) or under your home directory (~/...); default '/'
            (everything you have).
        substring: keep only entries whose path below directory_path contains this text (case-insensitive).
        entry_type: 'all', 'files' or 'directories'.
        recursive: include everything below (true) or only the direct children (false).

    Returns:
        list[str]: absolute paths sorted alphabetically; directories end with '/'.
    """
    kind = entry_type or "all"
    if kind not in ENTRY_TYPES:
        raise api_error(f"Invalid entry_type {entry_type!r}; use one of: {', '.join(ENTRY_TYPES)}.")
    tree = Tree.load(world)
    path = tree.require_dir(directory_path or "/", "directory_path")
    dirs, files = tree.below(path)
    entries = ([] if kind == "files" else [(d, True) for d in dirs]) + \
              ([] if kind == "directories" else [(f, False) for f in files])
    cut = 1 if path == "/" else len(path) + 1
    if recursive is False:
        entries = [(p, d) for p, d in entries if parent_of(p) == path]
    if substring:
        needle = substring.lower()
        entries = [(p, d) for p, d in entries if needle in (dir_text(p) if d else p)[cut:].lower()]
    return sorted(dir_text(p) if d else p for p, d in entries)


@tool(domain=APP, requires=AUTHED, tables=(DIRECTORIES,))
def file_system_directory_exists(world: World, directory_path: str) -> dict[str, bool]:
    """Checks whether a directory exists (false for a file at that path).

    Args:
        directory_path: the path to check, absolute (/...) or under your home directory (~/...); at least 1
            character.

    Returns:
        {exists}
    """
    tree = Tree.load(world)
    return {"exists": tree.is_dir(tree.path(directory_path, "directory_path", "directory"))}


def _copy_tree(tree: Tree, source: str, target: str, overwrite: bool | None, retain_dates: bool | None) -> None:
    """Write a copy of directory ``source`` at ``target`` (an existing target is replaced only with ``overwrite``)."""
    if target == source or is_under(target, source):
        raise api_error("destination_directory_path must not be the source directory or lie inside it.")
    if is_under(source, target):
        raise api_error("destination_directory_path must not contain the source directory.")
    tree.make_room_for_dir(target, "destination_directory_path", overwrite)
    dirs, files = tree.below(source)
    stamp = now(tree.world)

    def dates(row: dict[str, Any] | None) -> tuple[str | None, str | None]:
        return (row.get("created_at"), row.get("updated_at")) if retain_dates and row else (stamp, stamp)

    tree.touch(parent_of(target))
    for d in [source, *dirs]:
        tree.add_dir(target + d[len(source):], *dates(tree.dirs.get(d)))
    for f in files:
        row = tree.files[f]
        tree.add_file(target + f[len(source):], row.get("content") or "", row.get("compressed_data") or [],
                      *dates(row))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DIRECTORIES, FILES))
def file_system_copy_directory(world: World, source_directory_path: str, destination_directory_path: str,
                               overwrite: bool | None = False, retain_dates: bool | None = False) -> dict[str, Any]:
    """Copies a directory tree.

    Args:
        source_directory_path: the existing directory to copy, absolute (/...) or under your home directory (~/...).
        destination_directory_path: the path the copy gets (not an existing directory to copy into); missing
            parents are created.
        overwrite: replace an existing directory at the destination (and everything in it) instead of failing.
        retain_dates: give the copies the source's created_at/updated_at instead of the current time.

    Returns:
        {message, destination_directory_path} (absolute, ending with '/')
    """
    tree = Tree.load(world)
    source = tree.require_dir(source_directory_path, "source_directory_path")
    target = tree.path(destination_directory_path, "destination_directory_path")
    _copy_tree(tree, source, target, overwrite, retain_dates)
    return {"message": "Directory copied.", "destination_directory_path": dir_text(target)}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DIRECTORIES, FILES))
def file_system_move_directory(world: World, source_directory_path: str, destination_directory_path: str,
                               overwrite: bool | None = False, retain_dates: bool | None = False) -> dict[str, Any]:
    """Moves/renames a directory tree (the source is removed).

    Args:
        source_directory_path: the existing directory to move, absolute (/...) or under your home directory (~/...).
        destination_directory_path: the directory's new path (not an existing directory to move into); missing
            parents are created.
        overwrite: replace an existing directory at the destination (and everything in it) instead of failing.
        retain_dates: keep the entries' created_at/updated_at instead of stamping the current time.

    Returns:
        {message, destination_directory_path} (absolute, ending with '/')
    """
    tree = Tree.load(world)
    source = tree.require_dir(source_directory_path, "source_directory_path")
    tree.protect(source, "source_directory_path")
    target = tree.path(destination_directory_path, "destination_directory_path")
    _copy_tree(tree, source, target, overwrite, retain_dates)
    tree.remove_tree(source)
    tree.touch(parent_of(source))
    return {"message": "Directory moved.", "destination_directory_path": dir_text(target)}
