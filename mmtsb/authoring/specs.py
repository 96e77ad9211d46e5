"""Entity-diff spec builders: the expected ``create``/``update``/``delete`` entries of a scenario file, each with
its column similarity map. The similarity names come from :mod:`mmtsb.eval.similarity`, the module that
evaluates them, so a spec can only name a function the evaluator has."""

from __future__ import annotations

from typing import Any

from mmtsb.authoring.clock import NOW, SEED_TIME
from mmtsb.eval.similarity import DATETIME_NAIVE_EQUAL, EXACT, IGNORE, ROUGE_L

__all__ = ["create", "create_alarm", "create_cart_entry", "create_comment", "create_contact", "create_email",
           "create_event", "create_expense", "create_file", "create_link", "create_note", "create_payment_request",
           "create_playlist", "create_reminder", "create_task", "create_text", "delete", "update", "update_note",
           "update_task"]

Spec = dict[str, Any]


def _table_key(source: str) -> str:
    """AppWorld specs name a ``table`` (``app.table``), device-side (agentsandbox) specs a ``namespace``."""
    return "table" if source == "appworld" else "namespace"


def create(table: str, data: dict[str, Any], measures: dict[str, str], source: str = "appworld") -> Spec:
    """A create spec for one expected row: every column of ``data`` gets its measure from ``measures``, or
    ignore when it has none (ids and timestamps the app generates)."""
    return {"operation": "create", "source": source, _table_key(source): table, "entity_data": data,
            "column_similarity_measure": {c: measures.get(c, IGNORE) for c in data}}


def create_note(owner: int, title: str, content: str) -> Spec:
    """A new simple_note note; title and content compared with ROUGE-L."""
    return create("simple_note.notes", {"user_id": owner, "title": title, "content": content, "tags": [],
                                        "pinned": False, "created_at": NOW, "updated_at": NOW},
                  {"user_id": EXACT, "title": ROUGE_L, "content": ROUGE_L, "pinned": EXACT})


def create_email(sender: int, recipients: list[int], subject: str, body: str) -> Spec:
    """A sent gmail email (recipients by user id); subject and body compared with ROUGE-L."""
    return create("gmail.emails", {"sender_id": sender, "recipient_ids": recipients, "subject": subject,
                                   "body": body, "response_to_email_id": None, "created_at": NOW},
                  {"sender_id": EXACT, "recipient_ids": EXACT, "subject": ROUGE_L, "body": ROUGE_L})


def create_task(pid: int, owner: int, title: str, *, priority: str = "medium", description: str | None = None,
                due: str | None = None) -> Spec:
    """A new todoist task in project ``pid``; description and due date are compared only when given."""
    data = {"project_id": pid, "section_id": None, "user_id": owner, "title": title, "description": description,
            "due_date": due, "priority": priority, "is_completed": False, "duration": None, "duration_unit": None,
            "order_index": 0, "assignee_id": None, "assigner_id": None, "created_at": NOW}
    measures = {"project_id": EXACT, "user_id": EXACT, "title": ROUGE_L, "priority": EXACT, "is_completed": EXACT}
    if description is not None:
        measures["description"] = ROUGE_L
    if due is not None:
        measures["due_date"] = EXACT
    return create("todoist.tasks", data, measures)


def create_comment(task_id: int, owner: int, content: str) -> Spec:
    """A comment posted on a todoist task; content compared with ROUGE-L."""
    return create("todoist.task_comments", {"task_id": task_id, "user_id": owner, "content": content,
                                            "created_at": NOW},
                  {"task_id": EXACT, "user_id": EXACT, "content": ROUGE_L})


def create_contact(owner: int, first: str, last: str, email: str, phone: str) -> Spec:
    """A new phone contact; names, email and phone number compared exactly."""
    return create("phone.contacts", {"user_id": owner, "first_name": first, "last_name": last, "email": email,
                                     "phone_number": phone, "relationships": [], "birthday": None,
                                     "home_address": None, "work_address": None, "created_at": NOW},
                  {"user_id": EXACT, "first_name": EXACT, "last_name": EXACT, "email": EXACT, "phone_number": EXACT})


