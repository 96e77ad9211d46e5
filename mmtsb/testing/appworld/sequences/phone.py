"""Phone: texts and who may open which copy, alarms."""

from mmtsb.testing.appworld.plan import call, sequence

SEQUENCES = [
    sequence(
        "phone texts",
        call("messages_send_text_message", label="t", phone_number="5550000002", message="Hi Bob"),
        call("messages_send_text_message", phone_number="5559999999", message="Hi?"),
        call("messages_show_text_message", text_message_id="$t.text_message_id"),
        call("messages_show_text_message", as_="bob", text_message_id="$t.text_message_id"),
        call("messages_delete_text_message", as_="carol", text_message_id="$t.text_message_id"),
        call("messages_delete_text_message", text_message_id="$t.text_message_id"),
        call("alarms_show_alarms"),
    ),
]
