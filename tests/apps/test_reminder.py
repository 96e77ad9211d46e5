"""Reminders: every tool on its happy path and on a failure path."""

import pytest
from testkit import call_err, call_ok

NOW = "2026-04-16T23:51:15+00:00"  # the frozen episode clock


def test_add_search_modify_remove(session, world):
    rid = call_ok(session, "add_reminder", content="Buy milk and eggs", reminder_datetime="2026-04-17T10:00:00-07:00")
    row = world.get("REMINDER", rid)
    assert row == {"reminder_id": rid, "content": "Buy milk and eggs", "creation_datetime": NOW,
                   "reminder_datetime": "2026-04-17T10:00:00-07:00", "latitude": None, "longitude": None}
    other = call_ok(session, "add_reminder", content="Call the plumber", reminder_datetime="2026-04-18T09:00:00Z",
                    latitude=37.2439, longitude=-122.0308)
    assert [r["reminder_id"] for r in call_ok(session, "search_reminder", content="buy milk")] == [rid]
    assert call_ok(session, "search_reminder", reminder_id=other)[0]["content"] == "Call the plumber"
    assert [r["reminder_id"] for r in call_ok(session, "search_reminder", latitude=37.25, longitude=-122.03)] == [other]
    call_ok(session, "modify_reminder", reminder_id=rid, content="Buy oat milk", latitude=37.0, longitude=-122.0)
    row = world.get("REMINDER", rid)
    assert (row["content"], row["latitude"], row["reminder_datetime"]) == \
        ("Buy oat milk", 37.0, "2026-04-17T10:00:00-07:00")
    call_ok(session, "modify_reminder", reminder_id=rid, latitude=None, longitude=None)  # null clears the place
    assert world.get("REMINDER", rid)["latitude"] is None
    call_ok(session, "remove_reminder", reminder_id=rid)
    assert world.get("REMINDER", rid) is None and world.get("REMINDER", other) is not None


def test_modify_refreshes_creation_time(session, world):
    world.insert("REMINDER", {"reminder_id": "reminder_100", "content": "Water plants",
                              "creation_datetime": "2026-04-01T08:00:00Z", "reminder_datetime": "2026-04-20T08:00:00Z"})
    call_ok(session, "modify_reminder", reminder_id="reminder_100", reminder_datetime="2026-04-21T08:00:00")
    row = world.get("REMINDER", "reminder_100")
    assert row["creation_datetime"] == NOW
    assert row["reminder_datetime"] == "2026-04-21T08:00:00-07:00"  # no offset = device time zone


def test_search_by_datetime_bounds(session):
    early = call_ok(session, "add_reminder", content="Standup notes", reminder_datetime="2026-04-17T09:00:00-07:00")
    late = call_ok(session, "add_reminder", content="Submit report", reminder_datetime="2026-04-20T17:00:00-07:00")
    hits = call_ok(session, "search_reminder", reminder_datetime_lowerbound="2026-04-17T09:00:00-07:00",
                   reminder_datetime_upperbound="2026-04-18T00:00:00-07:00")
    assert [r["reminder_id"] for r in hits] == [early]  # lower bound inclusive
    hits = call_ok(session, "search_reminder", reminder_datetime_lowerbound="2026-04-18T00:00:00Z")
    assert [r["reminder_id"] for r in hits] == [late]  # a single bound is enough
    hits = call_ok(session, "search_reminder", creation_datetime_lowerbound="2026-04-16T00:00:00Z",
                   creation_datetime_upperbound=NOW)
    assert [r["reminder_id"] for r in hits] == [early, late]  # sorted by reminder time
    assert call_ok(session, "search_reminder", creation_datetime_upperbound="2026-04-01T00:00:00Z") == []


@pytest.mark.parametrize("args, fragment", [
    ({"content": " ", "reminder_datetime": "2026-04-17T10:00:00Z"}, "content"),
    ({"content": "x", "reminder_datetime": "tomorrow"}, "not an ISO 8601 datetime"),
    ({"content": "x", "reminder_datetime": "2026-04-17T10:00:00Z", "latitude": 37.0}, "given together"),
    ({"content": "x", "reminder_datetime": "2026-04-17T10:00:00Z", "latitude": 1.0, "longitude": 500.0},
     "between -180 and 180"),
])
def test_add_failures_roll_back(session, world, args, fragment):
    before = world.snapshot()
    assert fragment in call_err(session, "add_reminder", **args).message
    assert world.diff(before).empty


def test_other_failures(session, world):
    assert "at least one search criterion" in call_err(session, "search_reminder").message
    err = call_err(session, "search_reminder", reminder_datetime_lowerbound="2026-04-20T00:00:00Z",
                   reminder_datetime_upperbound="2026-04-19T00:00:00Z")
    assert "must not be before" in err.message
    rid = call_ok(session, "add_reminder", content="Pay rent", reminder_datetime="2026-05-01T09:00:00Z")
    assert "at least one field" in call_err(session, "modify_reminder", reminder_id=rid).message
    assert "No reminder" in call_err(session, "modify_reminder", reminder_id="nope", content="x").message
    assert "given together" in call_err(session, "modify_reminder", reminder_id=rid, latitude=37.0).message
    assert world.get("REMINDER", rid)["creation_datetime"] == NOW
    assert "No reminder" in call_err(session, "remove_reminder", reminder_id="nope").message
    assert call_ok(session, "search_reminder", content="quantum physics lecture") == []
