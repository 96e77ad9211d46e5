"""Messages tools (10): text messages and voice messages (transcripts) between phone users.

Sending writes one ``global_*_messages`` row plus a per-user copy (``user_*_messages``) for the sender and for
the receiver (one copy when you text yourself), as AppWorld's phone app does. The ids the tools take and return
(``text_message_id``/``voice_message_id``) are the ids of the caller's own copies: the sender and the receiver
hold different ids for one message, each opens a message only through their own copy, and deleting removes only
the deleting user's copy. Messages can only be sent to numbers that belong to a phone user (as in the reference's
phone app); any other number is refused with an error naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mmtsb.apps.common import api_error, paginate, parse_date, parse_sort_by, search_rank
from mmtsb.apps.phone.core import TOKEN, digits, full_name, me, require_phone_user, timestamp
from mmtsb.apps.phone.schema import CONTACTS, GLOBAL_TEXTS, GLOBAL_VOICES, USER_TEXTS, USER_VOICES, USERS
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

DOMAIN = "messages"
SYSTEM_SENDER = "Phone"


@dataclass(frozen=True)
class Kind:
    """Text or voice: the tables and names that differ between the two message families."""

    noun: str            # "text" / "voice"
    global_table: str
    user_table: str
    link: str            # column of the user table that points to the global row
    id_key: str          # id field in tool results

    @property
    def title(self) -> str:
        return self.noun.capitalize()


TEXT = Kind("text", GLOBAL_TEXTS, USER_TEXTS, "global_text_message_id", "text_message_id")
VOICE = Kind("voice", GLOBAL_VOICES, USER_VOICES, "global_voice_message_id", "voice_message_id")


# ------------------------------------------------------------------------------------------ storage
def send(world: World, kind: Kind, sender_id: int | None, receiver_id: int, message: str) -> int:
    """Write one message: the global row and a copy for each participant; returns the sender's copy id (the
    receiver's for a message from the phone service itself)."""
    now = world.clock.now_str()
    gid = world.insert(kind.global_table, {"sender_id": sender_id, "receiver_id": receiver_id, "message": message,
                                           "created_at": now})
    copies = [world.insert(kind.user_table, {"user_id": uid, kind.link: gid, "created_at": now})
              for uid in dict.fromkeys(u for u in (sender_id, receiver_id) if u is not None)]
    return int(copies[0])


def deliver_system_text(world: World, receiver_id: int, message: str) -> int:
    """A text from the phone service itself (no sender account), e.g. a password reset code."""
    return send(world, TEXT, None, receiver_id, message)


def _as_seen(copy: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    """A message as one participant holds it: the global row under the id of their copy."""
    return {**row, "id": copy["id"]}


def _visible(world: World, kind: Kind, user_id: int) -> list[dict[str, Any]]:
    """The messages this user holds a copy of, each under its copy's id."""
    copies = world.select(kind.user_table, "user_id = ?", (user_id,))
    rows = {r["id"]: r for r in world.select(
        kind.global_table, f"id IN ({','.join('?' * len(copies))})", tuple(c[kind.link] for c in copies))} \
        if copies else {}
    return [_as_seen(c, rows[c[kind.link]]) for c in copies if c[kind.link] in rows]


def _own_message(world: World, kind: Kind, user_id: int, message_id: int) -> dict[str, Any]:
    """The message whose copy ``message_id`` the user holds (AppWorld's two errors: no such copy, or another
    participant's copy)."""
    copy = world.get(kind.user_table, message_id)
    row = world.get(kind.global_table, copy[kind.link]) if copy is not None else None
    if row is None:
        raise api_error(f"{kind.title} message with {kind.id_key}={message_id} does not exist.")
    if copy["user_id"] != user_id:
        raise api_error(f"The given {kind.noun} message does not belong to you, so you cannot access it "
                        f"({kind.id_key}={message_id} is another participant's copy; each participant's copy has "
                        "its own id).")
    return _as_seen(copy, row)


def _other_party(row: dict[str, Any], user_id: int) -> int | None:
    return row["receiver_id"] if row.get("sender_id") == user_id else row.get("sender_id")


# ------------------------------------------------------------------------------------------ presentation
class _People:
    """Resolves user ids to ``{contact_id, name, phone_number}`` as the owner's phone shows them."""

    def __init__(self, world: World, owner: dict[str, Any]) -> None:
        self.world = world
        self.owner = owner
        self._contacts = {digits(c.get("phone_number")): c
                          for c in world.select(CONTACTS, "user_id = ?", (owner["id"],), order_by="id DESC")
                          if digits(c.get("phone_number"))}
        self._cache: dict[int | None, dict[str, Any]] = {}

    def party(self, user_id: int | None) -> dict[str, Any]:
        if user_id not in self._cache:
            self._cache[user_id] = self._resolve(user_id)
        return self._cache[user_id]

    def _resolve(self, user_id: int | None) -> dict[str, Any]:
        if user_id is None:
            return {"contact_id": None, "name": SYSTEM_SENDER, "phone_number": None}
        user = self.owner if user_id == self.owner["id"] else self.world.get(USERS, user_id)
        if user is None:
            return {"contact_id": None, "name": f"Unknown user {user_id}", "phone_number": None}
        contact = None if user_id == self.owner["id"] else self._contacts.get(digits(user.get("phone_number")))
        name = full_name(contact) if contact else full_name(user)
        return {"contact_id": contact["id"] if contact else None, "name": name,
                "phone_number": user.get("phone_number")}

    def render(self, kind: Kind, row: dict[str, Any]) -> dict[str, Any]:
        return {kind.id_key: row["id"], "sender": self.party(row.get("sender_id")),
                "receiver": self.party(row.get("receiver_id")), "message": row.get("message"),
                "sent_at": row.get("created_at")}

    def search_text(self, row: dict[str, Any]) -> tuple[str | None, ...]:
        other = self.party(_other_party(row, self.owner["id"]))
        return row.get("message"), other["name"], other["phone_number"], digits(other["phone_number"])


def _chronological(rows: list[dict[str, Any]], descending: bool = False) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (timestamp(r.get("created_at")), r["id"]), reverse=descending)


