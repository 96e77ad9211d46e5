"""Deterministic base people: the AppWorld-style users with ids 1..110 that scenario files refer to.

Files never define the main user (``device_state_id`` is its email) nor the other base users they
reference by id, so the base world builds stand-ins. Ids whose identity the released files reveal are
fixed (see STATS.md "Users and ids"); the rest come from a seeded generator, identical in every run.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from random import Random

BASE_USER_IDS = range(1, 111)

#: identities the released files reveal (email -> id, and names used in their texts)
KNOWN_PEOPLE: dict[int, tuple[str, str, str]] = {
    8: ("Thomas", "Solomon", "thomas.solomon@gmail.com"),
    12: ("Ronald", "Harrison", "ron.harrison@gmail.com"),
    13: ("Christina", "Harrison", "chrharrison@gmail.com"),
    20: ("Alexander", "Riddle", "alexander-ridd@gmail.com"),
    22: ("Jessica", "Miller", "jes.mill@gmail.com"),
    50: ("Brenda", "Webster", "brenda.webe@gmail.com"),
    55: ("Glen", "Moore", "gl.moore@gmail.com"),
    66: ("Marcus", "Smith", "ma_smith@gmail.com"),
    98: ("Sarah", "Ritter", "saritt@gmail.com"),
    105: ("Simone", "Whitaker", "siwhit@gmail.com"),
}

_FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
          "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Karen", "Charles", "Nancy",
          "Christopher", "Lisa", "Daniel", "Betty", "Matthew", "Sandra", "Anthony", "Ashley", "Mark", "Kimberly",
          "Donald", "Emily", "Steven", "Donna", "Andrew", "Michelle", "Paul", "Carol", "Joshua", "Amanda",
          "Kenneth", "Melissa", "Kevin", "Deborah", "Brian", "Stephanie", "George", "Rebecca", "Timothy", "Laura",
          "Ronald", "Helen", "Jason", "Sharon", "Edward", "Cynthia", "Jeffrey", "Kathleen", "Ryan", "Amy",
          "Jacob", "Angela", "Gary", "Shirley", "Nicholas", "Anna", "Eric", "Brenda", "Jonathan", "Pamela"]
_LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
         "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
         "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
         "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
         "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Powell",
         "Maldonado", "Burton", "Ritter", "McCoy", "Brown", "Whitaker", "Solomon", "Riddle", "Webster"]
_STREETS = ["Maple Ave", "Oak St", "Pine Rd", "Cedar Ln", "Elm St", "Lakeview Dr", "Sunset Blvd", "Hillcrest Rd",
            "Carpenter Loop", "Riverside Dr", "Park Pl", "Washington St"]
_CITIES = [("Seattle", "Washington"), ("Portland", "Oregon"), ("San Jose", "California"), ("Austin", "Texas"),
           ("Denver", "Colorado"), ("Boston", "Massachusetts"), ("Chicago", "Illinois"), ("Phoenix", "Arizona")]


@dataclass(frozen=True)
class Person:
    """A base user as every app knows them (the same id in each app's users table)."""

    id: int
    first_name: str
    last_name: str
    email: str
    phone_number: str
    password: str
    birthday: str
    sex: str
    street_address: str
    city: str
    state: str
    zip_code: str
    card_number: str
    card_expiry_year: int
    card_expiry_month: int
    card_cvv: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def address_text(self) -> str:
        return f"{self.street_address}, {self.city}, {self.state} {self.zip_code}"


def _rng_for(key: str) -> Random:
    return Random(int(hashlib.sha256(key.encode()).hexdigest()[:16], 16))


def make_person(user_id: int, first: str | None = None, last: str | None = None, email: str | None = None) -> Person:
    """A deterministic person for an id (names and email may be fixed by the caller)."""
    rng = _rng_for(f"person:{user_id}")
    first = first or rng.choice(_FIRST)
    last = last or rng.choice(_LAST)
    email = email or f"{first.lower()}.{last.lower()}{user_id}@gmail.com"
    city, state = rng.choice(_CITIES)
    return Person(
        id=user_id, first_name=first, last_name=last, email=email,
        phone_number=f"{rng.randint(201, 989)}{rng.randint(200, 999)}{rng.randint(1000, 9999)}",
        password=f"{first.lower()}-{rng.randint(1000, 9999)}-pw",
        birthday=f"{rng.randint(1960, 2002)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        sex=rng.choice(["female", "male"]),
        street_address=f"{rng.randint(10, 9999)} {rng.choice(_STREETS)}", city=city, state=state,
        zip_code=f"{rng.randint(10000, 99999)}",
        card_number=f"4{rng.randint(10**14, 10**15 - 1)}", card_expiry_year=2027 + rng.randint(0, 4),
        card_expiry_month=rng.randint(1, 12), card_cvv=f"{rng.randint(100, 999)}",
    )


def name_from_email(email: str) -> tuple[str, str]:
    """Guess a first/last name from an email's local part (``brenda.webe`` -> Brenda Webe)."""
    local = email.split("@", 1)[0]
    parts = [p for p in re.split(r"[._\-+0-9]+", local) if p]
    if len(parts) >= 2:
        return parts[0].capitalize(), parts[1].capitalize()
    if parts:
        return parts[0].capitalize(), "User"
    return "Main", "User"


def id_for_email(email: str) -> int | None:
    """The base id of a known email, if the released files reveal it."""
    for uid, (_, _, known) in KNOWN_PEOPLE.items():
        if known.lower() == email.lower():
            return uid
    return None


def base_people(main_email: str, main_user_id: int) -> tuple[Person, ...]:
    """People 1..110 with the main user (``main_email``) at ``main_user_id``."""
    people = []
    for uid in BASE_USER_IDS:
        if uid in KNOWN_PEOPLE:
            first, last, email = KNOWN_PEOPLE[uid]
            p = make_person(uid, first, last, email)
        else:
            p = make_person(uid)
        if uid == main_user_id and p.email.lower() != main_email.lower():
            first, last = name_from_email(main_email)
            p = replace(p, first_name=first, last_name=last, email=main_email)
        people.append(p)
    if main_user_id not in BASE_USER_IDS:
        first, last = name_from_email(main_email)
        people.append(make_person(main_user_id, first, last, main_email))
    return tuple(people)


def fallback_main_user_id(email: str) -> int:
    """A stable id in 1..110 for an unknown main user that no file row reveals."""
    return 1 + int(hashlib.sha256(email.lower().encode()).hexdigest(), 16) % 110
