"""Starter scenario 11 (validate / mixed / none): travel documents checked against the profile, the entry rule and
the trip dates."""

from __future__ import annotations

from collections.abc import Callable

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.images import card, document, passport_page
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import SIMONE
from mmtsb.authoring.rows import contact, gmail_user, phone_user
from mmtsb.authoring.specs import create_email, create_note, create_reminder, create_task, update
from mmtsb.eval.similarity import EXACT


def definition() -> Definition:
    """The definition of mmtsb_nominal_011."""
    uid, first = SIMONE.id, SIMONE.first
    note_title = "Lisbon trip"
    note_body = ("Hotel: Casa do Rio Guesthouse\nBooking reference: CR-7731\nCheck-in: Fri 15 May 2026\n"
                 "Check-out: Sun 24 May 2026\nOutbound flight: TP 1234 (Seattle to Lisbon, 14 May 2026)\n"
                 "Return flight: TP 1235 (Lisbon to Seattle, 24 May 2026)")
    remind = "Pack passport and print the Casa do Rio booking"
    subject = "Travel insurance extension for Lisbon trip"
    body = ("Hi Ines,\n\nMy Meridian travel insurance policy MT-448190 only covers 14 May to 20 May 2026, but I fly "
            "back from Lisbon on 24 May 2026 (TP 1235). Could you extend the coverage through 24 May?\n\nThanks,\n"
            f"{first}")

    def ticket(flight: str, origin: str, dep: str, dest: str, arr: str) -> Callable[[], bytes]:
        return lambda: document(
            "TAP Air Portugal", "Electronic ticket receipt", (183, 28, 28), f"Flight {flight}",
            [("Passenger", "WHITAKER/SIMONE MS"), ("Booking ref", "K7QZ2M"), ("From", origin), ("Departs", dep),
             ("To", dest), ("Arrives", arr), ("Class", "Economy")],
            paragraphs=[("Times are local. Please arrive at the airport at least 3 hours before international "
                         "departures.")])

    images = [
        ("passport", lambda: passport_page(
            [("Surname", "WHITAKER"), ("Given names", "SIMONE"), ("Date of birth", "03 SEP 1969"),
             ("Date of issue", "13 AUG 2016"), ("Date of expiry", "12 AUG 2026"), ("Passport No.", "548213907")],
            ["P<USAWHITAKER<<SIMONE<<<<<<<<<<<<<<<<<<<<<<<", "5482139076USA6909035F2608125<<<<<<<<<<<<<<06"])),
        ("ticket_outbound", ticket("TP 1234", "Seattle (SEA)", "Thu 14 May 2026, 6:40 PM", "Lisbon (LIS)",
                                   "Fri 15 May 2026, 1:55 PM")),
        ("entry_checklist", lambda: document(
            "Atlas Travel", "Your trip to Portugal", (0, 105, 92), "Schengen entry checklist",
            [("Destination", "Portugal (Schengen area)"), ("Traveller", "Simone Whitaker")],
            paragraphs=[("1. Your passport must be valid for at least 3 months after the date you leave the "
                         "Schengen area."),
                        "2. Your passport must have been issued within the last 10 years.",
                        "3. Keep your return ticket and accommodation booking with you at border control."])),
        ("ticket_return", ticket("TP 1235", "Lisbon (LIS)", "Sun 24 May 2026, 1:15 PM", "Seattle (SEA)",
                                 "Sun 24 May 2026, 4:40 PM")),
        ("guesthouse_booking", lambda: document(
            "Casa do Rio Guesthouse", "Rua do Alecrim 51, Lisbon", (121, 85, 72), "Booking confirmation",
            [("Guest", "Simone Whitaker"), ("Booking reference", "CR-7731"),
             ("Check-in", "Fri 15 May 2026, from 2:00 PM"), ("Check-out", "Sun 24 May 2026, by 11:00 AM"),
             ("Nights", "9"), ("Room", "Double room, river view")])),
        ("insurance_card", lambda: card("Simone Whitaker", "Policy MT-448190  -  Destination: Portugal",
                                        "Meridian Travel Insurance", "Coverage: 14 May 2026 - 20 May 2026",
                                        "Emergency line: +1 (800) 555-0199", (13, 71, 161))),
    ]
    rounds = [
        Round([1, 2],
              "I'm flying to Lisbon next month. Here's my passport and my outbound ticket. Check that the name and "
              "date of birth on the passport match my profile, and that the ticket is in the same name.",
              "Send the passport page and the outbound ticket and ask the assistant to check them against your "
              "profile. Do not state your date of birth. Once it reports the result, move on.",
              [step("supervisor_show_profile", "profile")],
              "Everything matches: the passport shows Simone Whitaker, born 3 September 1969, as in your profile, and "
              "the ticket is issued to WHITAKER/SIMONE."),
        Round([3, 4],
              "Here's the entry rule from my travel agent and my return ticket. Is my passport valid long enough? If "
              "not, add a high-priority task 'Renew passport before Lisbon trip' to my Todoist Inbox, due April 24.",
              "Send the checklist and the return ticket and ask the assistant to validate the passport against the "
              "rule. Do not do the date arithmetic yourself. Once it answers (and creates the task if needed), move "
              "on.",
              [step("todoist_show_projects", "inbox", query="Inbox"),
               step("todoist_create_task", project_id="$inbox.0.project_id", title="Renew passport before Lisbon "
                    "trip", priority="high", due_date="2026-04-24")],
              "No: you leave Lisbon on 24 May 2026, so the passport must be valid until at least 24 August 2026, but "
              "it expires on 12 August 2026. I added the high-priority renewal task, due April 24."),
        Round([5],
              "And here's the guesthouse booking. Does it cover every night between my arrival and my return flight? "
              "If it does, save a note called 'Lisbon trip' with the hotel name, booking reference, check-in and "
              "check-out dates, and both flight numbers.",
              "Send the booking confirmation and ask the assistant to check it against the flights, then save the "
              "note as described. If it asks about the format, say one line per item. Once it confirms, move on.",
              [step("simple_note_create_note", title=note_title, content=note_body)],
              "Yes: you land on 15 May and fly back on 24 May, and the booking runs from 15 to 24 May (9 nights). "
              "The 'Lisbon trip' note is saved."),
        Round([],
              "Add a reminder for 8 PM the evening before my outbound flight to pack my passport and print the "
              "guesthouse booking.",
              "Ask for the reminder without giving the date; the assistant should take it from the outbound ticket. "
              "Once it confirms, move on.",
              [step("add_reminder", content=remind, reminder_datetime="2026-05-13T20:00:00" + TZ)],
              "Done: a reminder on Wednesday, 13 May 2026 at 8:00 PM to pack your passport and print the Casa do Rio "
              "booking."),
        Round([6],
              "Last one: my travel insurance card. Does it cover the whole trip? If not, email my travel agent Ines "
              "asking her to extend it through my return date. Then switch on low battery mode - my phone's almost "
              "dead.",
              "Send the insurance card and ask for the check, the email to Ines (Ines Duarte, in your contacts) if "
              "needed, and then low battery mode. End the conversation once all of it is done.",
              [step("contacts_search_contacts", "ines", query="Ines Duarte"),
               step("gmail_send_email", email_addresses=["$ines.0.email"], subject=subject, body=body),
               step("set_low_battery_mode_status", on=True)],
              "The policy only covers 14 to 20 May, so I emailed Ines asking to extend it through 24 May, and low "
              "battery mode is now on."),
    ]
    specs = [create_task(uid, uid, "Renew passport before Lisbon trip", priority="high", due="2026-04-24"),
             create_note(uid, note_title, note_body), create_reminder(remind, "2026-05-13T20:00:00"),
             create_email(uid, [200], subject, body),
             update("SETTING", "04640c30-8f3b-4e27-a1d6-3c9b5e7f2d41", {"low_battery_mode": True},
                    {"low_battery_mode": EXACT}, id_column="device_id", source="agentsandbox")]
    criteria = ("A high-priority task 'Renew passport before Lisbon trip' due 2026-04-24 must be in the Inbox, "
                "because the passport expires on 12 August 2026, before the required 24 August 2026 (3 months after "
                "leaving Lisbon on 24 May). A note 'Lisbon trip' must record Casa do Rio Guesthouse, booking CR-7731, "
                "check-in 15 May 2026, check-out 24 May 2026 and flights TP 1234 and TP 1235. A reminder to pack the "
                "passport and print the booking must be set for 13 May 2026 at 8:00 PM. An email to Ines Duarte must "
                "ask to extend travel insurance policy MT-448190 (14-20 May) through 24 May 2026, and low battery "
                "mode must be turned on.")
    return Definition(11, SIMONE, "Simone prepares a trip to Lisbon and has the assistant validate her passport, "
                      "bookings and insurance against her profile, the entry rules and her flight dates.", "validate",
                      "mixed", "none", False, "synthetic_document", images, rounds, specs, criteria,
                      appworld={"phone.contacts": [contact(200, uid, "Ines", "Duarte", "ines.duarte@atlastravel.com",
                                                           "(206) 555-0150", ["travel agent"])],
                                "gmail.users": [gmail_user(200, "Ines", "Duarte", "ines.duarte@atlastravel.com")],
                                "phone.users": [phone_user(200, "Ines", "Duarte", "(206) 555-0150")]})
