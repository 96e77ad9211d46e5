"""Supervisor tools: read-only views of the device owner's profile, addresses, cards and passwords.

The reference disables ``show_active_task``/``complete_task`` (the task arrives in chat), so only these
four remain. They need the network but no login: the supervisor is the device owner.
"""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

APP = "supervisor"
ONLINE = Requirements(network=True)


def _strip_id(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "id"}


@tool(domain=APP, requires=ONLINE, tables=("supervisor.profile",))
def supervisor_show_profile(world: World) -> dict[str, Any]:
    """Returns the device owner's (supervisor's) personal profile.

    Use it to learn the owner's name, email and phone number (the usernames of their app accounts).

    Returns:
        {first_name, last_name, email, phone_number, birthday (YYYY-MM-DD), sex}
    """
    rows = world.rows("supervisor.profile")
    if not rows:
        raise api_error("The supervisor profile is not set up.")
    return _strip_id(rows[0])


@tool(domain=APP, requires=ONLINE, tables=("supervisor.addresses",))
def supervisor_show_addresses(world: World) -> list[dict[str, Any]]:
    """Lists the owner's saved addresses (e.g. Home, Work).

    Returns:
        list[{name, street_address, city, state, country, zip_code}]
    """
    return [_strip_id(r) for r in world.rows("supervisor.addresses")]


@tool(domain=APP, requires=ONLINE, tables=("supervisor.payment_cards",))
def supervisor_show_payment_cards(world: World) -> list[dict[str, Any]]:
    """Lists the owner's payment cards with their full numbers, expiry and CVV.

    Returns:
        list[{owner_name, card_name, card_number, expiry_year, expiry_month, cvv_number}]
    """
    return [_strip_id(r) for r in world.rows("supervisor.payment_cards")]


@tool(domain=APP, requires=ONLINE, tables=("supervisor.account_passwords",))
def supervisor_show_account_passwords(world: World) -> list[dict[str, Any]]:
    """Lists the owner's password for each app account (used to log in).

    The login username is the profile email for every app except phone, whose username is the profile
    phone number (see supervisor_show_profile).

    Returns:
        list[{account_name, password}] (account_name is the app, e.g. gmail, phone, spotify)
    """
    return [_strip_id(r) for r in world.rows("supervisor.account_passwords")]
