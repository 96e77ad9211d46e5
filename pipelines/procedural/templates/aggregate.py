"""Aggregate: gather the values of every image into one result (an expense note with a grand total, a list of
upcoming events, a list of the people met)."""

from __future__ import annotations

from pipelines.procedural.families.base import money
from pipelines.procedural.templates.base import Item, Material, Plan, Goal, Recipe, RecipeTemplate
from pipelines.procedural.templates.kit import (
    card_rows, contact_of, event_line, event_of, misstate_email, misstate_start, misstate_total, note, receipt_line,
)
from pipelines.procedural.templates.base import ordinal

__all__ = ["TEMPLATE"]


def _receipts(m: Material) -> Plan:
    title = m.rng.choice(["April expenses", "Team offsite costs", "Expense report - April", "Trip receipts"])
    tax_title = f"{title} - sales tax"

    def total(items: list[Item]) -> float:
        return round(sum(c["total"] for _, c in items), 2)

    def body(items: list[Item]) -> str:
        return "\n".join([*(receipt_line(c) for _, c in items), f"Grand total: {money(total(items))}"])

    def tax_body(items: list[Item]) -> str:
        tax = round(sum(c["tax"] for _, c in items), 2)
        return "\n".join([*(receipt_line(c, "tax") for _, c in items), f"Total tax: {money(tax)}"])

    goal = Goal(f"make a note titled '{title}' listing each vendor with its receipt total, then a grand-total line",
                lambda items, final: [note("expense_note", title, body(items))],
                lambda items: f"A note titled '{title}' must read: {body(items)!r}.",
                lambda items: f"The receipts come to {money(total(items))} in total.")
    pivot = Goal(f"make a note titled '{tax_title}' listing each vendor with the sales tax on its receipt, then a "
                 "total-tax line",
                 lambda items, final: [note("tax_note", tax_title, tax_body(items))],
                 lambda items: f"A note titled '{tax_title}' must read: {tax_body(items)!r}.")
    k = m.rng.randint(1, len(m.items))
    return Plan(title, f"{m.user.first} collects receipts into one expense note with a grand total.", goal, pivot,
                misstatement=misstate_total(m.items, k, m.rng, m.family))


def _events(m: Material) -> Plan:
    title = m.rng.choice(["Upcoming events", "Things to do this month", "Event shortlist"])

    def body(items: list[Item]) -> str:
        return "\n".join(event_line(c) for _, c in items)

    goal = Goal(f"make a note titled '{title}' with one line per event: its title, date, start and end time, and "
                "venue", lambda items, final: [note("events_note", title, body(items))],
                lambda items: f"A note titled '{title}' must read: {body(items)!r}.",
                lambda items: "Here are the events I'm looking at: " + "; ".join(event_line(c) for _, c in items))
    pivot = Goal("put every one of these events on my calendar instead, from its start to its end time",
                 lambda items, final: [event_of(f"event_{k}", c, f"the calendar event for the {ordinal(k)} poster")
                                       for k, c in items],
                 lambda items: "Calendar events must exist for: " + "; ".join(event_line(c) for _, c in items) + ".")
    k = m.rng.randint(1, len(m.items))
    return Plan(title, f"{m.user.first} gathers event posters into one list.", goal, pivot,
                misstatement=misstate_start(m.items, k, m.rng, m.family))


def _cards(m: Material) -> Plan:
    title = m.rng.choice(["People I met at the expo", "Conference contacts", "New business contacts"])

    def body(items: list[Item]) -> str:
        return "\n".join(f"{c['first']} {c['last']} - {c['title']}, {c['company']}, {c['email']}" for _, c in items)

    goal = Goal(f"make a note titled '{title}' with one line per card: the person's name, job title, company and "
                "email", lambda items, final: [note("people_note", title, body(items))],
                lambda items: f"A note titled '{title}' must read: {body(items)!r}.",
                lambda items: "People I met: " + "; ".join(f"{c['first']} {c['last']} ({c['company']})"
                                                             for _, c in items))
    pivot = Goal("add each of these people to my contacts instead, with their email and phone number",
                 lambda items, final: [contact_of(f"contact_{k}", k, c) for k, c in items],
                 lambda items: "Contacts must exist for: " + "; ".join(
                     f"{c['first']} {c['last']} ({c['email']}, {c['phone']})" for _, c in items) + ".")
    k = m.rng.randint(1, len(m.items))
    return Plan(title, f"{m.user.first} lists the people from a stack of business cards.", goal, pivot,
                rows=card_rows(m.items), misstatement=misstate_email(m.items, k, m.rng, m.family))


TEMPLATE = RecipeTemplate("aggregate", {
    "receipt": Recipe(_receipts, ("simple_note_create_note", "simple_note_update_note", "gmail_send_email")),
    "event_poster": Recipe(_events, ("simple_note_create_note", "simple_note_update_note", "create_calendar_event")),
    "business_card": Recipe(_cards, ("simple_note_create_note", "simple_note_update_note", "contacts_add_contact"),
                            score=2),
})
