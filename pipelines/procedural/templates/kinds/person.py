"""Recipes over people (business cards, badges, letters, profile screens): a list of them, adding and writing
to them, syncing them with the address book, and keeping only those with a local number."""

from __future__ import annotations

from mmtsb.authoring.rows import gmail_user, phone_user
from pipelines.procedural.templates.base import Content, Goal, Item, Material, Plan, Recipe
from pipelines.procedural.templates.entities import Entity, Seed
from pipelines.procedural.templates.kinds.common import DOC, doc_goal, misstate, nth

__all__ = ["RECIPES"]


def name(c: Content) -> str:
    return f"{c['first']} {c['last']}"


def contact_of(m: Material, key: str, k: int, c: Content) -> Entity:
    return Entity(key, "contact", {"first": c["first"], "last": c["last"], "email": c["email"], "phone": c["phone"]},
                  f"the contact for the person on {nth(m, k)}",
                  (("contacts_search_contacts", {"query": name(c)}, f"lookup_{k}"),))


def email_of(m: Material, key: str, k: int, c: Content, subject: str, body: str) -> Entity:
    """An email to the person on image ``k`` (an email-only recipient row 10100 + k - 1, see :func:`rows`)."""
    return Entity(key, "email", {"addresses": [c["email"]], "recipient_ids": [10099 + k], "subject": subject,
                                 "body": body}, f"the email to the person on {nth(m, k)}")


def text_of(m: Material, key: str, k: int, c: Content, message: str) -> Entity:
    """A text to the person on image ``k`` (a phone user row 200 + k - 1, see :func:`rows`)."""
    return Entity(key, "text", {"phone": c["phone"], "receiver_id": 199 + k, "message": message},
                  f"the text to the person on {nth(m, k)}")


def rows(items: list[Item]) -> dict[str, list[dict]]:
    """The email and phone accounts of the people on the images, so they can be written to."""
    return {"gmail.users": [gmail_user(10099 + k, c["first"], c["last"], c["email"], contact=False) for k, c in items],
            "phone.users": [phone_user(199 + k, c["first"], c["last"], c["phone"]) for k, c in items]}


def wrong_email(m: Material, k: int):
    c = m.items[k - 1][1]
    local = c["email"].split("@")[0]
    cands = [f"{local}@{d}" for d in m.rng.sample(["gmail.example", "mailbox.example", "corpmail.example"], 3)]
    return misstate(m, k, "email address", c["email"], cands)


def _distinct(cs: list[Content]) -> bool:
    return (len({(c["first"], c["last"]) for c in cs}) == len(cs) and len({c["email"] for c in cs}) == len(cs)
            and len({c["phone"] for c in cs}) == len(cs))


def _aggregate(m: Material) -> Plan:
    title = m.rng.choice(["People I met at the expo", "Conference contacts", "New business contacts"])

    def body(items: list[Item]) -> str:
        return "\n".join(f"{name(c)} - {c['title']}, {c['company']}, {c['email']}" for _, c in items)

    goal = doc_goal(m, "people_doc", title, "one line per person: name, job title, company and email, as 'Name - "
                    "Title, Company, email'", body,
                    lambda items: "People I met: " + "; ".join(f"{name(c)} ({c['company']})" for _, c in items))
    pivot = Goal("add each of these people to my contacts instead, with their email and phone number",
                 lambda items, final: [contact_of(m, f"contact_{k}", k, c) for k, c in items],
                 lambda items: "Contacts must exist for: " + "; ".join(
                     f"{name(c)} ({c['email']}, {c['phone']})" for _, c in items) + ".")
    return Plan(title, f"{m.user.first} lists the people from an event.", goal, pivot, rows=rows(m.items),
                misstatement=wrong_email(m, m.rng.randint(1, len(m.items))))


def _chain(m: Material) -> Plan:
    subject = m.rng.choice(["Great meeting you", "Nice to meet you", "Following up"])

    def body(c: dict) -> str:
        return (f"Hi {c['first']},\n\nIt was great meeting you. I've added you to my contacts; let's stay in touch."
                f"\n\nBest,\n{m.user.first}")

    def text(c: dict) -> str:
        return f"Hi {c['first']}, it's {m.user.first} - great meeting you! I've saved your number."

    def chain(items: list[Item], final: bool):
        out = []
        for k, c in items:
            out.append(contact_of(m, f"contact_{k}", k, c))
            out.append(text_of(m, f"text_{k}", k, c, text(c)) if m.sink == "text"
                       else email_of(m, f"mail_{k}", k, c, subject, body(c)))
        return out

    if m.sink == "text":
        ask = ("check whether each person is in my contacts, add them with their email and phone number, then text "
               f"each of them: 'Hi <first name>, it's {m.user.first} - great meeting you! I've saved your number.'")
    else:
        ask = ("check whether each person is in my contacts, add them with their email and phone number, then email "
               f"each of them with the subject '{subject}' saying it was great meeting them and that they are now in "
               "my contacts")
    goal = Goal(ask, chain, lambda items: "Contacts must be added for " + "; ".join(
        f"{name(c)} ({c['email']}, {c['phone']})" for _, c in items) + ", and each must get the follow-up message.")
    pivot = Goal("not keep them in my contacts after all: just note their names and companies, one per line as "
                 "'Name - Company', in a note titled 'People to follow up'",
                 lambda items, final: [Entity("follow_doc", "note", {"title": "People to follow up", "content": "\n".join(
                     f"{name(c)} - {c['company']}" for _, c in items)}, "the note 'People to follow up'")],
                 lambda items: "A note 'People to follow up' must list: " + "; ".join(
                     f"{name(c)} - {c['company']}" for _, c in items) + "; no contact may remain.")
    return Plan(subject, f"{m.user.first} follows up on the people met at an event.", goal, pivot,
                rows=rows(m.items), misstatement=wrong_email(m, m.rng.randint(1, len(m.items))))


