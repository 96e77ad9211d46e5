"""Starter scenario 2 (filter / progressive / error_correction): only the free events from four flyers go on the
calendar."""

from __future__ import annotations

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.images import poster
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import CHRISTINA
from mmtsb.authoring.rows import contact, gmail_user, phone_user
from mmtsb.authoring.specs import create_event, create_text


def definition() -> Definition:
    """The definition of mmtsb_nominal_002."""
    uid = CHRISTINA.id
    swap = ("Spring Plant Swap", "2026-04-18T10:00:00", "2026-04-18T12:00:00")
    yoga = ("Sunset Yoga in the Park", "2026-04-19T18:00:00", "2026-04-19T19:00:00")
    text = ("Free events this weekend: Spring Plant Swap on Saturday, April 18 from 10:00 AM to 12:00 PM at "
            "Greenwood Library Garden, and Sunset Yoga in the Park on Sunday, April 19 from 6:00 PM to 7:00 PM at "
            "Gas Works Park.")
    images = [
        ("flyer_plant_swap", lambda: poster((236, 246, 232), (46, 125, 50), "Greenwood Library presents",
                                            ["Spring", "Plant Swap"],
                                            ["Saturday, April 18, 2026", "10:00 AM - 12:00 PM",
                                             "Greenwood Library Garden", "Bring a cutting, take a cutting!"],
                                            "FREE ADMISSION")),
        ("flyer_jazz", lambda: poster((232, 238, 250), (40, 53, 147), "Live music on the waterfront",
                                      ["Jazz on", "the Pier"],
                                      ["Saturday, April 18, 2026", "7:00 PM - 9:00 PM", "Pier 62 Pavilion",
                                       "Featuring the Elliott Bay Quartet"],
                                      "TICKETS $25")),
        ("flyer_book_fair", lambda: poster((250, 242, 230), (191, 87, 0), "Fremont Friends of the Library",
                                           ["Community", "Book Fair"],
                                           ["Sunday, April 19, 2026", "1:00 PM - 4:00 PM", "Fremont Community Hall",
                                            "Used books from $1 - kids enter free"],
                                           "ENTRY $5")),
        ("flyer_yoga", lambda: poster((248, 236, 244), (136, 14, 79), "Seattle Parks community class",
                                      ["Sunset Yoga", "in the Park"],
                                      ["Sunday, April 19, 2026", "6:00 PM - 7:00 PM", "Gas Works Park",
                                       "All levels - bring your own mat"],
                                      "FREE")),
    ]
    rounds = [
        Round([1, 2],
              "I'm planning my weekend. Of these two flyers, put only the free events on my Personal calendar, with "
              "the exact times shown.",
              "Send the first two flyers. Ask the assistant to add only the free events to your Personal calendar with "
              "the times printed on the flyers. Do not say which events are free; let it read the prices. Once it "
              "confirms what it added, move on to the next round.",
              [step("search_calendars", "personal", title="Personal"),
               step("create_calendar_event", calendar_id="$personal.0.calendar_id", title=swap[0],
                    start_datetime=swap[1] + TZ, end_datetime=swap[2] + TZ)],
              "Only the Spring Plant Swap is free (the jazz night costs $25), so I added it to your Personal calendar "
              "for Saturday, April 18, 10:00 AM to 12:00 PM."),
        Round([3, 4],
              "Here are two more flyers. Same rule: add the free ones to my Personal calendar. The book fair is free "
              "too, right? Add it as well.",
              "Send the two new flyers and ask for the same free-only rule. Casually insist that the book fair is "
              "free; this is a deliberate mistake, since its flyer says entry is $5 (only kids enter free). If the "
              "assistant points out the $5 entry, accept the correction and tell it to skip the book fair. If it adds "
              "the book fair anyway, tell it to look at the entry price on the flyer and remove the event. Move on "
              "once the free events are on the calendar.",
              [step("create_calendar_event", calendar_id="$personal.0.calendar_id", title=yoga[0],
                    start_datetime=yoga[1] + TZ, end_datetime=yoga[2] + TZ)],
              "I added Sunset Yoga in the Park (Sunday, 6:00-7:00 PM). The book fair is not free: its flyer says "
              "entry is $5 (only kids get in free), so I left it off."),
        Round([],
              "Thanks. Text Ronald the list of free events we're going to this weekend, with their days and times.",
              "Ask the assistant to text Ronald the free events with their days and times. You have two contacts "
              "named Ronald: if the assistant asks which one, say your husband, Ronald Harrison (not Ronald Baker, "
              "your neighbor). If it texts Ronald Baker, tell it that was the wrong Ronald. End the conversation once "
              "the text is sent to your husband.",
              [step("contacts_search_contacts", "ronald", query="Ronald Harrison"),
               step("messages_send_text_message", phone_number="$ronald.0.phone_number", message=text)],
              "I texted Ronald the two free events with their days and times."),
    ]
    specs = [create_event(*swap), create_event(*yoga), *create_text(uid, 12, text)]
    criteria = ("Only the free events must be added to the Personal calendar: 'Spring Plant Swap' on April 18, 2026 "
                "from 10:00 AM to 12:00 PM and 'Sunset Yoga in the Park' on April 19, 2026 from 6:00 PM to 7:00 PM. "
                "The Jazz on the Pier ($25) and the Community Book Fair ($5 entry, despite the user claiming it was "
                "free) must not be added. A text message listing the two free events with their days and times must "
                "be sent to Ronald Harrison, her husband (not to her neighbor Ronald Baker).")
    return Definition(2, CHRISTINA, "Christina is choosing weekend activities from event flyers. She only wants the "
                      "free ones on her calendar, misremembers one flyer's price, and shares the plan with her "
                      "husband.", "filter", "progressive", "error_correction", True, "synthetic_poster", images,
                      rounds, specs, criteria,
                      appworld={"phone.contacts": [contact(200, uid, "Ronald", "Baker", "ron.baker@fastmail.com",
                                                           "(206) 555-0164", ["neighbor"])],
                                "gmail.users": [gmail_user(200, "Ronald", "Baker", "ron.baker@fastmail.com")],
                                "phone.users": [phone_user(200, "Ronald", "Baker", "(206) 555-0164")]})
