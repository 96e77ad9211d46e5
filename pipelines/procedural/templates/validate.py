"""Validate: check each image against a rule the user states and record the verdicts (receipts within a
per-receipt budget, receipts dated this week)."""

from __future__ import annotations

from pipelines.procedural.families.base import money, short_date
from pipelines.procedural.templates.base import Goal, Item, Material, Plan, Recipe, RecipeTemplate
from pipelines.procedural.templates.kit import misstate_total, note

__all__ = ["TEMPLATE"]

#: the scenarios' week: Monday April 13 to the reference day, Thursday April 16, 2026
WEEK_START = "2026-04-13"


def _receipts(m: Material) -> Plan:
    limit = m.rng.choice([25, 40, 50, 75, 100])
    check, dates = "Receipt budget check", "Receipt date check"

    def budget(items: list[Item]) -> str:
        return "\n".join(f"{c['vendor']}: {money(c['total'])} - {'OK' if c['total'] <= limit else 'over budget'}"
                         for _, c in items)

    def week(items: list[Item]) -> str:
        return "\n".join(f"{c['vendor']} ({short_date(c['date'])}): "
                         f"{'OK' if c['date'] >= WEEK_START else 'outside this week'}" for _, c in items)

    goal = Goal(f"check every receipt against my ${limit} per-receipt budget and keep a note titled '{check}' with "
                "one line per receipt: vendor, total and 'OK' or 'over budget'",
                lambda items, final: [note("check_note", check, budget(items))],
                lambda items: f"A note titled '{check}' must read {budget(items)!r}.",
                lambda items: f"Receipts over the ${limit} budget: "
                              + (", ".join(c["vendor"] for _, c in items if c["total"] > limit) or "none") + ".")
    pivot = Goal(f"check instead whether each receipt is dated this week (since Monday) and keep a note titled "
                 f"'{dates}' with one line per receipt: vendor, date and 'OK' or 'outside this week'",
                 lambda items, final: [note("date_note", dates, week(items))],
                 lambda items: f"A note titled '{dates}' must read {week(items)!r}.")
    k = m.rng.randint(1, len(m.items))
    return Plan(check, f"{m.user.first} checks receipts against the expense policy.", goal, pivot,
                misstatement=misstate_total(m.items, k, m.rng, m.family))


TEMPLATE = RecipeTemplate("validate", {
    "receipt": Recipe(_receipts, ("simple_note_create_note", "simple_note_update_note", "gmail_send_email")),
})
