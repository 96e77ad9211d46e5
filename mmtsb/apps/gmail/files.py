"""The bridge to the file-system app for attachments (TOOLS.md §4: ``file_system_access_token``).

File access goes through the file system's own API (:mod:`mmtsb.apps.file_system.api`): the token must be
that of the current file_system login; paths are absolute (``/home/<name>/...``) or under ``~/``.
"""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.file_system import api as fs
from mmtsb.apps.gmail.core import AttachmentData
from mmtsb.world.world import World


def fs_user_id(world: World, token: str | None) -> int:
    """Check the file-system token and return the id of the user it belongs to."""
    return int(fs.check_access_token(world, token)["id"])


def read_files(world: World, token: str | None, paths: list[str], field: str) -> list[AttachmentData]:
    """Load files for attaching (every path must be an existing file of the token's user)."""
    if not paths:
        raise api_error(f"{field} must contain at least one file path.")
    return [AttachmentData(*fs.read_file(world, token, p, field)) for p in paths]


def write_file(world: World, token: str | None, target: str | None, file_name: str, content: str | None,
               compressed: Any, overwrite: bool) -> str:
    """Save an attachment into the file system; returns the absolute path written."""
    return fs.save_file(world, token, target, file_name, content or "", overwrite, compressed)
