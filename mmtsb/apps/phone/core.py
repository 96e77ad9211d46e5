"""What the phone-family tools share: requirements, the acting user, and phone-number lookup."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from mmtsb.apps.common import api_error, current_user
from mmtsb.apps.phone.schema import USERS
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

PHONE = "phone"
ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=PHONE)
#: alarms/contacts/messages have no login decorator but read the phone token
TOKEN = Requirements(network=True, token_of=PHONE)

_NON_DIGIT = re.compile(r"\D")


def digits(number: str | None) -> str:
    """The digits of a phone number, without a leading US country code (``+1 (555) 010-1`` -> ``5550101``)."""
    d = _NON_DIGIT.sub("", number or "")
    return d[1:] if len(d) == 11 and d.startswith("1") else d


def find_phone_user(world: World, number: str | None) -> dict[str, Any] | None:
    """The phone user with this number: an exact match first, else the same digits."""
    if not number or not number.strip():
        return None
    exact = world.select(USERS, "phone_number = ?", (number.strip(),))
    if exact:
        return exact[0]
    wanted = digits(number)
    if not wanted:
        return None
    return next((u for u in world.rows(USERS) if digits(u.get("phone_number")) == wanted), None)


def require_phone_user(world: World, number: str, field: str = "phone_number") -> dict[str, Any]:
    """Like :func:`find_phone_user` but an API error naming the number when nobody has it."""
    if not number or not number.strip():
        raise api_error(f"{field} must not be empty.")
    user = find_phone_user(world, number)
    if user is None:
        raise api_error(f"No phone user has the phone number {number!r} ({field}). Check the number, "
                        "e.g. with contacts_search_contacts.")
    return user


def me(world: World) -> dict[str, Any]:
    """The logged-in phone user (the owner of the phone token)."""
    return current_user(world, PHONE)


def full_name(user: dict[str, Any]) -> str:
    return f"{user.get('first_name') or ''} {user.get('last_name') or ''}".strip()


def timestamp(value: Any) -> datetime:
    """A stored timestamp as a naive datetime (tolerates ``|``, ``Z`` and offsets; unknown -> min)."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    text = str(value or "").strip().replace("|", "T").replace("Z", "")
    try:
        return datetime.fromisoformat(text).replace(tzinfo=None)
    except ValueError:
        return datetime.min
