"""Gmail behaviour shared by the tools: users and recipients, sending into threads, and the views of rows
that the tools return. Everything here takes the World explicitly and raises ``API error`` ValueErrors."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mmtsb.apps.accounts import EMAIL_RE
from mmtsb.apps.common import api_error, current_user, parse_date
from mmtsb.apps.gmail.schema import ATTACHMENTS, DRAFTS, EMAILS, GLOBAL_THREADS, USER_THREADS, USERS
from mmtsb.world.world import World

APP = "gmail"
_CONTAINS = "EXISTS (SELECT 1 FROM json_each(email_ids) WHERE value = ?)"


@dataclass(frozen=True)
class AttachmentData:
    """A file to attach: its name and content (text, or compressed bytes as stored by the file system)."""

    file_name: str
    file_content: str | None
    file_compressed_data: Any = None


# ---------------------------------------------------------------------------------------------- users
def me(world: World) -> dict[str, Any]:
    """The logged-in Gmail user's row."""
    return current_user(world, APP)


def full_name(user: dict[str, Any] | None) -> str:
    if user is None:
        return "Unknown"
    return f"{user.get('first_name') or ''} {user.get('last_name') or ''}".strip()


def user_by_email(world: World, email: str) -> dict[str, Any] | None:
    rows = world.select(USERS, "lower(email) = lower(?)", (email.strip(),))
    return rows[0] if rows else None


def contact(user: dict[str, Any] | None) -> dict[str, Any]:
    """``{name, email}`` of a user (for senders and recipients in results)."""
    return {"name": full_name(user), "email": None if user is None else user.get("email")}


def resolve_recipients(world: World, addresses: Iterable[str] | None, field: str, *,
                       allow_empty: bool = False) -> list[dict[str, Any]]:
    """Users for a list of email addresses (deduplicated, order kept). Every address must be a Gmail user."""
    cleaned: list[str] = []
    for a in addresses or []:
        text = (a or "").strip()
        bracketed = re.search(r"<([^<>]+)>\s*$", text)  # 'Name <address>' is accepted too
        if bracketed:
            text = bracketed.group(1).strip()
        if not EMAIL_RE.match(text):
            raise api_error(f"{field} contains an invalid email address: {a!r}.")
        if text.lower() not in (c.lower() for c in cleaned):
            cleaned.append(text)
    if not cleaned and not allow_empty:
        raise api_error(f"{field} must contain at least one email address.")
    users, missing = [], []
    for address in cleaned:
        user = user_by_email(world, address)
        (users if user is not None else missing).append(user if user is not None else address)
    if missing:
        raise api_error(f"No Gmail account exists for {', '.join(map(repr, missing))} (in {field}). Every "
                        "recipient must be a Gmail user: check the address, or find it with gmail_search_users.")
    return users


