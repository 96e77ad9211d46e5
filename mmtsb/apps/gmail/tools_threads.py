"""Gmail mailbox tools: thread listings per category, reading threads and emails, and thread flags."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mmtsb.apps.accounts import EMAIL_RE
from mmtsb.apps.common import api_error, paged_search, paginate, register_tool, search_rank
from mmtsb.apps.gmail import core
from mmtsb.apps.gmail.core import APP
from mmtsb.apps.gmail.schema import ATTACHMENTS, DRAFTS, EMAILS, USER_THREADS, USERS
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)
SORTABLE = ("created_at", "updated_at")
THREAD_TABLES = (USER_THREADS, EMAILS)

_CATEGORY: dict[str, Callable[[World, dict[str, Any]], bool]] = {
    "inbox": lambda w, t: bool(t.get("incoming")),
    "outbox": lambda w, t: bool(t.get("outgoing")),
    "snoozed": core.snoozed,
    "starred": lambda w, t: bool(t.get("starred")),
    "archived": lambda w, t: bool(t.get("archived")),
    "spam": lambda w, t: bool(t.get("spam")),
}


def _check_address(value: str | None, field: str) -> str | None:
    if value is not None and not EMAIL_RE.match(value.strip()):
        raise api_error(f"{field} must be a valid email address; got {value!r}.")
    return value.strip().lower() if value is not None else None


def _people_of(world: World, thread: dict[str, Any]) -> tuple[set[str], set[str]]:
    """Lower-cased sender and recipient addresses over the thread's emails."""
    senders, recipients = set(), set()
    for e in core.thread_emails(world, thread):
        s = world.get(USERS, e["sender_id"])
        if s is not None:
            senders.add(str(s["email"]).lower())
        for rid in e.get("recipient_ids") or []:
            r = world.get(USERS, rid)
            if r is not None:
                recipients.add(str(r["email"]).lower())
    return senders, recipients


def filter_threads(world: World, category: str, *, label: str | None = None, starred: bool | None = None,
                   archived: bool | None = None, spam: bool | None = None, snoozed: bool | None = None,
                   read: bool | None = None, attachment: bool | None = None, from_email: str | None = None,
                   to_email: str | None = None, min_created_at: str | None = None,
                   max_created_at: str | None = None) -> list[dict[str, Any]]:
    """The acting user's threads in a category, narrowed by the optional filters (None = any)."""
    uid = core.me(world)["id"]
    sender, recipient = _check_address(from_email, "from_email"), _check_address(to_email, "to_email")
    bounds = core.date_bounds(min_created_at, max_created_at)
    flags = {"starred": starred, "archived": archived, "spam": spam, "read": read, "has_attachments": attachment}
    out = []
    for t in core.user_threads(world, uid):
        if not _CATEGORY[category](world, t):
            continue
        if any(v is not None and bool(t.get(k)) != v for k, v in flags.items()):
            continue
        if snoozed is not None and core.snoozed(world, t) != snoozed:
            continue
        if label is not None and (t.get("label") or "").lower() != label.strip().lower():
            continue
        if not core.in_bounds(t.get("created_at"), bounds):
            continue
        if sender or recipient:
            senders, recipients = _people_of(world, t)
            if (sender and sender not in senders) or (recipient and recipient not in recipients):
                continue
        out.append(t)
    return out


def list_threads(world: World, category: str, query: str | None, page_index: int | None, page_limit: int | None,
                 sort_by: str | None, **filters: Any) -> list[dict[str, Any]]:
    threads = filter_threads(world, category, **filters)
    page = paged_search(threads, query, lambda t: core.thread_search_text(world, t), page_index, page_limit,
                        sort_by, SORTABLE, default_sort="-updated_at")
    return [core.thread_summary(world, t) for t in page]


