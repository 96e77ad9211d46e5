"""Recipes over a series of reports of one measure (charts, report tables, infographics, dashboards for
different months): totals per label, the best month, the months where a label fell short, averages per label,
and a check against the targets."""

from __future__ import annotations

from pipelines.procedural.families.metric import fmt
from pipelines.procedural.templates.base import Content, Item, Material, Plan, Recipe
from pipelines.procedural.templates.kinds.common import DOC, doc_goal, half_up, misstate

__all__ = ["RECIPES"]


def series(cs: list[Content]) -> bool:
    """One measure over the same labels, one month per image."""
    first = cs[0]
    return (all(c["title"] == first["title"] and c["labels"] == first["labels"] and c["unit"] == first["unit"]
                for c in cs) and len({c["period"] for c in cs}) == len(cs))


def splits(cs: list[Content]) -> bool:
    """Some category's value is below a whole number in some months and not in others."""
    return series(cs) and any(len({c["values"][i] for c in cs}) > 1 and _cuts([c["values"][i] for c in cs])
                              for i in range(len(cs[0]["labels"])))


def _cuts(vals: list[int]) -> list[int]:
    vals = sorted(vals)
    return [a + 1 for a, b in zip(vals, vals[1:]) if a + 1 < b]


def targets(cs: list[Content]) -> bool:
    return series(cs) and all(c["prev_period"] == "Target" for c in cs)


def wrong_value(m: Material, k: int):
    c = m.items[k - 1][1]
    i = m.rng.randrange(len(c["labels"]))
    v = c["values"][i]
    cands = [fmt(v + d, c["unit"]) for d in (m.rng.choice([-1, 1]) * m.rng.randint(5, 30), 11, -13, 17) if v + d > 0]
    return misstate(m, k, f"{c['labels'][i]} figure", fmt(v, c["unit"]), cands)


def _unit(m: Material) -> str:
    return m.items[0][1]["unit"]


def _aggregate(m: Material) -> Plan:
    c0 = m.items[0][1]
    title = f"{c0['title']} - totals"

    def body(items: list[Item]) -> str:
        labels = items[0][1]["labels"]
        return "\n".join(f"{lab}: {fmt(sum(c['values'][i] for _, c in items), _unit(m))}"
                         for i, lab in enumerate(labels))

    def grand(items: list[Item]) -> str:
        return f"All months: {fmt(sum(sum(c['values']) for _, c in items), _unit(m))}"

    goal = doc_goal(m, "totals_doc", title, "one line per category with its total over all the months shown, as "
                    "'Category: total' (values written as on the images)", body,
                    lambda items: "Totals: " + body(items).replace("\n", "; ") + ".")
    pivot = doc_goal(m, "grand_doc", f"{c0['title']} - grand total", "a single line with the grand total of every "
                     "figure for the months (not the targets), as 'All months: total'", grand)
    return Plan(title, f"{m.user.first} adds up a series of monthly reports.", goal, pivot,
                misstatement=wrong_value(m, m.rng.randint(1, len(m.items))))


def _compare(m: Material) -> Plan:
    c0 = m.items[0][1]

    def best(items: list[Item], sign: int) -> Content:
        return max(items, key=lambda it: (sign * sum(it[1]["values"]), -it[0]))[1]

    def text(c: Content) -> str:
        return f"{c['period']}: {fmt(sum(c['values']), c['unit'])}"

    goal = doc_goal(m, "best_doc", f"Best month - {c0['title']}", "the month whose figures add up to the most, with "
                    "that sum, as 'Month Year: total'", lambda items: text(best(items, 1)),
                    lambda items: f"The best month was {text(best(items, 1))}.")
    pivot = doc_goal(m, "worst_doc", f"Weakest month - {c0['title']}", "the month whose figures add up to the least "
                     "instead, as 'Month Year: total'", lambda items: text(best(items, -1)))
    return Plan(f"Best month - {c0['title']}", f"{m.user.first} compares months.", goal, pivot,
                misstatement=wrong_value(m, m.rng.randint(1, len(m.items))))


