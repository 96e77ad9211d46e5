"""Starter scenario 4 (compute / late / state_mutation): three utility bills update a budget note and a task's due
date."""

from __future__ import annotations

from collections.abc import Callable

from mmtsb.authoring.images import document
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import THOMAS, money
from mmtsb.authoring.rows import note, project, task
from mmtsb.authoring.specs import update_note, update_task


def definition() -> Definition:
    """The definition of mmtsb_nominal_004."""
    uid = THOMAS.id
    power, water, gas = 86.42, 41.17, 57.90
    utilities = round(power + water + gas, 2)
    budget = round(1450 + 520 + utilities, 2)
    seed_content = "Rent: $1,450.00\nGroceries: $520.00\nUtilities: TBD"
    new_content = f"Rent: $1,450.00\nGroceries: $520.00\nUtilities: {money(utilities)}\nTotal: {money(budget)}"

    def bill(company: str, sub: str, color: tuple[int, int, int], account: str, period: str, amount: float,
             due: str, usage: str) -> Callable[[], bytes]:
        return lambda: document(company, sub, color, "Statement", [
            ("Customer", "Thomas Solomon"), ("Account", account), ("Billing period", period), ("Usage", usage)],
            totals=[("Previous balance", "$0.00"), ("Current charges", money(amount)), ("Amount due", money(amount))],
            paragraphs=[f"Payment due date: {due}",
                        "Pay online, by phone or by mail. Thank you for being a customer."])

    images = [
        ("bill_power", bill("Puget Power & Light", "Electric service", (230, 126, 34), "4471-2290",
                            "Mar 10 - Apr 9, 2026", power, "April 28, 2026", "612 kWh")),
        ("bill_water", bill("Cascade Water Utility", "Water and sewer", (21, 101, 192), "WS-88014",
                            "Mar 1 - Mar 31, 2026", water, "April 24, 2026", "4,120 gallons")),
        ("bill_gas", bill("Evergreen Natural Gas", "Residential gas service", (46, 125, 50), "G-310552",
                          "Mar 12 - Apr 11, 2026", gas, "May 2, 2026", "38 therms")),
    ]
    rounds = [
        Round([],
              "I'm doing my April budget. I keep a note called 'Household budget - April'. Can you tell me what's in "
              "it so far?",
              "Ask the assistant to find your 'Household budget - April' note and tell you what it contains. Do not "
              "send any images yet. Once it reports the note's content, move on to the next round.",
              [step("simple_note_search_notes", "budget_hits", query="Household budget - April"),
               step("simple_note_show_note", "budget", note_id="$budget_hits.0.note_id")],
              "Your note lists Rent $1,450.00, Groceries $520.00 and Utilities TBD."),
        Round([1, 2, 3],
              "Here are this month's three utility bills. Add them up, replace the 'Utilities: TBD' line in my budget "
              "note with the total, and add a line at the end with the new total of all expenses.",
              "Send the three bills and ask the assistant to compute the utilities total and update the note as "
              "described. Do not give any amounts yourself. If it asks about the format, use the same style as the "
              "other lines, e.g. 'Utilities: $X' and 'Total: $Y'. Once it confirms the update, move on.",
              [step("simple_note_update_note", note_id="$budget_hits.0.note_id", content=new_content)],
              f"The bills add up to {money(utilities)} ({money(power)} + {money(water)} + {money(gas)}). The note now "
              f"shows Utilities: {money(utilities)} and Total: {money(budget)}."),
        Round([],
              "Now move the due date of my 'Pay utility bills' task in the Home project to the earliest due date "
              "among the three bills, and set its priority to high.",
              "Ask the assistant to set the 'Pay utility bills' Todoist task's due date to the earliest of the three "
              "bills' due dates and raise its priority to high. If it asks which project, say 'Home'. End the "
              "conversation once the task is updated.",
              [step("todoist_show_projects", "home", query="Home"),
               step("todoist_show_tasks", "home_tasks", project_id="$home.0.project_id"),
               step("todoist_update_task", task_id="$home_tasks.no_section_tasks.0.task_id", due_date="2026-04-24",
                    priority="high")],
              "The earliest due date is the water bill's, April 24, 2026. 'Pay utility bills' is now due then, with "
              "high priority."),
    ]
    home, link = project(400, uid, "Home", "berry_red")
    specs = [update_note(3200, new_content), update_task(6500, due_date="2026-04-24", priority="high")]
    criteria = (f"The 'Household budget - April' note must replace 'Utilities: TBD' with the utilities total "
                f"{money(utilities)} (electric {money(power)} + water {money(water)} + gas {money(gas)}) and end with "
                f"a total of {money(budget)}. The 'Pay utility bills' task in the Home project must be due on "
                f"2026-04-24 (the water bill's due date, the earliest) with high priority.")
    return Definition(4, THOMAS, "Thomas is finishing his April household budget: he reads his budget note, then "
                      "sends the month's utility bills so the totals and his bill-payment task can be updated.",
                      "compute", "late", "state_mutation", False, "synthetic_document", images, rounds, specs,
                      criteria,
                      appworld={"simple_note.notes": [note(3200, uid, "Household budget - April", seed_content)],
                                "todoist.projects": [home], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500, 400, uid, "Pay utility bills", 1, due="2026-04-30"),
                                                  task(6501, 400, uid, "Renew car registration", 2)],
                                "gmail.users": []})
