"""Contacts tools (6): the logged-in phone user's address book (``phone.contacts``)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from mmtsb.apps.accounts import check_email
from mmtsb.apps.common import api_error, paginate, search_rank
from mmtsb.apps.phone.core import ONLINE, TOKEN, digits, find_phone_user, me
from mmtsb.apps.phone.schema import CONTACTS, USERS
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

DOMAIN = "contacts"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PHONE_CHARS = re.compile(r"^[0-9+()\-.\s]+$")


def _out(c: dict[str, Any]) -> dict[str, Any]:
    return {"contact_id": c["id"], "first_name": c.get("first_name"), "last_name": c.get("last_name"),
            "email": c.get("email"), "phone_number": c.get("phone_number"),
            "relationships": list(c.get("relationships") or []), "birthday": c.get("birthday"),
            "home_address": c.get("home_address"), "work_address": c.get("work_address"),
            "created_at": c.get("created_at")}


def _mine(world: World) -> tuple[int, list[dict[str, Any]]]:
    uid = int(me(world)["id"])
    return uid, world.select(CONTACTS, "user_id = ?", (uid,))


def _own_contact(world: World, contact_id: int) -> dict[str, Any]:
    row = world.get(CONTACTS, contact_id)
    if row is None or row.get("user_id") != me(world)["id"]:
        raise api_error(f"Contact with contact_id={contact_id} does not exist.")
    return row


def _name(value: str, field: str) -> str:
    if value is None or not value.strip():
        raise api_error(f"{field} must be at least 1 character long.")
    return value.strip()


def _email(world: World, uid: int, email: str, exclude_id: int | None = None) -> str:
    email = check_email((email or "").strip())
    for c in world.select(CONTACTS, "user_id = ? AND lower(email) = lower(?)", (uid, email)):
        if c["id"] != exclude_id:
            raise api_error(f"A contact with email {email!r} already exists (contact_id={c['id']}).")
    return email


def _phone(value: str) -> str:
    if not _PHONE_CHARS.match(value) or len(digits(value)) < 3:
        raise api_error(f"Invalid phone_number {value!r}: use digits, optionally with spaces, '-', '(', ')' "
                        "or a leading '+'.")
    return value.strip()


def _birthday(value: str) -> str:
    try:
        if not _DATE.match(value.strip()):
            raise ValueError
        date.fromisoformat(value.strip())
    except ValueError:
        raise api_error(f"Invalid birthday {value!r}: use YYYY-MM-DD.") from None
    return value.strip()


def _relationships(values: list[str]) -> list[str]:
    out: list[str] = []
    for v in values:
        if not v or not v.strip():
            raise api_error("relationships must not contain empty labels.")
        if v.strip().lower() not in (o.lower() for o in out):
            out.append(v.strip())
    return out


def _optional(value: str | None, check: Any) -> str | None:
    """An optional field: None stays None, '' clears it, anything else is validated."""
    if value is None or not value.strip():
        return None
    return check(value)


@tool(domain=DOMAIN, requires=TOKEN, tables=(CONTACTS,))
def contacts_show_contact_relationships(world: World) -> list[str]:
    """Lists every relationship label used in the contact book (e.g. friend, coworker, spouse).

    Use a label with contacts_search_contacts(relationship=...) to list the people with it.

    Returns:
        list[str] (sorted, each label once)
    """
    _, rows = _mine(world)
    labels: dict[str, str] = {}
    for c in rows:
        for rel in c.get("relationships") or []:
            labels.setdefault(str(rel).lower(), str(rel))
    return sorted(labels.values(), key=str.lower)


@tool(domain=DOMAIN, requires=TOKEN, tables=(CONTACTS,))
def contacts_search_contacts(world: World, query: str | None = "", relationship: str | None = None,
                             page_index: int | None = 0, page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches the contact book by text and/or relationship.

    With a query, contacts whose name, email, phone number or addresses match are ranked by relevance (a
    full name match first); without one every contact is listed alphabetically by name.

    Args:
        query: words to look for (e.g. 'Alex', 'Alex Johnson', an email or a phone number); empty lists all.
        relationship: keeps contacts having this relationship label (case-insensitive, see
            contacts_show_contact_relationships).
        page_index: the page to return, from 0.
        page_limit: contacts per page, 1 to 20.

    Returns:
        list[{contact_id, first_name, last_name, email, phone_number, relationships, birthday, home_address,
        work_address, created_at}]
    """
    _, rows = _mine(world)
    if relationship is not None and relationship.strip():
        wanted = relationship.strip().lower()
        rows = [c for c in rows if wanted in {str(r).lower() for r in c.get("relationships") or []}]
    if query and query.strip():
        rows = search_rank(rows, query, lambda c: (c.get("first_name"), c.get("last_name"), c.get("email"),
                                                   c.get("phone_number"), digits(c.get("phone_number")),
                                                   c.get("home_address"), c.get("work_address")))
    else:
        rows = sorted(rows, key=lambda c: ((c.get("first_name") or "").lower(), (c.get("last_name") or "").lower(),
                                           c["id"]))
    return [_out(c) for c in paginate(rows, page_index, page_limit)]


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(CONTACTS,))
def contacts_add_contact(world: World, first_name: str, last_name: str, email: str, phone_number: str | None = None,
                         relationships: list[str] | None = None, birthday: str | None = None,
                         home_address: str | None = None, work_address: str | None = None) -> dict[str, Any]:
    """Creates a contact entry.

    Args:
        first_name: first name (at least 1 character).
        last_name: last name (at least 1 character).
        email: a valid email address; no other contact may have it.
        phone_number: the phone number, stored as given (digits with optional spaces, '-', '(', ')', '+').
        relationships: relationship labels, e.g. ['friend', 'coworker'].
        birthday: the birthday as YYYY-MM-DD.
        home_address: the home address as one line of text.
        work_address: the work address as one line of text.

    Returns:
        {message, contact_id}
    """
    uid = int(me(world)["id"])
    row = {"user_id": uid, "first_name": _name(first_name, "first_name"), "last_name": _name(last_name, "last_name"),
           "email": _email(world, uid, email), "phone_number": _optional(phone_number, _phone),
           "relationships": _relationships(relationships or []), "birthday": _optional(birthday, _birthday),
           "home_address": _optional(home_address, str.strip), "work_address": _optional(work_address, str.strip),
           "created_at": world.clock.now_str()}
    contact_id = world.insert(CONTACTS, row)
    return {"message": "Contact added.", "contact_id": contact_id}


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(CONTACTS,))
def contacts_update_contact(world: World, contact_id: int, first_name: str | None = None,
                            last_name: str | None = None, phone_number: str | None = None, email: str | None = None,
                            relationships: list[str] | None = None, birthday: str | None = None,
                            home_address: str | None = None, work_address: str | None = None) -> dict[str, str]:
    """Edits any fields of an existing contact; omitted fields keep their values.

    An empty string clears phone_number, birthday, home_address or work_address; an empty list clears
    relationships. Give at least one field.

    Args:
        contact_id: the contact's id (see contacts_search_contacts).
        first_name: the new first name (at least 1 character).
        last_name: the new last name (at least 1 character).
        phone_number: the new phone number ('' clears it).
        email: the new email address (valid, not used by another contact).
        relationships: the new relationship labels (replace the old list).
        birthday: the new birthday as YYYY-MM-DD ('' clears it).
        home_address: the new home address ('' clears it).
        work_address: the new work address ('' clears it).

    Returns:
        {message}
    """
    contact = _own_contact(world, contact_id)
    fields: dict[str, Any] = {}
    if first_name is not None:
        fields["first_name"] = _name(first_name, "first_name")
    if last_name is not None:
        fields["last_name"] = _name(last_name, "last_name")
    if email is not None:
        fields["email"] = _email(world, contact["user_id"], email, exclude_id=contact_id)
    if phone_number is not None:
        fields["phone_number"] = _optional(phone_number, _phone)
    if relationships is not None:
        fields["relationships"] = _relationships(relationships)
    if birthday is not None:
        fields["birthday"] = _optional(birthday, _birthday)
    for key, value in (("home_address", home_address), ("work_address", work_address)):
        if value is not None:
            fields[key] = _optional(value, str.strip)
    if not fields:
        raise api_error("Nothing to update: give at least one of first_name, last_name, phone_number, email, "
                        "relationships, birthday, home_address, work_address.")
    world.update(CONTACTS, contact_id, fields)
    return {"message": "Contact updated."}


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(CONTACTS,))
def contacts_delete_contact(world: World, contact_id: int) -> dict[str, str]:
    """Removes a contact from the contact book.

    Args:
        contact_id: the contact's id (see contacts_search_contacts).

    Returns:
        {message}
    """
    _own_contact(world, contact_id)
    world.delete(CONTACTS, contact_id)
    return {"message": "Contact deleted."}


@tool(domain=DOMAIN, requires=ONLINE, tables=(USERS,))
def contacts_show_profile(world: World, phone_number: str | None = None) -> dict[str, Any]:
    """Shows a phone user's public profile by phone number (no login needed for another user's number).

    Args:
        phone_number: the user's phone number (matched exactly or by its digits); omitted shows the profile of
            the logged-in phone user.

    Returns:
        {first_name, last_name, phone_number, registered_at}
    """
    if phone_number is None:
        user = me(world)
    else:
        user = find_phone_user(world, phone_number)
        if user is None:
            raise api_error(f"No phone user has the phone number {phone_number!r}.")
    return {"first_name": user["first_name"], "last_name": user["last_name"], "phone_number": user["phone_number"],
            "registered_at": user.get("created_at")}
