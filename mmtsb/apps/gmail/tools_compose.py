"""Gmail writing tools: sending, replying, forwarding, drafts and attachments."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paged_search
from mmtsb.apps.gmail import core, files
from mmtsb.apps.gmail.core import APP, AttachmentData
from mmtsb.apps.gmail.schema import ATTACHMENTS, DRAFTS, EMAILS, GLOBAL_THREADS, USER_THREADS, USERS
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)
SEND_TABLES = (EMAILS, GLOBAL_THREADS, USER_THREADS, ATTACHMENTS)
CLEAR = "None"


def _check_text(subject: str | None, body: str | None) -> None:
    if not (subject or "").strip() and not (body or "").strip():
        raise api_error("An email needs a subject or a body; both are empty.")


def _attachments(world: World, paths: list[str] | None, token: str | None) -> list[AttachmentData]:
    if not paths:
        return []
    return files.read_files(world, token, paths, "attachment_file_paths")


def _email_in_thread(world: World, thread: dict[str, Any], email_id: int) -> dict[str, Any]:
    email = world.get(EMAILS, email_id)
    if email is None or email_id not in (thread.get("email_ids") or []):
        raise api_error(f"Email with email_id={email_id} is not in email thread {thread['id']}.")
    return email


def _global_id(world: World, thread: dict[str, Any]) -> int:
    """The thread's conversation id (recreated if the conversation row went missing)."""
    gid = thread.get("global_email_thread_id")
    if gid is None or world.get(GLOBAL_THREADS, gid) is None:
        row = {"email_ids": list(thread.get("email_ids") or []),
               "created_at": thread.get("created_at") or core.now(world),
               "updated_at": thread.get("updated_at") or core.now(world)}
        gid = world.insert(GLOBAL_THREADS, row if gid is None else {"id": gid, **row})
        world.update(USER_THREADS, thread["id"], {"global_email_thread_id": gid})
    return gid


def _new_draft(world: World, user: dict[str, Any], recipients: list[dict[str, Any]], subject: str | None,
               body: str, *, thread_id: int | None = None, response_to: int | None = None,
               scheduled: str | None = None, attachments: list[AttachmentData] = ()) -> int:
    stamp = core.now(world)
    draft_id = world.insert(DRAFTS, {"user_id": user["id"], **core.recipient_columns(recipients), "subject": subject,
                                     "body": body, "belongs_to_email_thread_id": thread_id,
                                     "response_to_email_id": response_to, "scheduled_send_at": scheduled,
                                     "created_at": stamp, "updated_at": stamp})
    core.add_attachments(world, attachments, draft_id=draft_id)
    return draft_id


def own_draft(world: World, draft_id: int) -> dict[str, Any]:
    draft = world.get(DRAFTS, draft_id)
    if draft is None or draft["user_id"] != core.me(world)["id"]:
        raise api_error(f"Draft with draft_id={draft_id} does not exist.")
    return draft


def _thread_link(world: World, uid: int, thread_id: int | None,
                 response_to: int | None) -> tuple[dict[str, Any] | None, int | None]:
    """Validate a draft's thread / replied-email pair: both or neither (AppWorld's rule), the email in the thread."""
    if thread_id is None and response_to is None:
        return None, None
    if thread_id is None or response_to is None:
        raise api_error("Either both belongs_to_email_thread_id and response_to_email_id must be given or neither "
                        "must be given.")
    thread = core.own_thread(world, uid, thread_id)
    _email_in_thread(world, thread, response_to)
    return thread, response_to


