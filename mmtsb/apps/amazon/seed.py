"""Amazon base rows: every base person as a user, the main user's home address and payment card, the
carriers that pick up returns, the promo codes, and the project's product catalogue (:mod:`.catalogue`); and
the card-expiry refresh that follows a scenario's entities."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.amazon.catalogue import CatalogueRows, catalogue
from mmtsb.apps.base import BaseContext
from mmtsb.world.people import Person
from mmtsb.world.world import World

SEED_TIME = "2023-01-01T00:00:00"
DELIVERERS = ("UPS", "FedEx", "USPS", "DHL")

#: (code, description, percentage, max discount, min order, days valid from the reference time; < 0 = expired)
PROMO_CODES: tuple[tuple[str, str, float, float, float, int], ...] = (
    ("SAVE10", "10% off any order (up to $20)", 10.0, 20.0, 0.0, 60),
    ("WELCOME15", "15% off orders of $50 or more (up to $30)", 15.0, 30.0, 50.0, 120),
    ("SPRING25", "25% off orders of $100 or more (up to $50)", 25.0, 50.0, 100.0, 30),
    ("HOLIDAY30", "30% off holiday orders (up to $60)", 30.0, 60.0, 0.0, -100),
)

PAYMENT_CARDS = "amazon.payment_cards"

_CATALOGUE_TABLES = (("amazon.sellers", "sellers"), ("amazon.products", "products"),
                     ("amazon.product_reviews", "reviews"), ("amazon.product_questions", "questions"),
                     ("amazon.product_question_answers", "answers"))


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
    ref = base.reference_time.replace(tzinfo=None, microsecond=0)
    for i, (code, text, pct, cap, minimum, days) in enumerate(PROMO_CODES, start=1):
        until = (ref + timedelta(days=days)).strftime("%Y-%m-%dT23:59:59")
        world.insert("amazon.promo_codes", {"id": i, "code": code, "description": text, "discount_percentage": pct,
                                            "max_discount_amount": cap, "min_order_amount": minimum,
                                            "valid_until": until})
    load_catalogue(world, catalogue(), base.main_user.id)


def load_catalogue(world: World, rows: CatalogueRows, main_user_id: int) -> None:
    """Bulk-insert the catalogue; rows the main user would have authored go to another base user."""
    stand_in = main_user_id % 110 + 1
    for key, name in _CATALOGUE_TABLES:
        columns = CatalogueRows.columns[name]
        data: Any = getattr(rows, name)
        if "user_id" in columns:
            at = columns.index("user_id")
            data = [r if r[at] != main_user_id else (*r[:at], stand_in, *r[at + 1:]) for r in data]
        marks = ", ".join("?" for _ in columns)
        cols = ", ".join(f'"{c}"' for c in columns)
        world.db.executemany(f"INSERT INTO {world.table(key).qualified} ({cols}) VALUES ({marks})", data)


def refresh_expired_cards(world: World) -> int:
    """Push every card whose expiry year is before the reference year to reference year + 2.

    The reference does this after injecting a scenario's entities (SPEC.md §2.4 step 8), so cards copied
    from old data stay usable at checkout. Returns how many cards changed.
    """
    year = world.clock.reference_time.year
    expired = world.select(PAYMENT_CARDS, "expiry_year < ?", (year,))
    for card in expired:
        world.update(PAYMENT_CARDS, card["id"], {"expiry_year": year + 2})
    return len(expired)
