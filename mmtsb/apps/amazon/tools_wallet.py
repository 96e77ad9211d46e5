"""Amazon payment-card and address tools (the supervisor's cards and addresses are what one copies in)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import ADDRESSES, APP, CARDS
from mmtsb.apps.common import api_error
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)


def _name(value: str | None, field: str) -> str:
    if value is None or not value.strip():
        raise api_error(f"{field} must be at least 1 character long.")
    return value.strip()


def _zip(value: int | None) -> str:
    if value is None or not 10000 <= value <= 99999:
        raise api_error(f"zip_code must be a 5-digit number between 10000 and 99999; got {value}.")
    return str(value)


# ------------------------------------------------------------------------------------------ payment cards
@tool(domain=APP, requires=AUTHED, tables=(CARDS,))
def amazon_show_payment_cards(world: World) -> list[dict[str, Any]]:
    """Lists the user's saved payment cards.

    Returns:
        list[{payment_card_id, card_name, owner_name, card_number, expiry_year, expiry_month, cvv_number}]
    """
    return [core.card_view(c) for c in world.select(CARDS, "user_id = ?", (core.my_id(world),))]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def amazon_add_payment_card(world: World, card_name: str, owner_name: str, card_number: int, expiry_year: int,
                            expiry_month: int, cvv_number: int) -> dict[str, Any]:
    """Saves a new payment card (copy the details from supervisor_show_payment_cards).

    Args:
        card_name: a label for the card, e.g. 'Visa' (at least 1 character).
        owner_name: the name on the card (at least 1 character).
        card_number: the 16-digit card number.
        expiry_year: the expiry year, e.g. 2028 (the card must not be expired).
        expiry_month: the expiry month, 1..12.
        cvv_number: the 3-digit security code, 100..999.

    Returns:
        {message, payment_card_id}
    """
    user = core.me(world)
    card_name, owner_name = _name(card_name, "card_name"), _name(owner_name, "owner_name")
    if not 10**15 <= card_number < 10**16:
        raise api_error(f"card_number must have exactly 16 digits; got {card_number}.")
    if not 1 <= expiry_month <= 12:
        raise api_error(f"expiry_month must be between 1 and 12; got {expiry_month}.")
    if not 100 <= cvv_number <= 999:
        raise api_error(f"cvv_number must be a 3-digit number between 100 and 999; got {cvv_number}.")
    now = core.now_naive(world)
    if (expiry_year, expiry_month) < (now.year, now.month):
        raise api_error(f"The card expired in {expiry_month:02d}/{expiry_year}; it cannot be added.")
    for c in world.select(CARDS, "user_id = ?", (user["id"],)):
        if str(c.get("card_number")) == str(card_number):
            raise api_error(f"This card is already saved as payment_card_id={c['id']}.")
    card_id = world.next_id(CARDS)
    world.insert(CARDS, {"id": card_id, "user_id": user["id"], "card_name": card_name, "owner_name": owner_name,
                         "card_number": str(card_number), "expiry_year": expiry_year, "expiry_month": expiry_month,
                         "cvv_number": str(cvv_number), "created_at": world.clock.now_str()})
    return {"message": "Payment card added.", "payment_card_id": card_id}


@tool(domain=APP, requires=AUTHED, tables=(CARDS,))
def amazon_show_payment_card(world: World, payment_card_id: int) -> dict[str, Any]:
    """Returns one saved payment card's details.

    Args:
        payment_card_id: the card's id.

    Returns:
        {payment_card_id, card_name, owner_name, card_number, expiry_year, expiry_month, cvv_number}
    """
    return core.card_view(core.own_row(world, CARDS, payment_card_id, "Payment card", "payment_card_id"))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def amazon_update_payment_card(world: World, payment_card_id: int, card_name: str) -> dict[str, str]:
    """Renames a saved payment card.

    Args:
        payment_card_id: the card's id.
        card_name: the new label (at least 1 character).

    Returns:
        {message}
    """
    card = core.own_row(world, CARDS, payment_card_id, "Payment card", "payment_card_id")
    world.update(CARDS, card["id"], {"card_name": _name(card_name, "card_name")})
    return {"message": "Payment card updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def amazon_delete_payment_card(world: World, payment_card_id: int) -> dict[str, str]:
    """Removes a saved payment card (past orders keep its last four digits).

    Args:
        payment_card_id: the card's id.

    Returns:
        {message}
    """
    card = core.own_row(world, CARDS, payment_card_id, "Payment card", "payment_card_id")
    world.delete(CARDS, card["id"])
    return {"message": "Payment card deleted."}


# ------------------------------------------------------------------------------------------ addresses
def _address_view(a: dict[str, Any]) -> dict[str, Any]:
    return {"address_id": a["id"], "name": a.get("name"), "street_address": a.get("street_address"),
            "city": a.get("city"), "state": a.get("state"), "country": a.get("country"),
            "zip_code": a.get("zip_code")}


@tool(domain=APP, requires=AUTHED, tables=(ADDRESSES,))
def amazon_show_addresses(world: World) -> list[dict[str, Any]]:
    """Lists the user's saved shipping addresses.

    Returns:
        list[{address_id, name, street_address, city, state, country, zip_code}]
    """
    return [_address_view(a) for a in world.select(ADDRESSES, "user_id = ?", (core.my_id(world),))]


def _check_unique_address_name(world: World, user_id: int, name: str, address_id: int | None = None) -> None:
    """A user's addresses have distinct names (AppWorld's uniqueness of (user, name))."""
    if any(a["id"] != address_id for a in world.select(ADDRESSES, "user_id = ? AND name = ?", (user_id, name))):
        raise api_error(f"You already have an address named {name!r}; address names must be unique.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ADDRESSES,))
def amazon_add_address(world: World, name: str, street_address: str, city: str, state: str, country: str,
                       zip_code: int) -> dict[str, Any]:
    """Saves a new shipping address (copy the details from supervisor_show_addresses).

    Args:
        name: a label like 'Home' or 'Work' (at least 1 character).
        street_address: street and number (at least 1 character).
        city: the city (at least 1 character).
        state: the state (at least 1 character).
        country: the country (at least 1 character).
        zip_code: the 5-digit zip code, 10000..99999.

    Returns:
        {message, address_id}
    """
    user = core.me(world)
    row = {"user_id": user["id"], "name": _name(name, "name"),
           "street_address": _name(street_address, "street_address"), "city": _name(city, "city"),
           "state": _name(state, "state"), "country": _name(country, "country"), "zip_code": _zip(zip_code)}
    for a in world.select(ADDRESSES, "user_id = ?", (user["id"],)):
        if all(str(a.get(k) or "").lower() == str(v).lower() for k, v in row.items()):
            raise api_error(f"This address is already saved as address_id={a['id']}.")
    address_id = world.next_id(ADDRESSES)
    _check_unique_address_name(world, user["id"], row["name"])
    world.insert(ADDRESSES, {"id": address_id, **row})
    return {"message": "Address added.", "address_id": address_id}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ADDRESSES,))
def amazon_update_address(world: World, address_id: int, name: str | None = None, street_address: str | None = None,
                          city: str | None = None, state: str | None = None, country: str | None = None,
                          zip_code: int | None = None) -> dict[str, str]:
    """Edits fields of a saved address; omitted fields stay as they are.

    Args:
        address_id: the address's id.
        name: a new label (at least 1 character).
        street_address: a new street address (at least 1 character).
        city: a new city (at least 1 character).
        state: a new state (at least 1 character).
        country: a new country (at least 1 character).
        zip_code: a new 5-digit zip code, 10000..99999.

    Returns:
        {message}
    """
    address = core.own_row(world, ADDRESSES, address_id, "Address", "address_id")
    fields: dict[str, Any] = {k: _name(v, k) for k, v in (("name", name), ("street_address", street_address),
                                                          ("city", city), ("state", state), ("country", country))
                              if v is not None}
    if zip_code is not None:
        fields["zip_code"] = _zip(zip_code)
    if not fields:
        raise api_error("Nothing to update: give at least one of name, street_address, city, state, country, "
                        "zip_code.")
    if "name" in fields:
        _check_unique_address_name(world, address["user_id"], fields["name"], address["id"])
    world.update(ADDRESSES, address["id"], fields)
    return {"message": "Address updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ADDRESSES,))
def amazon_delete_address(world: World, address_id: int) -> dict[str, str]:
    """Removes a saved address (past orders keep their address text).

    Args:
        address_id: the address's id.

    Returns:
        {message}
    """
    address = core.own_row(world, ADDRESSES, address_id, "Address", "address_id")
    world.delete(ADDRESSES, address["id"])
    return {"message": "Address deleted."}
