"""File system: each user's directories and files under ``/home/<first name>/`` (``~/``)."""

from __future__ import annotations

from mmtsb.apps.base import App
from mmtsb.apps.file_system.schema import TABLES
from mmtsb.apps.file_system.seed import drop_shadowed_seed_directories, home_path, seed

APP = App(
    name="file_system", tables=TABLES, tool_modules=(), seed=seed,
    companions={
        # deleting, copying, moving or compressing a directory writes the files inside it (and back)
        "file_system.directories": ("file_system.files",),
        "file_system.files": ("file_system.directories",),
    },
    id_offsets={"file_system.directories": 3500, "file_system.files": 25900},
)

__all__ = ["APP", "drop_shadowed_seed_directories", "home_path"]
