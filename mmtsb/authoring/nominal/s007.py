"""Starter scenario 7 (cross_reference / progressive / none): business cards matched against follow-up tasks."""

from __future__ import annotations

from collections.abc import Callable

from mmtsb.authoring.images import card
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import SIMONE
from mmtsb.authoring.rows import gmail_user, project, task
from mmtsb.authoring.specs import create_comment, create_contact, create_email


def definition() -> Definition:
    """The definition of mmtsb_nominal_007."""
    uid, first = SIMONE.id, SIMONE.first
    people = [  # (first, last, title, company, email, phone, colour)
        ("Priya", "Raman", "Head of Partnerships", "Brightline Robotics", "priya.raman@brightlinerobotics.com",
         "(206) 555-0148", (0, 137, 123)),
        ("Tomas", "Reyes", "Data Science Lead", "Tidewater Analytics", "t.reyes@tidewateranalytics.io",
         "(503) 555-0192", (21, 101, 192)),
        ("Hannah", "Cole", "Sales Director", "Granite Peak Outfitters", "hannah.cole@granitepeak.com",
         "(208) 555-0117", (93, 64, 55)),
        ("Liam", "O'Connor", "Chief Technology Officer", "Summit Solar", "liam.oconnor@summitsolar.energy",
         "(541) 555-0163", (245, 124, 0)),
        ("Grace", "Kim", "Procurement Manager", "Orchard Health", "grace.kim@orchardhealth.org", "(425) 555-0136",
         (67, 160, 71)),
        ("Nadia", "Flores", "Marketing Manager", "Copperleaf Studios", "nadia@copperleafstudios.com",
         "(360) 555-0129", (173, 20, 87)),
    ]

    def comment(i: int) -> str:
        f, l_, title, _, mail = people[i][:5]
        return f"Contact: {f} {l_}, {title} - {mail}"

    def render(i: int) -> Callable[[], bytes]:
        f, l_, title, company, mail, phone, color = people[i]
        return lambda: card(f"{f} {l_}", title, company, mail, phone, color)

    subject = "Great meeting you at the expo"
    body = ("Hi all,\n\nIt was great meeting you at the Northwest Tech Expo this week. I'll follow up with each of you "
            f"individually over the next few days about next steps.\n\nBest,\n{first}")
    matched = [0, 1, 3, 4]
    tasks = "$expo_tasks.no_section_tasks"
    rounds = [
        Round([1, 2],
              "I'm sorting the business cards from the expo. My Todoist project 'Expo follow-ups' has a task for each "
              "company I promised to follow up with. For each card that matches one of those companies, add a "
              "comment to the task with the person's name, title and email.",
              "Send the first two cards and explain the matching rule. Do not say which companies match; the "
              "assistant has to compare the cards with the tasks. Once it confirms the comments, move on.",
              [step("todoist_show_projects", "expo", query="Expo follow-ups"),
               step("todoist_show_tasks", "expo_tasks", project_id="$expo.0.project_id"),
               step("todoist_post_task_comment", task_id=f"{tasks}.0.task_id", content=comment(0)),
               step("todoist_post_task_comment", task_id=f"{tasks}.1.task_id", content=comment(1))],
              "Both cards match: I commented on the Brightline Robotics task (Priya Raman) and the Tidewater "
              "Analytics task (Tomas Reyes)."),
        Round([3, 4],
              "Two more cards. Same thing for any that match a follow-up task. Anyone whose company isn't in the "
              "project, just add them to my contacts with their email and phone number.",
              "Send the next two cards and repeat the rule, adding that non-matching people go into your contacts "
              "with email and phone number. Once it confirms, move on.",
              [step("todoist_post_task_comment", task_id=f"{tasks}.3.task_id", content=comment(3)),
               step("contacts_add_contact", first_name="Hannah", last_name="Cole", email=people[2][4],
                    phone_number=people[2][5])],
              "Liam O'Connor matches Summit Solar, so I commented on that task. Granite Peak Outfitters has no "
              "follow-up task, so I added Hannah Cole to your contacts."),
        Round([5],
              "Here's another one.",
              "Send the fifth card without further explanation; the assistant should apply the same rules. Once it "
              "confirms, move on.",
              [step("todoist_post_task_comment", task_id=f"{tasks}.2.task_id", content=comment(4))],
              "Grace Kim is from Orchard Health, so I added her details as a comment on that follow-up task."),
        Round([6],
              "Last card. After that, send one email to everyone whose card matched a follow-up task saying it was "
              "great meeting them at the expo and that I'll follow up individually.",
              "Send the last card, then ask for a single email to all the people whose cards matched a follow-up "
              "task. If the assistant asks who they are, tell it to work it out from the cards it processed. End the "
              "conversation once the email is sent.",
              [step("contacts_add_contact", first_name="Nadia", last_name="Flores", email=people[5][4],
                    phone_number=people[5][5]),
               step("gmail_send_email", email_addresses=[people[i][4] for i in matched], subject=subject, body=body)],
              "Nadia Flores (Copperleaf Studios) went into your contacts, and I emailed Priya, Tomas, Liam and Grace."),
    ]
    expo, link = project(400, uid, "Expo follow-ups", "orange")
    companies = ["Brightline Robotics", "Tidewater Analytics", "Orchard Health", "Summit Solar"]
    specs = [create_comment(6500, uid, comment(0)), create_comment(6501, uid, comment(1)),
             create_comment(6503, uid, comment(3)), create_comment(6502, uid, comment(4)),
             create_contact(uid, "Hannah", "Cole", people[2][4], people[2][5]),
             create_contact(uid, "Nadia", "Flores", people[5][4], people[5][5]),
             create_email(uid, [10100, 10101, 10102, 10103], subject, body)]
    criteria = ("Each follow-up task in 'Expo follow-ups' must get a comment with the matching card's person: "
                "Brightline Robotics - Priya Raman, Head of Partnerships, priya.raman@brightlinerobotics.com; "
                "Tidewater Analytics - Tomas Reyes, Data Science Lead, t.reyes@tidewateranalytics.io; Summit Solar - "
                "Liam O'Connor, Chief Technology Officer, liam.oconnor@summitsolar.energy; Orchard Health - Grace Kim, "
                "Procurement Manager, grace.kim@orchardhealth.org. Hannah Cole (hannah.cole@granitepeak.com, (208) "
                "555-0117) and Nadia Flores (nadia@copperleafstudios.com, (360) 555-0129) must be added to the "
                "contacts. One email saying it was great meeting them at the expo must be sent to Priya, Tomas, Liam "
                "and Grace.")
    return Definition(7, SIMONE, "Simone is back from a tech expo with a stack of business cards and cross-references "
                      "them with the companies she promised to follow up with.", "cross_reference", "progressive",
                      "none", False, "synthetic_poster", [(f"card_{people[i][0].lower()}", render(i)) for i in range(6)],
                      rounds, specs, criteria,
                      appworld={"todoist.projects": [expo], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500 + i, 400, uid, f"Follow up with {c}", i + 1)
                                                  for i, c in enumerate(companies)],
                                "gmail.users": [gmail_user(10100 + j, people[i][0], people[i][1], people[i][4],
                                                           contact=False) for j, i in enumerate(matched)]})
