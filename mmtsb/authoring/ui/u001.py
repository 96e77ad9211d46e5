"""UI scenario 1, converting starter scenario 1: the two Glens as cards; the user taps Glen Moore, the agent emails
him."""

from __future__ import annotations

from mmtsb.authoring.model import step
from mmtsb.authoring.nominal import s001
from mmtsb.authoring.ui.model import UIRound, UIVariant
from mmtsb.authoring.ui.screens import contact_cards, quick_start, render, show


def variant() -> UIVariant:
    """The variant behind mmtsb_ui_001."""
    base = s001.definition()
    r2 = base.rounds[1]
    email = r2.steps[1]["arguments"]
    people = [{"name": "Glen Moore", "detail": "gl.moore@gmail.com - coworker", "email": "gl.moore@gmail.com"},
              {"name": "Glen Peterson", "detail": "glen.peterson@petersoncpa.com - accountant",
               "email": "glen.peterson@petersoncpa.com"}]
    ui = UIRound(
        2, r2.query,
        "Ask the assistant to email Glen the grand total and the per-vendor amounts. You have two contacts named "
        "Glen. The assistant should find both and present them; when it does, select Glen Moore via "
        "`ui_user_interact`. If no interactive UI is shown, tell the assistant you mean Glen Moore, your coworker "
        "(not Glen Peterson, your accountant). If the total it states differs from the one in the note, point it "
        "back to the receipts. End the conversation once the email is sent.",
        "Round 2: The agent must present the matching Glen contacts in a structured interactive UI that lets the "
        "user select which Glen to email.",
        [step("contacts_search_contacts", "glens", query="Glen"), quick_start(),
         render(contact_cards("choose-glen", "Which Glen should get the summary?", people, "choose_contact",
                              "Email", ("name", "email"))), show()],
        "You have two contacts named Glen; pick the one who should get the summary on the screen.",
        [step("gmail_send_email", email_addresses=["$picked.context.email"], subject=email["subject"],
              body=email["body"])],
        r2.reply,
        {"name": "choose_contact", "context": {"name": "Glen Moore", "email": "gl.moore@gmail.com"}},
        "Glen Moore", "Done, I picked Glen Moore on the screen.",
        "I mean Glen Moore, my coworker, not Glen Peterson.")
    return UIVariant(1, s001.definition, "(UI mode: the recipient is chosen on a screen.)", [ui])