def _filter(m: Material) -> Plan:
    c0 = m.items[0][1]
    i = m.rng.choice([i for i in range(len(c0["labels"])) if _cuts([c["values"][i] for _, c in m.items])])
    label = c0["labels"][i]
    t = m.rng.choice(_cuts([c["values"][i] for _, c in m.items]))

    def body(items: list[Item], low: bool) -> str:
        return "\n".join(f"{c['period']}: {fmt(c['values'][i], c['unit'])}" for _, c in items
                         if (c["values"][i] < t) == low)

    goal = doc_goal(m, "low_doc", f"{label} below {fmt(t, c0['unit'])}", f"only the months where {label} was below "
                    f"{fmt(t, c0['unit'])}, one line each as 'Month Year: value'", lambda items: body(items, True))
    pivot = doc_goal(m, "high_doc", f"{label} at or above {fmt(t, c0['unit'])}", f"only the months where {label} "
                     f"reached {fmt(t, c0['unit'])} or more instead, one line each as 'Month Year: value'",
                     lambda items: body(items, False))
    return Plan(f"{label} watch", f"{m.user.first} flags the weak months for {label}.", goal, pivot,
                misstatement=wrong_value(m, m.rng.randint(1, len(m.items))))


def _compute(m: Material) -> Plan:
    c0 = m.items[0][1]

    def avg(items: list[Item]) -> str:
        return "\n".join(f"{lab}: {fmt(half_up(sum(c['values'][i] for _, c in items) / len(items), 1), _unit(m))}"
                         for i, lab in enumerate(c0["labels"]))

    def spread(items: list[Item]) -> str:
        def width(i: int) -> int:
            return max(c["values"][i] for _, c in items) - min(c["values"][i] for _, c in items)

        return "\n".join(f"{lab}: {fmt(width(i), _unit(m))}" for i, lab in enumerate(c0["labels"]))

    goal = doc_goal(m, "avg_doc", f"{c0['title']} - monthly average", "one line per category with its average over "
                    "the months shown, rounded half up to one decimal, as 'Category: value'", avg)
    pivot = doc_goal(m, "range_doc", f"{c0['title']} - range", "one line per category with the difference between "
                     "its highest and lowest month instead, as 'Category: value'", spread)
    return Plan(f"{c0['title']} - monthly average", f"{m.user.first} averages a series of reports.", goal, pivot,
                misstatement=wrong_value(m, m.rng.randint(1, len(m.items))))


def _validate(m: Material) -> Plan:
    c0 = m.items[0][1]

    def body(items: list[Item]) -> str:
        out = []
        for _, c in items:
            missed = [lab for lab, v, t in zip(c["labels"], c["values"], c["prev_values"]) if v < t]
            out.append(f"{c['period']}: " + (f"missed {', '.join(missed)}" if missed else "all targets met"))
        return "\n".join(out)

    def beat(items: list[Item]) -> str:
        return "\n".join(f"{c['period']}: {sum(v >= t for v, t in zip(c['values'], c['prev_values']))} of "
                         f"{len(c['labels'])} on target" for _, c in items)

    goal = doc_goal(m, "target_doc", f"Target check - {c0['title']}", "one line per month naming the categories that "
                    "missed their target, as 'Month Year: missed A, B' (in the images' order), or 'Month Year: all "
                    "targets met'", body)
    pivot = doc_goal(m, "score_doc", f"Target score - {c0['title']}", "one line per month counting the categories "
                     "that met their target instead, as 'Month Year: N of M on target'", beat)
    return Plan(f"Target check - {c0['title']}", f"{m.user.first} checks monthly figures against targets.", goal,
                pivot, misstatement=wrong_value(m, m.rng.randint(1, len(m.items))))


RECIPES = {
    "aggregate": Recipe(_aggregate, (), fits=series, sinks=DOC),
    "compare": Recipe(_compare, (), fits=lambda cs: series(cs) and len({sum(c["values"]) for c in cs}) == len(cs),
                      sinks=DOC),
    "filter": Recipe(_filter, (), fits=splits, sinks=DOC),
    "compute": Recipe(_compute, (), fits=series, sinks=DOC),
    "validate": Recipe(_validate, (), fits=targets, sinks=DOC),
}
