"""The file system as other apps reach it: the ``file_system_access_token`` convention (TOOLS.md §4).

Apps that attach files (gmail, todoist) or download receipts (venmo, splitwise, amazon) take the access token
that ``file_system_login`` returned and read or write the token owner's files through these functions:

- :func:`check_access_token` -> the file-system user row behind a valid token;
- :func:`read_file` -> ``(file name, content, compressed_data)`` of one of that user's files;
- :func:`save_file` -> writes a download (default folder ``~/downloads/``) and returns its absolute path.

Writes follow the file-system app's own rules (ids, ``tilde_path``, parent directories stamped), so a download
looks exactly like a file created with ``file_system_create_file``.
"""

from __future__ import annotations

import posixpath
from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.file_system.core import APP, FILES, Tree, check_kind, dir_text, me, parent_of
from mmtsb.world import device
from mmtsb.world.world import World

DEFAULT_DOWNLOAD_DIRECTORY = "~/downloads/"


def check_access_token(world: World, token: str | None) -> dict[str, Any]:
    """The file-system user behind ``token`` (an API error naming the fix when it is not the current one)."""
    session = device.session_of(world, APP)
    if not world.has_table(FILES) or session is None or not token or token.strip() != session["access_token"]:
        raise api_error("Invalid file_system_access_token: log in with file_system_login and pass the access_token "
                        "it returns.")
    return me(world)


def read_file(world: World, token: str | None, path: str, field_name: str = "file_path") -> tuple[str, str, Any]:
    """``(file name, content, compressed_data)`` of one of the token owner's files."""
    tree = Tree.load(world, check_access_token(world, token))
    full = tree.path(path, field_name)
    if not tree.is_file(full):
        what = "it is a directory" if tree.is_dir(full) else "that path does not exist"
        raise api_error(f"No file exists at {path!r} in the file system ({field_name}): {what}."
                        f"{tree.suggestion(full, False)}")
    row = tree.files[full]
    return posixpath.basename(full), row.get("content") or "", row.get("compressed_data") or []


def save_file(world: World, token: str | None, target: str | None, file_name: str, content: str,
              overwrite: bool | None = False, compressed_data: Any = None,
              field_name: str = "download_to_file_path") -> str:
    """Write a downloaded file and return its absolute path.

    ``target`` is a file path, or a directory (an existing one, or any path ending with ``/``) to put
    ``file_name`` in; it defaults to ``~/downloads/``. Missing parent directories are created, as a browser
    does for its download folder. An existing file is replaced only with ``overwrite``.
    """
    tree = Tree.load(world, check_access_token(world, token))
    text = (target or DEFAULT_DOWNLOAD_DIRECTORY).strip()
    full = tree.path(text, field_name)
    if text.endswith("/") or tree.is_dir(full):
        full = tree.path(dir_text(full) + file_name, field_name)
    if tree.is_dir(full):
        raise api_error(f"{field_name} {full!r} is a directory; give a file path or a directory ending with '/'.")
    check_kind(full, "file", field_name, target)
    if tree.is_file(full):
        if not overwrite:
            raise api_error(f"A file already exists at {full!r}; pass overwrite=True to replace it.")
        tree.remove_file(full)          # replaced by a new file, as AppWorld's create_file does
    tree.make_dirs(parent_of(full))
    tree.touch(parent_of(full))
    tree.add_file(full, content, compressed_data)
    return full