def _cross(m: Material) -> Plan:
    ks = [k for k, _ in m.items]
    matched = set(m.rng.sample(ks, m.rng.randint(1, len(ks) - 1)))
    seeds = tuple(Seed("contact", {"first": c["first"], "last": c["last"], "phone": f"(555) 010-{k:04d}",
                                   "email": f"{c['first']}.{c['last']}@oldjob.example".lower().replace("'", "")},
                       250 + k, f"contact_{k}", name(c)) for k, c in m.items if k in matched)
    later = "People to add later"

    def sync(items: list[Item], final: bool):
        return [contact_of(m, f"contact_{k}", k, c) for k, c in items]

    def note_only(items: list[Item], final: bool):
        out = [contact_of(m, f"contact_{k}", k, c) for k, c in items if k in matched]
        rest = [f"{name(c)} - {c['company']}" for k, c in items if k not in matched]
        return out + ([Entity("later_note", "note", {"title": later, "content": "\n".join(rest)},
                              f"the note '{later}'")] if rest else [])

    goal = Goal("check each person against my contacts: if they are already there, update their email and phone "
                "number from the image; if not, add them", sync,
                lambda items: "Contacts must hold the details for " + "; ".join(
                    f"{name(c)} ({c['email']}, {c['phone']})" for _, c in items) + " (existing ones updated).")
    pivot = Goal(f"only update the people who are already in my contacts, and list everyone else in a note titled "
                 f"'{later}' (one 'Name - Company' line each) instead of adding them", note_only,
                 lambda items: "Existing contacts must be updated and a note titled "
                 f"'{later}' must list: " + "; ".join(f"{name(c)} - {c['company']}" for k, c in items
                                                       if k not in matched) + ".")
    return Plan("Contacts vs cards", f"{m.user.first} syncs new details with the address book.", goal, pivot,
                seeds=seeds, rows=rows(m.items), misstatement=wrong_email(m, m.rng.randint(1, len(m.items))),
                preexisting=tuple(f"contact '{s.find_text}'" for s in seeds))


def area(c: Content) -> str:
    return c["phone"][1:4]


def _filter(m: Material) -> Plan:
    codes = sorted({area(c) for _, c in m.items})
    code = m.rng.choice(codes)

    def chosen(items: list[Item], inside: bool) -> list[Item]:
        return [(k, c) for k, c in items if (area(c) == code) == inside]

    goal = Goal(f"add to my contacts, with email and phone number, only the people whose phone number has the "
                f"{code} area code", lambda items, final: [contact_of(m, f"contact_{k}", k, c)
                                                           for k, c in chosen(items, True)],
                lambda items: "Contacts must be added for exactly: " + "; ".join(
                    f"{name(c)} ({c['phone']})" for _, c in chosen(items, True)) + ".")
    pivot = Goal(f"add only the people with any other area code than {code} instead",
                 lambda items, final: [contact_of(m, f"other_{k}", k, c) for k, c in chosen(items, False)],
                 lambda items: "Contacts must be added for exactly: " + "; ".join(
                     f"{name(c)} ({c['phone']})" for _, c in chosen(items, False)) + ".")
    k = m.rng.choice([k for k, _ in chosen(m.items, True)])
    return Plan("Local contacts", f"{m.user.first} keeps only local numbers.", goal, pivot, rows=rows(m.items),
                misstatement=wrong_email(m, k))


RECIPES = {
    "aggregate": Recipe(_aggregate, ("contacts_add_contact",), fits=_distinct, score=2, sinks=DOC),
    "lookup_chain": Recipe(_chain, ("contacts_search_contacts", "contacts_add_contact"), fits=_distinct,
                           sinks={"email": ("gmail_send_email",), "text": ("messages_send_text_message",)},
                           undoable=frozenset({"email", "text"})),
    "cross_reference": Recipe(_cross, ("contacts_search_contacts", "contacts_update_contact", "contacts_add_contact"),
                              fits=_distinct),
    "filter": Recipe(_filter, ("contacts_search_contacts", "contacts_add_contact"),
                     fits=lambda cs: _distinct(cs) and len({area(c) for c in cs}) >= 2),
}
