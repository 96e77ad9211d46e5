"""Venmo payment cards: list, show, add, rename and remove the cards linked to the account."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, require_non_empty
from mmtsb.apps.venmo.core import APP, AUTHED, CARDS, card_view, me, now, own_card
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


@tool(domain=APP, requires=AUTHED, tables=(CARDS,))
def venmo_show_payment_card(world: World, payment_card_id: int) -> dict[str, Any]:
    """Returns one Venmo-linked card.

    Args:
        payment_card_id: one of your cards.

    Returns:
        {payment_card_id, card_name, owner_name, card_number, expiry_year, expiry_month, cvv_number}
    """
    return card_view(own_card(world, payment_card_id, usable=False))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def venmo_update_payment_card(world: World, payment_card_id: int, card_name: str) -> dict[str, str]:
    """Renames a Venmo-linked card.

    Args:
        payment_card_id: one of your cards.
        card_name: the new name (at least 1 character).

    Returns:
        {message}
    """
    card = own_card(world, payment_card_id, usable=False)
    require_non_empty(card_name, "card_name")
    world.update(CARDS, card["id"], {"card_name": card_name})
    return {"message": "Payment card updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def venmo_delete_payment_card(world: World, payment_card_id: int) -> dict[str, str]:
    """Removes a Venmo-linked card (past payments keep its last four digits).

    Args:
        payment_card_id: one of your cards.

    Returns:
        {message}
    """
    card = own_card(world, payment_card_id, usable=False)
    world.delete(CARDS, card["id"])
    return {"message": "Payment card deleted."}


@tool(domain=APP, requires=AUTHED, tables=(CARDS,))
def venmo_show_payment_cards(world: World) -> list[dict[str, Any]]:
    """Lists Venmo-linked cards.

    Returns:
        list[{payment_card_id, card_name, owner_name, card_number, expiry_year, expiry_month, cvv_number}]
    """
    return [card_view(c) for c in world.select(CARDS, "user_id = ?", (me(world)["id"],))]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def venmo_add_payment_card(world: World, card_name: str, owner_name: str, card_number: int, expiry_year: int,
                           expiry_month: int, cvv_number: int) -> dict[str, Any]:
    """Links a new card to Venmo.

    Args:
        card_name: a name for the card, e.g. 'Chase Visa' (at least 1 character).
        owner_name: the name printed on the card (at least 1 character).
        card_number: the 16-digit card number.
        expiry_year: the expiry year, e.g. 2029.
        expiry_month: the expiry month, 1 to 12.
        cvv_number: the 3-digit security code, 100 to 999.

    Returns:
        {message, payment_card_id}
    """
    user = me(world)
    require_non_empty(card_name, "card_name")
    require_non_empty(owner_name, "owner_name")
    if not 10**15 <= card_number < 10**16:
        raise api_error(f"card_number must have exactly 16 digits; got {card_number!r}.")
    if not 1 <= expiry_month <= 12:
        raise api_error(f"expiry_month must be between 1 and 12; got {expiry_month!r}.")
    if not 100 <= cvv_number <= 999:
        raise api_error(f"cvv_number must be between 100 and 999; got {cvv_number!r}.")
    today = world.clock.now()
    if (expiry_year, expiry_month) < (today.year, today.month):
        raise api_error(f"The card expired in {expiry_month:02d}/{expiry_year}; add a valid card.")
    if any(str(c.get("card_number")) == str(card_number) for c in world.select(CARDS, "user_id = ?", (user["id"],))):
        raise api_error(f"A card ending in {str(card_number)[-4:]} is already linked to your account.")
    card_id = world.insert(CARDS, {"user_id": user["id"], "card_name": card_name, "owner_name": owner_name,
                                   "card_number": str(card_number), "expiry_year": expiry_year,
                                   "expiry_month": expiry_month, "cvv_number": str(cvv_number),
                                   "created_at": now(world)})
    return {"message": "Payment card added.", "payment_card_id": int(card_id)}
