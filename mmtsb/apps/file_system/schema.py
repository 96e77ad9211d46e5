"""File system tables (AppWorld layout, as the released scenario files fill them).

Paths are absolute; a directory path ends with ``/`` (``/home/chris/dinner_plan/``) and ``tilde_path``
is the same path relative to its owner's home (``~/dinner_plan/``). ``compressed_data`` holds the entries
of an archive made by compress_directory (a list; empty for ordinary files).
"""

from mmtsb.apps.accounts import users_table
from mmtsb.world.schema import table

APP = "file_system"

TABLES = (
    users_table(APP),
    table(APP, "directories", {"id": "int", "path": "str", "tilde_path": "str", "user_id": "int",
                               "created_at": "datetime", "updated_at": "datetime"}),
    table(APP, "files", {"id": "int", "path": "str", "tilde_path": "str", "user_id": "int", "content": "str",
                         "compressed_data": "json", "created_at": "datetime", "updated_at": "datetime"}),
)
