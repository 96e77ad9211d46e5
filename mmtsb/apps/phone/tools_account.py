"""Phone account tools (8): the reference keeps only account and auth tools in the ``phone`` domain.

The login username is the phone number. Numbers given to these tools are matched exactly first, then by
their digits (so ``(555) 010-1234`` finds ``5550101234``).
"""

from __future__ import annotations

import re
from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.common import api_error
from mmtsb.apps.phone.core import AUTHED, ONLINE, PHONE, find_phone_user
from mmtsb.apps.phone.tools_messages import deliver_system_text
from mmtsb.apps.phone.schema import ALARMS, CONTACTS, USER_TEXTS, USER_VOICES, USERS
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

_TEN_DIGITS = re.compile(r"^\d{10}$")


def _stored_number(world: World, number: str) -> str:
    """The number as the account stores it (the input unchanged when no account has it)."""
    user = find_phone_user(world, number)
    return user["phone_number"] if user is not None else number


@tool(domain=PHONE, requires=AUTHED, tables=(USERS,))
def phone_show_account(world: World) -> dict[str, Any]:
    """Returns the logged-in phone user's private account details.

    Returns:
        {first_name, last_name, phone_number, registered_at, last_logged_in}
    """
    return accounts.show_account(world, PHONE)


@tool(domain=PHONE, mutates=True, requires=ONLINE, tables=(USERS,))
def phone_signup(world: World, first_name: str, last_name: str, phone_number: str, password: str) -> dict[str, str]:
    """Creates a phone account keyed by phone number.

    Args:
        first_name: first name (at least 1 character).
        last_name: last name (at least 1 character).
        phone_number: exactly 10 digits with no spaces or punctuation (e.g. 2065550123); must not belong to
            another account.
        password: at least 5 characters.

    Returns:
        {message}
    """
    if not _TEN_DIGITS.match(phone_number or ""):
        raise api_error(f"Invalid phone_number {phone_number!r}: it must be exactly 10 digits, e.g. 2065550123.")
    if find_phone_user(world, phone_number) is not None:
        raise api_error(f"An account with phone_number {phone_number!r} already exists.")
    return accounts.signup(world, PHONE, first_name, last_name, phone_number, password)


#: what goes with a deleted phone account (as AppWorld deletes it): contacts, alarms and the account's message copies
_OWNED = (CONTACTS, ALARMS, USER_TEXTS, USER_VOICES)


@tool(domain=PHONE, mutates=True, requires=AUTHED, tables=(USERS, *_OWNED))
def phone_delete_account(world: World) -> dict[str, str]:
    """Deletes the logged-in phone account, with its contacts, alarms and messages, and ends its session.

    Returns:
        {message}
    """
    accounts.delete_owned_rows(world, PHONE, _OWNED)
    return accounts.delete_account(world, PHONE)


@tool(domain=PHONE, mutates=True, requires=AUTHED, tables=(USERS,))
def phone_update_account_name(world: World, first_name: str | None = None,
                              last_name: str | None = None) -> dict[str, str]:
    """Changes the phone account's first and/or last name (give at least one).

    Args:
        first_name: the new first name (at least 1 character).
        last_name: the new last name (at least 1 character).

    Returns:
        {message}
    """
    return accounts.update_account_name(world, PHONE, first_name, last_name)


@tool(domain=PHONE, mutates=True, requires=ONLINE, tables=(USERS,))
def phone_login(world: World, username: str, password: str) -> dict[str, str]:
    """Logs into the phone app (username is the phone number); stores the token.

    The token is what the contacts, messages and alarms tools use.

    Args:
        username: the account's phone number (see supervisor_show_profile).
        password: the account password (see supervisor_show_account_passwords).

    Returns:
        {access_token, token_type}
    """
    return accounts.login(world, PHONE, _stored_number(world, username), password)


@tool(domain=PHONE, mutates=True, requires=AUTHED)
def phone_logout(world: World) -> dict[str, str]:
    """Logs out of the phone app; contacts, messages and alarms tools then need phone_login again.

    Returns:
        {message}
    """
    return accounts.logout(world, PHONE)


@tool(domain=PHONE, mutates=True, requires=ONLINE, tables=(USERS,))
def phone_send_password_reset_code(world: World, phone_number: str) -> dict[str, str]:
    """Texts a password reset code to the phone number.

    The code arrives as a text message from "Phone" to that number (readable with
    messages_search_text_messages when logged in as that number).

    Args:
        phone_number: the account's phone number.

    Returns:
        {message}
    """
    number = _stored_number(world, phone_number)
    out = accounts.send_code(world, PHONE, number, "reset")
    user = find_phone_user(world, number)
    deliver_system_text(world, user["id"], f"Your phone password reset code is {user['password_reset_code']}.")
    return out


@tool(domain=PHONE, mutates=True, requires=ONLINE, tables=(USERS,))
def phone_reset_password(world: World, phone_number: str, password_reset_code: str,
                         new_password: str) -> dict[str, str]:
    """Sets a new phone-app password with the reset code (see phone_send_password_reset_code).

    Args:
        phone_number: the account's phone number.
        password_reset_code: the code from the reset text message.
        new_password: at least 5 characters.

    Returns:
        {message}
    """
    return accounts.reset_password(world, PHONE, _stored_number(world, phone_number), password_reset_code,
                                   new_password)
