"""Seed-row builders for a scenario's initial world (``appworld_entities`` / ``agentsandbox_entities``): rows
in the released files' column layout, so seeded people, contacts, projects, tasks, notes and reminders need only
the values that matter (also amazon products, spotify music, splitwise expenses and files, for the benchmark
sets)."""

from __future__ import annotations

from typing import Any

from mmtsb.authoring.clock import SEED_TIME

__all__ = ["album", "artist", "contact", "expense", "expense_share", "file", "gmail_user", "note", "phone_user",
           "product", "project", "reminder", "seller", "song", "task", "user_link", "wish_entry"]


def gmail_user(uid: int, first: str, last: str, email: str, *, contact: bool = True) -> dict[str, Any]:
    """A gmail.users row: contact-style people (id 200+) or email-only recipients (id 10100+)."""
    if contact:
        return {"id": uid, "first_name": first, "last_name": last, "email": email, "password": "default_password",
                "status": "active", "created_at": "2025-01-01T00:00:00", "last_logged_in": "2025-01-01T00:00:00"}
    return {"id": uid, "first_name": first, "last_name": last, "email": email, "password": "placeholder_password",
            "status": "active"}


def phone_user(uid: int, first: str, last: str, phone: str) -> dict[str, Any]:
    """A phone.users row: the phone-side account of a person the main user can text."""
    return {"id": uid, "first_name": first, "last_name": last, "phone_number": phone, "password": "default_password",
            "created_at": "2025-01-01T00:00:00", "last_logged_in": "2025-01-01T00:00:00"}


def contact(cid: int, owner: int, first: str, last: str, email: str | None, phone: str | None,
            relationships: list[str], created_at: str = "2025-09-12T10:00:00") -> dict[str, Any]:
    """A phone.contacts row owned by ``owner`` (addresses and birthday left empty)."""
    return {"id": cid, "user_id": owner, "first_name": first, "last_name": last, "email": email,
            "phone_number": phone, "relationships": relationships, "birthday": None, "home_address": None,
            "work_address": None, "created_at": created_at}


def project(pid: int, owner: int, name: str, color: str = "charcoal",
            created_at: str = SEED_TIME) -> tuple[dict[str, Any], dict[str, Any]]:
    """A todoist.projects row and its owner's collaborator link (id = project id + 50000)."""
    row = {"id": pid, "user_id": owner, "name": name, "color": color, "is_inbox": False, "description": "",
           "created_at": created_at}
    link = {"id": pid + 50000, "project_id": pid, "user_id": owner, "is_favorite": False, "is_archived": False,
            "created_at": created_at}
    return row, link


def task(tid: int, pid: int, owner: int, title: str, order: int, *, due: str | None = None,
         priority: str = "medium", description: str | None = None) -> dict[str, Any]:
    """An open todoist.tasks row outside any section; ``order`` is its place in the project and the minute of
    its creation time on the seed day."""
    return {"id": tid, "project_id": pid, "section_id": None, "user_id": owner, "title": title,
            "description": description, "due_date": due, "priority": priority, "is_completed": False,
            "duration": None, "duration_unit": None, "order_index": order, "assignee_id": None, "assigner_id": None,
            "created_at": f"2026-04-10T09:{order:02d}:00"}


def note(nid: int, owner: int, title: str, content: str, *, stamp: str = SEED_TIME) -> dict[str, Any]:
    """An unpinned simple_note.notes row without tags, created and last updated at ``stamp``."""
    return {"id": nid, "user_id": owner, "title": title, "content": content, "tags": [], "created_at": stamp,
            "updated_at": stamp, "pinned": False}


def reminder(rid: str, content: str, created: str, when: str) -> dict[str, Any]:
    """A device-side reminder row (``agentsandbox_entities["reminder"]``) without a location."""
    return {"reminder_id": rid, "content": content, "creation_datetime": created, "reminder_datetime": when,
            "latitude": None, "longitude": None}


def seller(sid: int, name: str, rating: float = 4.5) -> dict[str, Any]:
    """An amazon.sellers row."""
    return {"id": sid, "name": name, "rating": rating}


def product(pid: int, seller_id: int, name: str, product_type: str, price: float, *, description: str = "",
            delivery_days: int = 3, rating: float = 4.4, color: str | None = None,
            relative_size: str = "medium") -> dict[str, Any]:
    """An amazon.products row in stock (dimensions and weight neutral)."""
    return {"id": pid, "product_type": product_type, "name": name, "description": description or name,
            "seller_id": seller_id, "price": price, "delivery_days": delivery_days, "inventory_quantity": 50,
            "weight": 1.0, "length": 6.0, "width": 4.0, "height": 3.0, "color": color, "relative_size": relative_size,
            "rating": rating, "seller_rating": 4.5, "has_variations": False}


def wish_entry(eid: int, owner: int, product_id: int, quantity: int = 1) -> dict[str, Any]:
    """An amazon.wish_list_entries row."""
    return {"id": eid, "user_id": owner, "product_id": product_id, "quantity": quantity}


def artist(aid: int, name: str, genre: str) -> dict[str, Any]:
    """A spotify.artists row."""
    return {"id": aid, "name": name, "genre": genre, "created_at": "2019-01-01T00:00:00", "follower_count": 1200}


def album(aid: int, title: str, artist_ids: list[int], year: int, genre: str) -> dict[str, Any]:
    """A spotify.albums row."""
    return {"id": aid, "title": title, "artist_ids": artist_ids, "release_date": f"{year}-05-01T00:00:00",
            "genre": genre, "rating": 4.3, "like_count": 150, "review_count": 12}


def song(sid: int, title: str, artist_ids: list[int], album_id: int, duration: int, year: int,
         genre: str) -> dict[str, Any]:
    """A spotify.songs row."""
    return {"id": sid, "title": title, "artist_ids": artist_ids, "album_id": album_id, "duration": duration,
            "release_date": f"{year}-05-01T00:00:00", "genre": genre, "play_count": 5400, "rating": 4.2,
            "like_count": 320, "review_count": 8}


def user_link(lid: int, owner: int, column: str, item_id: int, created_at: str = SEED_TIME) -> dict[str, Any]:
    """A (user, item) relation row such as ``spotify.song_likes``."""
    return {"id": lid, "user_id": owner, column: item_id, "created_at": created_at}


def expense(eid: int, owner: int, debtors: list[int], description: str, amount: float,
            created_at: str = SEED_TIME) -> dict[str, Any]:
    """A splitwise.expenses row the owner paid, outside any group (its shares come from :func:`expense_share`)."""
    return {"id": eid, "user_id": owner, "group_id": None, "payer_id": owner, "debtor_ids": debtors,
            "participant_ids": [owner, *debtors], "description": description, "amount": amount, "deleted": False,
            "receipt_file_name": None, "receipt_file_content": None, "receipt_download_count": 0,
            "created_at": created_at}


def expense_share(sid: int, expense_id: int, debtor: int, amount: float, created_at: str = SEED_TIME) -> dict[str, Any]:
    """A splitwise.expense_shares row."""
    return {"id": sid, "expense_id": expense_id, "debtor_id": debtor, "share_amount": amount,
            "created_at": created_at}


def file(fid: int, owner: int, home: str, tilde_path: str, content: str, stamp: str = SEED_TIME) -> dict[str, Any]:
    """A file_system.files row; ``home`` is the owner's home folder (``/home/brenda/``)."""
    return {"id": fid, "path": home + tilde_path[2:], "tilde_path": tilde_path, "user_id": owner, "content": content,
            "compressed_data": [], "created_at": stamp, "updated_at": stamp}
