"""Starter scenario 13 (cross_reference / upfront / goal_change): conference talks by known contacts go on the
calendar."""

from __future__ import annotations

from collections.abc import Callable

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.images import talk_card
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import THOMAS
from mmtsb.authoring.specs import create_event, create_text


def definition() -> Definition:
    """The definition of mmtsb_nominal_013."""
    uid = THOMAS.id
    talks = [  # (title lines, speaker, affiliation, start, end, when, room, in contacts)
        (["Scaling Postgres", "for Analytics"], "Glen Moore", "Harbor Analytics", "09:00", "09:45",
         "9:00 - 9:45 AM", "Room A", True),
        (["Edge Caching", "Patterns"], "Dr. Lena Park", "Northwind Cloud", "09:00", "09:45", "9:00 - 9:45 AM",
         "Room B", False),
        (["Designing Accessible", "Dashboards"], "Jessica Miller", "Brightline Labs", "10:30", "11:15",
         "10:30 - 11:15 AM", "Room C", True),
        (["Rust for Data", "Pipelines"], "Victor Huang", "Tidewater Analytics", "11:30", "12:15",
         "11:30 AM - 12:15 PM", "Room A", False),
        (["Incident Reviews", "That Work"], "Sarah Ritter", "Summit Systems", "13:30", "14:15", "1:30 - 2:15 PM",
         "Room B", True),
        (["The Future of", "On-Device AI"], "Amara Okoye", "Copperleaf Research", "15:00", "15:45",
         "3:00 - 3:45 PM", "Main Hall", False),
    ]
    palette = [(21, 101, 192), (0, 137, 123), (123, 31, 162), (230, 81, 0), (198, 40, 40), (56, 142, 60)]

    def render(i: int) -> Callable[[], bytes]:
        t = talks[i]
        return lambda: talk_card("DevSummit 2026  -  Tuesday, April 21", t[0], t[1], t[2], t[5], t[6], palette[i])

    def event_args(i: int) -> dict[str, str]:
        t = talks[i]
        return {"title": " ".join(t[0]), "start_datetime": f"2026-04-21T{t[3]}:00{TZ}",
                "end_datetime": f"2026-04-21T{t[4]}:00{TZ}"}

    text = ("Hi Sarah, I have to leave DevSummit at noon on Tuesday, so I'll miss your talk 'Incident Reviews That "
            "Work'. Could you share your slides?")
    lookups = [step("contacts_search_contacts", t[1].split()[-2].lower() if t[1].startswith("Dr.") else
                    t[1].split()[0].lower(), query=t[1].replace("Dr. ", "")) for t in talks]
    rounds = [
        Round([1, 2, 3, 4, 5, 6],
              "These are the six talks at DevSummit next Tuesday. Put on my Work calendar only the talks given by "
              "people in my contacts, with the talk title as the event title and the times on the card.",
              "Send all six session cards and ask the assistant to cross-check the speakers with your contacts and "
              "add only those talks to your Work calendar. Do not say which speakers you know. Once it confirms the "
              "events, move on.",
              [*lookups, step("search_calendars", "work", title="Work"),
               step("create_calendar_event", calendar_id="$work.0.calendar_id", **event_args(0)),
               step("create_calendar_event", calendar_id="$work.0.calendar_id", **event_args(2)),
               step("create_calendar_event", "sarah_talk", calendar_id="$work.0.calendar_id", **event_args(4))],
              "Three speakers are in your contacts: Glen Moore, Jessica Miller and Sarah Ritter. I added their talks "
              "to your Work calendar for Tuesday, April 21."),
        Round([],
              "Change of plans: I can only stay until noon on Tuesday. Remove any of those talks that start after "
              "12:00, and text the speaker whose talk I'll miss to ask for the slides.",
              "Tell the assistant you now have to leave at noon. Ask it to remove the calendar talks starting after "
              "12:00 and to text that speaker for the slides. If it asks who, say it's whoever's talk you'll miss. "
              "End the conversation once the event is removed and the text sent.",
              [step("remove_calendar_event", calendar_event_id="$sarah_talk"),
               step("messages_send_text_message", phone_number="$sarah.0.phone_number", message=text)],
              "I removed 'Incident Reviews That Work' (1:30 PM) and texted Sarah Ritter asking for her slides."),
    ]
    specs = [create_event(event_args(0)["title"], "2026-04-21T09:00:00", "2026-04-21T09:45:00"),
             create_event(event_args(2)["title"], "2026-04-21T10:30:00", "2026-04-21T11:15:00"),
             *create_text(uid, 98, text)]
    criteria = ("The Work calendar must end with two DevSummit talks on April 21, 2026: 'Scaling Postgres for "
                "Analytics' (Glen Moore, 9:00-9:45 AM) and 'Designing Accessible Dashboards' (Jessica Miller, "
                "10:30-11:15 AM). 'Incident Reviews That Work' (Sarah Ritter, 1:30 PM) is added first and then "
                "removed after the user decides to leave at noon; talks by speakers who are not contacts (Lena Park, "
                "Victor Huang, Amara Okoye) must never be added. A text to Sarah Ritter must ask for the slides of "
                "her talk.")
    return Definition(13, THOMAS, "Thomas is attending a developer conference. He puts the talks given by people he "
                      "knows on his calendar, then cuts his day short and asks a speaker for her slides.",
                      "cross_reference", "upfront", "goal_change", False, "synthetic_poster",
                      [(f"talk_{t[1].split()[-1].lower()}", render(i)) for i, t in enumerate(talks)], rounds, specs,
                      criteria)
