"""Amazon base rows: every base person as a user, the main user's home address and payment card, and the
carriers that pick up returns."""

from __future__ import annotations

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import BaseContext
from mmtsb.world.people import Person
from mmtsb.world.world import World

SEED_TIME = "2023-01-01T00:00:00"
DELIVERERS = ("UPS", "FedEx", "USPS", "DHL")


def card_row(person: Person, card_name: str = "Primary Visa") -> dict:
    """A payment-card row for a person (id = the person's id, so it is stable across scenarios)."""
    return {"id": person.id, "user_id": person.id, "card_name": card_name, "owner_name": person.full_name,
            "card_number": person.card_number, "expiry_year": person.card_expiry_year,
            "expiry_month": person.card_expiry_month, "cvv_number": person.card_cvv, "created_at": SEED_TIME}


def address_row(person: Person) -> dict:
    """The person's home address (id = the person's id)."""
    return {"id": person.id, "user_id": person.id, "name": "Home", "street_address": person.street_address,
            "city": person.city, "state": person.state, "country": "United States", "zip_code": person.zip_code}


def seed(world: World, base: BaseContext) -> None:
    seed_users(world, "amazon", base.people, {"track_browsing_history": True, "is_prime": False})
    world.insert("amazon.addresses", address_row(base.main_user))
    world.insert("amazon.payment_cards", card_row(base.main_user))
    for i, name in enumerate(DELIVERERS, start=1):
        world.insert("amazon.deliverers", {"id": i, "name": name})