# ---------------------------------------------------------------------------------------------- sending
@tool(domain=APP, mutates=True, requires=AUTHED, tables=SEND_TABLES)
def gmail_send_email(world: World, email_addresses: list[str], subject: str, body: str,
                     attachment_file_paths: list[str] | None = None,
                     file_system_access_token: str | None = None) -> dict[str, Any]:
    """Sends a new email (a new thread), optionally attaching files from the file-system app.

    Args:
        email_addresses: the recipients' email addresses; each must belong to a Gmail user (see
            gmail_search_users).
        subject: the subject line.
        body: the email text.
        attachment_file_paths: file-system paths of files to attach (absolute /... or ~/...).
        file_system_access_token: the access_token from file_system_login; needed only for attachments.

    Returns:
        {message, sent_email_thread_id, sent_email_id}
    """
    user = core.me(world)
    recipients = core.resolve_recipients(world, email_addresses, "email_addresses")
    _check_text(subject, body)
    email_id, thread_id = core.deliver(world, user, recipients, subject, body,
                                       attachments=_attachments(world, attachment_file_paths,
                                                                file_system_access_token))
    return {"message": "Email sent.", "sent_email_thread_id": thread_id, "sent_email_id": email_id}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=SEND_TABLES)
def gmail_reply_to_email(world: World, email_thread_id: int, email_id: int, body: str,
                         email_addresses: list[str] | None = None, attachment_file_paths: list[str] | None = None,
                         file_system_access_token: str | None = None) -> dict[str, Any]:
    """Replies within a thread to a specific email (subject 'Re: <thread subject>').

    Args:
        email_thread_id: the thread's id.
        email_id: the email replied to; it must belong to that thread.
        body: the reply text.
        email_addresses: reply to all of these addresses (Gmail users; a non-empty list when given); by default
            the reply goes to the email's sender (or to its recipients when you sent it).
        attachment_file_paths: file-system paths of files to attach (absolute /... or ~/...).
        file_system_access_token: the access_token from file_system_login; needed only for attachments.

    Returns:
        {message, sent_email_id}
    """
    user, thread = _my_thread(world, email_thread_id)
    email = _email_in_thread(world, thread, email_id)
    if email_addresses is not None and not email_addresses:
        raise api_error("If email_addresses is passed, it must be a non-empty list.")
    recipients = (core.resolve_recipients(world, email_addresses, "email_addresses") if email_addresses
                  else core.reply_targets(world, user, email))
    if not (body or "").strip():
        raise api_error("body must not be empty.")
    sent_id, _ = core.deliver(world, user, recipients, core.reply_subject(core.thread_subject(world, thread)), body,
                              global_thread_id=_global_id(world, thread), response_to_email_id=email_id,
                              attachments=_attachments(world, attachment_file_paths, file_system_access_token))
    return {"message": "Reply sent.", "sent_email_id": sent_id}


