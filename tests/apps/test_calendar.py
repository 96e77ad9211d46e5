"""Calendar: base state, the relative-time resolver, and every tool on its happy and failure paths."""

import json
from datetime import UTC, datetime

import pytest
from testkit import call_err, call_ok

from mmtsb.apps.calendar.relative import is_relative_spec, resolve_relative
from mmtsb.apps.calendar.seed import PERSONAL_CALENDAR_ID, WORK_CALENDAR_ID, demo_event_id

REF = datetime(2026, 4, 16, 23, 51, 15, 674412, tzinfo=UTC)  # Thursday 16:51 at UTC-7
WEEK = {"datetime_range_lowerbound": "2026-04-20T00:00:00-07:00",
        "datetime_range_upperbound": "2026-04-27T00:00:00-07:00"}
STAGING = "CALENDAR_EVENTS_RECURRENCE_STAGING"


def _event(session, **overrides):
    args = {"calendar_id": PERSONAL_CALENDAR_ID, "title": "Piano lesson",
            "start_datetime": "2026-05-04T17:00:00-07:00", "end_datetime": "2026-05-04T18:00:00-07:00"}
    return call_ok(session, "create_calendar_event", **{**args, **overrides})


# ------------------------------------------------------------------------------ relative-time resolver
def test_resolve_relative_offsets_absolute_fields_and_weekday_rule():
    assert resolve_relative({"days": 1, "hour": 20}, REF) == "2026-04-17T20:00:00-07:00"
    assert resolve_relative({"hours": 2}, REF) == "2026-04-16T18:51:15-07:00"  # microseconds dropped
    # "next Monday": add the days, then the first Monday on or after that date
    assert resolve_relative({"days": 1, "weekday": "MO(+1)", "hour": 9}, REF) == "2026-04-20T09:00:00-07:00"
    assert resolve_relative('{"days": 1, "weekday": "WE(+1)", "hour": 9, "minute": 30}', REF) == \
        "2026-04-22T09:30:00-07:00"
    assert resolve_relative({"weekday": "th"}, REF).startswith("2026-04-16T")  # today is a Thursday
    assert resolve_relative({"days": -1, "hour": 8}, "2026-04-16T23:51:15", utc_offset_seconds=0) == \
        "2026-04-15T08:00:00+00:00"


def test_resolve_relative_rejects_malformed_specs():
    with pytest.raises(ValueError, match="unknown field"):
        resolve_relative({"dayz": 1}, REF)
    with pytest.raises(ValueError, match="invalid weekday"):
        resolve_relative({"weekday": "MONDAY"}, REF)
    with pytest.raises(ValueError, match="integer"):
        resolve_relative({"days": 1.5}, REF)
    with pytest.raises(ValueError, match="not valid JSON"):
        resolve_relative("{days: 1}", REF)
    assert is_relative_spec(json.dumps({"days": 2})) and not is_relative_spec("2026-04-17T10:00:00Z")
    assert not is_relative_spec({})


# ------------------------------------------------------------------------------ base state
def test_base_state_has_two_calendars_and_fifteen_demo_events(world):
    titles = {r["calendar_id"]: r["title"] for r in world.rows("CALENDARS")}
    assert titles == {PERSONAL_CALENDAR_ID: "Personal", WORK_CALENDAR_ID: "Work"}
    events = world.rows("CALENDAR_EVENTS")
    assert len(events) == 15 and world.count(STAGING) == 0
    assert all(e["start_datetime"].endswith("-07:00") for e in events)
    dinner = world.get("CALENDAR_EVENTS", demo_event_id("dinner"))
    assert dinner["start_datetime"] == "2026-04-17T20:00:00-07:00"  # tomorrow, 8 pm device time
    assert world.get("CALENDAR_EVENTS", demo_event_id("dmv"))["start_datetime"].startswith("2026-04-22T09:30")
    ooo = world.get("CALENDAR_EVENTS", demo_event_id("ooo"))
    assert ooo["is_all_day"] and (ooo["start_datetime"], ooo["end_datetime"]) == \
        ("2026-04-20T00:00:00-07:00", "2026-04-22T00:00:00-07:00")


