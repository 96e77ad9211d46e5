"""Emails that other apps send to a person (verification and password-reset codes).

:func:`deliver_system_email` is what :mod:`mmtsb.apps.accounts` calls: it puts an email from a
``no-reply@<app>.com`` sender into the recipient's Gmail inbox, through the same send path as the tools.
"""

from __future__ import annotations

import re

from mmtsb.apps.gmail import core
from mmtsb.apps.gmail.schema import USERS
from mmtsb.world.world import World


def system_sender(world: World, sender_name: str) -> dict:
    """The Gmail user that sends an app's automatic emails (created on first use)."""
    slug = re.sub(r"[^a-z0-9]+", "", sender_name.lower()) or "system"
    address = f"no-reply@{slug}.com"
    user = core.user_by_email(world, address)
    if user is None:
        uid = world.insert(USERS, {"first_name": sender_name, "last_name": "", "email": address,
                                   "password": world.new_uuid(), "status": "active", "created_at": core.now(world),
                                   "last_logged_in": None})
        user = world.get(USERS, uid)
    return user


def deliver_system_email(world: World, *, sender_name: str, recipient_email: str, subject: str, body: str) -> None:
    """Deliver an automatic email to a Gmail inbox; does nothing when the address has no Gmail account."""
    if not world.has_table(USERS):
        return
    recipient = core.user_by_email(world, recipient_email)
    if recipient is None:
        return
    core.deliver(world, system_sender(world, sender_name), [recipient], subject, body)
