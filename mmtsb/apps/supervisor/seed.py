"""Seed the supervisor tables from the main user (a deterministic base :class:`Person`)."""

from __future__ import annotations

import hashlib
from random import Random

from mmtsb.apps import account_apps
from mmtsb.apps.base import BaseContext
from mmtsb.world.world import World

_WORK_STREETS = ("Market St", "Commerce Way", "Innovation Dr", "Main St", "Harbor Blvd", "Tech Park Ave")


def _rng(key: str) -> Random:
    return Random(int(hashlib.sha256(key.encode()).hexdigest()[:16], 16))


def seed(world: World, base: BaseContext) -> None:
    """Profile, a home and a work address, one payment card and one password per app with accounts."""
    me = base.main_user
    world.insert("supervisor.profile", {"id": 1, "first_name": me.first_name, "last_name": me.last_name,
                                        "email": me.email, "phone_number": me.phone_number,
                                        "birthday": me.birthday, "sex": me.sex})
    rng = _rng(f"supervisor:{me.id}")
    world.insert("supervisor.addresses", {"id": 1, "name": "Home", "street_address": me.street_address,
                                          "city": me.city, "state": me.state, "country": "United States",
                                          "zip_code": me.zip_code})
    world.insert("supervisor.addresses", {"id": 2, "name": "Work",
                                          "street_address": f"{rng.randint(100, 999)} {rng.choice(_WORK_STREETS)}",
                                          "city": me.city, "state": me.state, "country": "United States",
                                          "zip_code": me.zip_code})
    world.insert("supervisor.payment_cards", {"id": 1, "owner_name": me.full_name, "card_name": "Visa",
                                              "card_number": me.card_number, "expiry_year": me.card_expiry_year,
                                              "expiry_month": me.card_expiry_month, "cvv_number": me.card_cvv})
    for i, app in enumerate(account_apps(), start=1):
        world.insert("supervisor.account_passwords", {"id": i, "account_name": app, "password": me.password})