# ------------------------------------------------------------------------------ calendars
def test_calendar_crud(session, world):
    cal = call_ok(session, "create_calendar", title="Family")
    assert world.get("CALENDARS", cal)["title"] == "Family"
    assert call_ok(session, "search_calendars", title="family") == [{"calendar_id": cal, "title": "Family"}]
    assert call_ok(session, "search_calendars", calendar_id=WORK_CALENDAR_ID)[0]["title"] == "Work"
    assert call_ok(session, "search_calendars", title="groceries") == []
    call_ok(session, "modify_calendar", calendar_id=cal, title="Kids")
    assert world.get("CALENDARS", cal)["title"] == "Kids"
    event = _event(session, calendar_id=cal)
    call_ok(session, "remove_calendar", calendar_id=cal)
    assert world.get("CALENDARS", cal) is None and world.get("CALENDAR_EVENTS", event) is None


def test_calendar_failures(session, world):
    assert "at least one criterion" in call_err(session, "search_calendars").message
    assert "title" in call_err(session, "create_calendar", title="  ").message
    assert "No calendar" in call_err(session, "modify_calendar", calendar_id="nope", title="x").message
    before = world.snapshot()
    assert "No calendar" in call_err(session, "remove_calendar", calendar_id="nope").message
    assert world.diff(before).empty


# ------------------------------------------------------------------------------ create / search
def test_create_event_stores_every_column(session, world):
    event_id = _event(session, description="Bring the music book", recurrence_frequency="WEEKLY",
                      recurrence_until_datetime="2026-06-01", latitude=37.25, longitude=-122.03,
                      formatted_address="1 Music Ln, Saratoga, CA", attendee_names=["Ana", "Ben"],
                      attendee_emails=["ana@example.com", ""])
    row = world.get("CALENDAR_EVENTS", event_id)
    assert row["calendar_id"] == PERSONAL_CALENDAR_ID and row["description"] == "Bring the music book"
    assert row["recurrence_frequency"] == "WEEKLY" and row["recurrence_interval"] == 1
    assert row["recurrence_until_datetime"] == "2026-06-01T23:59:59-07:00"  # a bare date includes the day
    assert row["attendee_names"] == ["Ana", "Ben"] and row["attendee_emails"] == ["ana@example.com", None]
    assert row["recurrence_exclude_datetime"] == [] and row["recurrence_parent_id"] is None
    plain = world.get("CALENDAR_EVENTS", _event(session, start_datetime="2026-05-05T09:00:00Z",
                                                end_datetime="2026-05-05T10:00:00Z"))
    assert plain["start_datetime"] == "2026-05-05T09:00:00+00:00" and plain["attendee_names"] == []


@pytest.mark.parametrize("overrides, fragment", [
    ({"calendar_id": "missing"}, "No calendar"),
    ({"end_datetime": "2026-05-04T16:00:00-07:00"}, "must be after start_datetime"),
    ({"start_datetime": "next monday"}, "not an ISO 8601 datetime"),
    ({"recurrence_interval": 2}, "need recurrence_frequency"),
    ({"recurrence_frequency": "WEEKLY", "recurrence_interval": 0}, "positive integer"),
    ({"recurrence_frequency": "WEEKLY", "recurrence_until_datetime": "2026-05-01"}, "must not be before"),
    ({"latitude": 37.2}, "given together"),
    ({"latitude": 137.2, "longitude": 0.0}, "between -90 and 90"),
    ({"attendee_names": ["Ana"], "attendee_emails": ["a@x.com", "b@x.com"]}, "same length"),
    ({"recurrence_frequency": "HOURLY"}, "recurrence_frequency"),
])
def test_create_event_failures_roll_back(session, world, overrides, fragment):
    args = {"calendar_id": PERSONAL_CALENDAR_ID, "title": "Piano lesson",
            "start_datetime": "2026-05-04T17:00:00-07:00", "end_datetime": "2026-05-04T18:00:00-07:00"}
    before = world.snapshot()
    assert fragment in call_err(session, "create_calendar_event", **{**args, **overrides}).message
    assert world.diff(before).empty