def recipient_columns(users: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The recipient columns of a draft row."""
    return {"recipient_ids": [u["id"] for u in users], "recipient_email_addresses": [u["email"] for u in users],
            "recipient_names": [full_name(u) for u in users]}


# ---------------------------------------------------------------------------------------------- time
def now(world: World) -> str:
    return world.clock.now_str()


def future_time(world: World, text: str, field: str) -> str:
    """Parse ``YYYY-MM-DD|HH:MM:SS`` (or a date) that must lie in the future; returns ISO text."""
    when = parse_date(text, field).isoformat(timespec="seconds")
    if when <= now(world):
        raise api_error(f"{field} must be in the future (now is {now(world).replace('T', '|')}); got {text!r}.")
    return when


def date_bounds(min_created_at: str | None, max_created_at: str | None) -> tuple[str, str]:
    """Inclusive ISO bounds for a created_at filter; a bare date as upper bound covers that whole day."""
    lo = parse_date(min_created_at or "1500-01-01", "min_created_at").isoformat(timespec="seconds")
    hi_text = max_created_at or "3000-01-01"
    hi = parse_date(hi_text, "max_created_at").isoformat(timespec="seconds")
    if "|" not in hi_text and ":" not in hi_text:
        hi = hi[:10] + "T23:59:59"
    return lo, hi


def in_bounds(ts: str | None, bounds: tuple[str, str]) -> bool:
    if not ts:
        return False
    value = str(ts).replace(" ", "T")[:19]
    return bounds[0] <= value <= bounds[1]


# ---------------------------------------------------------------------------------------------- lookups
def own_thread(world: World, user_id: int, email_thread_id: int) -> dict[str, Any]:
    """The acting user's thread row, or an error naming the id."""
    row = world.get(USER_THREADS, email_thread_id)
    if row is None or row["user_id"] != user_id:
        raise api_error(f"Email thread with email_thread_id={email_thread_id} does not exist in your mailbox.")
    return row


def user_threads(world: World, user_id: int) -> list[dict[str, Any]]:
    return world.select(USER_THREADS, "user_id = ?", (user_id,))


def user_thread_for(world: World, user_id: int, global_id: int) -> dict[str, Any] | None:
    rows = world.select(USER_THREADS, "user_id = ? AND global_email_thread_id = ?", (user_id, global_id))
    return rows[0] if rows else None


def global_thread_of_email(world: World, email_id: int) -> dict[str, Any] | None:
    rows = world.select(GLOBAL_THREADS, _CONTAINS, (email_id,))
    return rows[0] if rows else None


def thread_of_email_for_user(world: World, user_id: int, email_id: int) -> dict[str, Any] | None:
    rows = world.select(USER_THREADS, f"user_id = ? AND {_CONTAINS}", (user_id, email_id))
    return rows[0] if rows else None


def visible_email(world: World, user_id: int, email_id: int) -> dict[str, Any]:
    """An email the user can see: it is in one of their threads (or a thread-less email they took part in)."""
    email = world.get(EMAILS, email_id)
    if email is not None:
        if thread_of_email_for_user(world, user_id, email_id) is not None:
            return email
        participant = email["sender_id"] == user_id or user_id in (email.get("recipient_ids") or [])
        if participant and global_thread_of_email(world, email_id) is None:
            return email
    raise api_error(f"Email with email_id={email_id} does not exist in your mailbox.")


def thread_emails(world: World, thread: dict[str, Any]) -> list[dict[str, Any]]:
    emails = (world.get(EMAILS, i) for i in thread.get("email_ids") or [])
    return [e for e in emails if e is not None]


def attachments_of(world: World, *, email_id: int | None = None, draft_id: int | None = None) -> list[dict[str, Any]]:
    if email_id is not None:
        return world.select(ATTACHMENTS, "email_id = ?", (email_id,))
    return world.select(ATTACHMENTS, "draft_id = ?", (draft_id,))


def attachment_data(rows: Iterable[dict[str, Any]]) -> list[AttachmentData]:
    return [AttachmentData(r["file_name"], r.get("file_content"), r.get("file_compressed_data")) for r in rows]


def add_attachments(world: World, files: Iterable[AttachmentData], *, email_id: int | None = None,
                    draft_id: int | None = None) -> list[int]:
    ids = []
    for f in files:
        ids.append(world.insert(ATTACHMENTS, {"email_id": email_id, "draft_id": draft_id, "file_name": f.file_name,
                                              "file_content": f.file_content,
                                              "file_compressed_data": f.file_compressed_data, "download_count": 0,
                                              "created_at": now(world)}))
    return ids


def thread_subject(world: World, thread: dict[str, Any]) -> str:
    """The subject of a conversation: its first email's subject."""
    emails = thread_emails(world, thread)
    if not emails and thread.get("global_email_thread_id") is not None:
        g = world.get(GLOBAL_THREADS, thread["global_email_thread_id"])
        emails = thread_emails(world, g) if g else []
    return (emails[0].get("subject") or "") if emails else ""


def reply_subject(subject: str | None) -> str:
    subject = (subject or "").strip()
    return subject if subject.lower().startswith("re:") else f"Re: {subject}".strip()


def snoozed(world: World, thread: dict[str, Any]) -> bool:
    until = thread.get("snoozed_until")
    return bool(until) and str(until).replace(" ", "T")[:19] > now(world)


# ---------------------------------------------------------------------------------------------- sending
def _unique(items: Iterable[Any]) -> list[Any]:
    seen: dict[Any, None] = {}
    for x in items:
        seen.setdefault(x, None)
    return list(seen)


def refresh_user_thread(world: World, thread_id: int) -> None:
    """Recompute a user thread's derived columns from the emails it holds."""
    thread = world.get(USER_THREADS, thread_id)
    emails = thread_emails(world, thread)
    uid = thread["user_id"]
    sender_ids = _unique(e["sender_id"] for e in emails)
    recipient_ids = _unique(r for e in emails for r in (e.get("recipient_ids") or []))
    senders = [u for u in (world.get(USERS, i) for i in sender_ids) if u is not None]
    recipients = [u for u in (world.get(USERS, i) for i in recipient_ids) if u is not None]
    world.update(USER_THREADS, thread_id, {
        "incoming": any(uid in (e.get("recipient_ids") or []) for e in emails),
        "outgoing": any(e["sender_id"] == uid for e in emails),
        "sender_email_addresses": [u["email"] for u in senders], "sender_names": [full_name(u) for u in senders],
        "recipient_email_addresses": [u["email"] for u in recipients],
        "recipient_names": [full_name(u) for u in recipients],
        "has_attachments": any(attachments_of(world, email_id=e["id"]) for e in emails)})


def deliver(world: World, sender: dict[str, Any], recipients: list[dict[str, Any]], subject: str, body: str, *,
            global_thread_id: int | None = None, response_to_email_id: int | None = None,
            attachments: Iterable[AttachmentData] = (), at: str | None = None) -> tuple[int, int]:
    """Send one email: the email row, its attachments, the global thread and every participant's thread.

    Returns ``(email_id, sender's user thread id)``. Recipients get the thread unread and back in the inbox.
    """
    stamp = at or now(world)
    recipient_ids = _unique(r["id"] for r in recipients)
    email_id = world.insert(EMAILS, {"sender_id": sender["id"], "recipient_ids": recipient_ids, "subject": subject,
                                     "body": body, "response_to_email_id": response_to_email_id,
                                     "created_at": stamp})
    add_attachments(world, attachments, email_id=email_id)
    if global_thread_id is None:
        global_thread_id = world.insert(GLOBAL_THREADS, {"email_ids": [email_id], "created_at": stamp,
                                                         "updated_at": stamp})
    else:
        g = world.get(GLOBAL_THREADS, global_thread_id)
        world.update(GLOBAL_THREADS, global_thread_id, {"email_ids": [*(g.get("email_ids") or []), email_id],
                                                        "updated_at": stamp})
    sender_thread = 0
    for uid in _unique([sender["id"], *recipient_ids]):
        thread = user_thread_for(world, uid, global_thread_id)
        flags: dict[str, Any] = {"read": False, "archived": False} if uid in recipient_ids else {}
        if uid == sender["id"]:
            flags["read"] = True
        if thread is None:
            tid = world.insert(USER_THREADS, {
                "global_email_thread_id": global_thread_id, "user_id": uid, "email_ids": [email_id],
                "incoming": False, "outgoing": False, "read": True, "label": None, "starred": False,
                "archived": False, "spam": False, "created_at": stamp, "updated_at": stamp,
                "has_attachments": False, "snoozed_until": None, **flags})
        else:
            tid = thread["id"]
            world.update(USER_THREADS, tid, {"email_ids": [*(thread.get("email_ids") or []), email_id],
                                             "updated_at": stamp, **flags})
        refresh_user_thread(world, tid)
        if uid == sender["id"]:
            sender_thread = tid
    return email_id, sender_thread


def reply_targets(world: World, user: dict[str, Any], email: dict[str, Any]) -> list[dict[str, Any]]:
    """Default reply recipients: the sender, or the original recipients when replying to one's own email."""
    if email["sender_id"] != user["id"]:
        ids = [email["sender_id"]]
    else:
        ids = [i for i in email.get("recipient_ids") or [] if i != user["id"]] or [user["id"]]
    users = [u for u in (world.get(USERS, i) for i in ids) if u is not None]
    if not users:
        raise api_error(f"The people in email {email['id']} no longer have Gmail accounts; give email_addresses.")
    return users


def forward_block(world: World, email: dict[str, Any]) -> str:
    """The quoted text of one forwarded email."""
    sender = world.get(USERS, email["sender_id"])
    recipients = [world.get(USERS, i) for i in email.get("recipient_ids") or []]
    to = ", ".join(f"{full_name(u)} <{u['email']}>" for u in recipients if u is not None)
    return (f"---------- Forwarded message ----------\nFrom: {full_name(sender)} "
            f"<{(sender or {}).get('email', '')}>\nDate: {str(email.get('created_at') or '').replace('T', ' ')}\n"
            f"Subject: {email.get('subject') or ''}\nTo: {to}\n\n{email.get('body') or ''}")


def forward_subject(subject: str | None) -> str:
    subject = (subject or "").strip()
    return subject if subject.lower().startswith("fwd:") else f"Fwd: {subject}".strip()


# ---------------------------------------------------------------------------------------------- views
def attachment_refs(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"attachment_id": a["id"], "file_name": a["file_name"]} for a in rows]


