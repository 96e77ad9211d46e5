"""Lookup chain: one image starts a chain of dependent calls (a business card -> check the contacts -> add the
person -> write to them with the address just read)."""

from __future__ import annotations

from pipelines.procedural.templates.base import Goal, Item, Material, Plan, Recipe, RecipeTemplate
from pipelines.procedural.templates.kit import card_rows, contact_of, email_of, full_name, misstate_email, text_of

__all__ = ["TEMPLATE"]


def _cards(m: Material) -> Plan:
    subject = m.rng.choice(["Great meeting you", "Nice to meet you", "Following up"])

    def body(c: dict) -> str:
        return (f"Hi {c['first']},\n\nIt was great meeting you. I've added you to my contacts; let's stay in touch."
                f"\n\nBest,\n{m.user.first}")

    def text(c: dict) -> str:
        return f"Hi {c['first']}, it's {m.user.first} - thanks for your card, great meeting you!"

    def chain(items: list[Item], final: bool):
        out = []
        for k, c in items:
            out += [contact_of(f"contact_{k}", k, c), email_of(f"mail_{k}", k, c, subject, body(c))]
        return out

    goal = Goal(f"check whether each person on the cards is in my contacts, add them with their email and phone "
                f"number, then email each of them with the subject '{subject}' saying it was great meeting them and "
                "that they are now in my contacts", chain,
                lambda items: "Contacts must be added for " + "; ".join(
                    f"{full_name(c)} ({c['email']}, {c['phone']})" for _, c in items)
                + f", and each must get an email with the subject '{subject}'.")
    pivot = Goal("not keep them in my contacts after all: just text each person a short thank-you for the card",
                 lambda items, final: [text_of(f"text_{k}", k, c, text(c)) for k, c in items],
                 lambda items: "Each person must get a thank-you text: " + "; ".join(
                     f"{full_name(c)} at {c['phone']}" for _, c in items) + "; no contact may be added.")
    k = m.rng.randint(1, len(m.items))
    return Plan(subject, f"{m.user.first} follows up on the business cards from an event.", goal, pivot,
                rows=card_rows(m.items), misstatement=misstate_email(m.items, k, m.rng, m.family))


TEMPLATE = RecipeTemplate("lookup_chain", {
    "business_card": Recipe(_cards, ("contacts_search_contacts", "contacts_add_contact", "gmail_send_email",
                                     "messages_send_text_message"),
                            fits=lambda cs: len({c["email"] for c in cs}) == len(cs)),
})
