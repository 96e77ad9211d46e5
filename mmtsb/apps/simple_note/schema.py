"""SimpleNote tables (AppWorld layout)."""

from mmtsb.apps.accounts import users_table
from mmtsb.world.schema import table

TABLES = (
    users_table("simple_note"),
    table("simple_note", "notes", {"id": "int", "user_id": "int", "title": "str", "content": "str", "tags": "json",
                                   "pinned": "bool", "data": "json", "created_at": "datetime",
                                   "updated_at": "datetime"}),
)