def _my_thread(world: World, email_thread_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The acting user and their view of the thread (an API error when it is not in their mailbox)."""
    user = core.me(world)
    return user, core.own_thread(world, user["id"], email_thread_id)


def _forward(world: World, user: dict[str, Any], email_addresses: list[str], subject: str, body: str,
             attachments: list[AttachmentData], draft_not_send: bool | None) -> dict[str, Any]:
    recipients = core.resolve_recipients(world, email_addresses, "email_addresses")
    if draft_not_send:
        draft_id = _new_draft(world, user, recipients, subject, body, attachments=attachments)
        return {"message": "Forward saved as a draft.", "sent_email_thread_id": None, "sent_email_id": None,
                "draft_id": draft_id}
    email_id, thread_id = core.deliver(world, user, recipients, subject, body, attachments=attachments)
    return {"message": "Email forwarded.", "sent_email_thread_id": thread_id, "sent_email_id": email_id,
            "draft_id": None}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(*SEND_TABLES, DRAFTS))
def gmail_forward_email_from_thread(world: World, email_thread_id: int, email_id: int, email_addresses: list[str],
                                    draft_not_send: bool | None = False) -> dict[str, Any]:
    """Forwards one email of a thread, with its attachments, as a new thread (or drafts the forward).

    Args:
        email_thread_id: the thread's id.
        email_id: the email to forward; it must belong to that thread.
        email_addresses: the recipients' email addresses (Gmail users).
        draft_not_send: true saves the forward as a draft instead of sending it.

    Returns:
        {message, sent_email_thread_id, sent_email_id, draft_id} (the ids that do not apply are null)
    """
    user, thread = _my_thread(world, email_thread_id)
    email = _email_in_thread(world, thread, email_id)
    return _forward(world, user, email_addresses, core.forward_subject(email.get("subject")),
                    core.forward_block(world, email),
                    core.attachment_data(core.attachments_of(world, email_id=email_id)), draft_not_send)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(*SEND_TABLES, DRAFTS))
def gmail_forward_email_thread(world: World, email_thread_id: int, email_addresses: list[str],
                               draft_not_send: bool | None = False) -> dict[str, Any]:
    """Forwards a whole thread (every email, oldest first, with attachments) as a new thread, or drafts it.

    Args:
        email_thread_id: the thread's id.
        email_addresses: the recipients' email addresses (Gmail users).
        draft_not_send: true saves the forward as a draft instead of sending it.

    Returns:
        {message, sent_email_thread_id, sent_email_id, draft_id} (the ids that do not apply are null)
    """
    user, thread = _my_thread(world, email_thread_id)
    emails = core.thread_emails(world, thread)
    body = "\n\n".join(core.forward_block(world, e) for e in emails)
    attachments = [a for e in emails for a in core.attachment_data(core.attachments_of(world, email_id=e["id"]))]
    return _forward(world, user, email_addresses, core.forward_subject(core.thread_subject(world, thread)), body,
                    attachments, draft_not_send)


# ---------------------------------------------------------------------------------------------- drafts
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DRAFTS, ATTACHMENTS))
def gmail_create_draft(world: World, recipient_email_addresses: list[str], body: str, subject: str | None = None,
                       belongs_to_email_thread_id: int | None = None, response_to_email_id: int | None = None,
                       attachment_file_paths: list[str] | None = None, scheduled_send_at: str | None = None,
                       file_system_access_token: str | None = None) -> dict[str, Any]:
    """Creates a draft, optionally a reply in a thread or scheduled for later sending.

    Args:
        recipient_email_addresses: the recipients' email addresses (Gmail users); may be empty for now.
        body: the draft text.
        subject: the subject of a new email. Must be omitted for a reply draft: it takes 'Re: <thread subject>'.
        belongs_to_email_thread_id: the thread this draft replies in (a reply draft gives both this and
            response_to_email_id; a new email neither).
        response_to_email_id: the email this draft replies to (in that thread).
        attachment_file_paths: file-system paths of files to attach (absolute /... or ~/...).
        scheduled_send_at: a future send time as YYYY-MM-DD|HH:MM:SS; unscheduled (kept unsent) when omitted.
        file_system_access_token: the access_token from file_system_login; needed only for attachments.

    Returns:
        {message, draft_id}
    """
    user = core.me(world)
    recipients = core.resolve_recipients(world, recipient_email_addresses, "recipient_email_addresses",
                                         allow_empty=True)
    thread, response_to = _thread_link(world, user["id"], belongs_to_email_thread_id, response_to_email_id)
    if thread is not None:
        if subject is not None:
            raise api_error("subject must be omitted for a reply draft (belongs_to_email_thread_id or "
                            "response_to_email_id is set): replies use 'Re: <thread subject>'.")
        subject = core.reply_subject(core.thread_subject(world, thread))
    scheduled = core.future_time(world, scheduled_send_at, "scheduled_send_at") if scheduled_send_at else None
    draft_id = _new_draft(world, user, recipients, subject, body, thread_id=thread["id"] if thread else None,
                          response_to=response_to, scheduled=scheduled,
                          attachments=_attachments(world, attachment_file_paths, file_system_access_token))
    return {"message": "Draft created.", "draft_id": draft_id}


@tool(domain=APP, requires=AUTHED, tables=(DRAFTS,))
def gmail_show_drafts(world: World, query: str | None = "", recipient_email: str | None = None,
                      attachment: bool | None = None, scheduled: bool | None = None,
                      belongs_to_email_thread_id: int | None = None, response_to_email_id: int | None = None,
                      min_created_at: str | None = "1500-01-01", max_created_at: str | None = "3000-01-01",
                      page_index: int | None = 0, page_limit: int | None = 5,
                      sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists/searches drafts with filters.

    Args:
        query: words matched against subject, body and recipient names/addresses; results are ranked by
            relevance, then paginated. Empty lists every draft.
        recipient_email: keeps drafts addressed to this email.
        attachment: keeps only drafts with (true) or without (false) attachments; any when null.
        scheduled: keeps only scheduled (true) or unscheduled (false) drafts; any when null.
        belongs_to_email_thread_id: keeps drafts replying in this thread.
        response_to_email_id: keeps drafts replying to this email.
        min_created_at: earliest creation date, YYYY-MM-DD (inclusive).
        max_created_at: latest creation date, YYYY-MM-DD (inclusive).
        page_index: the page to return, from 0.
        page_limit: drafts per page, 1 to 20.
        sort_by: +/- created_at or updated_at (default '-updated_at' without a query).

    Returns:
        list[{draft_id, subject, body, recipients: list[{name, email}], belongs_to_email_thread_id,
        response_to_email_id, scheduled_send_at, attachments, created_at, updated_at}]
    """
    drafts = world.select(DRAFTS, "user_id = ?", (core.me(world)["id"],))
    bounds = core.date_bounds(min_created_at, max_created_at)
    if recipient_email is not None:
        wanted = recipient_email.strip().lower()
        drafts = [d for d in drafts if wanted in (a.lower() for a in d.get("recipient_email_addresses") or [])]
    if attachment is not None:
        drafts = [d for d in drafts if bool(core.attachments_of(world, draft_id=d["id"])) == attachment]
    if scheduled is not None:
        drafts = [d for d in drafts if bool(d.get("scheduled_send_at")) == scheduled]
    if belongs_to_email_thread_id is not None:
        drafts = [d for d in drafts if d.get("belongs_to_email_thread_id") == belongs_to_email_thread_id]
    if response_to_email_id is not None:
        drafts = [d for d in drafts if d.get("response_to_email_id") == response_to_email_id]
    drafts = [d for d in drafts if core.in_bounds(d.get("created_at"), bounds)]
    page = paged_search(drafts, query, lambda d: (d.get("subject"), d.get("body"),
                                                  *(d.get("recipient_names") or []),
                                                  *(d.get("recipient_email_addresses") or [])),
                        page_index, page_limit, sort_by, ("created_at", "updated_at"), default_sort="-updated_at")
    return [core.draft_view(world, d) for d in page]


@tool(domain=APP, requires=AUTHED, tables=(DRAFTS,))
def gmail_show_draft(world: World, draft_id: int) -> dict[str, Any]:
    """Returns one draft in full.

    Args:
        draft_id: the draft's id.

    Returns:
        {draft_id, subject, body, recipients: list[{name, email}], belongs_to_email_thread_id,
        response_to_email_id, scheduled_send_at, attachments: list[{attachment_id, file_name}], created_at,
        updated_at}
    """
    return core.draft_view(world, own_draft(world, draft_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DRAFTS,))
def gmail_update_draft(world: World, draft_id: int, email_addresses: list[str] | None = None,
                       subject: str | None = None, body: str | None = None,
                       belongs_to_email_thread_id: int | None = None, response_to_email_id: int | None = None,
                       scheduled_send_at: str | None = None) -> dict[str, str]:
    """Edits a draft's recipients, text, thread linkage or schedule; omitted fields stay unchanged.

    Args:
        draft_id: the draft's id.
        email_addresses: the new recipient list (Gmail users); replaces the old one.
        subject: the new subject (not for reply drafts, which use 'Re: <thread subject>').
        body: the new text; replaces the old text.
        belongs_to_email_thread_id: makes the draft a reply in this thread.
        response_to_email_id: the email in the thread this draft replies to.
        scheduled_send_at: a future send time as YYYY-MM-DD|HH:MM:SS; the string 'None' unschedules the draft.

    Returns:
        {message}
    """
    draft = own_draft(world, draft_id)
    fields: dict[str, Any] = {}
    if email_addresses is not None:
        fields.update(core.recipient_columns(core.resolve_recipients(world, email_addresses, "email_addresses",
                                                                     allow_empty=True)))
    thread_id = draft.get("belongs_to_email_thread_id")
    if belongs_to_email_thread_id is not None or response_to_email_id is not None:
        response = response_to_email_id
        if response is None and belongs_to_email_thread_id == thread_id:
            response = draft.get("response_to_email_id")  # same thread: keep the replied email
        thread, response = _thread_link(world, draft["user_id"], belongs_to_email_thread_id, response)
        fields.update({"belongs_to_email_thread_id": thread["id"], "response_to_email_id": response})
        if thread["id"] != thread_id:
            fields["subject"] = core.reply_subject(core.thread_subject(world, thread))
        thread_id = thread["id"]
    if subject is not None:
        if thread_id is not None:
            raise api_error("subject cannot be set on a reply draft: it uses 'Re: <thread subject>'.")
        fields["subject"] = subject
    if body is not None:
        fields["body"] = body
    if scheduled_send_at is not None:
        fields["scheduled_send_at"] = (None if scheduled_send_at.strip() == CLEAR
                                       else core.future_time(world, scheduled_send_at, "scheduled_send_at"))
    if not fields:
        raise api_error("Nothing to update: give email_addresses, subject, body, belongs_to_email_thread_id, "
                        "response_to_email_id or scheduled_send_at.")
    fields["updated_at"] = core.now(world)
    world.update(DRAFTS, draft_id, fields)
    return {"message": "Draft updated."}


def _remove_draft(world: World, draft_id: int) -> None:
    for att in core.attachments_of(world, draft_id=draft_id):
        world.delete(ATTACHMENTS, att["id"])
    world.delete(DRAFTS, draft_id)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DRAFTS, ATTACHMENTS))