_LIST_ARGS = """
    Args:
        query: words matched against subjects, bodies, sender/recipient names and addresses and the label;
            results are ranked by relevance, then paginated. Empty lists every thread.
        label: keeps threads with this label (case-insensitive).
        starred: keeps only starred (true) or unstarred (false) threads; any when null.
        archived: keeps only archived (true) or unarchived (false) threads; any when null.
        spam: keeps only spam (true) or non-spam (false) threads; any when null.
        snoozed: keeps only currently snoozed (true) or unsnoozed (false) threads; any when null.
        read: keeps only read (true) or unread (false) threads; any when null.
        attachment: keeps only threads with (true) or without (false) attachments; any when null.
        from_email: keeps threads with an email sent by this address.
        to_email: keeps threads with an email sent to this address.
        min_created_at: earliest thread creation date, YYYY-MM-DD (inclusive).
        max_created_at: latest thread creation date, YYYY-MM-DD (inclusive).
        page_index: the page to return, from 0.
        page_limit: threads per page, 1 to 20.
        sort_by: +/- created_at or updated_at (e.g. '-updated_at', the default without a query); with a query it
            orders the results within the page.
"""


def _doc(summary: str, drop: tuple[str, ...] = ()) -> str:
    lines = _LIST_ARGS.strip("\n").split("\n")
    kept, skip = [], False
    for line in lines:
        name = line.strip().split(":")[0]
        if line.startswith("        ") and not line.startswith("            "):
            skip = name in drop
        if not skip:
            kept.append(line)
    returns = ("\n\n    Returns:\n        list[{email_thread_id, subject, email_ids, draft_ids, incoming, outgoing, read, "
               "label, snoozed_until, starred, archived, spam, has_attachments, senders: list[{name, email}], "
               "recipients: list[{name, email}], created_at, updated_at}]\n")
    return summary + "\n\n" + "\n".join(kept) + returns


def _documented(summary: str, drop: tuple[str, ...] = ()) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__doc__ = _doc(summary, drop)
        return fn
    return wrap


# ---------------------------------------------------------------------------------------------- listings
def _sent_or_received_listing(category: str, summary: str) -> Callable[..., list[dict[str, Any]]]:
    """``gmail_show_<category>_threads`` for the inbox and the outbox: every filter; archived, spam and snoozed
    threads are left out unless asked for."""
    def listing(world: World, query: str | None = "", label: str | None = None, starred: bool | None = None,
                archived: bool | None = False, spam: bool | None = False, snoozed: bool | None = False,
                read: bool | None = None, attachment: bool | None = None, from_email: str | None = None,
                to_email: str | None = None, min_created_at: str | None = "1500-01-01",
                max_created_at: str | None = "3000-01-01", page_index: int | None = 0, page_limit: int | None = 5,
                sort_by: str | None = None) -> list[dict[str, Any]]:
        return list_threads(world, category, query, page_index, page_limit, sort_by, label=label, starred=starred,
                            archived=archived, spam=spam, snoozed=snoozed, read=read, attachment=attachment,
                            from_email=from_email, to_email=to_email, min_created_at=min_created_at,
                            max_created_at=max_created_at)

    return register_tool(listing, f"gmail_show_{category}_threads", globals(), _doc(summary), domain=APP,
                         requires=AUTHED, tables=THREAD_TABLES)


def _flagged_listing(category: str, summary: str) -> Callable[..., list[dict[str, Any]]]:
    """``gmail_show_<category>_threads`` for the snoozed, archived and spam threads: no archived, spam or
    snoozed filter (the category is one of them)."""
    def listing(world: World, query: str | None = "", label: str | None = None, starred: bool | None = None,
                read: bool | None = None, attachment: bool | None = None, from_email: str | None = None,
                to_email: str | None = None, min_created_at: str | None = "1500-01-01",
                max_created_at: str | None = "3000-01-01", page_index: int | None = 0, page_limit: int | None = 5,
                sort_by: str | None = None) -> list[dict[str, Any]]:
        return list_threads(world, category, query, page_index, page_limit, sort_by, label=label, starred=starred,
                            read=read, attachment=attachment, from_email=from_email, to_email=to_email,
                            min_created_at=min_created_at, max_created_at=max_created_at)

    return register_tool(listing, f"gmail_show_{category}_threads", globals(),
                         _doc(summary, ("archived", "spam", "snoozed")), domain=APP, requires=AUTHED,
                         tables=THREAD_TABLES)


