"""Filter: act only on the images that pass a condition the user sets (receipts above an amount, events in the
evening)."""

from __future__ import annotations

from pipelines.procedural.families.base import clock_time
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe, RecipeTemplate, ordinal
from pipelines.procedural.templates.kit import event_line, event_of, misstate_start, misstate_total, note, receipt_line

__all__ = ["TEMPLATE"]


def _thresholds(cs: list[Content]) -> list[int]:
    """Whole-dollar amounts strictly between two receipt totals (some receipts above, some below)."""
    totals = sorted(c["total"] for c in cs)
    out = []
    for a, b in zip(totals, totals[1:]):
        round_five, next_dollar = (int(a) // 5 + 1) * 5, int(a) + 1
        t = round_five if round_five < b else next_dollar
        if a < t < b:
            out.append(t)
    return out


def _receipts(m: Material) -> Plan:
    t = m.rng.choice(_thresholds([c for _, c in m.items]))
    over, under = f"Receipts over ${t}", f"Receipts under ${t}"

    def body(items: list[Item], sign: int) -> str:
        return "\n".join(receipt_line(c) for _, c in items if sign * (c["total"] - t) > 0)

    def outcome(key: str, title: str, sign: int):
        return lambda items, final: [note(key, title, body(items, sign))] if body(items, sign) else []

    goal = Goal(f"keep a note titled '{over}' listing only the receipts whose total is above ${t}, one line per "
                "vendor with its total", outcome("over_note", over, 1),
                lambda items: f"A note titled '{over}' must read {body(items, 1)!r} (only receipts above ${t}).",
                lambda items: f"The receipts over ${t} are: {body(items, 1).replace(chr(10), '; ')}.")
    pivot = Goal(f"keep a note titled '{under}' listing only the receipts whose total is below ${t} instead",
                 outcome("under_note", under, -1),
                 lambda items: f"A note titled '{under}' must read {body(items, -1)!r} (only receipts below ${t}).")
    k = m.rng.choice([k for k, c in m.items if c["total"] > t])
    return Plan(over, f"{m.user.first} only files the larger receipts.", goal, pivot,
                misstatement=misstate_total(m.items, k, m.rng, m.family))


def _hours(cs: list[Content]) -> list[int]:
    starts = [int(c["start"][:2]) * 60 + int(c["start"][3:]) for c in cs]
    return [h for h in range(10, 21) if min(starts) < h * 60 <= max(starts)]


def _events(m: Material) -> Plan:
    h = m.rng.choice(_hours([c for _, c in m.items]))
    cut = f"{h:02d}:00"
    when = clock_time(cut).replace(":00", "")

    def chosen(items: list[Item], late: bool) -> list[Item]:
        return [(k, c) for k, c in items if (c["start"] >= cut) == late]

    def outcome(late: bool):
        return lambda items, final: [event_of(f"event_{k}", c, f"the calendar event for the {ordinal(k)} poster")
                                     for k, c in chosen(items, late)]

    def criteria(late: bool):
        return lambda items: ("Calendar events must exist for exactly: "
                              + "; ".join(event_line(c) for _, c in chosen(items, late)) + ".")

    goal = Goal(f"put on my calendar only the events that start at {when} or later, from start to end time",
                outcome(True), criteria(True))
    pivot = Goal(f"put on my calendar only the events that start before {when} instead", outcome(False),
                 criteria(False))
    k = m.rng.choice([k for k, _ in chosen(m.items, True)])
    return Plan("Evening events", f"{m.user.first} only has time for events after work.", goal, pivot,
                misstatement=misstate_start(m.items, k, m.rng, m.family))


TEMPLATE = RecipeTemplate("filter", {
    "receipt": Recipe(_receipts, ("simple_note_create_note", "simple_note_update_note"),
                      fits=lambda cs: bool(_thresholds(cs))),
    "event_poster": Recipe(_events, ("search_calendars", "create_calendar_event"), fits=lambda cs: bool(_hours(cs))),
})
