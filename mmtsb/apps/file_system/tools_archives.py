"""Archive tools: compress a directory into a .zip/.tar file and extract one again.

An archive is an ordinary file row whose ``compressed_data`` lists the archived entries (paths relative to the
archived directory's parent, so the first entry is the directory itself, e.g. ``dinner_plan/``; files carry
their content; every entry keeps its dates). Its ``content`` is empty. As in AppWorld, a directory without files
cannot be archived, and extracting recreates the archived directory inside the target directory (by default the
archive's own directory), creating whatever directories are missing.
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
    if tree.is_file(archive) and not overwrite:
        raise api_error(f"A file already exists at {archive!r}; pass overwrite=True to replace it.")
    if not tree.below(source)[1]:
        raise api_error(f"No files found in directory {dir_text(source)}; there is nothing to archive.")
    entries = archive_entries(tree, source)
    if tree.is_file(archive):
        tree.remove_file(archive)       # replaced by a new file, as in AppWorld
    tree.make_dirs(parent_of(archive))
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

    The archived directory is recreated inside the target directory (~/trips.zip made from ~/trips extracts to
    ~/trips/ by default, or to ~/restored/trips/ with decompressed_directory_path '~/restored'); missing
    directories are created.

    Args:
        compressed_file_path: the archive (.zip or .tar), absolute (/...) or under your home directory (~/...).
        decompressed_directory_path: the directory to extract into. Default: the directory holding the archive.
        overwrite: replace files that already exist at the extracted paths instead of failing.
        retain_dates: give extracted entries their archived created_at/updated_at (else the current time).
        delete_compressed_file: delete the archive after extracting it.

    Returns:
        {message, decompressed_directory_path} (absolute, ending with '/')
    """
    tree = Tree.load(world)
    archive = tree.require_file(compressed_file_path, "compressed_file_path")
    archive_suffix(archive, "compressed_file_path")
    entries = unpack_entries(tree.files[archive].get("compressed_data"), compressed_file_path)
    if decompressed_directory_path is None:
        target = parent_of(archive)
    else:
        target = tree.path(decompressed_directory_path, "decompressed_directory_path", "directory")
    if tree.is_file(target):
        raise api_error(f"decompressed_directory_path {target!r} is a file.")
    clashes = [p for p in (_under(target, e["path"]) for e in entries if not e["is_dir"]) if tree.is_file(p)]
    if clashes and not overwrite:
        raise api_error(f"{len(clashes)} extracted file(s) already exist (e.g. {clashes[0]!r}); pass overwrite=True "
                        "to replace them.")
    if archive in clashes:
        raise api_error("Extracting would replace the archive itself; choose another decompressed_directory_path.")
    stamp = now(world)

    def dates(entry: dict) -> tuple[str, str]:
        if retain_dates and entry.get("created_at"):
            return entry["created_at"], entry.get("updated_at") or entry["created_at"]
        return stamp, stamp

    tree.make_dirs(target)
    tree.touch(target)
    for entry in sorted(entries, key=lambda e: e["path"].count("/")):
        path = _under(target, entry["path"])
        if entry["is_dir"]:
            if path not in tree.dirs:
                tree.make_dirs(parent_of(path))
                tree.add_dir(path, *dates(entry))
            continue
        tree.make_dirs(parent_of(path))
        if tree.is_file(path):
            tree.remove_file(path)
        tree.add_file(path, entry.get("content") or "", None, *dates(entry))
    message = f"Archive {archive} extracted into {dir_text(target)}"
    if delete_compressed_file:
        tree.remove_file(archive)
        tree.touch(parent_of(archive))
        message += " and deleted"
    return {"message": message + ".", "decompressed_directory_path": dir_text(target)}


def _under(directory: str, relative: str) -> str:
    return ("" if directory == "/" else directory) + "/" + relative
