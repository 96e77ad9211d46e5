"""Compare: pick the image that wins on one measure (the most expensive receipt, the earliest event); the pick
is revised as more images arrive."""

from __future__ import annotations

from pipelines.procedural.families.base import money, short_date
from pipelines.procedural.templates.base import Goal, Item, Material, Plan, Recipe, RecipeTemplate
from pipelines.procedural.templates.kit import event_line, event_of, misstate_start, misstate_total, note, start_of

__all__ = ["TEMPLATE"]


def _receipts(m: Material) -> Plan:
    def top(items: list[Item], sign: int) -> Item:
        return max(items, key=lambda it: (sign * it[1]["total"], -it[0]))

    def line(it: Item) -> str:
        c = it[1]
        return f"{c['vendor']}: {money(c['total'])} ({short_date(c['date'])})"

    big, small = "Biggest expense", "Smallest expense"
    goal = Goal(f"keep a note titled '{big}' with the vendor, total and date of the most expensive receipt",
                lambda items, final: [note("big_note", big, line(top(items, 1)))],
                lambda items: f"A note titled '{big}' must read {line(top(items, 1))!r}.",
                lambda items: f"The most expensive receipt is {line(top(items, 1))}.")
    pivot = Goal(f"keep a note titled '{small}' with the vendor, total and date of the cheapest receipt",
                 lambda items, final: [note("small_note", small, line(top(items, -1)))],
                 lambda items: f"A note titled '{small}' must read {line(top(items, -1))!r}.",
                 lambda items: f"The cheapest receipt is {line(top(items, -1))}.")
    winner = top(m.items, 1)[0]
    return Plan(big, f"{m.user.first} wants to know which receipt cost the most.", goal, pivot,
                misstatement=misstate_total(m.items, winner, m.rng, m.family))


def _events(m: Material) -> Plan:
    def first(items: list[Item], sign: int) -> Item:
        return min(items, key=lambda it: (start_of(it[1]), it[0])) if sign > 0 else \
            max(items, key=lambda it: (start_of(it[1]), -it[0]))

    goal = Goal("put only the event that happens first on my calendar, from its start to its end time (if a later "
                "poster is for an earlier event, move the calendar entry to that one)",
                lambda items, final: [event_of("pick", first(items, 1)[1], "the calendar event for the earliest event")],
                lambda items: f"Exactly one new calendar event must exist: {event_line(first(items, 1)[1])}.")
    pivot = Goal("put only the event that happens last on my calendar instead, from its start to its end time",
                 lambda items, final: [event_of("last_pick", first(items, -1)[1],
                                                "the calendar event for the latest event")],
                 lambda items: f"Exactly one new calendar event must exist: {event_line(first(items, -1)[1])}.")
    winner = first(m.items, 1)[0]
    return Plan("First event", f"{m.user.first} can make only one of several events and picks the earliest.", goal,
                pivot, misstatement=misstate_start(m.items, winner, m.rng, m.family))


TEMPLATE = RecipeTemplate("compare", {
    "receipt": Recipe(_receipts, ("simple_note_create_note", "simple_note_update_note", "gmail_send_email")),
    "event_poster": Recipe(_events, ("search_calendars", "create_calendar_event", "modify_calendar_event"),
                           fits=lambda cs: len({(c["date"], c["start"]) for c in cs}) == len(cs)),
})
