"""Emails that other apps send to a person (verification and password-reset codes, receipts).

:func:`deliver_system_email` is what :mod:`mmtsb.apps.accounts` calls: it puts an email from a
``no-reply@<app>.com`` sender into the recipient's Gmail inbox, through the same send path as the tools.
"""

from __future__ import annotations

import re

from mmtsb.apps.gmail import core
from mmtsb.apps.gmail.schema import ATTACHMENTS, EMAILS, GLOBAL_THREADS, USER_THREADS, USERS
from mmtsb.world.world import World

#: the tables an app's automatic email writes (the sending account is made on first use): companions of the
#: tables whose actions mail a receipt
MAIL_TABLES = (EMAILS, GLOBAL_THREADS, USER_THREADS, ATTACHMENTS, USERS)


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


def deliver_system_email(world: World, *, sender_name: str, recipient_email: str, subject: str, body: str,
                         attachments: tuple[tuple[str, str], ...] = ()) -> None:
    """Deliver an automatic email (with ``(file name, text)`` attachments, e.g. a receipt) to a Gmail inbox; does
    nothing when the address has no Gmail account."""
    if not world.has_table(USERS):
        return
    recipient = core.user_by_email(world, recipient_email)
    if recipient is None:
        return
    files = [core.AttachmentData(name, text) for name, text in attachments]
    core.deliver(world, system_sender(world, sender_name), [recipient], subject, body, attachments=files)


def mail_receipt(world: World, *, app: str, recipient_email: str, subject: str, body: str, file_name: str,
                 receipt: str) -> None:
    """An app's confirmation email with its receipt attached, as AppWorld's apps send for orders, returns,
    subscriptions and bank transfers (when the address has a Gmail account)."""
    deliver_system_email(world, sender_name=app, recipient_email=recipient_email, subject=subject,
                         body=f"{body}\n\nThe attached {file_name} has the details.\n\n{app} Team",
                         attachments=((file_name, receipt),))
