"""Venmo tables (AppWorld layout; no scenario file fills them yet, so they follow the catalog's returns).

Money moves in ``transactions`` (sender -> receiver, paid from the sender's Venmo balance or from a
payment card); ``payment_requests`` ask someone to pay and record when they were approved or denied;
``bank_transfers`` move money between a card and the balance kept in ``users.venmo_balance``.
Friendships are stored one row per direction (user_id befriended friend_id).
"""

from mmtsb.apps.accounts import users_table
from mmtsb.apps.amazon.schema import payment_cards_table
from mmtsb.apps.splitwise.schema import notifications_table
from mmtsb.world.schema import table

APP = "venmo"

TABLES = (
    users_table(APP, {"venmo_balance": "float"}),
    table(APP, "friendships", {"id": "int", "user_id": "int", "friend_id": "int", "created_at": "datetime"}),
    table(APP, "transactions", {"id": "int", "sender_id": "int", "receiver_id": "int", "amount": "float",
                                "description": "str", "private": "bool", "payment_card_id": "int",
                                "payment_card_digits": "str", "like_count": "int", "payment_request_id": "int",
                                "receipt_download_count": "int", "created_at": "datetime",
                                "updated_at": "datetime"}),
    table(APP, "transaction_likes", {"id": "int", "transaction_id": "int", "user_id": "int",
                                     "created_at": "datetime"}),
    table(APP, "transaction_comments", {"id": "int", "transaction_id": "int", "user_id": "int", "comment": "str",
                                        "like_count": "int", "created_at": "datetime", "updated_at": "datetime"}),
    table(APP, "transaction_comment_likes", {"id": "int", "comment_id": "int", "user_id": "int",
                                             "created_at": "datetime"}),
    # sender_id asks receiver_id to pay ``amount``; approval creates a transaction receiver -> sender
    table(APP, "payment_requests", {"id": "int", "sender_id": "int", "receiver_id": "int", "amount": "float",
                                    "description": "str", "private": "bool", "transaction_id": "int",
                                    "created_at": "datetime", "updated_at": "datetime",
                                    "approved_at": "datetime", "denied_at": "datetime"}),
    # transfer_type: card_to_venmo (add to balance) or venmo_to_card (withdraw)
    table(APP, "bank_transfers", {"id": "int", "user_id": "int", "transfer_type": "str", "amount": "float",
                                  "payment_card_id": "int", "payment_card_digits": "str",
                                  "receipt_download_count": "int", "created_at": "datetime"}),
    payment_cards_table(APP),
    notifications_table(APP),
)
