"""Recipes over expenses (receipts, invoices, slips, order screens): totals, the biggest, those over a
threshold, an even split, a budget check, and what is not on Splitwise yet; results written to a note, a
file, an email, a text or a to-do, or shared on Splitwise or Venmo."""

from __future__ import annotations

from mmtsb.authoring.rows import expense, expense_share
from pipelines.procedural.families.base import money, short_date
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe
from pipelines.procedural.templates.entities import Entity
from pipelines.procedural.templates.kinds.common import DOC, doc_goal, half_up, misstate
from pipelines.procedural.templates.rounds import count_word
from pipelines.procedural.templates.sinks import me

__all__ = ["RECIPES"]

#: the scenarios' week: Monday April 13 to the reference day, Thursday April 16, 2026
WEEK_START = "2026-04-13"
SPLITWISE = {"splitwise": ("contacts_search_contacts", "splitwise_record_expense")}
VENMO = {"venmo": ("contacts_search_contacts", "venmo_create_payment_request")}


def line(c: Content, amount: str = "total") -> str:
    return f"{c['vendor']}: {money(c[amount])}"


def total(items: list[Item], amount: str = "total") -> float:
    return round(sum(c[amount] for _, c in items), 2)


def wrong_total(m: Material, k: int) -> object:
    c = m.items[k - 1][1]
    right = c["total"]
    cands = [money(round(right + d, 2)) for d in (m.rng.choice([-1, 1]) * m.rng.randint(3, 30) + 0.5, 7.25, -4.75,
                                                      11.0, -9.5) if right + d > 0]
    return misstate(m, k, "total", money(right), cands)


def _friend_of(m: Material) -> tuple[int, str, str]:
    fid, first, last, _ = m.friend
    return fid, first, last


def _expense(m: Material, key: str, description: str, amount: float, people: int = 2,
             check: bool = False) -> Entity:
    """A Splitwise expense the user paid, split evenly with the friend (``check``: look for it first)."""
    fid, first, last = _friend_of(m)
    share = half_up(amount / people)
    lookups: tuple = (("contacts_search_contacts", {"query": f"{first} {last}"}, "friend"),)
    if check:
        lookups = (("splitwise_show_no_group_expenses", {"query": description}, None), *lookups)
    return Entity(key, "expense", {"description": description, "amount": amount,
                                   "payer_email": me(m.user.email, m.user.id).email,
                                   "debtors": [["$friend.0.email", fid, share]]},
                  f"the Splitwise expense '{description}'", lookups)


def _request(m: Material, key: str, description: str, amount: float) -> Entity:
    fid, first, last = _friend_of(m)
    return Entity(key, "request", {"email": "$friend.0.email", "receiver_id": fid, "amount": amount,
                                   "description": description}, f"the Venmo request to {first} {last}",
                  (("contacts_search_contacts", {"query": f"{first} {last}"}, "friend"),))


# ------------------------------------------------------------------------------------------ aggregate
def _aggregate(m: Material) -> Plan:
    title = m.rng.choice(["April expenses", "Team offsite costs", "Expense report - April", "Trip receipts"])
    tax_title = f"{title} - sales tax"
    _, first, last = _friend_of(m)

    def body(items: list[Item]) -> str:
        return "\n".join([*(line(c) for _, c in items), f"Grand total: {money(total(items))}"])

    def tax_body(items: list[Item]) -> str:
        return "\n".join([*(line(c, "tax") for _, c in items), f"Total tax: {money(total(items, 'tax'))}"])

    if m.sink == "splitwise":
        goal = Goal(f"once you have all the {m.family.noun}s, record one Splitwise expense called '{title}' for their "
                    f"grand total, paid by me and split evenly with {first} {last} (half each, rounded half up to "
                    "the cent)",
                    lambda items, final: [_expense(m, "shared", title, total(items))] if final else [],
                    lambda items: f"A Splitwise expense '{title}' of {money(total(items))} paid by the user must be "
                                  f"split with {first} {last}, who owes {money(half_up(total(items) / 2))}.")
    elif m.sink == "venmo":
        goal = Goal(f"once you have all the {m.family.noun}s, request half of their grand total (rounded half up to "
                    f"the cent) from {first} {last} on Venmo, with the note '{title}'",
                    lambda items, final: [_request(m, "ask", title, half_up(total(items) / 2))] if final else [],
                    lambda items: f"A Venmo request of {money(half_up(total(items) / 2))} to {first} {last} with the "
                                  f"note '{title}' must exist.")
    else:
        goal = doc_goal(m, "expense_doc", title, "one line per vendor with its total ('Vendor: $X') and a last line "
                        "'Grand total: $Y'", body, lambda items: f"The receipts come to {money(total(items))}.")
    pivot = doc_goal(m, "tax_doc", tax_title, "one line per vendor with the sales tax it charged ('Vendor: $X') "
                     "and a last line 'Total tax: $Y'", tax_body)
    return Plan(title, f"{m.user.first} collects expenses into one total.", goal, pivot,
                misstatement=wrong_total(m, m.rng.randint(1, len(m.items))))


