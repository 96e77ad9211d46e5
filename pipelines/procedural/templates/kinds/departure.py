"""Recipes over departures (platform signs, tickets, trip screens, route maps): an itinerary, wake-up alarms or
leave-time reminders, the first train, the weekend trips, and an early-start check."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from pipelines.procedural.families.base import clock_time, short_date
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe
from pipelines.procedural.templates.entities import Entity
from pipelines.procedural.templates.kinds.common import DOC, doc_goal, misstate, nth

__all__ = ["RECIPES"]


def when(c: Content) -> str:
    return f"{c['date']}T{c['time']}:00"


def line(c: Content) -> str:
    return f"{c['line']} to {c['destination']} - {short_date(c['date'])}, {clock_time(c['time'])}, platform " \
           f"{c['platform']}"


def _minus(iso: str, minutes: int) -> str:
    return (datetime.fromisoformat(iso) - timedelta(minutes=minutes)).isoformat()


def wrong_time(m: Material, k: int):
    c = m.items[k - 1][1]
    h, mm = map(int, c["time"].split(":"))
    cands = [clock_time(f"{(h + d) % 24:02d}:{mm:02d}") for d in m.rng.sample([-2, -1, 1, 2], 4)]
    cands.append(clock_time(f"{h:02d}:{(mm + 30) % 60:02d}"))
    return misstate(m, k, "departure time", clock_time(c["time"]), cands)


def _distinct(cs: list[Content]) -> bool:
    return len({when(c) for c in cs}) == len(cs) and len({(c["line"], c["destination"]) for c in cs}) == len(cs)


def _trip(m: Material, key: str, k: int, c: Content) -> Entity:
    end = (datetime.fromisoformat(when(c)) + timedelta(hours=1)).isoformat()
    return Entity(key, "event", {"title": f"Trip to {c['destination']}", "start": when(c), "end": end},
                  f"the calendar entry for the trip on {nth(m, k)}")


def _aggregate(m: Material) -> Plan:
    title = m.rng.choice(["Travel plan", "Itinerary", "Trips this month"])

    def body(items: list[Item]) -> str:
        return "\n".join(line(c) for _, c in sorted(items, key=lambda it: when(it[1])))

    goal = doc_goal(m, "plan_doc", title, "one line per trip in time order: 'Service to Destination - Month D, "
                    "H:MM AM, platform N'", body, lambda items: "My trips: " + "; ".join(
                        line(c) for _, c in sorted(items, key=lambda it: when(it[1]))))
    pivot = Goal("put each trip on my calendar instead, titled 'Trip to <destination>', from departure for one hour",
                 lambda items, final: [_trip(m, f"trip_{k}", k, c) for k, c in items],
                 lambda items: "Calendar events must exist: " + "; ".join(
                     f"Trip to {c['destination']} at {when(c)}" for _, c in items) + ".")
    return Plan(title, f"{m.user.first} puts the trips in one place.", goal, pivot,
                misstatement=wrong_time(m, m.rng.randint(1, len(m.items))))


def _compute(m: Material) -> Plan:
    lead = m.rng.choice([30, 45, 60, 75])

    def alarm(k: int, c: Content) -> Entity:
        return Entity(f"alarm_{k}", "alarm", {"time": _minus(when(c), lead)[11:16],
                                              "label": f"{c['line']} to {c['destination']}"},
                      f"the alarm for the trip on {nth(m, k)}")

    def reminder(k: int, c: Content) -> Entity:
        return Entity(f"leave_{k}", "reminder", {"content": f"Leave for the {c['line']} to {c['destination']}",
                                                 "when": _minus(when(c), lead)}, f"the reminder for {nth(m, k)}")

    if m.sink == "reminder":
        goal = Goal(f"set a reminder {lead} minutes before each departure, worded 'Leave for the <service> to "
                    "<destination>'", lambda items, final: [reminder(k, c) for k, c in items],
                    lambda items: "Reminders must exist: " + "; ".join(
                        f"'Leave for the {c['line']} to {c['destination']}' at {_minus(when(c), lead)}"
                        for _, c in items) + ".")
        pivot = Goal(f"set a phone alarm {lead} minutes before each departure instead, labelled '<service> to "
                     "<destination>'", lambda items, final: [alarm(k, c) for k, c in items],
                     lambda items: "Alarms must exist: " + "; ".join(
                         f"{_minus(when(c), lead)[11:16]} '{c['line']} to {c['destination']}'" for _, c in items) + ".")
    else:
        goal = Goal(f"set a phone alarm {lead} minutes before each departure, labelled '<service> to <destination>'",
                    lambda items, final: [alarm(k, c) for k, c in items],
                    lambda items: "Alarms must exist: " + "; ".join(
                        f"{_minus(when(c), lead)[11:16]} '{c['line']} to {c['destination']}'" for _, c in items) + ".")
        pivot = Goal(f"set reminders {lead} minutes before each departure instead, worded 'Leave for the <service> "
                     "to <destination>'", lambda items, final: [reminder(k, c) for k, c in items],
                     lambda items: "Reminders must exist: " + "; ".join(
                         f"'Leave for the {c['line']} to {c['destination']}' at {_minus(when(c), lead)}"
                         for _, c in items) + ".")
    return Plan("Departure alarms", f"{m.user.first} does not want to miss a departure.", goal, pivot,
                misstatement=wrong_time(m, m.rng.randint(1, len(m.items))))


def _compare(m: Material) -> Plan:
    def pick(items: list[Item], sign: int) -> Item:
        return min(items, key=lambda it: (when(it[1]), it[0])) if sign > 0 else \
            max(items, key=lambda it: (when(it[1]), -it[0]))

    def reminder(key: str, k: int, c: Content) -> Entity:
        return Entity(key, "reminder", {"content": f"Catch the {c['line']} to {c['destination']}",
                                        "when": _minus(when(c), 30)}, f"the reminder for {nth(m, k)}")

    goal = Goal("set one reminder 30 minutes before whichever of these departures comes first, worded 'Catch the "
                "<service> to <destination>' (move it if a later one leaves earlier)",
                lambda items, final: [reminder("first", *pick(items, 1))],
                lambda items: f"Exactly one reminder 'Catch the {pick(items, 1)[1]['line']} to "
                              f"{pick(items, 1)[1]['destination']}' at {_minus(when(pick(items, 1)[1]), 30)} must exist.")
    pivot = Goal("set it for the last departure instead", lambda items, final: [reminder("last", *pick(items, -1))],
                 lambda items: f"Exactly one reminder 'Catch the {pick(items, -1)[1]['line']} to "
                               f"{pick(items, -1)[1]['destination']}' must exist.")
    return Plan("First departure", f"{m.user.first} wants the earliest connection.", goal, pivot,
                misstatement=wrong_time(m, pick(m.items, 1)[0]))


def weekend(c: Content) -> bool:
    return date.fromisoformat(c["date"]).weekday() >= 5


def _filter(m: Material) -> Plan:
    def chosen(items: list[Item], wk: bool) -> list[Item]:
        return [(k, c) for k, c in items if weekend(c) == wk]

    goal = Goal("put on my calendar only the trips that fall on a weekend, titled 'Trip to <destination>', from "
                "departure for one hour", lambda items, final: [_trip(m, f"trip_{k}", k, c)
                                                               for k, c in chosen(items, True)],
                lambda items: "Calendar events must exist for exactly: " + "; ".join(
                    line(c) for _, c in chosen(items, True)) + ".")
    pivot = Goal("put only the weekday trips on my calendar instead",
                 lambda items, final: [_trip(m, f"weekday_{k}", k, c) for k, c in chosen(items, False)],
                 lambda items: "Calendar events must exist for exactly: " + "; ".join(
                     line(c) for _, c in chosen(items, False)) + ".")
    k = m.rng.choice([k for k, _ in chosen(m.items, True)])
    return Plan("Weekend trips", f"{m.user.first} plans weekend getaways.", goal, pivot,
                misstatement=wrong_time(m, k))


def _validate(m: Material) -> Plan:
    early = m.rng.choice([(8, "8 AM"), (9, "9 AM"), (10, "10 AM")])

    def body(items: list[Item]) -> str:
        return "\n".join(f"{c['line']} to {c['destination']}: "
                         f"{'too early' if int(c['time'][:2]) < early[0] else 'OK'}" for _, c in items)

    def platforms(items: list[Item]) -> str:
        return "\n".join(f"{c['line']} to {c['destination']}: platform {c['platform']}" for _, c in items)

    goal = doc_goal(m, "early_doc", "Early start check", f"one line per trip saying whether it leaves before "
                    f"{early[1]}: '<service> to <destination>: too early' or '<service> to <destination>: OK'", body)
    pivot = doc_goal(m, "platform_doc", "Platforms", "one line per trip with its platform instead: '<service> to "
                     "<destination>: platform N'", platforms)
    return Plan("Early start check", f"{m.user.first} avoids early departures.", goal, pivot,
                misstatement=wrong_time(m, m.rng.randint(1, len(m.items))))


RECIPES = {
    "aggregate": Recipe(_aggregate, (), fits=_distinct, sinks=DOC),
    "compute": Recipe(_compute, (), fits=_distinct, sinks={"alarm": ("alarms_create_alarm",),
                                                           "reminder": ("add_reminder",)}),
    "compare": Recipe(_compare, ("add_reminder", "modify_reminder"), fits=_distinct),
    "filter": Recipe(_filter, ("search_calendars", "create_calendar_event"),
                     fits=lambda cs: _distinct(cs) and any(weekend(c) for c in cs) and not all(weekend(c) for c in cs)),
    "validate": Recipe(_validate, (), fits=_distinct, sinks=DOC),
}
