"""Starter scenario 14 (lookup_chain / mixed / error_correction): invite -> timetable -> alarm; zone map -> pass ->
task."""

from __future__ import annotations

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.images import card, document, phone_screen, zone_map
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import CHRISTINA
from mmtsb.authoring.specs import create_alarm, create_event, create_task


def definition() -> Definition:
    """The definition of mmtsb_nominal_014."""
    uid = CHRISTINA.id
    visit = ("Site visit - Harbor Point Office", "2026-04-17T09:30:00", "2026-04-17T11:00:00")
    timetable = [["07:42", "08:05", "08:31"], ["08:05", "08:28", "08:54"], ["08:27", "08:50", "09:16"],
                 ["08:49", "09:12", "09:38"], ["09:12", "09:35", "10:01"]]
    images = [
        ("meeting_invite", lambda: phone_screen("Mail", (21, 101, 192), "Site visit - Harbor Point Office", [
            ("From", "Alexander Riddle", ""), ("When", "Friday, April 17, 9:30 - 11:00 AM", ""),
            ("Where", "Harbor Point Office, 40 Harbor Point Blvd - a 15-minute walk from Harbor Point station", "")],
            note="Security check-in closes at 9:30 sharp, so please be at the front desk on time.")),
        ("timetable", lambda: document(
            "Metro Transit", "Blue Line - weekday timetable", (21, 101, 192), "Blue Line: Maple Grove to Harbor Point",
            [("Service", "Monday - Friday"), ("Valid from", "March 2, 2026")],
            (["Train", "Maple Grove", "Central", "Harbor Point"],
             [[f"BL {101 + i}", *row] for i, row in enumerate(timetable)]),
            paragraphs=["Departure times from Maple Grove and Central; arrival time at Harbor Point."],
            columns=((40, "la"), (330, "ra"), (530, "ra"), (780, "ra")))),
        ("zone_map", lambda: zone_map("Blue Line", [("Maple Grove", 1), ("Lakeview", 1), ("Central", 2),
                                                    ("Riverside", 2), ("Harbor Point", 3)],
                                      {1: (227, 242, 253), 2: (232, 245, 233), 3: (255, 243, 224)},
                                      "Fares are charged by the highest zone travelled. Monthly passes list "
                                      "the zones they cover.")),
        ("monthly_pass", lambda: card("Christina Harrison", "Monthly pass - April 2026", "Metro Transit",
                                      "Valid zones: 1-2", "Valid: Apr 1 - Apr 30, 2026", (21, 101, 192))),
    ]
    rounds = [
        Round([1, 2],
              "I have a site visit tomorrow morning (invite attached) and I'll take the Blue Line from Maple Grove "
              "(timetable attached). I think the 8:27 train works - set an alarm 45 minutes before it.",
              "Send the invite and the timetable. Insist that the 8:27 train works; this is a deliberate mistake: it "
              "reaches Harbor Point at 9:16, and with the 15-minute walk you would arrive at 9:31, after security "
              "closes at 9:30. If the assistant points this out, accept it and ask for the alarm 45 minutes before "
              "the correct train (the 8:05). If it sets the alarm for 7:42 without comment, ask whether you will "
              "really make it by 9:30 given the walk. Move on once the alarm is right.",
              [step("alarms_create_alarm", time="07:20", label="Train to Harbor Point")],
              "The 8:27 arrives at 9:16, and with the 15-minute walk you'd reach the office at 9:31, after check-in "
              "closes. The 8:05 arrives at 8:54, so I set the alarm for 7:20, 45 minutes before it."),
        Round([],
              "Good catch. Also put the site visit on my Work calendar, with the title and times from the invite.",
              "Ask for the calendar event without giving the times; they are on the invite. Once it confirms, move "
              "on.",
              [step("search_calendars", "work", title="Work"),
               step("create_calendar_event", calendar_id="$work.0.calendar_id", title=visit[0],
                    start_datetime=visit[1] + TZ, end_datetime=visit[2] + TZ)],
              "'Site visit - Harbor Point Office' is on your Work calendar for Friday from 9:30 to 11:00 AM."),
        Round([3],
              "Which fare zone is Harbor Point in? Here's the zone map.",
              "Send the zone map and ask which zone Harbor Point is in. Once the assistant answers, move on.",
              [],
              "Harbor Point is in Zone 3."),
        Round([4],
              "Here's my monthly pass. Does it cover that zone? If not, add a task 'Buy a Zone 3 add-on ticket' to my "
              "Todoist Inbox, due tomorrow.",
              "Send the pass and ask the assistant to check it and add the task if needed. End the conversation once "
              "it answers and, if needed, creates the task.",
              [step("todoist_show_projects", "inbox", query="Inbox"),
               step("todoist_create_task", project_id="$inbox.0.project_id", title="Buy a Zone 3 add-on ticket",
                    due_date="2026-04-17")],
              "Your pass only covers zones 1-2, so I added 'Buy a Zone 3 add-on ticket' to your Inbox, due April 17."),
    ]
    specs = [create_alarm(uid, "07:20", "Train to Harbor Point"), create_event(*visit),
             create_task(uid, uid, "Buy a Zone 3 add-on ticket", due="2026-04-17")]
    criteria = ("An alarm must be set for 07:20, 45 minutes before the 8:05 Blue Line train from Maple Grove (the "
                "user's 8:27 suggestion arrives at 9:16, too late with the 15-minute walk to be at the office by "
                "9:30). A Work calendar event 'Site visit - Harbor Point Office' must be created for April 17, 2026 "
                "from 9:30 to 11:00 AM. Because the monthly pass covers zones 1-2 and Harbor Point is in zone 3, a "
                "task 'Buy a Zone 3 add-on ticket' due 2026-04-17 must be in the Todoist Inbox.")
    return Definition(14, CHRISTINA, "Christina plans tomorrow's commute to a site visit: she chains the invite, the "
                      "train timetable, the fare-zone map and her transit pass, and gets the train wrong at first.",
                      "lookup_chain", "mixed", "error_correction", False, "synthetic_screenshot", images, rounds,
                      specs, criteria)