def gmail_delete_draft(world: World, draft_id: int) -> dict[str, str]:
    """Deletes a draft (with its attachments).

    Args:
        draft_id: the draft's id.

    Returns:
        {message}
    """
    own_draft(world, draft_id)
    _remove_draft(world, draft_id)
    return {"message": "Draft deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DRAFTS, *SEND_TABLES))
def gmail_send_email_from_draft(world: World, draft_id: int,
                                file_system_access_token: str | None = None) -> dict[str, Any]:
    """Sends a draft immediately (even if scheduled); the draft is removed once sent.

    A reply draft is sent into its thread, answering response_to_email_id (or the thread's latest email).

    Args:
        draft_id: the draft's id.
        file_system_access_token: the access_token from file_system_login; the draft's attachments are already
            stored, so it is only checked when given.

    Returns:
        {message, sent_email_thread_id, sent_email_id}
    """
    user = core.me(world)
    draft = own_draft(world, draft_id)
    if file_system_access_token is not None:
        files.fs_user_id(world, file_system_access_token)
    recipients = [world.get(USERS, i) for i in draft.get("recipient_ids") or []]
    if any(r is None for r in recipients):
        raise api_error("A recipient of this draft no longer has a Gmail account; fix it with gmail_update_draft.")
    if not recipients:
        raise api_error(f"Draft {draft_id} has no recipients; add them with gmail_update_draft(email_addresses=...).")
    _check_text(draft.get("subject"), draft.get("body"))
    attachments = core.attachment_data(core.attachments_of(world, draft_id=draft_id))
    subject, body = draft.get("subject") or "", draft.get("body") or ""
    if draft.get("belongs_to_email_thread_id") is not None:
        thread = core.own_thread(world, user["id"], draft["belongs_to_email_thread_id"])
        ids = list(thread.get("email_ids") or [])
        response = draft.get("response_to_email_id")
        response = response if response in ids else (ids[-1] if ids else None)
        email_id, thread_id = core.deliver(world, user, recipients,
                                           subject or core.reply_subject(core.thread_subject(world, thread)), body,
                                           global_thread_id=_global_id(world, thread),
                                           response_to_email_id=response, attachments=attachments)
    else:
        email_id, thread_id = core.deliver(world, user, recipients, subject, body, attachments=attachments)
    _remove_draft(world, draft_id)
    return {"message": "Email sent from the draft.", "sent_email_thread_id": thread_id, "sent_email_id": email_id}
