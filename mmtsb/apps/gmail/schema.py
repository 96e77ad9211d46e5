"""Gmail tables (AppWorld layout, with every column the released scenario files use).

An email is one ``emails`` row shared by its sender and recipients. A conversation is one
``global_email_threads`` row (the ordered email ids) plus one ``user_email_threads`` row per participant:
that row is the participant's own view (which emails they still see, read/star/label/archive/spam/snooze
flags and the aggregated sender and recipient names). The tools' ``email_thread_id`` is the id of the
acting user's ``user_email_threads`` row.
"""

from mmtsb.world.schema import table

USERS = "gmail.users"
EMAILS = "gmail.emails"
GLOBAL_THREADS = "gmail.global_email_threads"
USER_THREADS = "gmail.user_email_threads"
DRAFTS = "gmail.drafts"
ATTACHMENTS = "gmail.attachments"

TABLES = (
    table("gmail", "users", {"id": "int", "first_name": "str", "last_name": "str", "email": "str", "password": "str",
                             "status": "str", "status_expiry": "datetime", "created_at": "datetime",
                             "last_logged_in": "datetime", "password_reset_code": "str",
                             "password_reset_code_expiry": "datetime"}),
    table("gmail", "emails", {"id": "int", "sender_id": "int", "recipient_ids": "json", "subject": "str",
                              "body": "str", "response_to_email_id": "int", "created_at": "datetime"}),
    table("gmail", "global_email_threads", {"id": "int", "email_ids": "json", "created_at": "datetime",
                                            "updated_at": "datetime"}),
    table("gmail", "user_email_threads", {
        "id": "int", "global_email_thread_id": "int", "user_id": "int", "email_ids": "json", "incoming": "bool",
        "outgoing": "bool", "read": "bool", "label": "str", "starred": "bool", "archived": "bool", "spam": "bool",
        "sender_email_addresses": "json", "sender_names": "json", "recipient_email_addresses": "json",
        "recipient_names": "json", "created_at": "datetime", "updated_at": "datetime", "has_attachments": "bool",
        "snoozed_until": "datetime"}),
    table("gmail", "drafts", {"id": "int", "user_id": "int", "recipient_ids": "json",
                              "recipient_email_addresses": "json", "recipient_names": "json", "subject": "str",
                              "body": "str", "belongs_to_email_thread_id": "int", "response_to_email_id": "int",
                              "scheduled_send_at": "datetime", "created_at": "datetime", "updated_at": "datetime"}),
    table("gmail", "attachments", {"id": "int", "email_id": "int", "draft_id": "int", "file_name": "str",
                                   "file_content": "str", "file_compressed_data": "json", "download_count": "int",
                                   "created_at": "datetime"}),
)