def test_search_by_range_is_start_inclusive_end_exclusive(session):
    first = _event(session, title="Call A", start_datetime="2026-05-04T09:00:00-07:00",
                   end_datetime="2026-05-04T10:00:00-07:00")
    second = _event(session, title="Call B", start_datetime="2026-05-04T10:00:00-07:00",
                    end_datetime="2026-05-04T11:00:00-07:00")
    found = call_ok(session, "search_calendar_events", datetime_range_lowerbound="2026-05-04T10:00:00-07:00",
                    datetime_range_upperbound="2026-05-04T11:00:00-07:00", calendar_id=PERSONAL_CALENDAR_ID)
    assert [e["calendar_event_id"] for e in found] == [second]
    # the same instant written in UTC
    found = call_ok(session, "search_calendar_events", datetime_range_lowerbound="2026-05-04T16:00:00Z",
                    datetime_range_upperbound="2026-05-04T17:00:00Z", title="call")
    assert [e["calendar_event_id"] for e in found] == [first]


def test_search_criteria(session):
    hits = call_ok(session, "search_calendar_events", title="dinner reservation")
    assert [e["calendar_event_id"] for e in hits] == [demo_event_id("dinner")]
    assert [e["calendar_event_id"] for e in call_ok(session, "search_calendar_events", title="brainstorm")] == \
        [demo_event_id("brainstorm")]
    by_email = call_ok(session, "search_calendar_events", attendee_emails=["PRIYA.N@example.com"])
    assert {e["title"] for e in by_email} == {"Project planning", "Project kickoff", "Brainstorming session"}
    both = call_ok(session, "search_calendar_events", attendee_names=["Priya", "Marco Rossi"])
    assert {e["title"] for e in both} == {"Project planning", "Project kickoff"}
    near = call_ok(session, "search_calendar_events", latitude=37.31, longitude=-121.89)
    assert [e["title"] for e in near] == ["DMV appointment"]
    assert call_ok(session, "search_calendar_events", formatted_address="Cox Ave Saratoga")[0]["title"] == \
        "Dentist appointment"
    all_day = call_ok(session, "search_calendar_events", is_all_day=True)
    assert {e["title"] for e in all_day} == {"Out of office", "Mom's birthday"}
    assert {e["title"] for e in call_ok(session, "search_calendar_events", recurrence_frequency="WEEKLY",
                                        recurrence_interval=2)} == {"1:1 with Jordan"}
    assert call_ok(session, "search_calendar_events", title="submarine race") == []


def test_search_by_recurrence_until(session):
    event_id = _event(session, recurrence_frequency="DAILY", recurrence_until_datetime="2026-05-10T17:00:00Z")
    epoch = int(datetime(2026, 5, 10, 17, tzinfo=UTC).timestamp())
    assert [e["calendar_event_id"] for e in call_ok(session, "search_calendar_events",
                                                    recurrence_until_datetime=epoch)] == [event_id]
    assert [e["calendar_event_id"] for e in call_ok(session, "search_calendar_events",
                                                    recurrence_until_datetime=20260510)] == [event_id]


def test_search_failures(session):
    assert "at least one search criterion" in call_err(session, "search_calendar_events").message
    err = call_err(session, "search_calendar_events", datetime_range_lowerbound="2026-04-20T00:00:00-07:00")
    assert "given together" in err.message
    err = call_err(session, "search_calendar_events", datetime_range_lowerbound="2026-04-21T00:00:00-07:00",
                   datetime_range_upperbound="2026-04-20T00:00:00-07:00")
    assert "must be after" in err.message
    assert "is_all_day" in call_err(session, "search_calendar_events", is_all_day="sometimes").message


