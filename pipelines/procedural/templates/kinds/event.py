"""Recipes over events (posters, tickets, invitations, notes): a list of them, the first one, the evening ones,
leave-time reminders or alarms, a time check, which are on the calendar already, and inviting a friend."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

from pipelines.procedural.families.base import clock_time, short_date
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe
from pipelines.procedural.templates.entities import Entity, Seed
from pipelines.procedural.templates.kinds.common import DOC, doc_goal, misstate, nth

__all__ = ["RECIPES"]


def start_of(c: Content) -> str:
    return f"{c['date']}T{c['start']}:00"


def end_of(c: Content) -> str:
    return f"{c['date']}T{c['end']}:00"


def line(c: Content) -> str:
    return f"{c['title']} - {short_date(c['date'])}, {clock_time(c['start'])}-{clock_time(c['end'])}, {c['venue']}"


def event_of(m: Material, key: str, k: int, c: Content, lookups: tuple = ()) -> Entity:
    return Entity(key, "event", {"title": c["title"], "start": start_of(c), "end": end_of(c)},
                  f"the calendar event for {nth(m, k)}", lookups)


def wrong_start(m: Material, k: int):
    c = m.items[k - 1][1]
    h, mm = map(int, c["start"].split(":"))
    cands = [clock_time(f"{(h + d) % 24:02d}:{mm:02d}") for d in m.rng.sample([-2, -1, 1, 2], 4)]
    cands.append(clock_time(f"{(h + 5) % 24:02d}:{(mm + 15) % 60:02d}"))
    return misstate(m, k, "start time", clock_time(c["start"]), cands)


def _minus(iso: str, minutes: int) -> str:
    return (datetime.fromisoformat(iso) - timedelta(minutes=minutes)).isoformat()


def _distinct(cs: list[Content]) -> bool:
    return len({c["title"] for c in cs}) == len(cs) and len({(c["date"], c["start"]) for c in cs}) == len(cs)


def _aggregate(m: Material) -> Plan:
    title = m.rng.choice(["Upcoming events", "Things to do this month", "Event shortlist"])

    def body(items: list[Item]) -> str:
        return "\n".join(line(c) for _, c in items)

    listing = doc_goal(m, "events_doc", title, "one line per event: its title, date, start and end time, and venue, "
                       "as 'Title - Month D, H:MM PM-H:MM PM, Venue'", body,
                       lambda items: "Here are the events I'm looking at: " + "; ".join(line(c) for _, c in items))
    calendar = Goal("put every one of these events on my calendar, from its start to its end time",
                    lambda items, final: [event_of(m, f"event_{k}", k, c) for k, c in items],
                    lambda items: "Calendar events must exist for: " + "; ".join(line(c) for _, c in items) + ".")
    goal, pivot = (calendar, listing) if m.sink == "calendar" else (listing, calendar)
    if m.sink == "calendar":
        pivot = doc_goal(replace(m, sink="note"), "events_doc", title, "one line per event instead: its title, "
                         "date, start and end time, and venue, as 'Title - Month D, H:MM PM-H:MM PM, Venue'", body)
    return Plan(title, f"{m.user.first} gathers upcoming events.", goal, pivot,
                misstatement=wrong_start(m, m.rng.randint(1, len(m.items))))


def _compare(m: Material) -> Plan:
    def first(items: list[Item], sign: int) -> Item:
        return min(items, key=lambda it: (start_of(it[1]), it[0])) if sign > 0 else \
            max(items, key=lambda it: (start_of(it[1]), -it[0]))

    if m.sink == "reminder":
        goal = Goal("set one reminder at 9:00 AM on the day of whichever event happens first, worded 'Today: <event "
                    "title>' (move it if a later one turns out to be earlier)",
                    lambda items, final: [Entity("first_reminder", "reminder",
                                                 {"content": f"Today: {first(items, 1)[1]['title']}",
                                                  "when": f"{first(items, 1)[1]['date']}T09:00:00"},
                                                 "the reminder for the earliest event")],
                    lambda items: f"Exactly one reminder 'Today: {first(items, 1)[1]['title']}' at 9:00 AM on "
                                  f"{first(items, 1)[1]['date']} must exist.")
    else:
        goal = Goal("put only the event that happens first on my calendar, from its start to its end time (if a later "
                    "one is for an earlier event, move the calendar entry to that one)",
                    lambda items, final: [event_of(m, "pick", *first(items, 1))],
                    lambda items: f"Exactly one new calendar event must exist: {line(first(items, 1)[1])}.")
    pivot = Goal("put only the event that happens last on my calendar instead, from its start to its end time",
                 lambda items, final: [event_of(m, "last_pick", *first(items, -1))],
                 lambda items: f"Exactly one new calendar event must exist: {line(first(items, -1)[1])}.")
    return Plan("First event", f"{m.user.first} can make only one of several events and picks the earliest.", goal,
                pivot, misstatement=wrong_start(m, first(m.items, 1)[0]))


def hours(cs: list[Content]) -> list[int]:
    starts = [int(c["start"][:2]) * 60 + int(c["start"][3:]) for c in cs]
    return [h for h in range(10, 21) if min(starts) < h * 60 <= max(starts)]


def _filter(m: Material) -> Plan:
    h = m.rng.choice(hours([c for _, c in m.items]))
    cut = f"{h:02d}:00"
    when = clock_time(cut).replace(":00", "")

    def chosen(items: list[Item], late: bool) -> list[Item]:
        return [(k, c) for k, c in items if (c["start"] >= cut) == late]

    def outcome(late: bool):
        return lambda items, final: [event_of(m, f"event_{k}", k, c) for k, c in chosen(items, late)]

    def criteria(late: bool):
        return lambda items: ("Calendar events must exist for exactly: "
                              + "; ".join(line(c) for _, c in chosen(items, late)) + ".")

    goal = Goal(f"put on my calendar only the events that start at {when} or later, from start to end time",
                outcome(True), criteria(True))
    pivot = Goal(f"put on my calendar only the events that start before {when} instead", outcome(False),
                 criteria(False))
    k = m.rng.choice([k for k, _ in chosen(m.items, True)])
    return Plan("Evening events", f"{m.user.first} only has time for events after work.", goal, pivot,
                misstatement=wrong_start(m, k))


def _compute(m: Material) -> Plan:
    lead = m.rng.choice([30, 45, 60, 90])

    def reminder(key: str, content: str, when: str, k: int) -> Entity:
        return Entity(key, "reminder", {"content": content, "when": when}, f"the reminder for {nth(m, k)}")

    if m.sink == "alarm":
        goal = Goal(f"set a phone alarm {lead} minutes before each event starts, labelled 'Leave for <event title>'",
                    lambda items, final: [Entity(f"alarm_{k}", "alarm",
                                                 {"time": _minus(start_of(c), lead)[11:16],
                                                  "label": f"Leave for {c['title']}"}, f"the alarm for {nth(m, k)}")
                                          for k, c in items],
                    lambda items: "Alarms must exist: " + "; ".join(
                        f"{_minus(start_of(c), lead)[11:16]} 'Leave for {c['title']}'" for _, c in items) + ".")
    else:
        goal = Goal(f"set a reminder {lead} minutes before each event starts, worded 'Leave for <event title>'",
                    lambda items, final: [reminder(f"leave_{k}", f"Leave for {c['title']}",
                                                   _minus(start_of(c), lead), k) for k, c in items],
                    lambda items: "Reminders must exist: " + "; ".join(
                        f"'Leave for {c['title']}' at {_minus(start_of(c), lead)}" for _, c in items) + ".")
    pivot = Goal("set one reminder at 8:00 AM on the day of each event instead, worded 'Today: <event title>'",
                 lambda items, final: [reminder(f"morning_{k}", f"Today: {c['title']}", f"{c['date']}T08:00:00", k)
                                       for k, c in items],
                 lambda items: "Reminders must exist: " + "; ".join(
                     f"'Today: {c['title']}' at {c['date']}T08:00:00" for _, c in items) + ".")
    return Plan("Leave-time reminders", f"{m.user.first} wants a nudge before each event.", goal, pivot,
                misstatement=wrong_start(m, m.rng.randint(1, len(m.items))))


def _validate(m: Material) -> Plan:
    cutoff = m.rng.choice([(21, "9 PM"), (20, "8 PM"), (22, "10 PM")])
    title = "Late night check"

    def late(c: Content) -> bool:
        return int(c["end"][:2]) * 60 + int(c["end"][3:]) > cutoff[0] * 60

    def body(items: list[Item]) -> str:
        return "\n".join(f"{c['title']}: {'ends too late' if late(c) else 'OK'}" for _, c in items)

    def weekend(items: list[Item]) -> str:
        return "\n".join(f"{c['title']}: {'weekend' if date.fromisoformat(c['date']).weekday() >= 5 else 'weekday'}"
                         for _, c in items)

    goal = doc_goal(m, "late_doc", title, f"one line per event saying whether it ends by {cutoff[1]} (my cut-off): "
                    "'Title: OK' or 'Title: ends too late'", body,
                    lambda items: "Events ending too late: " + (", ".join(
                        c["title"] for _, c in items if late(c)) or "none") + ".")
    pivot = doc_goal(m, "weekend_doc", "Weekend check", "one line per event saying instead whether it falls on a "
                     "weekend: 'Title: weekend' or 'Title: weekday'", weekend)
    return Plan(title, f"{m.user.first} checks which events fit the evening cut-off.", goal, pivot,
                misstatement=wrong_start(m, m.rng.randint(1, len(m.items))))


def _eve(c: Content) -> str:
    return f"{(date.fromisoformat(c['date']) - timedelta(days=1)).isoformat()}T18:00:00"


def _cross(m: Material) -> Plan:
    ks = [k for k, _ in m.items]
    matched = set(m.rng.sample(ks, m.rng.randint(1, len(ks) - 1)))
    seeds = tuple(Seed("event", {"title": c["title"], "start": start_of(c), "end": end_of(c)},
                       f"calendar_events_calendar_event_{120 + k}") for k, c in m.items if k in matched)

    def check(k: int, c: dict) -> tuple:
        return (("search_calendar_events", {"title": c["title"]}, f"on_calendar_{k}"),)

    def act(items: list[Item], final: bool):
        out = []
        for k, c in items:
            if k in matched:
                out.append(Entity(f"tickets_{k}", "reminder", {"content": f"Get tickets for {c['title']}",
                                                               "when": _eve(c)},
                                  f"the ticket reminder for {nth(m, k)}", check(k, c)))
            else:
                out.append(event_of(m, f"event_{k}", k, c, check(k, c)))
        return out

    def unsure(items: list[Item], final: bool):
        return [Entity(f"decide_{k}", "reminder", {"content": f"Decide on {c['title']}", "when": _eve(c)},
                       f"the reminder for {nth(m, k)}", check(k, c)) for k, c in items if k not in matched]

    goal = Goal("check each event against my calendar: if it is already on it, remind me at 6 PM the day before to "
                "get tickets ('Get tickets for <title>'); if not, add it to my calendar from start to end",
                act, lambda items: "Reminders to get tickets at 6 PM the day before must exist for the events already "
                "on the calendar (" + "; ".join(c["title"] for k, c in items if k in matched) + "), and calendar "
                "events for the others (" + "; ".join(line(c) for k, c in items if k not in matched) + ").")
    pivot = Goal("not touch my calendar: for each event that is not on my calendar yet, set a reminder at 6 PM the "
                 "day before worded 'Decide on <title>', and leave the others alone", unsure,
                 lambda items: "Only 'Decide on <title>' reminders at 6 PM the day before, for the events not on the "
                 "calendar: " + "; ".join(c["title"] for k, c in items if k not in matched) + ".")
    k = m.rng.choice([k for k in ks if k not in matched])
    return Plan("Events vs calendar", f"{m.user.first} checks events against the calendar.", goal, pivot,
                seeds=seeds, misstatement=wrong_start(m, k),
                preexisting=tuple(f"calendar event '{s.fields['title']}'" for s in seeds))


def _chain(m: Material) -> Plan:
    """Each event goes on the calendar, then the friend gets a text with its details."""
    fid, first, last, _ = m.friend

    def invite(k: int, c: Content) -> Entity:
        return Entity(f"invite_{k}", "text", {"phone": "$friend.0.phone_number", "receiver_id": fid,
                                              "message": f"Want to come? {line(c)}"},
                      f"the text to {first} about {nth(m, k)}",
                      (("contacts_search_contacts", {"query": f"{first} {last}"}, "friend"),))

    def both(items: list[Item], final: bool) -> list[Entity]:
        out: list[Entity] = []
        for k, c in items:
            out += [event_of(m, f"event_{k}", k, c), invite(k, c)]
        return out

    goal = Goal(f"put each event on my calendar from start to end, then text {first} {last} (from my contacts) "
                "about it, one text per event reading 'Want to come? <title> - <Month D>, <start>-<end>, <venue>' "
                "(times written like H:MM PM)", both,
                lambda items: "Calendar events and one invitation text each to " + f"{first} {last} must exist for: "
                + "; ".join(line(c) for _, c in items) + ".")
    pivot = Goal(f"not text {first} after all; just put the events on my calendar",
                 lambda items, final: [event_of(m, f"event_{k}", k, c) for k, c in items],
                 lambda items: "Calendar events must exist for: " + "; ".join(line(c) for _, c in items) + ".")
    return Plan("Invite a friend", f"{m.user.first} plans outings and invites a friend.", goal, pivot,
                misstatement=wrong_start(m, m.rng.randint(1, len(m.items))))


RECIPES = {
    "aggregate": Recipe(_aggregate, ("create_calendar_event",), sinks={**DOC, "calendar": ("search_calendars",
                                                                                             "create_calendar_event")}),
    "compare": Recipe(_compare, ("search_calendars", "create_calendar_event", "modify_calendar_event"), fits=_distinct,
                      sinks={"calendar": (), "reminder": ("add_reminder", "modify_reminder")}),
    "filter": Recipe(_filter, ("search_calendars", "create_calendar_event"),
                     fits=lambda cs: bool(hours(cs)) and _distinct(cs)),
    "compute": Recipe(_compute, ("add_reminder",), fits=_distinct,
                      sinks={"reminder": ("add_reminder",), "alarm": ("alarms_create_alarm",)}),
    "validate": Recipe(_validate, (), fits=_distinct, sinks=DOC),
    "cross_reference": Recipe(_cross, ("search_calendar_events", "create_calendar_event", "add_reminder"),
                              fits=_distinct),
    "lookup_chain": Recipe(_chain, ("search_calendars", "create_calendar_event", "contacts_search_contacts",
                                    "messages_send_text_message"), fits=_distinct),
}
