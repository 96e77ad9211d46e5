"""Recipes over things to do (letters, forms, newsletters, whiteboards, emails): to-dos in Todoist with their
due dates and priorities, only the urgent ones, the most urgent as a reminder, existing to-dos brought up to
date, and a weekend check."""

from __future__ import annotations

from datetime import date

from pipelines.procedural.families.base import short_date
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe
from pipelines.procedural.templates.entities import Entity, Seed
from pipelines.procedural.templates.kinds.common import DOC, doc_goal, misstate, nth
from pipelines.procedural.templates.sinks import PROJECTS

__all__ = ["RECIPES"]

PROJECT = "Errands"
TODOIST = ("todoist_show_projects", "todoist_create_task")


def todo(m: Material, key: str, k: int, c: Content) -> Entity:
    return Entity(key, "task", {"project": PROJECT, "project_id": PROJECTS[PROJECT][0], "title": c["title"],
                                "due": c["due"], "priority": c["priority"], "description": None},
                  f"the to-do for {nth(m, k)}")


def reminder(m: Material, key: str, k: int, c: Content, prefix: str = "Due today") -> Entity:
    return Entity(key, "reminder", {"content": f"{prefix}: {c['title']}", "when": f"{c['due']}T09:00:00"},
                  f"the reminder for {nth(m, k)}")


def line(c: Content) -> str:
    return f"{c['title']} (due {short_date(c['due'])}, {c['priority']} priority)"


def wrong_due(m: Material, k: int):
    c = m.items[k - 1][1]
    d = date.fromisoformat(c["due"])
    cands = [short_date(date(2026, 4, day).isoformat()) for day in m.rng.sample(range(17, 31), 14) if day != d.day]
    return misstate(m, k, "due date", short_date(c["due"]), cands)


def _distinct(cs: list[Content]) -> bool:
    return len({c["title"] for c in cs}) == len(cs)


def _aggregate(m: Material) -> Plan:
    goal = Goal(f"add each of these to my '{PROJECT}' project in Todoist as a to-do with its title, due date and "
                "priority as shown", lambda items, final: [todo(m, f"todo_{k}", k, c) for k, c in items],
                lambda items: f"To-dos in '{PROJECT}' must exist: " + "; ".join(line(c) for _, c in items) + ".")
    pivot = Goal("set a reminder at 9:00 AM on each due date instead, worded 'Due today: <title>'",
                 lambda items, final: [reminder(m, f"due_{k}", k, c) for k, c in items],
                 lambda items: "Reminders must exist: " + "; ".join(
                     f"'Due today: {c['title']}' at {c['due']}T09:00:00" for _, c in items) + ".")
    return Plan("Paperwork to-dos", f"{m.user.first} turns paperwork into to-dos.", goal, pivot,
                misstatement=wrong_due(m, m.rng.randint(1, len(m.items))))


def cutoffs(cs: list[Content]) -> list[str]:
    """Dates strictly between two due dates (never a due date itself, which the images show)."""
    days = sorted({date.fromisoformat(c["due"]).day for c in cs})
    return [date(2026, 4, a + 1).isoformat() for a, b in zip(days, days[1:]) if a + 1 < b]


def _filter(m: Material) -> Plan:
    cut = m.rng.choice(cutoffs([c for _, c in m.items]))

    def chosen(items: list[Item], soon: bool) -> list[Item]:
        return [(k, c) for k, c in items if (c["due"] < cut) == soon]

    goal = Goal(f"add to my '{PROJECT}' project in Todoist only the ones due before {short_date(cut)}, each with "
                "its title, due date and priority",
                lambda items, final: [todo(m, f"todo_{k}", k, c) for k, c in chosen(items, True)],
                lambda items: "To-dos must exist for exactly: " + "; ".join(line(c) for _, c in chosen(items, True))
                + ".")
    pivot = Goal(f"add only the ones due on {short_date(cut)} or later instead",
                 lambda items, final: [todo(m, f"later_{k}", k, c) for k, c in chosen(items, False)],
                 lambda items: "To-dos must exist for exactly: " + "; ".join(
                     line(c) for _, c in chosen(items, False)) + ".")
    k = m.rng.choice([k for k, _ in chosen(m.items, True)])
    return Plan("Due soon", f"{m.user.first} only tracks what is due soon.", goal, pivot,
                misstatement=wrong_due(m, k))


