"""Starter scenario 12 (compute / progressive / state_mutation): a dinner bill split four ways updates an existing
draft."""

from __future__ import annotations

from mmtsb.authoring.images import phone_screen, receipt
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import BRENDA
from mmtsb.authoring.specs import create_text, update
from mmtsb.eval.similarity import EXACT, IGNORE, ROUGE_L


def definition() -> Definition:
    """The definition of mmtsb_nominal_012."""
    uid, first = BRENDA.id, BRENDA.first
    seed_body = f"Hi all,\n\nThanks for a fun night at Osteria Lupa! Your share is: TBD\n\n{first}"
    new_body = (f"Hi all,\n\nThanks for a fun night at Osteria Lupa! The total charged was $156.00 including a $24.00 "
                f"tip, so your share is $39.00 each.\n\n{first}")
    text = "Thanks Jessica, got your $39.00 for the Osteria Lupa dinner!"
    friends = [(20, "Alexander", "Riddle", "alexander-ridd@gmail.com"), (22, "Jessica", "Miller", "jes.mill@gmail.com"),
               (66, "Marcus", "Smith", "ma_smith@gmail.com")]
    draft_stamp = "2026-04-16T21:10:00"
    draft = {"id": 700, "user_id": uid, "recipient_ids": [f[0] for f in friends],
             "recipient_email_addresses": [f[3] for f in friends],
             "recipient_names": [f"{f[1]} {f[2]}" for f in friends],
             "subject": "Dinner at Osteria Lupa - your share", "body": seed_body, "belongs_to_email_thread_id": None,
             "response_to_email_id": None, "scheduled_send_at": None, "created_at": draft_stamp,
             "updated_at": draft_stamp}
    images = [
        ("receipt_osteria", lambda: receipt(
            ["Osteria Lupa", "1120 Pike St, Seattle WA"], ["04/15/2026  08:47 PM", "Table 12 - 4 guests"],
            [("Burrata", "16.00"), ("Margherita pizza", "18.00"), ("Tagliatelle al ragu", "24.00"),
             ("Grilled branzino", "32.00"), ("2 x Tiramisu @ 9.00", "18.00"), ("3 x Sparkling water @ 4.00", "12.00")],
            [("Subtotal", "120.00"), ("Tax 10%", "12.00"), ("TOTAL", "$132.00")], ["Grazie! Tip not included."])),
        ("card_slip", lambda: receipt(
            ["Osteria Lupa", "Customer copy"], ["04/15/2026  09:31 PM", "VISA ****1234  APPROVED"],
            [("Amount", "132.00"), ("Tip", "24.00")], [("TOTAL CHARGED", "$156.00")],
            ["Signature on file: B. Webster"])),
        ("payment_notice", lambda: phone_screen("Venmo", (0, 140, 255), "Notifications", [
            ("Jessica Miller paid you", "Osteria Lupa dinner - just now", "$39.00"),
            ("Your weekly summary", "3 payments received this week", "")])),
    ]
    rounds = [
        Round([1],
              "Dinner last night with Jessica, Alexander and Marcus - here's the receipt. We're splitting everything "
              "evenly four ways, tip included; the tip is on the card slip I'll send next. For now, what's the total "
              "before the tip?",
              "Send the receipt and ask only for the total before tip. Do not give any amount yourself. Once the "
              "assistant answers, move on to the next round.",
              [],
              "The receipt total before tip is $132.00 ($120.00 of food and drinks plus $12.00 tax)."),
        Round([2],
              "Here's the card slip. Work out each person's share of the total charged and update my draft 'Dinner "
              "at Osteria Lupa - your share' so it states the amount per person instead of TBD.",
              "Send the card slip and ask the assistant to compute the per-person share of the total charged (four "
              "people) and to update the existing draft instead of writing a new one. Do not give the amounts "
              "yourself. Once it confirms, move on.",
              [step("gmail_show_drafts", "drafts", query="Dinner at Osteria Lupa"),
               step("gmail_update_draft", draft_id="$drafts.0.draft_id", body=new_body)],
              "The slip shows $156.00 charged ($132.00 + $24.00 tip), so each of the four shares is $39.00. The "
              "draft now says so."),
        Round([3],
              "Jessica already paid me back. Take her off the draft's recipients, and text her a thank-you confirming "
              "the amount.",
              "Send the payment screenshot and ask the assistant to remove Jessica from the draft's recipients (keep "
              "Alexander and Marcus) and text her a thank-you with the amount she paid. End the conversation once "
              "both are done.",
              [step("gmail_update_draft", draft_id="$drafts.0.draft_id",
                    email_addresses=[friends[0][3], friends[2][3]]),
               step("contacts_search_contacts", "jessica", query="Jessica Miller"),
               step("messages_send_text_message", phone_number="$jessica.0.phone_number", message=text)],
              "Jessica is off the draft (Alexander and Marcus remain) and I texted her thanks for the $39.00."),
    ]
    specs = [update("gmail.drafts", 700, {"updated_at": draft_stamp, "body": new_body, "recipient_ids": [20, 66]},
                    {"updated_at": IGNORE, "body": ROUGE_L, "recipient_ids": EXACT}),
             *create_text(uid, 22, text)]
    criteria = ("The existing draft 'Dinner at Osteria Lupa - your share' must state that the total charged was "
                "$156.00 including the $24.00 tip and that each share is $39.00, and its recipients must be only "
                "Alexander Riddle and Marcus Smith (Jessica Miller removed after paying). A text to Jessica Miller "
                "must thank her for the $39.00.")
    return Definition(12, BRENDA, "Brenda paid for a group dinner and settles up with her friends: she works out "
                      "the per-person share from the receipt and the card slip and keeps her draft request up to "
                      "date as payments come in.", "compute", "progressive", "state_mutation", False,
                      "synthetic_document", images, rounds, specs, criteria,
                      appworld={"gmail.drafts": [draft], "gmail.users": []})
