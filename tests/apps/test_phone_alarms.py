"""Alarms: create, list, show, update, delete, and the simulated clock."""

from testkit import MAIN_ID, call_err, call_ok


def test_alarm_lifecycle(session, world):
    out = call_ok(session, "alarms_create_alarm", time="6:05", repeat_days=["Fri", "monday", "FRIDAY"],
                  label="Gym")
    aid = out["alarm_id"]
    alarm = call_ok(session, "alarms_show_alarm", alarm_id=aid)
    assert alarm == {"alarm_id": aid, "time": "06:05", "repeat_days": ["monday", "friday"], "label": "Gym",
                     "enabled": True, "snooze_minutes": 15, "vibration": True, "created_at": "2026-04-16T23:51:15"}
    assert world.get("phone.alarms", aid)["user_id"] == MAIN_ID
    listed = call_ok(session, "alarms_show_alarms")
    assert [a["time"] for a in listed] == ["06:05", "07:00", "09:30"]  # clock order
    assert call_ok(session, "alarms_show_alarms", page_index=1, page_limit=2)[0]["time"] == "09:30"
    call_ok(session, "alarms_update_alarm", alarm_id=aid, enabled=False, repeat_days=[], label="", snooze_minutes=0)
    alarm = call_ok(session, "alarms_show_alarm", alarm_id=aid)
    assert (alarm["enabled"], alarm["repeat_days"], alarm["label"], alarm["snooze_minutes"]) == (False, [], None, 0)
    call_ok(session, "alarms_delete_alarm", alarm_id=aid)
    assert world.get("phone.alarms", aid) is None


def test_alarm_errors(session):
    assert "HH:MM" in call_err(session, "alarms_create_alarm", time="25:00").message
    assert "HH:MM" in call_err(session, "alarms_create_alarm", time="7am").message
    assert "repeat day" in call_err(session, "alarms_create_alarm", time="07:00", repeat_days=["someday"]).message
    assert "snooze_minutes" in call_err(session, "alarms_create_alarm", time="07:00", snooze_minutes=-1).message
    assert "does not exist" in call_err(session, "alarms_show_alarm", alarm_id=999).message
    assert "does not exist" in call_err(session, "alarms_delete_alarm", alarm_id=999).message
    assert "Nothing to update" in call_err(session, "alarms_update_alarm", alarm_id=1).message
    assert "HH:MM" in call_err(session, "alarms_update_alarm", alarm_id=1, time="7").message
    assert "page_limit" in call_err(session, "alarms_show_alarms", page_limit=0).message


def test_current_date_and_time(session):
    assert call_ok(session, "alarms_get_current_date_and_time") == {"date": "2026-04-16", "time": "23:51"}
    assert "no parameter" in call_err(session, "alarms_get_current_date_and_time", tz="UTC").message