def _compare(m: Material) -> Plan:
    def pick(items: list[Item], sign: int) -> Item:
        return min(items, key=lambda it: (it[1]["due"], it[0])) if sign > 0 else \
            max(items, key=lambda it: (it[1]["due"], -it[0]))

    goal = Goal("set one reminder at 9:00 AM on the due date of whichever of these is due first, worded 'Do first: "
                "<title>' (move it if a later one is due sooner)",
                lambda items, final: [reminder(m, "first", *pick(items, 1), prefix="Do first")],
                lambda items: f"Exactly one reminder 'Do first: {pick(items, 1)[1]['title']}' at 9:00 AM on "
                              f"{pick(items, 1)[1]['due']} must exist.")
    pivot = Goal("set it for the one due last instead, worded 'Do last: <title>'",
                 lambda items, final: [reminder(m, "last", *pick(items, -1), prefix="Do last")],
                 lambda items: f"Exactly one reminder 'Do last: {pick(items, -1)[1]['title']}' must exist.")
    return Plan("Most urgent", f"{m.user.first} starts with the most urgent item.", goal, pivot,
                misstatement=wrong_due(m, pick(m.items, 1)[0]))


def _cross(m: Material) -> Plan:
    ks = [k for k, _ in m.items]
    matched = sorted(m.rng.sample(ks, m.rng.randint(1, len(ks) - 1)))
    seeds = tuple(Seed("task", {"project": PROJECT, "project_id": PROJECTS[PROJECT][0], "title": c["title"],
                                "due": None, "priority": "low", "description": None}, 6450 + k, f"todo_{k}",
                       c["title"], matched.index(k)) for k, c in m.items if k in matched)

    goal = Goal(f"check my '{PROJECT}' project in Todoist: the items already there get their due date and priority "
                "from the image; add the others with title, due date and priority",
                lambda items, final: [todo(m, f"todo_{k}", k, c) for k, c in items],
                lambda items: f"'{PROJECT}' must hold: " + "; ".join(line(c) for _, c in items)
                + " (existing to-dos updated, not duplicated).")
    pivot = Goal("only update the to-dos that are already there and leave the rest out",
                 lambda items, final: [todo(m, f"todo_{k}", k, c) for k, c in items if k in matched],
                 lambda items: "Only the existing to-dos must be updated: " + "; ".join(
                     line(c) for k, c in items if k in matched) + ".")
    return Plan("To-do sync", f"{m.user.first} keeps the to-do list in step with the paperwork.", goal, pivot,
                seeds=seeds, misstatement=wrong_due(m, m.rng.choice([k for k in ks if k not in matched])),
                preexisting=tuple(f"to-do '{s.find_text}'" for s in seeds))


def _validate(m: Material) -> Plan:
    def body(items: list[Item]) -> str:
        return "\n".join(f"{c['title']}: {'weekend' if date.fromisoformat(c['due']).weekday() >= 5 else 'OK'}"
                         for _, c in items)

    def priority(items: list[Item]) -> str:
        return "\n".join(f"{c['title']}: {c['priority']}" for _, c in items)

    goal = doc_goal(m, "weekend_doc", "Deadline check", "one line per item saying whether its deadline falls on a "
                    "weekend: 'Title: weekend' or 'Title: OK'", body)
    pivot = doc_goal(m, "priority_doc", "Priorities", "one line per item with its priority instead: 'Title: "
                     "priority'", priority)
    return Plan("Deadline check", f"{m.user.first} checks deadlines that fall on weekends.", goal, pivot,
                misstatement=wrong_due(m, m.rng.randint(1, len(m.items))))


RECIPES = {
    "aggregate": Recipe(_aggregate, TODOIST, fits=_distinct, sinks={"todoist": ()}),
    "filter": Recipe(_filter, TODOIST, fits=lambda cs: _distinct(cs) and bool(cutoffs(cs))),
    "compare": Recipe(_compare, ("add_reminder", "modify_reminder"),
                      fits=lambda cs: _distinct(cs) and len({c["due"] for c in cs}) == len(cs)),
    "cross_reference": Recipe(_cross, (*TODOIST, "todoist_show_tasks", "todoist_update_task"), fits=_distinct),
    "validate": Recipe(_validate, (), fits=_distinct, sinks=DOC),
}
