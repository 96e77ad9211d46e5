"""File system: each user's directories and files under ``/home/<first name>/`` (``~/``).

Other apps reach a user's files through :mod:`mmtsb.apps.file_system.api` (the ``file_system_access_token``
convention: attachments are read from, downloads and receipts written into, this app's tables).
"""

from __future__ import annotations

from mmtsb.apps.base import App
from mmtsb.apps.file_system import api
from mmtsb.apps.file_system.schema import TABLES
from mmtsb.apps.file_system.seed import drop_shadowed_seed_directories, home_path, seed

APP = App(
    name="file_system", tables=TABLES, seed=seed,
    tool_modules=(
        "mmtsb.apps.file_system.tools_account",
        "mmtsb.apps.file_system.tools_files",
        "mmtsb.apps.file_system.tools_directories",
        "mmtsb.apps.file_system.tools_archives",
    ),
    companions={
        # deleting, copying, moving or compressing a directory writes the files inside it (and back)
        "file_system.directories": ("file_system.files",),
        "file_system.files": ("file_system.directories",),
        # signing up creates the home directory; deleting the account removes the user's tree
        "file_system.users": ("file_system.directories", "file_system.files"),
    },
    id_offsets={"file_system.directories": 3500, "file_system.files": 25900},
)

__all__ = ["APP", "api", "drop_shadowed_seed_directories", "home_path"]
