"""Starter scenario 6 (lookup_chain / late / none): a worksheet whose answers feed each other, resolved by web
search."""

from __future__ import annotations

from mmtsb.authoring.clock import TZ
from mmtsb.authoring.images import document
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import CHRISTINA
from mmtsb.authoring.rows import gmail_user
from mmtsb.authoring.specs import create_email, create_note, create_reminder


def definition() -> Definition:
    """The definition of mmtsb_nominal_006."""
    uid = CHRISTINA.id
    answers = "1. Vincent van Gogh\n2. 1889\n3. The Eiffel Tower\n4. About 330 metres, including its antennas"
    note_title = "Maya - History Detective answers"
    remind = "Sign Maya's History Detective worksheet"
    subject = "Maya's History Detective worksheet"
    body = ("Hello Mr. Okafor,\n\nMaya has finished all four questions of the History Detective worksheet and will "
            "hand it in on Monday, April 20.\n\nBest regards,\nChristina Harrison")
    images = [
        ("worksheet", lambda: document(
            "Lakeview Elementary", "Grade 5 - Social Studies", (0, 121, 107), "History Detective - Week 12",
            [("Student", "Maya Harrison"), ("Due", "Monday, April 20")],
            paragraphs=[("Each answer unlocks the next question. Use a web search and write down your answers "
                         "in order."),
                        "1. Which painter created 'The Starry Night'?",
                        "2. In what year did that painter create it?",
                        "3. Which Paris landmark was completed in that same year?",
                        "4. How tall is that landmark today, including its antennas?"])),
        ("teacher_note", lambda: document(
            "A note from Mr. Okafor", "Lakeview Elementary - Room 12", (0, 121, 107), "Reminder for parents",
            [("Worksheet", "History Detective - Week 12"), ("Due", "Monday, April 20, 2026"),
             ("Contact", "dokafor@lakeviewelementary.org")],
            paragraphs=[("Please look over the worksheet with your child and sign it the evening before it is "
                         "due. Reply by email if you have any questions.")])),
    ]
    rounds = [
        Round([],
              "My daughter Maya has a history worksheet where each question builds on the previous one. I'll send "
              "it over in a moment - can you help me look up the answers online?",
              "Tell the assistant about the worksheet without sending any image yet and ask whether it can help "
              "look the answers up online. Once it agrees, move on to the next round.",
              [],
              "Of course. Send me the worksheet and I'll look up each answer in order."),
        Round([1],
              "Here's the worksheet. Please find each answer with a web search, in order, and save them in a new "
              "note titled 'Maya - History Detective answers', one numbered line per question.",
              "Send the worksheet and ask the assistant to research the questions in order and save the answers in "
              "the note. Do not give any answers yourself. If it asks about the format, say one numbered line per "
              "question with just the answer. Once the note is saved, move on to the next round.",
              [step("web_search_serper", "q1", query="The Starry Night painter"),
               step("web_search_serper", "q2", query="year The Starry Night was painted by Van Gogh"),
               step("web_search_serper", "q3", query="Paris landmark completed in 1889"),
               step("web_search_serper", "q4", query="Eiffel Tower height including antennas"),
               step("simple_note_create_note", "answers", title=note_title, content=answers)],
              "Van Gogh painted The Starry Night in 1889, the year the Eiffel Tower was completed; it is about 330 "
              "metres tall with its antennas. The answers are saved in the note."),
        Round([2],
              "This note from her teacher came home with it. Set a reminder at 7 PM the evening before the worksheet "
              "is due so I remember to sign it, and email the teacher that Maya finished all four questions.",
              "Send the teacher's note and ask for the reminder and the email as described. Do not give the due "
              "date or the teacher's address yourself; both are on the note. End the conversation once the reminder "
              "is set and the email is sent.",
              [step("add_reminder", content=remind, reminder_datetime="2026-04-19T19:00:00" + TZ),
               step("gmail_send_email", email_addresses=["dokafor@lakeviewelementary.org"], subject=subject,
                    body=body)],
              "The worksheet is due Monday, April 20, so the reminder is set for Sunday, April 19 at 7:00 PM, and I "
              "emailed Mr. Okafor that Maya finished all four questions."),
    ]
    specs = [create_note(uid, note_title, answers), create_reminder(remind, "2026-04-19T19:00:00"),
             create_email(uid, [10100], subject, body)]
    criteria = ("A note titled 'Maya - History Detective answers' must give, in order: Vincent van Gogh; 1889; the "
                "Eiffel Tower; about 330 metres including its antennas. A reminder to sign the worksheet must be set "
                "for April 19, 2026 at 7:00 PM (the evening before the April 20 due date), and an email must be sent "
                "to dokafor@lakeviewelementary.org saying Maya finished all four questions.")
    return Definition(6, CHRISTINA, "Christina helps her daughter with a chained history worksheet: each answer, "
                      "found on the web, unlocks the next question; then she handles the teacher's request.",
                      "lookup_chain", "late", "none", False, "synthetic_document", images, rounds, specs, criteria,
                      appworld={"gmail.users": [gmail_user(10100, "Daniel", "Okafor", "dokafor@lakeviewelementary.org",
                                                           contact=False)]})