def create_text(sender: int, receiver: int, message: str) -> list[Spec]:
    """A sent text: the global message and one user_text_messages row per party."""
    glob = create("phone.global_text_messages", {"sender_id": sender, "receiver_id": receiver, "message": message,
                                                 "created_at": NOW},
                  {"sender_id": EXACT, "receiver_id": EXACT, "message": ROUGE_L})
    links = [create("phone.user_text_messages", {"global_text_message_id": 200, "user_id": uid, "created_at": NOW},
                    {"user_id": EXACT}) for uid in (sender, receiver)]
    return [glob, *links]


def create_event(title: str, start: str, end: str) -> Spec:
    """A new device calendar event (naive ``start``/``end``, compared without timezone); its ids are
    placeholders the writer numbers per file."""
    data = {"calendar_event_id": "calendar_events_calendar_event_100", "calendar_id": "calendar_events_calendar_100",
            "title": title, "description": None, "start_datetime": start, "end_datetime": end, "is_all_day": False,
            "recurrence_frequency": None, "recurrence_interval": None, "recurrence_until_datetime": None,
            "recurrence_parent_id": None, "recurrence_exclude_datetime": [], "latitude": None, "longitude": None,
            "place_id": None, "formatted_address": None, "attendee_names": [], "attendee_emails": []}
    return create("CALENDAR_EVENTS", data, {"title": ROUGE_L, "start_datetime": DATETIME_NAIVE_EQUAL,
                                            "end_datetime": DATETIME_NAIVE_EQUAL, "is_all_day": EXACT},
                  source="agentsandbox")


def create_reminder(content: str, when: str) -> Spec:
    """A new device reminder at ``when`` (naive, compared without timezone); its id is a placeholder."""
    data = {"reminder_id": "reminder_100", "content": content, "creation_datetime": NOW, "reminder_datetime": when,
            "latitude": None, "longitude": None}
    return create("REMINDER", data, {"content": ROUGE_L, "reminder_datetime": DATETIME_NAIVE_EQUAL},
                  source="agentsandbox")


def create_alarm(owner: int, time: str, label: str) -> Spec:
    """A new enabled, non-repeating phone alarm at ``time`` (``HH:MM``)."""
    data = {"user_id": owner, "time": time, "repeat_days": [], "label": label, "enabled": True,
            "snooze_minutes": 15, "vibration": True, "created_at": NOW}
    return create("phone.alarms", data, {"user_id": EXACT, "time": EXACT, "label": ROUGE_L, "enabled": EXACT})


def update(table: str, row_id: Any, fields: dict[str, Any], measures: dict[str, str], *, id_column: str = "id",
           source: str = "appworld") -> Spec:
    """An update spec: the row whose ``id_column`` is ``row_id`` must end with ``fields`` (the id compared
    exactly)."""
    return {"operation": "update", "source": source, _table_key(source): table, "entity_id_column": id_column,
            "entity_id_value": row_id, "expected_fields": fields,
            "column_similarity_measure": {**measures, id_column: EXACT}}


def update_task(tid: int, **fields: Any) -> Spec:
    """A todoist task update: title and description compared with ROUGE-L, other fields exactly."""
    measures = {c: (ROUGE_L if c in ("title", "description") else EXACT) for c in fields}
    return update("todoist.tasks", tid, fields, measures)


def update_note(nid: int, content: str, seed_updated_at: str = SEED_TIME) -> Spec:
    """A note content update, in the released files' style: the seed's ``updated_at`` (ignored) and
    ``tags: []`` without a measure."""
    return update("simple_note.notes", nid, {"updated_at": seed_updated_at, "content": content, "tags": []},
                  {"updated_at": IGNORE, "content": ROUGE_L})