# ------------------------------------------------------------------------------------------ compare
def _compare(m: Material) -> Plan:
    def top(items: list[Item], sign: int) -> Item:
        return max(items, key=lambda it: (sign * it[1]["total"], -it[0]))

    def text(it: Item) -> str:
        c = it[1]
        return f"{c['vendor']}: {money(c['total'])} ({short_date(c['date'])})"

    big, small = "Biggest expense", "Smallest expense"
    goal = doc_goal(m, "big_doc", big, "the vendor, total and date of the most expensive one, as 'Vendor: $X "
                    "(Month D)'", lambda items: text(top(items, 1)),
                    lambda items: f"The most expensive one is {text(top(items, 1))}.")
    pivot = doc_goal(m, "small_doc", small, "the vendor, total and date of the cheapest one, as 'Vendor: $X "
                     "(Month D)'", lambda items: text(top(items, -1)))
    return Plan(big, f"{m.user.first} wants to know which expense cost the most.", goal, pivot,
                misstatement=wrong_total(m, top(m.items, 1)[0]))


# ------------------------------------------------------------------------------------------ filter
def thresholds(cs: list[Content]) -> list[int]:
    """Whole-dollar amounts strictly between two totals (some above, some below)."""
    totals = sorted(c["total"] for c in cs)
    out = []
    for a, b in zip(totals, totals[1:]):
        round_five, next_dollar = (int(a) // 5 + 1) * 5, int(a) + 1
        t = round_five if round_five < b else next_dollar
        if a < t < b:
            out.append(t)
    return out


def _filter(m: Material) -> Plan:
    t = m.rng.choice(thresholds([c for _, c in m.items]))
    over = f"Over ${t}"
    _, first, last = _friend_of(m)

    def body(items: list[Item], sign: int) -> str:
        return "\n".join(line(c) for _, c in items if sign * (c["total"] - t) > 0)

    if m.sink == "splitwise":
        goal = Goal(f"record on Splitwise, split evenly with {first} {last} (half each, rounded half up to the "
                    f"cent), only the ones whose total is above ${t}: one expense per {m.family.noun}, named after "
                    "the vendor, for its total",
                    lambda items, final: [_expense(m, f"split_{k}", c["vendor"], c["total"]) for k, c in items
                                          if c["total"] > t],
                    lambda items: "Splitwise expenses split with " + f"{first} {last} must exist for exactly: "
                    + "; ".join(line(c) for _, c in items if c["total"] > t) + ".")
    else:
        goal = doc_goal(m, "over_doc", f"Receipts over ${t}", f"only the ones whose total is above ${t}, one line "
                        "per vendor with its total ('Vendor: $X')", lambda items: body(items, 1),
                        lambda items: f"The ones over ${t} are: {body(items, 1).replace(chr(10), '; ')}.")
    pivot = doc_goal(m, "under_doc", f"Receipts under ${t}", f"only the ones whose total is below ${t} instead, one "
                     "line per vendor with its total", lambda items: body(items, -1))
    k = m.rng.choice([k for k, c in m.items if c["total"] > t])
    return Plan(over, f"{m.user.first} only files the larger expenses.", goal, pivot,
                misstatement=wrong_total(m, k))


# ------------------------------------------------------------------------------------------ compute
def _compute(m: Material) -> Plan:
    people = m.rng.randint(2, 5)
    split, avg = f"Split for {count_word(people)}", "Average expense"
    _, first, last = _friend_of(m)

    def split_body(items: list[Item]) -> str:
        return f"Total: {money(total(items))}\nPeople: {people}\nEach pays: {money(half_up(total(items) / people))}"

    def avg_body(items: list[Item]) -> str:
        return f"Count: {len(items)}\nAverage: {money(half_up(total(items) / len(items)))}"

    if m.sink == "venmo":
        goal = Goal(f"work out each person's share if the {people} of us split the grand total of all of them "
                    f"evenly (rounded half up to the cent), and once you have them all, request the share owed by "
                    f"{first} {last} on Venmo with the note '{split}'",
                    lambda items, final: [_request(m, "share", split, half_up(total(items) / people))] if final else [],
                    lambda items: f"A Venmo request of {money(half_up(total(items) / people))} (the total "
                                  f"{money(total(items))} split {people} ways) to {first} {last} must exist.")
    else:
        goal = doc_goal(m, "split_doc", split, f"the total of all of them and what each of the {people} of us pays "
                        "if we split it evenly, rounded half up to the cent (lines 'Total: $X', 'People: N', 'Each "
                        "pays: $Y')", split_body,
                        lambda items: f"Together they total {money(total(items))}, so each of the {people} of us pays "
                                      f"{money(half_up(total(items) / people))}.")
    pivot = doc_goal(m, "avg_doc", avg, "how many there are and their average total instead, rounded half up to "
                     "the cent (lines 'Count: N', 'Average: $X')", avg_body)
    return Plan(split, f"{m.user.first} splits shared costs evenly.", goal, pivot,
                misstatement=wrong_total(m, m.rng.randint(1, len(m.items))))


# ------------------------------------------------------------------------------------------ validate
def _validate(m: Material) -> Plan:
    limit = m.rng.choice([25, 40, 50, 75, 100])
    check, dates = "Budget check", "Date check"

    def budget(items: list[Item]) -> str:
        return "\n".join(f"{c['vendor']}: {money(c['total'])} - {'OK' if c['total'] <= limit else 'over budget'}"
                         for _, c in items)

    def week(items: list[Item]) -> str:
        return "\n".join(f"{c['vendor']} ({short_date(c['date'])}): "
                         f"{'OK' if c['date'] >= WEEK_START else 'outside this week'}" for _, c in items)

    goal = doc_goal(m, "check_doc", check, f"one line per {m.family.noun} checking it against my ${limit} budget "
                    "per purchase: 'Vendor: $X - OK' or 'Vendor: $X - over budget'", budget,
                    lambda items: f"Over the ${limit} budget: "
                                  + (", ".join(c["vendor"] for _, c in items if c["total"] > limit) or "none") + ".")
    pivot = doc_goal(m, "date_doc", dates, "one line per one checking instead whether it is dated this week (Monday "
                     "to today): 'Vendor (Month D): OK' or 'Vendor (Month D): outside this week'", week)
    return Plan(check, f"{m.user.first} checks expenses against the policy.", goal, pivot,
                misstatement=wrong_total(m, m.rng.randint(1, len(m.items))))


# ------------------------------------------------------------------------------------------ cross reference
def _cross(m: Material) -> Plan:
    """Some expenses are on Splitwise already (seeded, shared with the friend); record the others."""
    ks = [k for k, _ in m.items]
    matched = set(m.rng.sample(ks, m.rng.randint(1, len(ks) - 1)))
    fid, first, last = _friend_of(m)
    uid = m.user.id
    expenses, shares = [], []
    for i, (k, c) in enumerate(sorted(m.items)):
        if k in matched:
            expenses.append(expense(5150 + i, uid, [fid], c["vendor"], c["total"]))
            shares.append(expense_share(150 + i, 5150 + i, fid, half_up(c["total"] / 2)))
    goal = Goal(f"check Splitwise for each of these: the ones I already recorded (named after the vendor, shared "
                f"with {first} {last}) stay as they are; record each missing one the same way, paid by me and split "
                "evenly (half each, rounded half up to the cent)",
                lambda items, final: [_expense(m, f"split_{k}", c["vendor"], c["total"], check=True)
                                      for k, c in items if k not in matched],
                lambda items: "Splitwise expenses must be added for exactly: "
                + "; ".join(line(c) for k, c in items if k not in matched) + " (the others were recorded already).")
    pivot = doc_goal(m, "missing_doc", "Not on Splitwise yet", "the vendor and total of each one that is not on "
                     "Splitwise yet ('Vendor: $X'), instead of recording them",
                     lambda items: "\n".join(line(c) for k, c in items if k not in matched))
    return Plan("Splitwise catch-up", f"{m.user.first} makes sure every shared expense is on Splitwise.", goal, pivot,
                rows={"splitwise.expenses": expenses, "splitwise.expense_shares": shares},
                misstatement=wrong_total(m, m.rng.choice([k for k in ks if k not in matched])),
                preexisting=tuple(f"Splitwise expense '{e['description']}'" for e in expenses))


def _distinct_vendors(cs: list[Content]) -> bool:
    return len({c["vendor"] for c in cs}) == len(cs)


RECIPES = {
    "aggregate": Recipe(_aggregate, (), sinks={**DOC, **SPLITWISE, **VENMO}),
    "compare": Recipe(_compare, (), fits=lambda cs: len({c["total"] for c in cs}) == len(cs), sinks=DOC),
    "filter": Recipe(_filter, (), fits=lambda cs: bool(thresholds(cs)) and _distinct_vendors(cs),
                     sinks={**DOC, **SPLITWISE}),
    "compute": Recipe(_compute, (), sinks={**DOC, **VENMO}),
    "validate": Recipe(_validate, (), sinks=DOC),
    "cross_reference": Recipe(_cross, ("splitwise_show_no_group_expenses",), fits=_distinct_vendors,
                              sinks={"splitwise": ("contacts_search_contacts", "splitwise_record_expense")}),
}
