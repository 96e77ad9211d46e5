"""Building blocks the recipes share: entities made from an image's content, the details a user may misstate,
and the recipient rows a flow that writes to the people on business cards needs."""

from __future__ import annotations

import random
from typing import Any

from mmtsb.authoring.rows import gmail_user, phone_user
from pipelines.procedural.families.base import clock_time, money, short_date
from pipelines.procedural.templates.base import Content, Item, Misstatement, ordinal, pick_money_error
from pipelines.procedural.templates.entities import Entity

__all__ = ["card_rows", "contact_of", "email_of", "event_of", "event_line", "full_name", "misstate_email",
           "misstate_start", "misstate_total", "note", "receipt_line", "start_of", "text_of"]


def note(key: str, title: str, content: str) -> Entity:
    return Entity(key, "note", {"title": title, "content": content}, f"the note '{title}'")


def start_of(c: Content) -> str:
    return f"{c['date']}T{c['start']}:00"


def event_of(key: str, c: Content, label: str) -> Entity:
    """The calendar event an event poster describes."""
    return Entity(key, "event", {"title": c["title"], "start": start_of(c), "end": f"{c['date']}T{c['end']}:00"},
                  label)


def event_line(c: Content) -> str:
    return f"{c['title']} - {short_date(c['date'])}, {clock_time(c['start'])}-{clock_time(c['end'])}, {c['venue']}"


def receipt_line(c: Content, amount: str = "total") -> str:
    return f"{c['vendor']}: {money(c[amount])}"


def full_name(c: Content) -> str:
    return f"{c['first']} {c['last']}"


def contact_of(key: str, k: int, c: Content) -> Entity:
    return Entity(key, "contact", {"first": c["first"], "last": c["last"], "email": c["email"], "phone": c["phone"]},
                  f"the contact for the person on the {ordinal(k)} card",
                  (("contacts_search_contacts", {"query": full_name(c)}, f"lookup_{k}"),))


def email_of(key: str, k: int, c: Content, subject: str, body: str) -> Entity:
    """An email to the person on card ``k`` (an email-only recipient row 10100 + k - 1, see :func:`card_rows`)."""
    return Entity(key, "email", {"addresses": [c["email"]], "recipient_ids": [10099 + k], "subject": subject,
                                 "body": body}, f"the email to the person on the {ordinal(k)} card")


def text_of(key: str, k: int, c: Content, message: str) -> Entity:
    """A text to the person on card ``k`` (a phone user row 200 + k - 1, see :func:`card_rows`)."""
    return Entity(key, "text", {"phone": c["phone"], "receiver_id": 199 + k, "message": message},
                  f"the text to the person on the {ordinal(k)} card")


def card_rows(items: list[Item]) -> dict[str, list[dict[str, Any]]]:
    """The email and phone accounts of the people on the cards, so they can be written to."""
    return {"gmail.users": [gmail_user(10099 + k, c["first"], c["last"], c["email"], contact=False) for k, c in items],
            "phone.users": [phone_user(199 + k, c["first"], c["last"], c["phone"]) for k, c in items]}


def _avoid(items: list[Item], family: Any) -> list[str]:
    return [v for _, c in items for v in family.values(c)]


def misstate_total(items: list[Item], k: int, rng: random.Random, family: Any) -> Misstatement:
    """The user misremembers receipt ``k``'s total."""
    c = items[k - 1][1]
    return Misstatement(k, "total", pick_money_error(rng, c["total"], _avoid(items, family)), money(c["total"]))


def misstate_start(items: list[Item], k: int, rng: random.Random, family: Any) -> Misstatement:
    """The user misremembers event ``k``'s start time (an hour or two off)."""
    c = items[k - 1][1]
    h, mm = map(int, c["start"].split(":"))
    avoid = _avoid(items, family)
    for shift in rng.sample([-2, -1, 1, 2], 4):
        wrong = clock_time(f"{(h + shift) % 24:02d}:{mm:02d}")
        if wrong not in avoid:
            return Misstatement(k, "start time", wrong, clock_time(c["start"]))
    return Misstatement(k, "start time", clock_time(f"{(h + 5) % 24:02d}:{(mm + 15) % 60:02d}"), clock_time(c["start"]))


def misstate_email(items: list[Item], k: int, rng: random.Random, family: Any) -> Misstatement:
    """The user misremembers the email address on card ``k`` (another domain)."""
    c = items[k - 1][1]
    local = c["email"].split("@")[0]
    wrong = f"{local}@{rng.choice(['gmail.example', 'mailbox.example', 'corpmail.example'])}"
    return Misstatement(k, "email address", wrong, c["email"])