# ------------------------------------------------------------------------------------------ behaviour
def show_window(world: World, kind: Kind, phone_number: str, min_datetime: str | None, max_datetime: str | None,
                pagination_order: str | None, page_index: int | None, page_limit: int | None) -> list[dict[str, Any]]:
    owner = me(world)
    other = require_phone_user(world, phone_number)
    low = parse_date(min_datetime or "1500-01-01|00:00:00", "min_datetime")
    high = parse_date(max_datetime or "3000-01-01|00:00:00", "max_datetime")
    if low > high:
        raise api_error(f"min_datetime {min_datetime!r} is after max_datetime {max_datetime!r}.")
    order = (pagination_order or "descending").strip().lower()
    if order not in ("ascending", "descending"):
        raise api_error(f"Invalid pagination_order {pagination_order!r}: use 'ascending' or 'descending'.")
    rows = [r for r in _visible(world, kind, owner["id"]) if _other_party(r, owner["id"]) == other["id"]
            and low <= timestamp(r.get("created_at")) <= high]
    page = paginate(_chronological(rows, descending=order == "descending"), page_index, page_limit)
    people = _People(world, owner)
    return [people.render(kind, r) for r in _chronological(page)]


def search(world: World, kind: Kind, query: str | None, phone_number: str | None, only_latest_per_contact: bool | None,
           page_index: int | None, page_limit: int | None, sort_by: str | None) -> list[dict[str, Any]]:
    owner = me(world)
    spec = parse_sort_by(sort_by, ("created_at",)) or ("created_at", True)
    rows = _visible(world, kind, owner["id"])
    if phone_number:
        other = require_phone_user(world, phone_number)
        rows = [r for r in rows if _other_party(r, owner["id"]) == other["id"]]
    people = _People(world, owner)
    text_of: Callable[[dict[str, Any]], tuple[str | None, ...]] = people.search_text
    has_query = bool(query and query.strip())
    if has_query:
        rows = search_rank(rows, query, text_of)
    if only_latest_per_contact:
        latest: dict[int | None, dict[str, Any]] = {}
        for r in rows:
            key = _other_party(r, owner["id"])
            if key not in latest or (timestamp(r.get("created_at")), r["id"]) > (
                    timestamp(latest[key].get("created_at")), latest[key]["id"]):
                latest[key] = r
        keep = {r["id"] for r in latest.values()}
        rows = [r for r in rows if r["id"] in keep]
    if has_query:  # ranked by relevance, paginated, then sorted within the page
        page = _chronological(paginate(rows, page_index, page_limit), descending=spec[1]) if sort_by else \
            paginate(rows, page_index, page_limit)
    else:
        page = paginate(_chronological(rows, descending=spec[1]), page_index, page_limit)
    return [people.render(kind, r) for r in page]


