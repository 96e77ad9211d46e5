"""Spotify account tools (signup, login, codes, profile: :mod:`mmtsb.apps.account_tools`; user search) and saved
payment cards."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.account_tools import (NAMES_KEPT_WHEN_OMITTED, OWN_PROFILE_WHEN_OMITTED,
                                     AccountApp, Wording, add_account_tools)
from mmtsb.apps.common import api_error
from mmtsb.apps.spotify import core
from mmtsb.apps.spotify.core import APP, AUTHED, CARDS
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


# ------------------------------------------------------------------------------------------ account
def is_premium(world: World, user: dict[str, Any]) -> bool:
    """Premium = the account flag, or a subscription that covers today."""
    today = core.now(world)
    active = world.select(core.SUBSCRIPTIONS, "user_id = ? AND start_date <= ? AND end_date > ?",
                          (user["id"], today, today))
    return bool(user.get("is_premium")) or bool(active)


def _premium(world: World, out: dict[str, Any]) -> None:
    out["is_premium"] = is_premium(world, core.me(world))


_TO_GMAIL = " (it arrives in the Gmail inbox of that address)."

# spotify_show_account, spotify_signup, spotify_delete_account, spotify_update_account_name, spotify_login,
# spotify_logout, spotify_send_verification_code, spotify_verify_account, spotify_send_password_reset_code,
# spotify_reset_password, spotify_show_profile and spotify_search_users:
add_account_tools(globals(), AccountApp(APP, "Spotify", user_search=True, columns=("verified", "is_premium"),
                                        details=_premium, owned_tables=tuple(f"spotify.{t}" for t in (
    "song_reviews", "album_reviews", "playlist_reviews", "playlists", "user_library_songs", "user_library_albums",
    "downloaded_songs", "artist_followers", "payment_cards", "premium_subscriptions", "music_players")), wording={
    "update_account_name": Wording(args=NAMES_KEPT_WHEN_OMITTED),
    "send_verification_code": Wording("Emails a Spotify account verification code" + _TO_GMAIL),
    "send_password_reset_code": Wording("Emails a Spotify password reset code" + _TO_GMAIL),
    "show_profile": Wording(args=OWN_PROFILE_WHEN_OMITTED)}))


# ------------------------------------------------------------------------------------------ payment cards
def card_view(card: dict[str, Any]) -> dict[str, Any]:
    return {"payment_card_id": card["id"], "card_name": card.get("card_name"), "owner_name": card.get("owner_name"),
            "card_number": _as_int(card.get("card_number")), "expiry_year": card.get("expiry_year"),
            "expiry_month": card.get("expiry_month"), "cvv_number": _as_int(card.get("cvv_number"))}


def _as_int(value: Any) -> Any:
    text = str(value) if value is not None else ""
    return int(text) if text.isdigit() else value


def own_card(world: World, payment_card_id: int) -> dict[str, Any]:
    card = world.get(CARDS, payment_card_id)
    if card is None or card.get("user_id") != core.my_id(world):
        raise api_error(f"Payment card with payment_card_id={payment_card_id} does not exist.")
    return card


def check_not_expired(world: World, year: int, month: int, what: str = "The payment card") -> None:
    today = world.clock.now_naive()
    if (year, month) < (today.year, today.month):
        raise api_error(f"{what} has expired ({month:02d}/{year}).")


@tool(domain=APP, requires=AUTHED, tables=(CARDS,))
def spotify_show_payment_cards(world: World) -> list[dict[str, Any]]:
    """Lists the payment cards saved to the Spotify account.

    Returns:
        list[{payment_card_id, card_name, owner_name, card_number, expiry_year, expiry_month, cvv_number}]
    """
    return [card_view(c) for c in world.select(CARDS, "user_id = ?", (core.my_id(world),))]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def spotify_add_payment_card(world: World, card_name: str, owner_name: str, card_number: int, expiry_year: int,
                             expiry_month: int, cvv_number: int) -> dict[str, Any]:
    """Saves a new payment card to Spotify (used to pay for Premium).

    Args:
        card_name: a name for the card, e.g. 'Work Visa' (at least 1 character).
        owner_name: the name printed on the card (at least 1 character).
        card_number: the 16-digit card number.
        expiry_year: the expiry year, e.g. 2028; the card must not have expired.
        expiry_month: the expiry month, 1 to 12.
        cvv_number: the 3-digit security code, 100 to 999.

    Returns:
        {message, payment_card_id}
    """
    core.check_text(card_name, "card_name")
    core.check_text(owner_name, "owner_name")
    if not 10**15 <= card_number < 10**16:
        raise api_error(f"card_number must have exactly 16 digits; got {card_number!r}.")
    core.check_range(expiry_month, "expiry_month", 1, 12)
    core.check_range(cvv_number, "cvv_number", 100, 999)
    check_not_expired(world, expiry_year, expiry_month)
    user_id = core.my_id(world)
    if world.select(CARDS, "user_id = ? AND card_number = ?", (user_id, str(card_number))):
        raise api_error("A payment card with this card_number is already saved to your account.")
    card_id = core.insert(world, CARDS, {"user_id": user_id, "card_name": card_name, "owner_name": owner_name,
                                         "card_number": str(card_number), "expiry_year": expiry_year,
                                         "expiry_month": expiry_month, "cvv_number": str(cvv_number),
                                         "created_at": core.now(world)})
    return {"message": "Payment card added.", "payment_card_id": card_id}


@tool(domain=APP, requires=AUTHED, tables=(CARDS,))
def spotify_show_payment_card(world: World, payment_card_id: int) -> dict[str, Any]:
    """Returns one of your saved Spotify payment cards.

    Args:
        payment_card_id: the card's id (see spotify_show_payment_cards).

    Returns:
        {payment_card_id, card_name, owner_name, card_number, expiry_year, expiry_month, cvv_number}
    """
    return card_view(own_card(world, payment_card_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def spotify_update_payment_card(world: World, payment_card_id: int, card_name: str) -> dict[str, str]:
    """Renames a saved Spotify payment card (its number and expiry cannot change).

    Args:
        payment_card_id: the card's id.
        card_name: the new name (at least 1 character).

    Returns:
        {message}
    """
    own_card(world, payment_card_id)
    core.check_text(card_name, "card_name")
    world.update(CARDS, payment_card_id, {"card_name": card_name})
    return {"message": "Payment card updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARDS,))
def spotify_delete_payment_card(world: World, payment_card_id: int) -> dict[str, str]:
    """Removes a saved Spotify payment card (past Premium payments keep their card digits).

    Args:
        payment_card_id: the card's id.

    Returns:
        {message}
    """
    own_card(world, payment_card_id)
    world.delete(CARDS, payment_card_id)
    return {"message": "Payment card deleted."}