# ------------------------------------------------------------------------------ recurrence
def test_range_search_expands_series_into_stable_staged_instances(session, world):
    gym = demo_event_id("gym")
    found = call_ok(session, "search_calendar_events", title="gym", **WEEK)
    instance = next(e for e in found if e["recurrence_parent_id"] == gym)
    assert [e["calendar_event_id"] for e in found] == [gym, instance["calendar_event_id"]]  # by start time
    assert instance["start_datetime"] == "2026-04-20T07:00:00-07:00"
    assert world.get(STAGING, instance["calendar_event_id"]) is not None
    again = call_ok(session, "search_calendar_events", title="gym", **WEEK)
    assert instance["calendar_event_id"] in [e["calendar_event_id"] for e in again]
    assert world.count(STAGING) == 3  # gym, the weekly 1:1 and the birthday in that week, cached once
    # without a range the series is listed once, not expanded
    assert [e["calendar_event_id"] for e in call_ok(session, "search_calendar_events", title="gym")] == [gym]
    # an instance can be looked up by id later
    assert call_ok(session, "search_calendar_events",
                   calendar_event_id=instance["calendar_event_id"])[0]["recurrence_parent_id"] == gym


def test_expansion_honours_interval_until_and_months(session):
    series = _event(session, title="Rent", start_datetime="2026-01-31T09:00:00-07:00",
                    end_datetime="2026-01-31T09:30:00-07:00", recurrence_frequency="MONTHLY",
                    recurrence_until_datetime="2026-05-31")
    found = call_ok(session, "search_calendar_events", title="rent", datetime_range_lowerbound="2026-01-01T00:00:00Z",
                    datetime_range_upperbound="2027-01-01T00:00:00Z")
    starts = [e["start_datetime"][:10] for e in found if e["recurrence_parent_id"] == series]
    assert starts == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]
    _event(session, title="Sprint review", start_datetime="2026-05-01T10:00:00-07:00",
           end_datetime="2026-05-01T11:00:00-07:00", recurrence_frequency="WEEKLY", recurrence_interval=2)
    found = call_ok(session, "search_calendar_events", title="sprint review",
                    datetime_range_lowerbound="2026-05-01T00:00:00-07:00",
                    datetime_range_upperbound="2026-06-01T00:00:00-07:00")
    assert [e["start_datetime"][:10] for e in found if e["recurrence_parent_id"]] == \
        ["2026-05-01", "2026-05-15", "2026-05-29"]


def test_remove_instance_excludes_only_that_occurrence(session, world):
    gym = demo_event_id("gym")
    week = call_ok(session, "search_calendar_events", title="gym", **WEEK)
    instance = next(e for e in week if e["recurrence_parent_id"] == gym)
    call_ok(session, "remove_calendar_event", calendar_event_id=instance["calendar_event_id"])
    assert world.get("CALENDAR_EVENTS", gym)["recurrence_exclude_datetime"] == ["2026-04-20T07:00:00-07:00"]
    assert world.get(STAGING, instance["calendar_event_id"]) is None
    assert [e["calendar_event_id"] for e in call_ok(session, "search_calendar_events", title="gym", **WEEK)] == []
    later = call_ok(session, "search_calendar_events", title="gym", datetime_range_lowerbound="2026-04-27T00:00:00-07:00",
                    datetime_range_upperbound="2026-04-28T00:00:00-07:00")
    assert len(later) == 2  # next week's occurrence and the series


def test_remove_series_and_plain_event(session, world):
    gym = demo_event_id("gym")
    call_ok(session, "search_calendar_events", title="gym", **WEEK)
    call_ok(session, "remove_calendar_event", calendar_event_id=gym)
    assert world.get("CALENDAR_EVENTS", gym) is None
    assert world.select(STAGING, "recurrence_parent_id = ?", (gym,)) == []
    call_ok(session, "remove_calendar_event", calendar_event_id=demo_event_id("dentist"))
    assert world.get("CALENDAR_EVENTS", demo_event_id("dentist")) is None
    assert "No calendar event" in call_err(session, "remove_calendar_event", calendar_event_id=gym).message


