"""Receipts: reading them from, and downloading them into, the file-system app (``file_system_access_token``),
through the file system's own API (:mod:`mmtsb.apps.file_system.api`).

Both expenses and payments keep a receipt as ``receipt_file_name`` / ``receipt_file_content`` and count
downloads in ``receipt_download_count``.
"""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.file_system import api as fs
from mmtsb.world.world import World


def read_receipt(world: World, token: str | None, path: str, field: str = "receipt_file_path") -> tuple[str, str]:
    """``(file name, content)`` of one of the token user's files."""
    name, content, _ = fs.read_file(world, token, path, field)
    return name, content


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
    path = fs.save_file(world, token, target, record["receipt_file_name"], record.get("receipt_file_content") or "",
                        bool(overwrite))
    world.update(key, record["id"], {"receipt_download_count": int(record.get("receipt_download_count") or 0) + 1})
    return path
