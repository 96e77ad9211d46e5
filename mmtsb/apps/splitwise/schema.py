"""Splitwise tables (AppWorld layout).

Column sets of the tables the released scenario files fill (groups, group_members, expenses,
expense_shares, users) follow those files exactly; the others are shaped after what the catalog's tools
return. An expense keeps its payer, its debtors and everyone involved as id lists (``debtor_ids``,
``participant_ids``) and one ``expense_shares`` row per debtor; deletion is a flag (``deleted``), so
``undelete`` can restore it.
"""

from mmtsb.apps.accounts import users_table
from mmtsb.world.schema import Table, table

APP = "splitwise"


def notifications_table(app: str) -> Table:
    """``<app>.notifications`` (splitwise, venmo): ``data`` holds the ids the notification refers to."""
    return table(app, "notifications", {"id": "int", "user_id": "int", "type": "str", "title": "str",
                                        "message": "str", "read": "bool", "data": "json",
                                        "created_at": "datetime"})


def _comments(name: str, item: str) -> Table:
    return table(APP, name, {"id": "int", item: "int", "user_id": "int", "comment": "str",
                             "created_at": "datetime"})


TABLES = (
    users_table(APP),
    table(APP, "groups", {"id": "int", "user_id": "int", "name": "str", "description": "str",
                          "created_at": "datetime", "invitation_code": "str", "deleted": "bool"}),
    table(APP, "group_members", {"id": "int", "group_id": "int", "user_id": "int", "joined_at": "datetime"}),
    table(APP, "expenses", {"id": "int", "user_id": "int", "group_id": "int", "payer_id": "int",
                            "debtor_ids": "json", "participant_ids": "json", "description": "str", "amount": "float",
                            "deleted": "bool", "receipt_file_name": "str", "receipt_file_content": "str",
                            "receipt_download_count": "int", "created_at": "datetime"}),
    table(APP, "expense_shares", {"id": "int", "expense_id": "int", "debtor_id": "int", "share_amount": "float",
                                  "created_at": "datetime"}),
    # a payment moves money from payer to receiver (settling up); user_id is who recorded it
    table(APP, "payments", {"id": "int", "user_id": "int", "group_id": "int", "payer_id": "int",
                            "receiver_id": "int", "amount": "float", "description": "str", "deleted": "bool",
                            "receipt_file_name": "str", "receipt_file_content": "str",
                            "receipt_download_count": "int", "created_at": "datetime"}),
    _comments("expense_comments", "expense_id"),
    _comments("payment_comments", "payment_id"),
    notifications_table(APP),
)