gmail_show_inbox_threads = _sent_or_received_listing(
    "inbox", "Lists/searches received threads (summaries only, no bodies) with many status and date filters.")
gmail_show_outbox_threads = _sent_or_received_listing(
    "outbox", "Lists/searches threads the user sent (summaries only), with the same filters as the inbox listing.")
gmail_show_snoozed_threads = _flagged_listing("snoozed", "Lists/searches snoozed threads (hidden until their snooze "
                                                         "time).")


@tool(domain=APP, requires=AUTHED, tables=THREAD_TABLES)
@_documented("Lists/searches starred threads (received or sent).", ("starred",))
def gmail_show_starred_threads(world: World, query: str | None = "", label: str | None = None,
                               archived: bool | None = None, spam: bool | None = None,
                               snoozed: bool | None = None, read: bool | None = None,
                               attachment: bool | None = None, from_email: str | None = None,
                               to_email: str | None = None, min_created_at: str | None = "1500-01-01",
                               max_created_at: str | None = "3000-01-01", page_index: int | None = 0,
                               page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    return list_threads(world, "starred", query, page_index, page_limit, sort_by, label=label, archived=archived,
                        spam=spam, snoozed=snoozed, read=read, attachment=attachment, from_email=from_email,
                        to_email=to_email, min_created_at=min_created_at, max_created_at=max_created_at)


gmail_show_archived_threads = _flagged_listing("archived", "Lists/searches archived threads.")
gmail_show_spam_threads = _flagged_listing("spam", "Lists/searches threads flagged as spam.")


@tool(domain=APP, requires=AUTHED, tables=(USER_THREADS, DRAFTS))
def gmail_show_category_sizes(world: World, read: bool | None = None) -> dict[str, int]:
    """Counts threads per mailbox category plus draft counts.

    The inbox and outbox counts leave out archived, spam and snoozed threads, as their listings do by default.

    Args:
        read: count only read (true) or unread (false) threads; both when null. Not applied to drafts.

    Returns:
        {inbox, outbox, snoozed, starred, archived, spam, unscheduled_drafts, scheduled_drafts}
    """
    hidden = {"archived": False, "spam": False, "snoozed": False}
    out = {name: len(filter_threads(world, name, read=read, **(hidden if name in ("inbox", "outbox") else {})))
           for name in _CATEGORY}
    drafts = world.select(DRAFTS, "user_id = ?", (core.me(world)["id"],))
    out["unscheduled_drafts"] = sum(1 for d in drafts if not d.get("scheduled_send_at"))
    out["scheduled_drafts"] = sum(1 for d in drafts if d.get("scheduled_send_at"))
    return out


@tool(domain=APP, requires=AUTHED, tables=(USER_THREADS,))
def gmail_search_labels(world: World, query: str | None = "", page_index: int | None = 0,
                        page_limit: int | None = 5) -> list[str]:
    """Searches the user's thread label names.

    Args:
        query: words matched against label names (most relevant first); empty lists every label alphabetically.
        page_index: the page to return, from 0.
        page_limit: labels per page, at least 1.

    Returns:
        list[str]
    """
    labels = sorted({t["label"] for t in core.user_threads(world, core.me(world)["id"]) if t.get("label")},
                    key=str.lower)
    ranked = search_rank([{"label": x} for x in labels], query, lambda r: (r["label"],))
    return [r["label"] for r in paginate(ranked, page_index, page_limit, max_limit=10**9)]


# ---------------------------------------------------------------------------------------------- reading
@tool(domain=APP, requires=AUTHED, tables=(USER_THREADS, EMAILS, DRAFTS))
def gmail_show_thread(world: World, email_thread_id: int) -> dict[str, Any]:
    """Returns a thread with its emails (oldest first, with bodies) and the user's drafts in it.

    Args:
        email_thread_id: the thread's id (email_thread_id from a listing).

    Returns:
        {email_thread_id, subject, incoming, outgoing, read, label, snoozed_until, starred, archived, spam,
        has_attachments, senders, recipients, created_at, updated_at, emails: list[{email_id, subject, body,
        response_to_email_id, created_at, sender, recipients, attachments}], drafts: list[draft]}
    """
    uid = core.me(world)["id"]
    thread = core.own_thread(world, uid, email_thread_id)
    out = core.thread_summary(world, thread)
    out["emails"] = [core.email_view(world, e, uid) for e in core.thread_emails(world, thread)]
    out["drafts"] = [core.draft_view(world, d) for d in core.drafts_of_thread(world, thread)]
    return out


@tool(domain=APP, requires=AUTHED, tables=(EMAILS, ATTACHMENTS))
def gmail_show_email(world: World, email_id: int) -> dict[str, Any]:
    """Returns one email in full.

    Args:
        email_id: the email's id (from a thread's email_ids).

    Returns:
        {email_id, email_thread_id, subject, body, response_to_email_id, created_at, sender: {name, email},
        recipients: list[{name, email}], attachments: list[{attachment_id, file_name}]}
    """
    uid = core.me(world)["id"]
    return core.email_view(world, core.visible_email(world, uid, email_id), uid)


# ---------------------------------------------------------------------------------------------- changes
def _drop_thread(world: World, thread: dict[str, Any]) -> None:
    """Remove a thread from the user's mailbox, with the user's drafts in it."""
    for draft in core.drafts_of_thread(world, thread):
        for att in core.attachments_of(world, draft_id=draft["id"]):
            world.delete(ATTACHMENTS, att["id"])
        world.delete(DRAFTS, draft["id"])
    world.delete(USER_THREADS, thread["id"])


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USER_THREADS, DRAFTS))
def gmail_delete_thread(world: World, email_thread_id: int) -> dict[str, str]:
    """Deletes an email thread from the user's mailbox (with the user's drafts in it).

    The other participants keep their copy.

    Args:
        email_thread_id: the thread's id.

    Returns:
        {message}
    """
    _drop_thread(world, core.own_thread(world, core.me(world)["id"], email_thread_id))
    return {"message": "Email thread deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USER_THREADS, EMAILS))
def gmail_delete_email_in_thread(world: World, email_thread_id: int, email_id: int) -> dict[str, str]:
    """Deletes one email inside a thread from the user's mailbox (the thread goes when its last email goes).

    Args:
        email_thread_id: the thread's id.
        email_id: the email's id; it must belong to that thread.

    Returns:
        {message}
    """
    thread = core.own_thread(world, core.me(world)["id"], email_thread_id)
    ids = list(thread.get("email_ids") or [])
    if email_id not in ids:
        raise api_error(f"Email with email_id={email_id} is not in email thread {email_thread_id}.")
    ids.remove(email_id)
    if not ids:
        _drop_thread(world, thread)
        return {"message": "Email deleted; it was the thread's last email, so the thread was deleted too."}
    world.update(USER_THREADS, thread["id"], {"email_ids": ids})
    core.refresh_user_thread(world, thread["id"])
    return {"message": "Email deleted from the thread."}


def _set(world: World, email_thread_id: int, fields: dict[str, Any], done: str, already: str,
         is_set: Callable[[dict[str, Any]], bool]) -> dict[str, str]:
    thread = core.own_thread(world, core.me(world)["id"], email_thread_id)
    if is_set(thread):
        return {"message": already}
    world.update(USER_THREADS, thread["id"], fields)
    return {"message": done}


def _flag_tool(name: str, summary: str, fields: dict[str, Any], done: str, already: str,
               is_set: Callable[[dict[str, Any]], bool]) -> Callable[..., dict[str, str]]:
    def fn(world: World, email_thread_id: int) -> dict[str, str]:
        return _set(world, email_thread_id, dict(fields), done, already, is_set)
    doc = f"{summary}\n\n    Args:\n        email_thread_id: the thread's id.\n\n    Returns:\n        {{message}}\n"
    return register_tool(fn, name, globals(), doc, domain=APP, mutates=True, requires=AUTHED, tables=(USER_THREADS,))


gmail_mark_thread_read = _flag_tool("gmail_mark_thread_read", "Marks a thread read.", {"read": True},
                                    "Thread marked read.", "The thread is already read.", lambda t: bool(t["read"]))
gmail_mark_thread_unread = _flag_tool("gmail_mark_thread_unread", "Marks a thread unread.", {"read": False},
                                      "Thread marked unread.", "The thread is already unread.",
                                      lambda t: not t["read"])
gmail_mark_thread_archived = _flag_tool(
    "gmail_mark_thread_archived", "Archives a thread (also clears spam and snooze).",
    {"archived": True, "spam": False, "snoozed_until": None}, "Thread archived.", "The thread is already archived.",
    lambda t: bool(t["archived"]))
gmail_mark_thread_unarchived = _flag_tool("gmail_mark_thread_unarchived", "Un-archives a thread.",
                                          {"archived": False}, "Thread moved out of the archive.",
                                          "The thread is not archived.", lambda t: not t["archived"])
gmail_mark_thread_spam = _flag_tool(
    "gmail_mark_thread_spam", "Flags a thread as spam (also clears archive and snooze).",
    {"spam": True, "archived": False, "snoozed_until": None}, "Thread marked as spam.",
    "The thread is already marked as spam.", lambda t: bool(t["spam"]))
gmail_mark_thread_not_spam = _flag_tool("gmail_mark_thread_not_spam", "Removes the spam flag from a thread.",
                                        {"spam": False}, "Thread is no longer marked as spam.",
                                        "The thread is not marked as spam.", lambda t: not t["spam"])
gmail_mark_thread_starred = _flag_tool("gmail_mark_thread_starred", "Stars a thread.", {"starred": True},
                                       "Thread starred.", "The thread is already starred.",
                                       lambda t: bool(t["starred"]))
gmail_mark_thread_unstarred = _flag_tool("gmail_mark_thread_unstarred", "Unstars a thread.", {"starred": False},
                                         "Thread unstarred.", "The thread is not starred.",
                                         lambda t: not t["starred"])


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USER_THREADS,))
def gmail_label_thread(world: World, email_thread_id: int, label: str) -> dict[str, str]:
    """Assigns a label to a thread (a thread has at most one label; this replaces any previous one).

    Args:
        email_thread_id: the thread's id.
        label: the label name (at least 1 character).

    Returns:
        {message}
    """
    if not label or not label.strip():
        raise api_error("label must not be empty.")
    thread = core.own_thread(world, core.me(world)["id"], email_thread_id)
    world.update(USER_THREADS, thread["id"], {"label": label.strip()})
    return {"message": f"Thread labeled {label.strip()!r}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USER_THREADS,))
def gmail_unlabel_thread(world: World, email_thread_id: int) -> dict[str, str]:
    """Clears a thread's label.

    Args:
        email_thread_id: the thread's id.

    Returns:
        {message}
    """
    return _set(world, email_thread_id, {"label": None}, "Label removed from the thread.",
                "The thread has no label.", lambda t: not t.get("label"))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USER_THREADS,))
def gmail_snooze_thread(world: World, email_thread_id: int, snooze_until: str) -> dict[str, str]:
    """Hides a thread until a future time when it returns unread (removes archive/spam status).

    Args:
        email_thread_id: the thread's id.
        snooze_until: when the thread comes back, a future time as YYYY-MM-DD|HH:MM:SS.

    Returns:
        {message}
    """
    thread = core.own_thread(world, core.me(world)["id"], email_thread_id)
    until = core.future_time(world, snooze_until, "snooze_until")
    world.update(USER_THREADS, thread["id"], {"snoozed_until": until, "read": False, "archived": False,
                                              "spam": False})
    return {"message": f"Thread snoozed until {until.replace('T', '|')}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USER_THREADS,))
def gmail_unsnooze_thread(world: World, email_thread_id: int) -> dict[str, str]:
    """Cancels a thread's snooze.

    Args:
        email_thread_id: the thread's id.

    Returns:
        {message}
    """
    return _set(world, email_thread_id, {"snoozed_until": None}, "Thread unsnoozed.", "The thread is not snoozed.",
                lambda t: not core.snoozed(world, t))
