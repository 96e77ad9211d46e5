"""Starter scenario 1 (aggregate / upfront / none): three offsite receipts -> an expense note and an email to
Glen."""

from __future__ import annotations

from mmtsb.authoring.images import receipt
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import BRENDA, money
from mmtsb.authoring.rows import contact, gmail_user, phone_user
from mmtsb.authoring.specs import create_email, create_note


def definition() -> Definition:
    """The definition of mmtsb_nominal_001."""
    uid, first = BRENDA.id, BRENDA.first
    cafe, cab, prints = 52.85, 42.40, 66.06
    total = round(cafe + cab + prints, 2)
    note_title = "Offsite expenses - April 14"
    note_body = (f"Bluebird Cafe: {money(cafe)}\nRainier Cab Co.: {money(cab)}\nQuickPrint Copy Center: "
                 f"{money(prints)}\nGrand total: {money(total)}")
    subject = "Offsite expense summary"
    body = (f"Hi Glen,\n\nThe team offsite on April 14 came to {money(total)} in total: Bluebird Cafe {money(cafe)}, "
            f"Rainier Cab Co. {money(cab)} and QuickPrint Copy Center {money(prints)}. Could you process the "
            f"reimbursement?\n\nThanks,\n{first}")
    images = [
        ("receipt_cafe", lambda: receipt(
            ["Bluebird Cafe", "412 Alder St, Seattle WA", "(206) 555-0187"],
            ["Date: 04/14/2026   08:12 AM", "Server: Jonah   Table: 7", "Order #4471"],
            [("4 x Cappuccino @ 4.75", "19.00"), ("3 x Blueberry muffin @ 3.50", "10.50"),
             ("2 x Breakfast burrito @ 9.25", "18.50")],
            [("Subtotal", "48.00"), ("Sales tax 10.1%", "4.85"), ("TOTAL", money(cafe))],
            ["Paid by VISA ****1234", "Thank you - see you soon!"])),
        ("receipt_taxi", lambda: receipt(
            ["Rainier Cab Co.", "Trip receipt - Cab #218"],
            ["Date: 04/14/2026", "Pickup: 09:02 AM  SeaTac Airport", "Drop-off: 09:41 AM  Pier 70"],
            [("Metered fare", "31.40"), ("Airport pickup fee", "5.00"), ("Tip", "6.00")],
            [("TOTAL", money(cab))],
            ["Driver ID 5521", "Questions? rainiercab.example"])),
        ("receipt_print", lambda: receipt(
            ["QuickPrint Copy Center", "88 Western Ave, Seattle WA"],
            ["04/14/2026  10:17 AM", "Job #PR-3390"],
            [("6 x Color poster 18x24 @ 7.50", "45.00"), ("12 x Name badge @ 1.25", "15.00")],
            [("Subtotal", "60.00"), ("Sales tax 10.1%", "6.06"), ("TOTAL", money(prints))],
            ["Paid by VISA ****1234"])),
    ]
    rounds = [
        Round([1, 2, 3],
              "These are the receipts from Tuesday's team offsite. Please create a note titled 'Offsite expenses - "
              "April 14' that lists each vendor with its receipt total, and the grand total at the end.",
              "Send all three receipts and ask for the expense note. Do not state any amounts yourself; the assistant "
              "must read them from the receipts. If it asks how to format the note, tell it one line per vendor with "
              "the receipt total, then a grand-total line. Once it confirms the note is created, move on to the next "
              "round.",
              [step("simple_note_create_note", "expense_note", title=note_title, content=note_body)],
              f"I created the note '{note_title}': Bluebird Cafe {money(cafe)}, Rainier Cab Co. {money(cab)}, "
              f"QuickPrint Copy Center {money(prints)}; grand total {money(total)}."),
        Round([],
              "Great. Now email Glen a short summary with the grand total so he can reimburse me. Use the subject "
              "'Offsite expense summary'.",
              "Ask the assistant to email Glen the grand total and the per-vendor amounts. You have two contacts "
              "named Glen: if the assistant asks which one, say Glen Moore, your coworker (not Glen Peterson, your "
              "accountant). If it picks one without asking, check that it is Glen Moore and correct it otherwise. If "
              "the total it states differs from the one in the note, point it back to the receipts. End the "
              "conversation once the email is sent.",
              [step("contacts_search_contacts", "glen", query="Glen Moore"),
               step("gmail_send_email", email_addresses=["$glen.0.email"], subject=subject, body=body)],
              f"I emailed Glen Moore the summary with the grand total of {money(total)}."),
    ]
    specs = [create_note(uid, note_title, note_body), create_email(uid, [55], subject, body)]
    criteria = (f"A note titled '{note_title}' must list Bluebird Cafe {money(cafe)}, Rainier Cab Co. {money(cab)} and "
                f"QuickPrint Copy Center {money(prints)} with a grand total of {money(total)}. An email with the "
                f"subject '{subject}' must be sent to Glen Moore (gl.moore@gmail.com, the coworker the user means; "
                f"not Glen Peterson) stating the grand total of {money(total)}.")
    return Definition(1, BRENDA, "Brenda organised a team offsite and is filing the expenses: she turns three "
                      "receipts into an expense note and asks her coworker Glen to reimburse the total.",
                      "aggregate", "upfront", "none", True, "synthetic_document", images, rounds, specs, criteria,
                      appworld={"phone.contacts": [contact(200, uid, "Glen", "Peterson", "glen.peterson@petersoncpa.com",
                                                           "(206) 555-0112", ["accountant"])],
                                "gmail.users": [gmail_user(200, "Glen", "Peterson", "glen.peterson@petersoncpa.com")],
                                "phone.users": [phone_user(200, "Glen", "Peterson", "(206) 555-0112")]})
