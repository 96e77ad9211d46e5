"""SimpleNote tools: the exact surface of the reference (17 tools), backed by ``simple_note.notes``."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.account_tools import EMAIL_OF_NO_ACCOUNT, AccountApp, Wording, add_account_tools
from mmtsb.apps.common import api_error, current_user_id, paged_search, require_non_empty
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

APP = "simple_note"
NOTES = "simple_note.notes"
ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)


# ------------------------------------------------------------------------------------------ account
# simple_note_show_account, simple_note_signup, simple_note_delete_account, simple_note_update_account_name,
# simple_note_login, simple_note_logout, simple_note_send_verification_code, simple_note_verify_account,
# simple_note_send_password_reset_code, simple_note_reset_password and simple_note_show_profile:
add_account_tools(globals(), AccountApp(APP, "SimpleNote", owned_tables=(NOTES,), wording={
    "signup": Wording(args=EMAIL_OF_NO_ACCOUNT),
    "delete_account": Wording("Deletes the logged-in user's SimpleNote account with all their notes."),
    "login": Wording("Logs into SimpleNote; on success the app counts as authenticated.")}))


# ------------------------------------------------------------------------------------------ notes
def _summary(note: dict[str, Any], with_content: bool = False) -> dict[str, Any]:
    out = {"note_id": note["id"], "title": note["title"], "tags": note.get("tags") or [],
           "created_at": note.get("created_at"), "updated_at": note.get("updated_at"),
           "pinned": bool(note.get("pinned"))}
    if with_content:
        out = {"note_id": note["id"], "title": note["title"], "content": note.get("content") or "",
               **{k: v for k, v in out.items() if k not in ("note_id", "title")}}
    return out


def _check_tags(tags: list[str] | None) -> list[str]:
    """A new note's tags without surrounding blanks; a blank tag is refused (as AppWorld's create_note does; its
    update_note stores the tags as given)."""
    cleaned = [t.strip() for t in tags or []]
    if any(not t for t in cleaned):
        raise api_error("Tags must be at least 1 character long.")
    return cleaned


def _check_unique_title(world: World, user_id: int, title: str, note_id: int | None = None) -> None:
    """A user's notes have distinct titles (AppWorld's uniqueness of (user, title))."""
    if any(n["id"] != note_id for n in world.select(NOTES, "user_id = ? AND title = ?", (user_id, title))):
        raise api_error(f"A note titled {title!r} already exists; note titles must be unique.")


def _own_note(world: World, note_id: int) -> dict[str, Any]:
    note = world.get(NOTES, note_id)
    if note is None or note["user_id"] != current_user_id(world, APP):
        raise api_error(f"Note with note_id={note_id} does not exist.")
    return note


@tool(domain=APP, requires=AUTHED, tables=(NOTES,))
def simple_note_search_notes(world: World, query: str | None = "", tags: list[str] | None = None,
                             pinned: bool | None = None, dont_reorder_pinned: bool | None = None,
                             page_index: int | None = 0, page_limit: int | None = 5,
                             sort_by: str | None = None) -> list[dict[str, Any]]:
    """Searches notes (without their content), pinned first by default.

    Args:
        query: words to look for in titles, content and tags; empty lists every note.
        tags: keeps notes having any of these tags.
        pinned: keeps only pinned (true) or unpinned (false) notes.
        dont_reorder_pinned: pinned notes float to the top unless this is true.
        page_index: the page to return, from 0.
        page_limit: notes per page, 1 to 20.
        sort_by: +/- created_at, updated_at or pinned; default -updated_at (without a query).

    Returns:
        list[{note_id, title, tags, created_at, updated_at, pinned}]
    """
    notes = world.select(NOTES, "user_id = ?", (current_user_id(world, APP),))
    if tags:
        wanted = {t.lower() for t in tags}
        notes = [n for n in notes if wanted & {t.lower() for t in (n.get("tags") or [])}]
    if pinned is not None:
        notes = [n for n in notes if bool(n.get("pinned")) == pinned]
    page = paged_search(notes, query, lambda n: (n["title"], n.get("content"), " ".join(n.get("tags") or [])),
                        page_index, page_limit, sort_by, ("created_at", "updated_at", "pinned"),
                        default_sort="-updated_at")
    if not dont_reorder_pinned:
        page = [n for n in page if n.get("pinned")] + [n for n in page if not n.get("pinned")]
    return [_summary(n) for n in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTES,))
def simple_note_create_note(world: World, title: str, content: str, tags: list[str] | None = None,
                            pinned: bool | None = False) -> dict[str, Any]:
    """Creates a note.

    Args:
        title: the note title (at least 1 character; unique among your notes).
        content: the note text.
        tags: tags to attach (each at least 1 character).
        pinned: pin the note to the top.

    Returns:
        {message, note_id}
    """
    require_non_empty(title, "title")
    user_id = current_user_id(world, APP)
    tags = _check_tags(tags)
    _check_unique_title(world, user_id, title)
    now = world.clock.now_str()
    note_id = world.insert(NOTES, {"user_id": user_id, "title": title, "content": content,
                                   "tags": tags, "pinned": bool(pinned), "created_at": now,
                                   "updated_at": now})
    return {"message": "Note created.", "note_id": note_id}


@tool(domain=APP, requires=AUTHED, tables=(NOTES,))
def simple_note_show_note(world: World, note_id: int) -> dict[str, Any]:
    """Returns a note including its content.

    Args:
        note_id: the note's id.

    Returns:
        {note_id, title, content, tags, created_at, updated_at, pinned}
    """
    return _summary(_own_note(world, note_id), with_content=True)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTES,))
def simple_note_update_note(world: World, note_id: int, title: str | None = None, content: str | None = None,
                            tags: list[str] | None = None, pinned: bool | None = None) -> dict[str, str]:
    """Edits a note's title, content, tags or pin flag.

    Args:
        note_id: the note's id.
        title: the new title (at least 1 character; unique among your notes).
        content: the new content (replaces the old text).
        tags: the new tag list (replaces the old tags; stored as given).
        pinned: the new pin flag.

    Returns:
        {message}
    """
    note = _own_note(world, note_id)
    if title is not None:
        require_non_empty(title, "title")
        _check_unique_title(world, note["user_id"], title, note_id)
    fields = {k: v for k, v in (("title", title), ("content", content), ("tags", tags), ("pinned", pinned))
              if v is not None}
    if not fields:
        raise api_error("Nothing to update: give title, content, tags or pinned.")
    fields["updated_at"] = world.clock.now_str()
    world.update(NOTES, note_id, fields)
    return {"message": "Note updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTES,))
def simple_note_delete_note(world: World, note_id: int) -> dict[str, str]:
    """Deletes a note.

    Args:
        note_id: the note's id.

    Returns:
        {message}
    """
    _own_note(world, note_id)
    world.delete(NOTES, note_id)
    return {"message": "Note deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTES,))
def simple_note_add_content_to_note(world: World, note_id: int, append_or_prepend: str,
                                    added_content: str) -> dict[str, str]:
    """Adds text to the start or end of a note.

    Args:
        note_id: the note's id.
        append_or_prepend: 'append' adds at the end, 'prepend' at the start.
        added_content: the text to add; it is joined to the note with a newline.

    Returns:
        {message}
    """
    note = _own_note(world, note_id)
    if append_or_prepend not in ("append", "prepend"):
        raise api_error("append_or_prepend must be 'append' or 'prepend'.")
    old = note.get("content") or ""
    new = (old + "\n" + added_content if old else added_content) if append_or_prepend == "append" else (
        added_content + "\n" + old if old else added_content)
    world.update(NOTES, note_id, {"content": new, "updated_at": world.clock.now_str()})
    return {"message": f"Content {append_or_prepend}ed to the note."}
