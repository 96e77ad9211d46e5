"""UI scenario 2, converting starter scenario 2: the two Ronalds in a templated list; the user chooses Ronald
Harrison, the agent texts him."""

from __future__ import annotations

from mmtsb.authoring.model import step
from mmtsb.authoring.nominal import s002
from mmtsb.authoring.ui.model import UIRound, UIVariant
from mmtsb.authoring.ui.screens import contact_list, quick_start, render, show


def variant() -> UIVariant:
    """The variant behind mmtsb_ui_002."""
    base = s002.definition()
    r3 = base.rounds[2]
    message = r3.steps[1]["arguments"]["message"]
    people = {"r1": {"name": "Ronald Harrison", "detail": "(491) 753-5233 - spouse", "phone": "4917535233"},
              "r2": {"name": "Ronald Baker", "detail": "(206) 555-0164 - neighbor", "phone": "(206) 555-0164"}}
    ui = UIRound(
        3, r3.query,
        "Ask the assistant to text Ronald the free events with their days and times. You have two contacts named "
        "Ronald. The assistant should find both and present them; when it does, select Ronald Harrison, your "
        "husband, via `ui_user_interact`. If no interactive UI is shown, tell it you mean your husband, Ronald "
        "Harrison (not Ronald Baker, your neighbor). End the conversation once the text is sent to your husband.",
        "Round 3: The agent must present the matching Ronald contacts in a structured interactive UI that lets the "
        "user select which Ronald to text.",
        [step("contacts_search_contacts", "ronalds", query="Ronald"), quick_start(),
         render(contact_list("choose-ronald", "Text which Ronald?", people, "choose_recipient", ("name", "phone"))),
         show()],
        "I found two Ronalds in your contacts; choose the one to text on the screen.",
        [step("messages_send_text_message", phone_number="$picked.context.phone", message=message)],
        "I texted Ronald Harrison the two free events with their days and times.",
        {"name": "choose_recipient", "context": {"name": "Ronald Harrison", "phone": "4917535233"}},
        "Ronald Harrison", "Picked him on the screen, my husband Ronald.",
        "I mean my husband, Ronald Harrison, not Ronald Baker.")
    return UIVariant(2, s002.definition, "(UI mode: the recipient is chosen on a screen.)", [ui])
