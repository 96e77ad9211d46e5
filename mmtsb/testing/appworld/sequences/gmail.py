"""Gmail: replies with an empty recipient list, reply drafts that name only half of thread and email."""

from mmtsb.testing.appworld.plan import call, sequence

SEQUENCES = [
    sequence(
        "gmail replies and drafts",
        call("gmail_send_email", label="m", email_addresses=["bob@gmail.com"], subject="Lunch", body="Noon?"),
        call("gmail_send_email", email_addresses=["nobody@gmail.com"], subject="Lunch", body="Noon?"),
        call("gmail_reply_to_email", email_thread_id="$m.sent_email_thread_id", email_id="$m.sent_email_id",
             body="Or one?", email_addresses=[]),
        call("gmail_reply_to_email", email_thread_id="$m.sent_email_thread_id", email_id="$m.sent_email_id",
             body="Or one?"),
        call("gmail_reply_to_email", email_thread_id="$m.sent_email_thread_id", email_id="$m.sent_email_id",
             body="Or one?", email_addresses=["carol@gmail.com"]),
        call("gmail_create_draft", recipient_email_addresses=["bob@gmail.com"], body="x",
             belongs_to_email_thread_id="$m.sent_email_thread_id"),
        call("gmail_create_draft", recipient_email_addresses=["bob@gmail.com"], body="x",
             response_to_email_id="$m.sent_email_id"),
        call("gmail_create_draft", recipient_email_addresses=["bob@gmail.com"], body="x",
             belongs_to_email_thread_id="$m.sent_email_thread_id", response_to_email_id="$m.sent_email_id"),
        call("gmail_create_draft", recipient_email_addresses=["bob@gmail.com"], body="x", subject="Hi",
             belongs_to_email_thread_id="$m.sent_email_thread_id", response_to_email_id="$m.sent_email_id"),
        call("gmail_create_draft", label="d", recipient_email_addresses=[], body="later", subject="Plan"),
        call("gmail_show_draft", draft_id="$d.draft_id"),
        call("gmail_show_draft", as_="bob", draft_id="$d.draft_id"),
        call("gmail_delete_draft", draft_id="$d.draft_id"),
    ),
]