# ------------------------------------------------------------------------------ modify
def test_modify_plain_event(session, world):
    event_id = demo_event_id("dinner")
    call_ok(session, "modify_calendar_event", calendar_event_id=event_id, title="Dinner with Sam",
            start_datetime="2026-04-17T19:30:00-07:00", attendee_names=["Sam"], calendar_id=WORK_CALENDAR_ID)
    row = world.get("CALENDAR_EVENTS", event_id)
    assert (row["title"], row["start_datetime"], row["end_datetime"], row["calendar_id"]) == \
        ("Dinner with Sam", "2026-04-17T19:30:00-07:00", "2026-04-17T22:00:00-07:00", WORK_CALENDAR_ID)
    assert row["attendee_names"] == ["Sam"] and row["attendee_emails"] == [None]
    call_ok(session, "modify_calendar_event", calendar_event_id=event_id, latitude=37.0, longitude=-122.0)
    assert world.get("CALENDAR_EVENTS", event_id)["latitude"] == 37.0


def test_modify_failures(session, world):
    event_id = demo_event_id("dinner")
    before = world.snapshot()
    assert "at least one field" in call_err(session, "modify_calendar_event", calendar_event_id=event_id).message
    assert "No calendar event" in call_err(session, "modify_calendar_event", calendar_event_id="x", title="y").message
    assert "must be after" in call_err(session, "modify_calendar_event", calendar_event_id=event_id,
                                       end_datetime="2026-04-17T19:00:00-07:00").message
    assert "paired 1:1" in call_err(session, "modify_calendar_event", calendar_event_id=demo_event_id("kickoff"),
                                    attendee_names=["Only One"]).message
    assert "No calendar" in call_err(session, "modify_calendar_event", calendar_event_id=event_id,
                                     calendar_id="nope").message
    assert world.diff(before).empty


def test_modify_instance_detaches_it_and_series_edit_regenerates_ids(session, world):
    gym = demo_event_id("gym")
    instance = next(e for e in call_ok(session, "search_calendar_events", title="gym", **WEEK)
                    if e["recurrence_parent_id"] == gym)
    iid = instance["calendar_event_id"]
    err = call_err(session, "modify_calendar_event", calendar_event_id=iid, recurrence_interval=2)
    assert "single occurrence" in err.message
    call_ok(session, "modify_calendar_event", calendar_event_id=iid, start_datetime="2026-04-20T18:00:00-07:00",
            end_datetime="2026-04-20T19:00:00-07:00")
    detached = world.get("CALENDAR_EVENTS", iid)
    assert detached["start_datetime"] == "2026-04-20T18:00:00-07:00" and detached["recurrence_parent_id"] == gym
    assert detached["recurrence_frequency"] is None
    assert world.get("CALENDAR_EVENTS", gym)["recurrence_exclude_datetime"] == ["2026-04-20T07:00:00-07:00"]
    week = call_ok(session, "search_calendar_events", title="gym", **WEEK)
    assert [e["start_datetime"] for e in week if e["calendar_event_id"] != gym] == ["2026-04-20T18:00:00-07:00"]
    # a series edit drops the cached instances: the next search hands out new ids
    later = {"datetime_range_lowerbound": "2026-04-27T00:00:00-07:00",
                 "datetime_range_upperbound": "2026-04-28T00:00:00-07:00"}
    old_id = next(e for e in call_ok(session, "search_calendar_events", title="gym", **later)
                  if e["recurrence_parent_id"])["calendar_event_id"]
    call_ok(session, "modify_calendar_event", calendar_event_id=gym, title="Evening gym session")
    new = call_ok(session, "search_calendar_events", title="evening gym", **later)
    new_instance = next(e for e in new if e["recurrence_parent_id"] == gym)
    assert new_instance["calendar_event_id"] != old_id and new_instance["title"] == "Evening gym session"
    # removing the series also removes its detached occurrence
    call_ok(session, "remove_calendar_event", calendar_event_id=gym)
    assert world.get("CALENDAR_EVENTS", iid) is None
