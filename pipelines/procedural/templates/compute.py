"""Compute: derive a new figure from the images (each person's share of the receipts, when to leave for each
event)."""

from __future__ import annotations

from datetime import datetime, timedelta

from pipelines.procedural.families.base import money
from pipelines.procedural.templates.base import Goal, Item, Material, Plan, Recipe, RecipeTemplate, ordinal
from pipelines.procedural.templates.entities import Entity
from pipelines.procedural.templates.kit import misstate_start, misstate_total, note, start_of
from pipelines.procedural.templates.rounds import count_word

__all__ = ["TEMPLATE"]


def _receipts(m: Material) -> Plan:
    people = m.rng.randint(2, 5)
    split, avg = f"Split for {count_word(people)}", "Average receipt"

    def total(items: list[Item]) -> float:
        return round(sum(c["total"] for _, c in items), 2)

    def split_body(items: list[Item]) -> str:
        return f"Total: {money(total(items))}\nPeople: {people}\nEach pays: {money(round(total(items) / people, 2))}"

    def avg_body(items: list[Item]) -> str:
        return f"Receipts: {len(items)}\nAverage: {money(round(total(items) / len(items), 2))}"

    goal = Goal(f"keep a note titled '{split}' with the total of all the receipts and what each of the {people} of "
                "us pays if we split it evenly (lines 'Total: $X', 'People: N', 'Each pays: $Y')",
                lambda items, final: [note("split_note", split, split_body(items))],
                lambda items: f"A note titled '{split}' must read {split_body(items)!r}.",
                lambda items: f"The receipts total {money(total(items))}, so each of the {people} of us pays "
                              f"{money(round(total(items) / people, 2))}.")
    pivot = Goal(f"keep a note titled '{avg}' with the number of receipts and their average total instead "
                 "(lines 'Receipts: N', 'Average: $X')",
                 lambda items, final: [note("avg_note", avg, avg_body(items))],
                 lambda items: f"A note titled '{avg}' must read {avg_body(items)!r}.")
    k = m.rng.randint(1, len(m.items))
    return Plan(split, f"{m.user.first} splits shared costs evenly.", goal, pivot,
                misstatement=misstate_total(m.items, k, m.rng, m.family))


def _minus(iso: str, minutes: int) -> str:
    return (datetime.fromisoformat(iso) - timedelta(minutes=minutes)).isoformat()


def _events(m: Material) -> Plan:
    lead = m.rng.choice([30, 45, 60, 90])

    def leave(items: list[Item], final: bool):
        return [_reminder(f"leave_{k}", f"Leave for {c['title']}", _minus(start_of(c), lead), k) for k, c in items]

    def morning(items: list[Item], final: bool):
        return [_reminder(f"morning_{k}", f"Today: {c['title']}", f"{c['date']}T08:00:00", k) for k, c in items]

    goal = Goal(f"set a reminder {lead} minutes before each event starts, worded 'Leave for <event title>'", leave,
                lambda items: "Reminders must exist: " + "; ".join(
                    f"'Leave for {c['title']}' at {_minus(start_of(c), lead)}" for _, c in items) + ".")
    pivot = Goal("set one reminder at 8:00 AM on the day of each event instead, worded 'Today: <event title>'",
                 morning, lambda items: "Reminders must exist: " + "; ".join(
                     f"'Today: {c['title']}' at {c['date']}T08:00:00" for _, c in items) + ".")
    k = m.rng.randint(1, len(m.items))
    return Plan("Leave-time reminders", f"{m.user.first} wants a nudge before each event.", goal, pivot,
                misstatement=misstate_start(m.items, k, m.rng, m.family))


def _reminder(key: str, content: str, when: str, k: int) -> Entity:
    return Entity(key, "reminder", {"content": content, "when": when}, f"the reminder for the {ordinal(k)} poster")


TEMPLATE = RecipeTemplate("compute", {
    "receipt": Recipe(_receipts, ("simple_note_create_note", "simple_note_update_note", "gmail_send_email")),
    "event_poster": Recipe(_events, ("add_reminder", "modify_reminder")),
})