def show_one(world: World, kind: Kind, message_id: int) -> dict[str, Any]:
    owner = me(world)
    return _People(world, owner).render(kind, _own_message(world, kind, owner["id"], message_id))


def delete(world: World, kind: Kind, message_id: int) -> dict[str, str]:
    owner = me(world)
    _own_message(world, kind, owner["id"], message_id)
    world.delete(kind.user_table, message_id)
    return {"message": f"{kind.title} message deleted."}


def send_to_number(world: World, kind: Kind, phone_number: str, message: str) -> dict[str, Any]:
    owner = me(world)
    if message is None or not message.strip():
        raise api_error("message must be at least 1 character long.")
    receiver = require_phone_user(world, phone_number)
    copy_id = send(world, kind, owner["id"], receiver["id"], message)
    return {"message": f"{kind.title} message sent.", kind.id_key: copy_id}


# ------------------------------------------------------------------------------------------ text tools
@tool(domain=DOMAIN, requires=TOKEN, tables=(GLOBAL_TEXTS, USER_TEXTS))
def messages_show_text_message_window(world: World, phone_number: str,
                                      min_datetime: str | None = "1500-01-01|00:00:00",
                                      max_datetime: str | None = "3000-01-01|00:00:00",
                                      pagination_order: str | None = "descending", page_index: int | None = 0,
                                      page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Shows the text conversation with one number within a time window.

    Each page is ordered oldest to newest; with pagination_order 'descending' (default) page 0 holds the
    newest messages and later pages go back in time, with 'ascending' page 0 holds the oldest.

    Args:
        phone_number: the other person's phone number (must belong to a phone user).
        min_datetime: earliest sent time, inclusive, as YYYY-MM-DD|HH:MM:SS (or YYYY-MM-DD).
        max_datetime: latest sent time, inclusive, as YYYY-MM-DD|HH:MM:SS (or YYYY-MM-DD).
        pagination_order: 'descending' (later pages older) or 'ascending' (later pages newer).
        page_index: the page to return, from 0.
        page_limit: messages per page, 1 to 20.

    Returns:
        list[{text_message_id, sender: {contact_id, name, phone_number}, receiver: {contact_id, name, phone_number},
        message, sent_at}]
    """
    return show_window(world, TEXT, phone_number, min_datetime, max_datetime, pagination_order, page_index,
                       page_limit)


@tool(domain=DOMAIN, requires=TOKEN, tables=(GLOBAL_TEXTS, USER_TEXTS))
def messages_search_text_messages(world: World, query: str | None = "", phone_number: str | None = None,
                                  only_latest_per_contact: bool | None = False, page_index: int | None = 0,
                                  page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches text messages, optionally only the newest per contact.

    With a query, messages whose text or other party (name or number) match are ranked by relevance,
    paginated, then sorted within the page when sort_by is given; without one they are listed newest first.

    Args:
        query: words to look for in the message text and the other party's name or number; empty lists all.
        phone_number: keeps only the conversation with this number (must belong to a phone user).
        only_latest_per_contact: keeps only the newest (matching) message of each conversation.
        page_index: the page to return, from 0.
        page_limit: messages per page, 1 to 20.
        sort_by: '+created_at' (oldest first) or '-created_at' (newest first, the default).

    Returns:
        list[{text_message_id, sender: {contact_id, name, phone_number}, receiver: {contact_id, name, phone_number},
        message, sent_at}]
    """
    return search(world, TEXT, query, phone_number, only_latest_per_contact, page_index, page_limit, sort_by)


@tool(domain=DOMAIN, requires=TOKEN, tables=(GLOBAL_TEXTS, USER_TEXTS))
def messages_show_text_message(world: World, text_message_id: int) -> dict[str, Any]:
    """Returns one text message.

    Args:
        text_message_id: the id of your copy of the message (from a search, a window listing or sending it).

    Returns:
        {text_message_id, sender: {contact_id, name, phone_number}, receiver: {contact_id, name, phone_number},
        message, sent_at}
    """
    return show_one(world, TEXT, text_message_id)


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(GLOBAL_TEXTS, USER_TEXTS))
def messages_delete_text_message(world: World, text_message_id: int) -> dict[str, str]:
    """Deletes a text message from your phone (the other person keeps their copy).

    Args:
        text_message_id: the id of your copy of the message.

    Returns:
        {message}
    """
    return delete(world, TEXT, text_message_id)


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(GLOBAL_TEXTS, USER_TEXTS))
def messages_send_text_message(world: World, phone_number: str, message: str) -> dict[str, Any]:
    """Sends an SMS to a phone number.

    The number must belong to a phone user (find it with contacts_search_contacts); it is matched exactly or
    by its digits, so '555-0101' and '5550101' are the same number.

    Args:
        phone_number: the recipient's phone number.
        message: the text to send (at least 1 character).

    Returns:
        {message, text_message_id}
    """
    return send_to_number(world, TEXT, phone_number, message)


