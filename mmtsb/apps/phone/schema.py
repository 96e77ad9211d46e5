"""Phone tables (schema ``phone``): users keyed by phone number, contacts, text and voice messages, alarms.

A message is stored once in ``global_*_messages`` (sender, receiver, text) and once per participant in
``user_*_messages`` (that participant's copy, whose id is the message id the participant's tools use): deleting a
message removes only the deleting user's copy.
"""

from mmtsb.apps.accounts import users_table
from mmtsb.world.schema import table

USERS = "phone.users"
CONTACTS = "phone.contacts"
ALARMS = "phone.alarms"
GLOBAL_TEXTS = "phone.global_text_messages"
USER_TEXTS = "phone.user_text_messages"
GLOBAL_VOICES = "phone.global_voice_messages"
USER_VOICES = "phone.user_voice_messages"

_GLOBAL_MESSAGE = {"id": "int", "sender_id": "int", "receiver_id": "int", "message": "str", "created_at": "datetime"}

TABLES = (
    users_table("phone", identity="phone_number"),
    table("phone", "contacts", {"id": "int", "user_id": "int", "first_name": "str", "last_name": "str",
                                "email": "str", "phone_number": "str", "relationships": "json", "birthday": "str",
                                "home_address": "str", "work_address": "str", "created_at": "datetime"}),
    table("phone", "global_text_messages", dict(_GLOBAL_MESSAGE)),
    table("phone", "user_text_messages", {"id": "int", "user_id": "int", "global_text_message_id": "int",
                                          "created_at": "datetime"}),
    table("phone", "global_voice_messages", dict(_GLOBAL_MESSAGE)),
    table("phone", "user_voice_messages", {"id": "int", "user_id": "int", "global_voice_message_id": "int",
                                           "created_at": "datetime"}),
    table("phone", "alarms", {"id": "int", "user_id": "int", "time": "str", "repeat_days": "json", "label": "str",
                              "enabled": "bool", "snooze_minutes": "int", "vibration": "bool",
                              "created_at": "datetime"}),
)

#: a message's global row is always written together with its per-user copies
COMPANIONS: dict[str, tuple[str, ...]] = {GLOBAL_TEXTS: (USER_TEXTS,), GLOBAL_VOICES: (USER_VOICES,)}
