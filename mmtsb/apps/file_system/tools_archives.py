"""Archive tools: compress a directory into a .zip/.tar file and extract one again.

An archive is an ordinary file row whose ``compressed_data`` lists the archived entries (paths relative to the
archived directory's parent, so the first entry is the directory itself, e.g. ``dinner_plan/``; files carry
their content; every entry keeps its dates). Its ``content`` is empty.
"""

from __future__ import annotations

from mmtsb.apps.common import api_error
from mmtsb.apps.file_system.core import (
    APP,
    AUTHED,
    DIRECTORIES,
    FILES,
    Tree,
    archive_entries,
    archive_suffix,
    dir_text,
    is_under,
    now,
    parent_of,
    unpack_entries,
)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FILES, DIRECTORIES))
def file_system_compress_directory(world: World, directory_path: str, compressed_file_path: str | None = None,
                                   delete_directory: bool | None = False,
                                   overwrite: bool | None = False) -> dict[str, str]:
    """Archives a directory into a zip/tar file.

    Args:
        directory_path: the directory to archive, absolute (/...) or under your home directory (~/...).
        compressed_file_path: the archive to write; must end with .zip or .tar and lie outside the archived
            directory. Default: '<directory name>.zip' next to the directory (in its parent).
        delete_directory: delete the directory after archiving it.
        overwrite: replace an existing file at compressed_file_path instead of failing.

    Returns:
        {message, compressed_file_path} (the absolute path)
    """
    tree = Tree.load(world)
    source = tree.require_dir(directory_path, "directory_path")
    if source == "/":
        raise api_error("The root directory '/' cannot be archived; archive one of its subdirectories.")
    if delete_directory:
        tree.protect(source, "directory_path")
    if compressed_file_path is None:
        archive = source + ".zip"
    else:
        if compressed_file_path.strip().endswith("/"):
            raise api_error(f"compressed_file_path {compressed_file_path!r} names a directory; give a file path "
                            f"ending with .zip or .tar.")
        archive = tree.path(compressed_file_path, "compressed_file_path")
    archive_suffix(archive, "compressed_file_path")
    if is_under(archive, source):
        raise api_error("compressed_file_path must lie outside the directory being compressed.")
    if tree.is_dir(archive):
        raise api_error(f"compressed_file_path {archive!r} is an existing directory.")
    entries = archive_entries(tree, source)
    if tree.is_file(archive):
        if not overwrite:
            raise api_error(f"A file already exists at {archive!r}; pass overwrite=True to replace it.")
        tree.set_file(archive, {"content": "", "compressed_data": entries, "updated_at": now(world)})
    else:
        tree.require_parent(archive, "compressed_file_path")
        tree.touch(parent_of(archive))
        tree.add_file(archive, "", entries)
    message = f"Directory {dir_text(source)} compressed into {archive}"
    if delete_directory:
        tree.remove_tree(source)
        tree.touch(parent_of(source))
        message += " and deleted"
    return {"message": message + ".", "compressed_file_path": archive}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FILES, DIRECTORIES))
def file_system_decompress_file(world: World, compressed_file_path: str, decompressed_directory_path: str | None = None,
                                overwrite: bool | None = False, retain_dates: bool | None = True,
                                delete_compressed_file: bool | None = False) -> dict[str, str]:
    """Extracts a zip/tar archive into a directory.

    Args:
        compressed_file_path: the archive (.zip or .tar), absolute (/...) or under your home directory (~/...).
        decompressed_directory_path: the directory to create with the archive's contents. Default: the archive's
            path without its extension, alongside the archive (~/trip.zip -> ~/trip/).
        overwrite: replace an existing directory at that path (and everything in it) instead of failing.
        retain_dates: give extracted entries their archived created_at/updated_at (else the current time).
        delete_compressed_file: delete the archive after extracting it.

    Returns:
        {message, decompressed_directory_path} (absolute, ending with '/')
    """
    tree = Tree.load(world)
    archive = tree.require_file(compressed_file_path, "compressed_file_path")
    suffix = archive_suffix(archive, "compressed_file_path")
    entries = unpack_entries(tree.files[archive].get("compressed_data"), compressed_file_path)
    if decompressed_directory_path is None:
        target = archive[:-len(suffix)]
    else:
        target = tree.path(decompressed_directory_path, "decompressed_directory_path")
    tree.make_room_for_dir(target, "decompressed_directory_path", overwrite, keep=(
        archive, "decompressed_directory_path contains the archive itself; choose another directory."))
    stamp = now(world)

    def dates(entry: dict) -> tuple[str, str]:
        if retain_dates and entry.get("created_at"):
            return entry["created_at"], entry.get("updated_at") or entry["created_at"]
        return stamp, stamp

    root = next((e for e in entries if e["path"] == ""), {})
    tree.touch(parent_of(target))
    tree.add_dir(target, *dates(root))
    for entry in sorted((e for e in entries if e["path"]), key=lambda e: e["path"].count("/")):
        path = target + "/" + entry["path"]
        tree.make_dirs(parent_of(path))
        if entry["is_dir"]:
            if not tree.is_dir(path):
                tree.add_dir(path, *dates(entry))
        elif not tree.is_file(path):
            tree.add_file(path, entry.get("content") or "", None, *dates(entry))
    message = f"Archive {archive} extracted into {dir_text(target)}"
    if delete_compressed_file:
        tree.remove_file(archive)
        tree.touch(parent_of(archive))
        message += " and deleted"
    return {"message": message + ".", "decompressed_directory_path": dir_text(target)}
