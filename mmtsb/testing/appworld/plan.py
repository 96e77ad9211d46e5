"""Call sequences for the AppWorld differential harness, and their translation to AppWorld's names.

A :class:`Sequence` is a list of :class:`Step` calls of our tools, made by people of :data:`PEOPLE` (each
signed up, verified, in every app before the sequence starts) in a world that also holds the small shop and music
catalogue of :data:`CATALOG`. Arguments may refer to what an earlier step returned (``"$label.field"``), to the
code in the newest email a person received (``"$code:<email>"``) or to the acting person's access token of
another app (``"$token:file_system"``), so each side resolves them against its own ids, codes and tokens.
:func:`to_plan` translates a list of sequences to the JSON plan the AppWorld side reads: our tool
``<domain>_<api>`` becomes AppWorld's app and API name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: the instant every sequence starts at (both sides freeze their clocks there)
START = "2024-05-01T12:00:00"

#: the people every sequence starts with: signed up and verified in every app, each holding one real payment card
#: (AppWorld accepts a card only when its bank knows it: the AppWorld side registers these there)
PEOPLE: tuple[dict[str, Any], ...] = (
    {"key": "alice", "first_name": "Alice", "last_name": "Stone", "email": "alice@gmail.com",
     "phone_number": "5550000001", "password": "alice-pw",
     "card": {"card_name": "Visa", "card_number": 4111111111111111, "expiry_year": 2027, "expiry_month": 8,
              "cvv_number": 123}},
    {"key": "bob", "first_name": "Bob", "last_name": "Reed", "email": "bob@gmail.com",
     "phone_number": "5550000002", "password": "bob-pw1",
     "card": {"card_name": "MasterCard", "card_number": 5500000000000004, "expiry_year": 2026, "expiry_month": 2,
              "cvv_number": 456}},
    {"key": "carol", "first_name": "Carol", "last_name": "Ames", "email": "carol@gmail.com",
     "phone_number": "5550000003", "password": "carol-pw",
     "card": {"card_name": "Discover", "card_number": 6011000000000004, "expiry_year": 2028, "expiry_month": 11,
              "cvv_number": 789}},
)
#: what the bank holds on each card (dollars), on the AppWorld side
CARD_BALANCE = 5000

_PRODUCT = {"description": "A test product.", "seller_id": 1, "delivery_days": 2, "weight": 0.5, "length": 4.0,
            "width": 3.0, "height": 2.0, "relative_size": "small", "rating": 0.0, "seller_rating": 4.5,
            "has_variations": False}
#: the catalogue both sides hold besides the people (our table -> rows with explicit ids; each side keeps the
#: columns its table has): a seller with three products and two couriers, two artists with an album and two songs
CATALOG: dict[str, list[dict[str, Any]]] = {
    "amazon.sellers": [{"id": 1, "name": "Acme Audio", "rating": 4.5}],
    "amazon.products": [
        {**_PRODUCT, "id": 1, "product_type": "earbuds", "name": "Wireless Earbuds", "price": 59.99,
         "inventory_quantity": 20, "color": "black"},
        {**_PRODUCT, "id": 2, "product_type": "lamp", "name": "Desk Lamp", "price": 24.5, "inventory_quantity": 5,
         "color": "white"},
        {**_PRODUCT, "id": 3, "product_type": "bottle", "name": "Water Bottle", "price": 12.0,
         "inventory_quantity": 1, "color": "blue"}],
    "amazon.deliverers": [{"id": 1, "name": "UPS"}, {"id": 2, "name": "FedEx"}],
    "spotify.artists": [{"id": 1, "name": "Nova Lane", "genre": "pop", "created_at": "2020-01-01T00:00:00",
                         "follower_count": 0},
                        {"id": 2, "name": "The Quiet Hours", "genre": "indie", "created_at": "2020-01-01T00:00:00",
                         "follower_count": 0}],
    "spotify.albums": [{"id": 1, "title": "City Lights", "artist_ids": [1], "release_date": "2023-03-01T00:00:00",
                        "genre": "pop", "rating": 0.0, "like_count": 0, "review_count": 0},
                       {"id": 2, "title": "Slow Rivers", "artist_ids": [2], "release_date": "2022-06-01T00:00:00",
                        "genre": "indie", "rating": 0.0, "like_count": 0, "review_count": 0}],
    "spotify.songs": [
        {"id": i, "title": title, "artist_ids": [album], "album_id": album, "duration": duration,
         "release_date": "2023-03-01T00:00:00", "genre": "pop" if album == 1 else "indie", "play_count": 0,
         "rating": 0.0, "like_count": 0, "review_count": 0}
        for i, (title, album, duration) in enumerate((("Neon Rain", 1, 200), ("Midnight Train", 1, 180),
                                                      ("Paper Boats", 2, 240), ("Harbor", 2, 210)), start=1)],
}


def card_of(person: str) -> dict[str, Any]:
    """The arguments of ``add_payment_card`` for ``person``'s real card (as an agent copies it from the
    supervisor's wallet)."""
    p = next(p for p in PEOPLE if p["key"] == person)
    return {**p["card"], "owner_name": f"{p['first_name']} {p['last_name']}"}

#: our tool domains that are parts of another AppWorld app
DOMAIN_APP = {"alarms": "phone", "contacts": "phone", "messages": "phone"}
#: AppWorld apps the harness compares (the ones the reference runs)
APPS = ("amazon", "file_system", "gmail", "phone", "simple_note", "splitwise", "spotify", "todoist", "venmo")


@dataclass(frozen=True)
class Step:
    """One call of our tool ``tool`` by person ``as_`` (None: nobody logged in), or a clock advance."""

    tool: str | None
    args: dict[str, Any] = field(default_factory=dict)
    as_: str | None = "alice"
    label: str | None = None
    advance_minutes: float | None = None

    @property
    def domain(self) -> str:
        return (self.tool or "").split("_", 1)[0] if self.tool and not self.tool.startswith(
            ("simple_note_", "file_system_")) else "_".join((self.tool or "").split("_", 2)[:2])

    @property
    def app(self) -> str:
        return DOMAIN_APP.get(self.domain, self.domain)

    @property
    def api(self) -> str:
        return (self.tool or "")[len(self.domain) + 1:]


@dataclass(frozen=True)
class Sequence:
    name: str
    steps: tuple[Step, ...]

    @property
    def app(self) -> str:
        return next((s.app for s in self.steps if s.tool), "")


def call(tool: str, as_: str | None = "alice", label: str | None = None, **args: Any) -> Step:
    """A call of ``tool`` with ``args`` by ``as_``; ``label`` names its result for later ``"$label.field"``."""
    return Step(tool, args, as_, label)


def advance(minutes: float) -> Step:
    """Move both clocks forward (for expiring codes and tokens)."""
    return Step(None, advance_minutes=minutes)


def sequence(name: str, *steps: Step) -> Sequence:
    return Sequence(name, tuple(steps))


def to_plan(sequences: list[Sequence]) -> dict[str, Any]:
    """The JSON plan for the AppWorld side."""
    def step(s: Step) -> dict[str, Any]:
        if s.tool is None:
            return {"advance_minutes": s.advance_minutes}
        return {"app": s.app, "api": s.api, "args": s.args, "as": s.as_, "label": s.label}

    return {"start": START, "people": list(PEOPLE), "card_balance": CARD_BALANCE, "catalog": CATALOG,
            "sequences": [{"name": q.name, "steps": [step(s) for s in q.steps]} for q in sequences]}
