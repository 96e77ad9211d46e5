"""Starter scenario 9 (filter / late / state_mutation): library reminders created, deleted and moved; reading list
updated."""

from __future__ import annotations

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.images import book_cover, document, phone_screen, receipt
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import BRENDA
from mmtsb.authoring.rows import project, reminder, task
from mmtsb.authoring.specs import create_reminder, create_text, delete, update, update_task
from mmtsb.eval.similarity import DATETIME_NAIVE_EQUAL


def definition() -> Definition:
    """The definition of mmtsb_nominal_009."""
    uid = BRENDA.id
    phm = ("Return 'Project Hail Mary' to the library", "2026-04-21T10:00:00")
    klara = ("Return 'Klara and the Sun' to the library", "2026-04-23T10:00:00")
    text = "Hi Sarah! I just finished The Midnight Library and loved it - I can lend it to you if you'd like."
    images = [
        ("library_checkouts", lambda: phone_screen("Library", (0, 96, 100), "Checked out (4)", [
            ("Project Hail Mary", "Andy Weir", "Due Apr 21"), ("Piranesi", "Susanna Clarke", "Due Apr 30"),
            ("Klara and the Sun", "Kazuo Ishiguro", "Due Apr 23"),
            ("The Overstory", "Richard Powers - renewed", "Due May 6")],
            note="Seattle Public Library - account of Brenda Webster. Updated Apr 16, 2026.")),
        ("return_receipt", lambda: receipt(
            ["Seattle Public Library", "Fremont Branch"], ["Return receipt", "04/16/2026  03:12 PM", "Patron: B. WEBSTER"],
            [("Braiding Sweetgrass", "RETURNED"), ("  Robin Wall Kimmerer", "")],
            [("Items still checked out", "4")], ["Thank you for returning on time!"])),
        ("renewal_notice", lambda: document(
            "Seattle Public Library", "Account notice", (0, 96, 100), "Renewal confirmation",
            [("Patron", "Brenda Webster"), ("Item", "The Overstory - Richard Powers"),
             ("Previous due date", "April 22, 2026"), ("New due date", "May 6, 2026"), ("Renewals left", "1")],
            paragraphs=["Your item was renewed successfully. No further action is needed."])),
        ("cover_educated", lambda: book_cover(["EDUCATED"], "Tara Westover", (84, 110, 122), "4/5")),
        ("cover_midnight_library", lambda: book_cover(["THE", "MIDNIGHT", "LIBRARY"], "Matt Haig", (40, 53, 147),
                                                      "5/5")),
    ]
    reading = "$reading_tasks.no_section_tasks"
    rounds = [
        Round([],
              "I want to tidy up my library books with you. First, which reminders do I have about returning books?",
              "Ask the assistant which book-return reminders you currently have. Do not send any images yet. Once it "
              "lists them, move on to the next round.",
              [step("search_reminder", "return_reminders", content="Return to the library")],
              "You have two: return 'The Overstory' (April 22, 10:00 AM) and return 'Braiding Sweetgrass' (April 20, "
              "10:00 AM)."),
        Round([1],
              "Here's my current checkout list from the library app. For every book due within the next 7 days, "
              "create a reminder at 10 AM on its due date to return it, worded like my existing ones.",
              "Send the checkout screenshot and ask for return reminders for the books due within 7 days (by April "
              "23), at 10 AM on each due date, worded like your existing reminders. Do not name the books yourself. "
              "Once it confirms, move on.",
              [step("add_reminder", content=phm[0], reminder_datetime=phm[1] + TZ),
               step("add_reminder", content=klara[0], reminder_datetime=klara[1] + TZ)],
              "Two books are due within 7 days: Project Hail Mary (April 21) and Klara and the Sun (April 23). I "
              "created a 10 AM return reminder for each."),
        Round([2, 3],
              "These came in today: a return receipt and a renewal notice. Delete the reminder for the book I "
              "returned, move the Overstory reminder to 10 AM on its new due date, and mark the returned book as done "
              "in my 'Reading list' project.",
              "Send the return receipt and the renewal notice and ask for the three changes. Do not name the "
              "returned book or the new due date yourself. Once it confirms, move on.",
              [step("search_reminder", "sweetgrass", content="Return 'Braiding Sweetgrass' to the library"),
               step("remove_reminder", reminder_id="$sweetgrass.0.reminder_id"),
               step("search_reminder", "overstory", content="Return 'The Overstory' to the library"),
               step("modify_reminder", reminder_id="$overstory.0.reminder_id",
                    reminder_datetime="2026-05-06T10:00:00" + TZ),
               step("todoist_show_projects", "reading", query="Reading list"),
               step("todoist_show_tasks", "reading_tasks", project_id="$reading.0.project_id"),
               step("todoist_update_task", task_id=f"{reading}.1.task_id", is_completed=True)],
              "I deleted the Braiding Sweetgrass reminder, moved the Overstory reminder to May 6 at 10:00 AM, and "
              "marked 'Read Braiding Sweetgrass' as done."),
        Round([4, 5],
              "I just finished these two books. Mark both as done in my Reading list, and text Sarah Ritter that I "
              "can lend her the one I rated higher.",
              "Send the photos of the two covers with your rating notes. Ask the assistant to complete both reading "
              "tasks and text Sarah Ritter offering to lend the higher-rated book. Do not say which one you rated "
              "higher. End the conversation once the text is sent.",
              [step("todoist_update_task", task_id=f"{reading}.2.task_id", is_completed=True),
               step("todoist_update_task", task_id=f"{reading}.3.task_id", is_completed=True),
               step("contacts_search_contacts", "sarah", query="Sarah Ritter"),
               step("messages_send_text_message", phone_number="$sarah.0.phone_number", message=text)],
              "Both tasks are done. You rated The Midnight Library 5/5 (Educated 4/5), so I texted Sarah offering to "
              "lend it."),
    ]
    reading_list, link = project(400, uid, "Reading list", "lavender")
    titles = ["The Overstory", "Braiding Sweetgrass", "Educated", "The Midnight Library", "Project Hail Mary"]
    specs = [create_reminder(*phm), create_reminder(*klara),
             delete("REMINDER", "reminder_101", id_column="reminder_id", source="agentsandbox"),
             update("REMINDER", "reminder_100", {"reminder_datetime": "2026-05-06T10:00:00"},
                    {"reminder_datetime": DATETIME_NAIVE_EQUAL}, id_column="reminder_id", source="agentsandbox"),
             update_task(6501, is_completed=True), update_task(6502, is_completed=True),
             update_task(6503, is_completed=True), *create_text(uid, 98, text)]
    criteria = ("Return reminders must exist for 'Project Hail Mary' (April 21, 2026, 10:00 AM) and 'Klara and the "
                "Sun' (April 23, 2026, 10:00 AM), the two books due within 7 days. The 'Braiding Sweetgrass' "
                "reminder must be deleted (the book was returned) and the 'The Overstory' reminder moved to May 6, "
                "2026 at 10:00 AM (its renewed due date). In the 'Reading list' project, 'Read Braiding Sweetgrass', "
                "'Read Educated' and 'Read The Midnight Library' must be completed. A text to Sarah Ritter must offer "
                "to lend The Midnight Library (rated 5/5, above Educated's 4/5).")
    return Definition(9, BRENDA, "Brenda keeps her library loans and her reading list in order: she sets return "
                      "reminders for the books due soon, cleans up after a return and a renewal, and recommends a "
                      "book to a friend.", "filter", "late", "state_mutation", False, "synthetic_screenshot", images,
                      rounds, specs, criteria,
                      agentsandbox={"reminder": [
                          reminder("reminder_100", "Return 'The Overstory' to the library", "2026-04-08T18:00:00" + TZ,
                                   "2026-04-22T10:00:00" + TZ),
                          reminder("reminder_101", "Return 'Braiding Sweetgrass' to the library",
                                   "2026-04-06T18:00:00" + TZ, "2026-04-20T10:00:00" + TZ),
                          reminder("reminder_102", "Water the plants", "2026-04-12T08:00:00" + TZ,
                                   "2026-04-18T09:00:00" + TZ)]},
                      appworld={"todoist.projects": [reading_list], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500 + i, 400, uid, f"Read '{t}'", i + 1)
                                                  for i, t in enumerate(titles)],
                                "gmail.users": []})
