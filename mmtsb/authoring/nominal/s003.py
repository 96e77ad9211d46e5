"""Starter scenario 3 (compare / mixed / goal_change): choose a flight by price, then by arrival time; a luggage
reminder."""

from __future__ import annotations

from collections.abc import Callable

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.images import document, phone_screen
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import SIMONE
from mmtsb.authoring.rows import project, task
from mmtsb.authoring.specs import create_event, create_reminder, update_task


def definition() -> Definition:
    """The definition of mmtsb_nominal_003."""
    uid = SIMONE.id
    sw = ("SW 418", "SkyWay Air", "6:05 AM", "8:14 AM", "$289", "2026-04-20T06:05:00", "2026-04-20T08:14:00")
    ns = ("NS 1127", "Northstar", "7:40 AM", "9:52 AM", "$247", "2026-04-20T07:40:00", "2026-04-20T09:52:00")
    cj = ("CJ 92", "Cascade Jet", "5:30 AM", "9:05 AM", "$199", "2026-04-20T05:30:00", "2026-04-20T09:05:00")

    def option(f: tuple[str, ...], stops: str) -> Callable[[], bytes]:
        return lambda: phone_screen("FareFinder", (0, 105, 92), "Mon, Apr 20  -  SEA to SFO", [
            (f"{f[1]}  {f[0]}", f"Departs Seattle (SEA) {f[2]}  -  arrives San Francisco (SFO) {f[3]}", f[4]),
            ("Stops", stops, ""), ("Fare class", "Economy, 1 carry-on included", ""),
        ], note="Prices per adult, taxes included. Times are local.")

    description = "SkyWay Air SW 418, departs SEA 6:05 AM, arrives SFO 8:14 AM"
    luggage = "Ask the Hotel Zephyr front desk to hold my luggage"
    images = [
        ("flight_skyway", option(sw, "Nonstop")),
        ("flight_northstar", option(ns, "Nonstop")),
        ("flight_cascade", option(cj, "1 stop - Portland (PDX), 55 min layover")),
        ("summit_agenda", lambda: document(
            "Bay Data Summit 2026", "Moscone West, San Francisco", (74, 20, 140), "Monday, April 20 - Agenda",
            [("Venue", "Moscone West, Level 2"), ("Badge pickup", "from 9:30 AM")],
            (["Session", "", "", "Time"], [["Badge pickup and coffee", "", "", "9:30 AM"],
                                          ["Opening keynote: Data at the Edge", "", "", "11:30 AM"],
                                          ["Lunch", "", "", "12:30 PM"], ["Workshops", "", "", "2:00 PM"]]))),
        ("hotel_booking", lambda: document(
            "Hotel Zephyr", "250 Beach St, San Francisco CA", (0, 96, 100), "Reservation confirmed",
            [("Guest", "Simone Whitaker"), ("Confirmation", "ZPH-20417"), ("Check-in", "Mon, Apr 20, 2026 - 3:00 PM"),
             ("Check-out", "Wed, Apr 22, 2026 - 11:00 AM"), ("Room", "1 King, non-smoking")],
            paragraphs=[("Early check-in is not guaranteed. Our front desk is happy to hold luggage for guests "
                         "who arrive before check-in time.")])),
    ]
    rounds = [
        Round([1, 2],
              "I need to fly to San Francisco on Monday for a conference. Compare these two nonstop options and put "
              "the cheaper one on my Work calendar, titled 'Flight to San Francisco (<flight number>)', from "
              "departure to arrival.",
              "Send the two flight screenshots and ask the assistant to add the cheaper one to your Work calendar "
              "with the title format you gave. Do not mention the prices yourself. Once it confirms the event, move "
              "on to the next round.",
              [step("search_calendars", "work", title="Work"),
               step("create_calendar_event", "flight", calendar_id="$work.0.calendar_id",
                    title=f"Flight to San Francisco ({ns[0]})", start_datetime=ns[5] + TZ, end_datetime=ns[6] + TZ)],
              "Northstar NS 1127 is cheaper ($247 vs $289), so I added 'Flight to San Francisco (NS 1127)' to your "
              "Work calendar on Monday from 7:40 to 9:52 AM."),
        Round([3],
              "Another option just came in. If it's cheaper than the flight on my calendar, replace the calendar "
              "event with this one.",
              "Send the third flight screenshot and ask the assistant to switch the calendar event if this option is "
              "cheaper than the one already booked on your calendar. Once it confirms, move on to the next round.",
              [step("modify_calendar_event", calendar_event_id="$flight", title=f"Flight to San Francisco ({cj[0]})",
                    start_datetime=cj[5] + TZ, end_datetime=cj[6] + TZ)],
              "Cascade Jet CJ 92 is cheaper at $199, so the calendar event now shows that flight (5:30 to 9:05 AM, "
              "with a stop in Portland)."),
        Round([],
              "Actually, forget the cheapest rule; I don't want a layover that early. Go with whichever nonstop flight "
              "arrives earliest and update the calendar. Then mark the 'Book flight' task in my 'San Francisco trip' "
              "project as done and put the airline, flight number and times in its description.",
              "Change your mind: you no longer want the cheapest flight but the nonstop option that arrives earliest. "
              "Ask the assistant to update the calendar event accordingly, then to complete the 'Book flight' task in "
              "your 'San Francisco trip' Todoist project with the airline, flight number and times in the task "
              "description. If it asks which options count, say only the two nonstop flights. Move on once both "
              "are done.",
              [step("modify_calendar_event", calendar_event_id="$flight", title=f"Flight to San Francisco ({sw[0]})",
                    start_datetime=sw[5] + TZ, end_datetime=sw[6] + TZ),
               step("todoist_show_projects", "trip", query="San Francisco trip"),
               step("todoist_show_tasks", "trip_tasks", project_id="$trip.0.project_id"),
               step("todoist_update_task", task_id="$trip_tasks.no_section_tasks.0.task_id", is_completed=True,
                    description=description)],
              "SkyWay Air SW 418 arrives first (8:14 AM), so the event is now 'Flight to San Francisco (SW 418)', "
              "6:05 to 8:14 AM. The 'Book flight' task is completed with the flight details in its description."),
        Round([4, 5],
              "Here's the summit agenda and my hotel booking. Compare the hotel check-in time with the opening "
              "keynote: if I can check in before the keynote, remind me to drop my bags at check-in time; otherwise "
              "remind me, 30 minutes before the keynote, to ask the front desk to hold my luggage.",
              "Send the agenda and the hotel confirmation and ask for the reminder exactly as described in your "
              "query. Do not state the times yourself. End the conversation once the reminder is set.",
              [step("add_reminder", content=luggage, reminder_datetime="2026-04-20T11:00:00" + TZ)],
              "Check-in is at 3:00 PM but the keynote starts at 11:30 AM, so I set a reminder for Monday at 11:00 AM: "
              "'Ask the Hotel Zephyr front desk to hold my luggage'."),
    ]
    trip, link = project(400, uid, "San Francisco trip", "teal")
    specs = [create_event(f"Flight to San Francisco ({sw[0]})", sw[5], sw[6]),
             update_task(6500, is_completed=True, description=description),
             create_reminder(luggage, "2026-04-20T11:00:00")]
    criteria = ("The Work calendar must end with exactly one flight event, 'Flight to San Francisco (SW 418)' on "
                "April 20, 2026 from 6:05 AM to 8:14 AM (the user first chose the cheapest flight, then switched to "
                "the nonstop flight arriving earliest). The 'Book flight' task in the 'San Francisco trip' project "
                "must be completed with SkyWay Air SW 418 and its times in the description. A reminder to ask the "
                "Hotel Zephyr front desk to hold the luggage must be set for April 20, 2026 at 11:00 AM, 30 minutes "
                "before the 11:30 AM keynote, because hotel check-in is only at 3:00 PM.")
    return Definition(3, SIMONE, "Simone is booking travel to a data summit in San Francisco. She compares flight "
                      "offers as they come in, changes her selection rule halfway, and plans around the hotel "
                      "check-in time.", "compare", "mixed", "goal_change", False, "synthetic_screenshot", images,
                      rounds, specs, criteria,
                      appworld={"todoist.projects": [trip], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500, 400, uid, "Book flight", 1),
                                                  task(6501, 400, uid, "Pack laptop charger", 2)],
                                "gmail.users": []})
