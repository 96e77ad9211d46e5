"""Business cards: name, title, company, phone, email (domains: contacts, messages, email)."""

from __future__ import annotations

import random

from mmtsb.authoring.images import card
from pipelines.procedural.families.base import Content, ImageFamily, style_rng, tint

__all__ = ["CARDS"]

_FIRST = ["Priya", "Tomas", "Hannah", "Liam", "Grace", "Nadia", "Omar", "Elena", "Felix", "Ingrid", "Kenji",
          "Leila", "Mateo", "Noor", "Quentin", "Rosa"]
_LAST = ["Raman", "Reyes", "Cole", "O'Connor", "Kim", "Flores", "Haddad", "Petrova", "Lindqvist", "Okafor", "Sato",
         "Moreau", "Castillo", "Brandt", "Varga", "Delgado"]
_TITLES = ["Head of Partnerships", "Data Science Lead", "Sales Director", "Chief Technology Officer",
           "Procurement Manager", "Marketing Manager", "Product Designer", "Operations Lead"]
_COMPANIES = [("Brightline Robotics", "brightlinerobotics.com"), ("Tidewater Analytics", "tidewateranalytics.io"),
              ("Granite Peak Outfitters", "granitepeak.com"), ("Summit Solar", "summitsolar.energy"),
              ("Orchard Health", "orchardhealth.org"), ("Copperleaf Studios", "copperleafstudios.com"),
              ("Bluewave Logistics", "bluewavelogistics.com"), ("Fernhill Foods", "fernhillfoods.com")]
_AREAS = ["206", "425", "503", "360", "541", "208"]


def sample(rng: random.Random) -> Content:
    """A person with a company email and a 555 phone number."""
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    company, domain = rng.choice(_COMPANIES)
    handle = f"{first}.{last}".lower().replace("'", "")
    return {"first": first, "last": last, "title": rng.choice(_TITLES), "company": company,
            "email": f"{handle}@{domain}", "phone": f"({rng.choice(_AREAS)}) 555-{rng.randint(100, 199):04d}"}


def draw(c: Content, style_seed: int) -> bytes:
    """The card in the authoring kit's layout, the accent colour and the width from the style seed."""
    st = style_rng(style_seed, "card")
    return card(f"{c['first']} {c['last']}", c["title"], c["company"], c["email"], c["phone"], tint(st, 20, 180),
                width=st.randint(640, 720), height=400)


def values(c: Content) -> list[str]:
    return [f"{c['first']} {c['last']}", c["last"], c["title"], c["company"], c["email"], c["phone"]]


def facts(c: Content) -> list[str]:
    return [f"name: {c['first']} {c['last']}", f"title: {c['title']}", f"company: {c['company']}",
            f"email: {c['email']}", f"phone: {c['phone']}"]


CARDS = ImageFamily("business_card", "document", "synthetic_card", ("contacts", "messages", "gmail"), True, "card",
                    sample, draw, values, facts, kind="person")