def email_view(world: World, email: dict[str, Any], user_id: int) -> dict[str, Any]:
    thread = thread_of_email_for_user(world, user_id, email["id"])
    return {"email_id": email["id"], "email_thread_id": thread["id"] if thread else None,
            "subject": email.get("subject") or "", "body": email.get("body") or "",
            "response_to_email_id": email.get("response_to_email_id"), "created_at": email.get("created_at"),
            "sender": contact(world.get(USERS, email["sender_id"])),
            "recipients": [contact(world.get(USERS, i)) for i in email.get("recipient_ids") or []],
            "attachments": attachment_refs(attachments_of(world, email_id=email["id"]))}


def drafts_of_thread(world: World, thread: dict[str, Any]) -> list[dict[str, Any]]:
    return world.select(DRAFTS, "user_id = ? AND belongs_to_email_thread_id = ?", (thread["user_id"], thread["id"]))


def _people(addresses: list[str] | None, names: list[str] | None) -> list[dict[str, Any]]:
    addresses, names = list(addresses or []), list(names or [])
    return [{"name": names[i] if i < len(names) else "", "email": a} for i, a in enumerate(addresses)]


def thread_summary(world: World, thread: dict[str, Any]) -> dict[str, Any]:
    """A thread without its email bodies (what the listings return)."""
    return {"email_thread_id": thread["id"], "subject": thread_subject(world, thread),
            "email_ids": list(thread.get("email_ids") or []),
            "draft_ids": [d["id"] for d in drafts_of_thread(world, thread)],
            "incoming": bool(thread.get("incoming")), "outgoing": bool(thread.get("outgoing")),
            "read": bool(thread.get("read")), "label": thread.get("label"),
            "snoozed_until": thread.get("snoozed_until") if snoozed(world, thread) else None,
            "starred": bool(thread.get("starred")), "archived": bool(thread.get("archived")),
            "spam": bool(thread.get("spam")), "has_attachments": bool(thread.get("has_attachments")),
            "senders": _people(thread.get("sender_email_addresses"), thread.get("sender_names")),
            "recipients": _people(thread.get("recipient_email_addresses"), thread.get("recipient_names")),
            "created_at": thread.get("created_at"), "updated_at": thread.get("updated_at")}


def draft_view(world: World, draft: dict[str, Any]) -> dict[str, Any]:
    return {"draft_id": draft["id"], "subject": draft.get("subject") or "", "body": draft.get("body") or "",
            "recipients": _people(draft.get("recipient_email_addresses"), draft.get("recipient_names")),
            "belongs_to_email_thread_id": draft.get("belongs_to_email_thread_id"),
            "response_to_email_id": draft.get("response_to_email_id"),
            "scheduled_send_at": draft.get("scheduled_send_at"),
            "attachments": attachment_refs(attachments_of(world, draft_id=draft["id"])),
            "created_at": draft.get("created_at"), "updated_at": draft.get("updated_at")}


def thread_search_text(world: World, thread: dict[str, Any]) -> list[str | None]:
    """What a thread query matches: subjects, bodies, people and the label."""
    texts: list[str | None] = [thread.get("label")]
    for e in thread_emails(world, thread):
        texts += [e.get("subject"), e.get("body")]
    texts += list(thread.get("sender_names") or []) + list(thread.get("sender_email_addresses") or [])
    texts += list(thread.get("recipient_names") or []) + list(thread.get("recipient_email_addresses") or [])
    return texts