# ------------------------------------------------------------------------------------------ voice tools
@tool(domain=DOMAIN, requires=TOKEN, tables=(GLOBAL_VOICES, USER_VOICES))
def messages_show_voice_message_window(world: World, phone_number: str,
                                       min_datetime: str | None = "1500-01-01|00:00:00",
                                       max_datetime: str | None = "3000-01-01|00:00:00",
                                       pagination_order: str | None = "descending", page_index: int | None = 0,
                                       page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Shows voice messages with one number within a time window.

    Each page is ordered oldest to newest; with pagination_order 'descending' (default) page 0 holds the
    newest messages and later pages go back in time, with 'ascending' page 0 holds the oldest.

    Args:
        phone_number: the other person's phone number (must belong to a phone user).
        min_datetime: earliest sent time, inclusive, as YYYY-MM-DD|HH:MM:SS (or YYYY-MM-DD).
        max_datetime: latest sent time, inclusive, as YYYY-MM-DD|HH:MM:SS (or YYYY-MM-DD).
        pagination_order: 'descending' (later pages older) or 'ascending' (later pages newer).
        page_index: the page to return, from 0.
        page_limit: messages per page, 1 to 20.

    Returns:
        list[{voice_message_id, sender: {contact_id, name, phone_number}, receiver: {contact_id, name, phone_number},
        message, sent_at}] (message is the transcript)
    """
    return show_window(world, VOICE, phone_number, min_datetime, max_datetime, pagination_order, page_index,
                       page_limit)


@tool(domain=DOMAIN, requires=TOKEN, tables=(GLOBAL_VOICES, USER_VOICES))
def messages_search_voice_messages(world: World, query: str | None = "", phone_number: str | None = None,
                                   only_latest_per_contact: bool | None = False, page_index: int | None = 0,
                                   page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches voice messages (by transcript text or the other party).

    With a query, matching messages are ranked by relevance, paginated, then sorted within the page when
    sort_by is given; without one they are listed newest first.

    Args:
        query: words to look for in the transcript and the other party's name or number; empty lists all.
        phone_number: keeps only the messages exchanged with this number (must belong to a phone user).
        only_latest_per_contact: keeps only the newest (matching) message per person.
        page_index: the page to return, from 0.
        page_limit: messages per page, 1 to 20.
        sort_by: '+created_at' (oldest first) or '-created_at' (newest first, the default).

    Returns:
        list[{voice_message_id, sender: {contact_id, name, phone_number}, receiver: {contact_id, name, phone_number},
        message, sent_at}]
    """
    return search(world, VOICE, query, phone_number, only_latest_per_contact, page_index, page_limit, sort_by)


@tool(domain=DOMAIN, requires=TOKEN, tables=(GLOBAL_VOICES, USER_VOICES))
def messages_show_voice_message(world: World, voice_message_id: int) -> dict[str, Any]:
    """Returns one voice message (its transcript).

    Args:
        voice_message_id: the id of your copy of the message (from a search, a window listing or sending it).

    Returns:
        {voice_message_id, sender: {contact_id, name, phone_number}, receiver: {contact_id, name, phone_number},
        message, sent_at}
    """
    return show_one(world, VOICE, voice_message_id)


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(GLOBAL_VOICES, USER_VOICES))
def messages_delete_voice_message(world: World, voice_message_id: int) -> dict[str, str]:
    """Deletes a voice message from your phone (the other person keeps their copy).

    Args:
        voice_message_id: the id of your copy of the message.

    Returns:
        {message}
    """
    return delete(world, VOICE, voice_message_id)


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(GLOBAL_VOICES, USER_VOICES))
def messages_send_voice_message(world: World, phone_number: str, message: str) -> dict[str, Any]:
    """Sends a voice message (given as its transcript text) to a phone number.

    The number must belong to a phone user (find it with contacts_search_contacts); it is matched exactly or
    by its digits.

    Args:
        phone_number: the recipient's phone number.
        message: the transcript of the voice message (at least 1 character).

    Returns:
        {message, voice_message_id}
    """
    return send_to_number(world, VOICE, phone_number, message)

