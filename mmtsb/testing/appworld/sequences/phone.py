"""Phone: texts and who may open which copy, alarms."""

from mmtsb.testing.appworld.plan import Step, call, sequence

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

SEQUENCES += [
    sequence(
        "phone message copies",
        call("messages_send_text_message", label="t", phone_number="5550000002", message="Dinner at 7?"),
        call("messages_search_text_messages", as_="bob", label="inbox"),
        call("messages_send_text_message", as_="bob", label="r", phone_number="5550000001", message="Sure"),
        call("messages_show_text_message", as_="bob", text_message_id="$r.text_message_id"),
        call("messages_show_text_message", text_message_id="$r.text_message_id"),
        call("messages_delete_text_message", as_="bob", text_message_id="$r.text_message_id"),
        call("messages_show_text_message", as_="bob", text_message_id="$r.text_message_id"),
        call("messages_delete_text_message", text_message_id="$t.text_message_id"),
        call("messages_show_text_message", text_message_id="$t.text_message_id"),
        call("messages_send_text_message", phone_number="5550000001", message="note to self"),
        call("messages_send_text_message", phone_number="5550000003", message=""),
        call("messages_send_voice_message", label="v", phone_number="5550000003", message="Call me back"),
        call("messages_show_voice_message", voice_message_id="$v.voice_message_id"),
        call("messages_show_voice_message", as_="carol", voice_message_id="$v.voice_message_id"),
        call("messages_delete_voice_message", as_="carol", voice_message_id="$v.voice_message_id"),
        call("messages_delete_voice_message", voice_message_id="$v.voice_message_id"),
        call("messages_delete_voice_message", voice_message_id="$v.voice_message_id"),
    ),
    sequence(
        "phone contacts and alarms",
        call("contacts_add_contact", label="c", first_name="Bob", last_name="Reed", email="bob@gmail.com",
             phone_number="5550000002", relationships=["friend"]),
        call("contacts_add_contact", first_name="Bob", last_name="Reed", email="bob@gmail.com",
             phone_number="5550000002"),
        call("contacts_add_contact", first_name="", last_name="Nobody", email="nobody@gmail.com"),
        call("contacts_update_contact", contact_id="$c.contact_id", relationships=["friend", "coworker"],
             birthday="1990-04-02"),
        call("contacts_update_contact", as_="bob", contact_id="$c.contact_id", first_name="Robert"),
        call("contacts_search_contacts", query="Bob"),
        call("contacts_show_contact_relationships"),
        call("contacts_delete_contact", as_="bob", contact_id="$c.contact_id"),
        call("contacts_delete_contact", contact_id="$c.contact_id"),
        call("contacts_delete_contact", contact_id="$c.contact_id"),
        Step("alarms_create_alarm", {"time": "07:30", "repeat_days": ["monday", "friday"], "label": "Gym"},
             label="a"),
        call("alarms_create_alarm", time="25:00"),
        call("alarms_update_alarm", alarm_id="$a.alarm_id", enabled=False, snooze_minutes=5),
        call("alarms_update_alarm", as_="bob", alarm_id="$a.alarm_id", enabled=True),
        call("alarms_show_alarm", alarm_id="$a.alarm_id"),
        call("alarms_delete_alarm", as_="bob", alarm_id="$a.alarm_id"),
        call("alarms_delete_alarm", alarm_id="$a.alarm_id"),
        call("alarms_delete_alarm", alarm_id="$a.alarm_id"),
        call("phone_update_account_name", first_name="Ally"),
        call("phone_show_account"),
    ),
]

SEQUENCES += [
    sequence(
        "phone account deletion",
        call("messages_send_text_message", as_="carol", phone_number="5550000001", message="Bye"),
        call("contacts_add_contact", as_="carol", first_name="Alice", last_name="Stone", email="alice@gmail.com",
             phone_number="5550000001"),
        call("phone_update_account_name", as_="carol", last_name="Ames-Hill"),
        call("phone_delete_account", as_="carol"),
        call("messages_search_text_messages"),
        call("phone_logout"),
    ),
]