def delete(table: str, row_id: Any, *, id_column: str = "id", source: str = "appworld") -> Spec:
    """A delete spec: the row whose ``id_column`` is ``row_id`` must be gone."""
    return {"operation": "delete", "source": source, _table_key(source): table, "entity_id_column": id_column,
            "entity_id_value": row_id, "column_similarity_measure": {id_column: EXACT}}


def create_file(owner: int, tilde_path: str, content: str) -> Spec:
    """A new file_system file at ``tilde_path`` (``~/documents/x.txt``: compared exactly, the absolute path
    ignored since it depends on the owner's home); content compared with ROUGE-L."""
    return create("file_system.files", {"path": tilde_path, "tilde_path": tilde_path, "user_id": owner,
                                        "content": content, "compressed_data": [], "created_at": NOW,
                                        "updated_at": NOW},
                  {"tilde_path": EXACT, "user_id": EXACT, "content": ROUGE_L})


def create_expense(owner: int, debtors: list[int], description: str, amount: float,
                   shares: list[float]) -> list[Spec]:
    """A splitwise expense the main user paid, outside any group, and one share per debtor."""
    main = create("splitwise.expenses", {"user_id": owner, "group_id": None, "payer_id": owner, "debtor_ids": debtors,
                                         "participant_ids": [owner, *debtors], "description": description,
                                         "amount": amount, "deleted": False, "receipt_file_name": None,
                                         "receipt_file_content": None, "receipt_download_count": 0,
                                         "created_at": NOW},
                  {"user_id": EXACT, "payer_id": EXACT, "debtor_ids": EXACT, "description": ROUGE_L, "amount": EXACT,
                   "deleted": EXACT})
    share_specs = [create("splitwise.expense_shares", {"expense_id": 5200, "debtor_id": d, "share_amount": s,
                                                       "created_at": NOW},
                          {"debtor_id": EXACT, "share_amount": EXACT}) for d, s in zip(debtors, shares)]
    return [main, *share_specs]


def create_payment_request(owner: int, receiver: int, amount: float, description: str) -> Spec:
    """A venmo payment request from the main user to ``receiver``."""
    return create("venmo.payment_requests", {"sender_id": owner, "receiver_id": receiver, "amount": amount,
                                             "description": description, "private": False, "transaction_id": None,
                                             "created_at": NOW, "updated_at": NOW, "approved_at": None,
                                             "denied_at": None},
                  {"sender_id": EXACT, "receiver_id": EXACT, "amount": EXACT, "description": ROUGE_L})


def create_cart_entry(owner: int, product_id: int, quantity: int, table: str = "amazon.cart_entries") -> Spec:
    """An Amazon cart (or, with ``table="amazon.wish_list_entries"``, wish list) entry."""
    data: dict[str, Any] = {"user_id": owner, "product_id": product_id, "quantity": quantity}
    if table == "amazon.cart_entries":
        data["gift_wrap_quantity"] = 0
    return create(table, data, {"user_id": EXACT, "product_id": EXACT, "quantity": EXACT})


def create_playlist(owner: int, title: str, song_ids: list[int]) -> list[Spec]:
    """A new private spotify playlist and one playlist_songs row per song."""
    main = create("spotify.playlists", {"title": title, "user_id": owner, "created_at": NOW, "is_public": False,
                                        "rating": 0.0, "like_count": 0, "review_count": 0},
                  {"title": ROUGE_L, "user_id": EXACT, "is_public": EXACT})
    return [main, *(create("spotify.playlist_songs", {"playlist_id": 800, "song_id": s, "added_at": NOW},
                           {"song_id": EXACT}) for s in song_ids)]


def create_link(table: str, owner: int, column: str, item_id: int) -> Spec:
    """A (user, item) relation such as ``spotify.song_likes`` or ``spotify.artist_followers``."""
    return create(table, {"user_id": owner, column: item_id, "created_at": NOW}, {"user_id": EXACT, column: EXACT})
