"""UI scenario 12, converting starter scenario 12: two Jessicas in the contacts; the user taps Jessica Miller, the
agent texts her."""

from __future__ import annotations

from mmtsb.authoring.model import Definition, step
from mmtsb.authoring.nominal import s012
from mmtsb.authoring.rows import contact, gmail_user, phone_user
from mmtsb.authoring.ui.model import UIRound, UIVariant
from mmtsb.authoring.ui.screens import quick_start, render, show
from mmtsb.ui.examples import button, column, comp, lit, row, screen, text


def variant() -> UIVariant:
    """The variant behind mmtsb_ui_012."""
    base = s012.definition()
    r3 = base.rounds[2]
    draft_step, _, text_step = r3.steps
    alvarez = ("Jessica", "Alvarez", "jess.alvarez@fastmail.com", "(206) 555-0148")

    def add_jessica(d: Definition) -> None:
        uid = d.user.id
        first, last, mail, phone = alvarez
        d.appworld = {**d.appworld,
                      "phone.contacts": [contact(200, uid, first, last, mail, phone, ["neighbor"])],
                      "gmail.users": [gmail_user(200, first, last, mail)],
                      "phone.users": [phone_user(200, first, last, phone)]}

    people = [{"name": "Jessica Miller", "detail": "(372) 427-4954 - coworker", "phone": "3724274954"},
              {"name": "Jessica Alvarez", "detail": "(206) 555-0148 - neighbor", "phone": alvarez[3]}]
    components = [column("root", "heading", *(f"p{i}" for i in range(len(people))))]
    components.append(text("heading", "Send the thank-you to", hint="h3"))
    for i, p in enumerate(people):
        components += [
            comp(f"p{i}", "Card", child=f"pr{i}"),
            row(f"pr{i}", f"pi{i}", f"pb{i}", distribution="spaceBetween"),
            column(f"pi{i}", f"pn{i}", f"pd{i}"),
            text(f"pn{i}", p["name"], hint="h4"),
            text(f"pd{i}", p["detail"], hint="caption"),
            text(f"pb{i}-label", f"Text {p['name']}"),
            button(f"pb{i}", f"pb{i}-label", "text_contact", context={"name": lit(p["name"]),
                                                                      "phone": lit(p["phone"])}),
        ]
    ui = UIRound(
        3, r3.query,
        "Send the payment screenshot and ask the assistant to remove Jessica from the draft's recipients (keep "
        "Alexander and Marcus) and text her a thank-you with the amount she paid. You have two contacts named "
        "Jessica. The assistant should find both and present them; when it does, select Jessica Miller via "
        "`ui_user_interact`. If no interactive UI is shown, tell it you mean Jessica Miller from the dinner. End "
        "the conversation once both are done.",
        "Round 3: The agent must present the matching Jessica contacts in a structured interactive UI that lets the "
        "user select which Jessica to text.",
        [draft_step, step("contacts_search_contacts", "jessicas", query="Jessica"), quick_start(),
         render(screen("choose-jessica", components)), show()],
        "Jessica is off the draft (Alexander and Marcus remain). You have two contacts named Jessica; pick the one "
        "to thank on the screen.",
        [step("messages_send_text_message", phone_number="$picked.context.phone",
              message=text_step["arguments"]["message"])],
        "I texted Jessica Miller thanks for the $39.00.",
        {"name": "text_contact", "context": {"name": "Jessica Miller", "phone": "3724274954"}},
        "Jessica Miller", "That one, Jessica Miller. Picked her on the screen.",
        "I mean Jessica Miller, who was at the dinner.")
    return UIVariant(12, s012.definition, "(UI mode: the recipient is chosen on a screen.)", [ui], edit=add_jessica)
