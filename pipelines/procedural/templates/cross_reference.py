"""Cross reference: match the images against what the world already holds and act on the matches (posters
against the calendar, business cards against the contacts)."""

from __future__ import annotations

from datetime import date, timedelta

from pipelines.procedural.templates.base import Goal, Item, Material, Plan, Recipe, RecipeTemplate, ordinal
from pipelines.procedural.templates.entities import Entity, Seed
from pipelines.procedural.templates.kit import (
    card_rows, contact_of, event_line, event_of, full_name, misstate_email, misstate_start, note, start_of,
)

__all__ = ["TEMPLATE"]


def _matched(m: Material) -> set[int]:
    """The images already in the world: at least one, never all."""
    ks = [k for k, _ in m.items]
    return set(m.rng.sample(ks, m.rng.randint(1, len(ks) - 1)))


def _eve(c: dict) -> str:
    return f"{(date.fromisoformat(c['date']) - timedelta(days=1)).isoformat()}T18:00:00"


def _events(m: Material) -> Plan:
    matched = _matched(m)
    seeds = tuple(Seed("event", {"title": c["title"], "start": start_of(c), "end": f"{c['date']}T{c['end']}:00"},
                       f"calendar_events_calendar_event_{120 + k}") for k, c in m.items if k in matched)

    def check(k: int, c: dict) -> tuple:
        return (("search_calendar_events", {"title": c["title"]}, f"on_calendar_{k}"),)

    def act(items: list[Item], final: bool):
        out = []
        for k, c in items:
            if k in matched:
                out.append(Entity(f"tickets_{k}", "reminder", {"content": f"Get tickets for {c['title']}",
                                                               "when": _eve(c)},
                                  f"the ticket reminder for the {ordinal(k)} poster", check(k, c)))
            else:
                out.append(Entity(f"event_{k}", "event", event_of("", c, "").fields,
                                  f"the calendar event for the {ordinal(k)} poster", check(k, c)))
        return out

    def unsure(items: list[Item], final: bool):
        return [Entity(f"decide_{k}", "reminder", {"content": f"Decide on {c['title']}", "when": _eve(c)},
                       f"the reminder for the {ordinal(k)} poster", check(k, c)) for k, c in items if k not in matched]

    goal = Goal("check each poster against my calendar: if the event is already on it, remind me at 6 PM the day "
                "before to get tickets ('Get tickets for <title>'); if not, add it to my calendar from start to end",
                act, lambda items: "Reminders to get tickets at 6 PM the day before must exist for the events already "
                "on the calendar (" + "; ".join(c["title"] for k, c in items if k in matched) + "), and calendar "
                "events for the others (" + "; ".join(event_line(c) for k, c in items if k not in matched) + ").")
    pivot = Goal("not touch my calendar: for each event that is not on my calendar yet, set a reminder at 6 PM the "
                 "day before worded 'Decide on <title>', and leave the others alone", unsure,
                 lambda items: "Only 'Decide on <title>' reminders at 6 PM the day before, for the events not on the "
                 "calendar: " + "; ".join(c["title"] for k, c in items if k not in matched) + ".")
    k = m.rng.choice([k for k, _ in m.items if k not in matched])
    return Plan("Events vs calendar", f"{m.user.first} checks event posters against the calendar.", goal, pivot,
                seeds=seeds, misstatement=misstate_start(m.items, k, m.rng, m.family),
                preexisting=tuple(f"calendar event '{s.fields['title']}'" for s in seeds))


def _cards(m: Material) -> Plan:
    matched = _matched(m)
    seeds = tuple(Seed("contact", {"first": c["first"], "last": c["last"], "phone": f"(555) 010-{k:04d}",
                                   "email": f"{c['first']}.{c['last']}@oldjob.example".lower().replace("'", "")},
                       250 + k, f"contact_{k}", full_name(c)) for k, c in m.items if k in matched)
    later = "People to add later"

    def sync(items: list[Item], final: bool):
        return [contact_of(f"contact_{k}", k, c) for k, c in items]

    def note_only(items: list[Item], final: bool):
        out = [contact_of(f"contact_{k}", k, c) for k, c in items if k in matched]
        rest = [f"{full_name(c)} - {c['company']}" for k, c in items if k not in matched]
        return out + ([note("later_note", later, "\n".join(rest))] if rest else [])

    goal = Goal("check each card against my contacts: if the person is already there, update their email and phone "
                "number from the card; if not, add them", sync,
                lambda items: "Contacts must hold the card details for " + "; ".join(
                    f"{full_name(c)} ({c['email']}, {c['phone']})" for _, c in items) + " (existing ones updated).")
    pivot = Goal(f"only update the people who are already in my contacts, and list everyone else in a note titled "
                 f"'{later}' (name - company) instead of adding them", note_only,
                 lambda items: "Existing contacts must be updated from their cards and a note titled "
                 f"'{later}' must list: " + "; ".join(f"{full_name(c)} - {c['company']}" for k, c in items
                                                       if k not in matched) + ".")
    k = m.rng.randint(1, len(m.items))
    return Plan("Contacts vs cards", f"{m.user.first} syncs business cards with the address book.", goal, pivot,
                seeds=seeds, rows=card_rows(m.items), misstatement=misstate_email(m.items, k, m.rng, m.family),
                preexisting=tuple(f"contact '{s.find_text}'" for s in seeds))


TEMPLATE = RecipeTemplate("cross_reference", {
    "event_poster": Recipe(_events, ("search_calendar_events", "create_calendar_event", "add_reminder"),
                           fits=lambda cs: len({c["title"] for c in cs}) == len(cs)),
    "business_card": Recipe(_cards, ("contacts_search_contacts", "contacts_update_contact", "contacts_add_contact"),
                            fits=lambda cs: len({(c["first"], c["last"]) for c in cs}) == len(cs)),
})
