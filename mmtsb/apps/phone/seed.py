"""Base phone state: every base person as a phone user, the main user's contact book, and two alarms.

The contact book holds the base people that released scenarios refer to by id without defining them
(STATS.md §7: e.g. 20 Alexander Riddle, 12 Ronald Harrison, 13 Christina Harrison), so that a task such as
"text Alexander Riddle" can be resolved from the contacts. Contact ids stay below 200 (files insert theirs
from 200 on).
"""

from __future__ import annotations

import hashlib
from random import Random

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import BaseContext
from mmtsb.apps.phone.schema import ALARMS, CONTACTS
from mmtsb.world.people import Person
from mmtsb.world.world import World

#: base people that released files reference (and the known main users), in contact-book order
CONTACT_PERSON_IDS = (1, 8, 9, 12, 13, 20, 22, 50, 55, 66, 70, 78, 90, 93, 95, 96, 98, 105)
#: the Harrisons are married (0279: 12 is the spouse of 13)
SPOUSES = {12: 13, 13: 12}
_RELATIONS = ("friend", "coworker", "neighbor", "friend", "coworker", "classmate", "sibling", "cousin")
_WORK_STREETS = ("Market St", "Commerce Way", "Innovation Dr", "Main St", "Harbor Blvd", "Tech Park Ave")


def _rng(key: str) -> Random:
    return Random(int(hashlib.sha256(key.encode()).hexdigest()[:16], 16))


def _relationships(owner: Person, other: Person) -> list[str]:
    if SPOUSES.get(owner.id) == other.id:
        return ["spouse"]
    if other.id == 13:
        return ["coworker", "manager"]  # 0947 refers to Christina Harrison as a manager
    return [_rng(f"relation:{owner.id}:{other.id}").choice(_RELATIONS)]


def contact_row(owner: Person, other: Person, contact_id: int) -> dict:
    rng = _rng(f"contact:{owner.id}:{other.id}")
    work = f"{rng.randint(100, 999)} {rng.choice(_WORK_STREETS)}, {other.city}, {other.state} {other.zip_code}"
    return {"id": contact_id, "user_id": owner.id, "first_name": other.first_name, "last_name": other.last_name,
            "email": other.email, "phone_number": other.phone_number,
            "relationships": _relationships(owner, other), "birthday": other.birthday,
            "home_address": other.address_text, "work_address": work if rng.random() < 0.5 else None,
            "created_at": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(8, 20):02d}:00:00"}


def seed(world: World, base: BaseContext) -> None:
    seed_users(world, "phone", base.people)
    owner = base.main_user
    people = {p.id: p for p in base.people}
    others = [people[i] for i in CONTACT_PERSON_IDS if i in people and i != owner.id]
    for contact_id, other in enumerate(others, start=1):
        world.insert(CONTACTS, contact_row(owner, other, contact_id))
    for alarm_id, (time, days, label, enabled) in enumerate((
            ("07:00", ["monday", "tuesday", "wednesday", "thursday", "friday"], "Wake up", True),
            ("09:30", ["saturday", "sunday"], "Weekend run", False)), start=1):
        world.insert(ALARMS, {"id": alarm_id, "user_id": owner.id, "time": time, "repeat_days": days, "label": label,
                              "enabled": enabled, "snooze_minutes": 10, "vibration": True,
                              "created_at": "2025-01-15T08:00:00"})
