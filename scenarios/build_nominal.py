"""Generate mmtsb's starter scenario set ``scenarios/nominal/`` (JSON files and their images).

Deterministic: running ``python scenarios/build_nominal.py`` regenerates byte-identical files, so the
committed set can be checked against its source (tests/scenarios/test_nominal_set.py does). Images are
drawn here (PIL for documents, receipts, posters, cards and app screens; matplotlib Agg for charts) and
their content is the exact ground truth the specs and reference solutions use.

Layout of this file: drawing kit -> entity rows -> spec builders -> one function per scenario -> assembly.
Usage: ``python scenarios/build_nominal.py [--out DIR]`` (default: the folder next to this file).
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mmtsb.scenarios.script import ScriptRound, render_user_script

OUT_DIR = Path(__file__).resolve().parent / "nominal"
REFERENCE_TIME = "2026-04-16T23:51:15.674412+00:00"  # Thursday 16 April 2026, 4:51 PM on the device (UTC-7)
NOW = "2026-04-16T23:51:15"  # the AppWorld-side timestamp of rows created during the episode
TZ = "-07:00"  # the device's UTC offset: calendar and reminder times are written with it

class User(NamedTuple):
    """A base person used as a scenario's main user (mmtsb/world/people.py KNOWN_PEOPLE)."""

    email: str
    id: int
    first: str


BRENDA = User("brenda.webe@gmail.com", 50, "Brenda")
CHRISTINA = User("chrharrison@gmail.com", 13, "Christina")
SIMONE = User("siwhit@gmail.com", 105, "Simone")
THOMAS = User("thomas.solomon@gmail.com", 8, "Thomas")


# =========================================================================================== drawing kit
INK = (28, 28, 32)
GREY = (110, 110, 118)
LIGHT = (225, 225, 230)


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


class Sheet:
    """A canvas with the few drawing operations the images need."""

    def __init__(self, width: int, height: int, background: tuple[int, int, int] = (255, 255, 255)) -> None:
        self.width, self.height = width, height
        self.img = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.img)

    def text(self, x: float, y: float, s: str, size: int = 18, fill: tuple[int, int, int] = INK,
             bold: bool = False, anchor: str = "la") -> None:
        self.draw.text((x, y), s, font=font(size), fill=fill, anchor=anchor, stroke_width=1 if bold else 0,
                       stroke_fill=fill)

    def center(self, y: float, s: str, size: int = 18, fill: tuple[int, int, int] = INK, bold: bool = False) -> None:
        self.text(self.width / 2, y, s, size, fill, bold, anchor="ma")

    def pair(self, x0: float, x1: float, y: float, left: str, right: str, size: int = 18,
             fill: tuple[int, int, int] = INK, bold: bool = False) -> None:
        """A left-aligned label and a right-aligned value on one line."""
        self.text(x0, y, left, size, fill, bold)
        self.text(x1, y, right, size, fill, bold, anchor="ra")

    def wrapped(self, x: float, y: float, s: str, width_chars: int, size: int = 18,
                fill: tuple[int, int, int] = INK, spacing: float = 1.45) -> float:
        """Draw wrapped text; returns the y below it."""
        for line in textwrap.wrap(s, width_chars):
            self.text(x, y, line, size, fill)
            y += size * spacing
        return y

    def rect(self, box: tuple[float, float, float, float], fill: tuple[int, int, int] | None = None,
             outline: tuple[int, int, int] | None = None, width: int = 1, radius: int = 0) -> None:
        if radius:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=width)

    def hline(self, y: float, x0: float, x1: float, fill: tuple[int, int, int] = LIGHT, width: int = 2,
              dashed: bool = False) -> None:
        if not dashed:
            self.draw.line((x0, y, x1, y), fill=fill, width=width)
            return
        x = x0
        while x < x1:
            self.draw.line((x, y, min(x + 8, x1), y), fill=fill, width=width)
            x += 14

    def png(self) -> bytes:
        return png_bytes(self.img)


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def receipt(header: list[str], meta: list[str], items: list[tuple[str, str]], totals: list[tuple[str, str]],
            footer: list[str], width: int = 460) -> bytes:
    """A till receipt: centred header, meta lines, item lines, totals (the last in bold), footer."""
    height = 150 + 26 * len(header) + 26 * len(meta) + 30 * len(items) + 32 * len(totals) + 26 * len(footer)
    s = Sheet(width, height, (252, 251, 247))
    y = 30
    for i, line in enumerate(header):
        s.center(y, line, 24 if i == 0 else 16, bold=i == 0)
        y += 34 if i == 0 else 24
    y += 10
    for line in meta:
        s.text(30, y, line, 16, GREY)
        y += 24
    s.hline(y + 8, 24, width - 24, GREY, 2, dashed=True)
    y += 24
    for left, right in items:
        s.pair(30, width - 30, y, left, right, 17)
        y += 30
    s.hline(y + 4, 24, width - 24, GREY, 2, dashed=True)
    y += 18
    for i, (left, right) in enumerate(totals):
        last = i == len(totals) - 1
        s.pair(30, width - 30, y, left, right, 20 if last else 17, bold=last)
        y += 32
    y += 10
    for line in footer:
        s.center(y, line, 15, GREY)
        y += 24
    return s.png()


#: default table columns (x, anchor): description, quantity, unit price, amount
ITEM_COLUMNS = ((40, "la"), (470, "ra"), (620, "ra"), (780, "ra"))


def document(letterhead: str, sub: str, accent: tuple[int, int, int], title: str,
             fields: list[tuple[str, str]], table: tuple[list[str], list[list[str]]] | None = None,
             totals: list[tuple[str, str]] | None = None, paragraphs: list[str] | None = None,
             columns: tuple[tuple[int, str], ...] = ITEM_COLUMNS, width: int = 820) -> bytes:
    """A business document: letterhead band, title, key/value fields, an optional table, totals and notes
    (the page is cropped below its content)."""
    s = Sheet(width, 1400)
    s.rect((0, 0, width, 96), fill=accent)
    s.text(40, 22, letterhead, 30, (255, 255, 255), bold=True)
    s.text(40, 62, sub, 16, (240, 240, 240))
    s.text(40, 128, title, 28, INK, bold=True)
    y = 184
    for key, value in fields:
        s.text(40, y, key, 17, GREY)
        s.text(250, y, value, 17)
        y += 30
    if table:
        heads, rows = table
        y += 16
        s.rect((30, y - 8, width - 30, y + 28), fill=(240, 241, 245))
        for (x, anchor), head in zip(columns, heads):
            s.text(x, y, head, 16, GREY, bold=True, anchor=anchor)
        y += 40
        for row in rows:
            for (x, anchor), cell in zip(columns, row):
                s.text(x, y, cell, 17, anchor=anchor)
            y += 32
            s.hline(y - 6, 30, width - 30)
    if totals:
        y += 10
        for i, (left, right) in enumerate(totals):
            last = i == len(totals) - 1
            s.pair(width - 360, columns[-1][0], y, left, right, 19 if last else 17, bold=last)
            y += 32
    for p in paragraphs or []:
        y += 14
        y = s.wrapped(40, y, p, 80, 17)
    s.img = s.img.crop((0, 0, width, max(int(y) + 60, 520)))
    return s.png()


def poster(background: tuple[int, int, int], accent: tuple[int, int, int], kicker: str, title: list[str],
           lines: list[str], badge: str, width: int = 640, height: int = 860) -> bytes:
    """An event flyer: kicker, large title, detail lines and a price badge."""
    s = Sheet(width, height, background)
    s.rect((30, 30, width - 30, height - 30), outline=accent, width=6)
    s.center(80, kicker.upper(), 20, accent, bold=True)
    y = 140
    for t in title:
        s.center(y, t, 52, INK, bold=True)
        y += 66
    y += 30
    s.hline(y, 120, width - 120, accent, 4)
    y += 40
    for line in lines:
        s.center(y, line, 24, INK)
        y += 44
    s.rect((width / 2 - 200, height - 190, width / 2 + 200, height - 100), fill=accent, radius=18)
    s.center(height - 166, badge, 34, (255, 255, 255), bold=True)
    return s.png()


def phone_screen(app: str, color: tuple[int, int, int], heading: str, rows: list[tuple[str, str, str]],
                 note: str = "", width: int = 480, height: int = 900) -> bytes:
    """A phone app screen: status bar, coloured app bar, a heading and list rows (title, detail, right)."""
    s = Sheet(width, height, (246, 246, 249))
    s.rect((0, 0, width, 44), fill=(20, 20, 24))
    s.text(20, 12, "9:41", 17, (255, 255, 255), bold=True)
    s.text(width - 20, 12, "100%", 16, (255, 255, 255), anchor="ra")
    s.rect((0, 44, width, 124), fill=color)
    s.text(24, 70, app, 28, (255, 255, 255), bold=True)
    s.text(24, 148, heading, 21, INK, bold=True)
    y = 192
    for title, detail, right in rows:
        lines = textwrap.wrap(detail, 40) if detail else []
        h = 64 + 24 * max(0, len(lines) - 1)
        s.rect((16, y, width - 16, y + h), fill=(255, 255, 255), outline=LIGHT, radius=12)
        s.text(32, y + 12, title, 19, INK, bold=True)
        for i, line in enumerate(lines):
            s.text(32, y + 38 + 24 * i, line, 16, GREY)
        if right:
            s.text(width - 32, y + 12, right, 18, color, bold=True, anchor="ra")
        y += h + 12
    if note:
        s.wrapped(24, y + 10, note, 44, 16, GREY)
    return s.png()


def card(name: str, title: str, company: str, email: str, phone: str, color: tuple[int, int, int],
         width: int = 700, height: int = 400) -> bytes:
    """A business card."""
    s = Sheet(width, height, (250, 250, 247))
    s.rect((0, 0, 26, height), fill=color)
    s.text(70, 60, company, 30, color, bold=True)
    s.text(70, 160, name, 36, INK, bold=True)
    s.text(70, 210, title, 21, GREY)
    s.hline(262, 70, width - 70, LIGHT, 2)
    s.text(70, 290, email, 20)
    s.text(70, 326, phone, 20)
    return s.png()


def recipe_card(title: str, serves: str, ingredients: list[str], color: tuple[int, int, int]) -> bytes:
    s = Sheet(620, 200 + 40 * len(ingredients), (255, 253, 245))
    s.rect((0, 0, 620, 90), fill=color)
    s.text(30, 26, title, 32, (255, 255, 255), bold=True)
    s.text(30, 112, f"{serves}  |  Ingredients", 18, GREY)
    y = 156
    for item in ingredients:
        s.draw.ellipse((34, y + 6, 44, y + 16), fill=color)
        s.text(60, y, item, 21)
        y += 40
    return s.png()


def bar_chart(title: str, labels: list[str], values: list[float], color: str, ylabel: str) -> bytes:
    """A labelled bar chart rendered with matplotlib's Agg backend, encoded by PIL."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=100)
    bars = ax.bar(labels, values, color=color, width=0.6)
    ax.set_title(title, fontsize=14, fontweight="bold")
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 200)
    ax.spines[["top", "right"]].set_visible(False)
    for b, v in zip(bars, values):
        ax.text(b.get_x() + b.get_width() / 2, v + 4, f"${v:g}K", ha="center", fontsize=12, fontweight="bold")
    fig.tight_layout()
    fig.canvas.draw()
    img = Image.frombuffer("RGBA", fig.canvas.get_width_height(), bytes(fig.canvas.buffer_rgba())).convert("RGB")
    plt.close(fig)
    return png_bytes(img)


def book_cover(title: list[str], author: str, background: tuple[int, int, int], rating: str) -> bytes:
    """A photographed book cover with a handwritten-style sticky note carrying the owner's rating."""
    s = Sheet(560, 760, (214, 204, 190))
    s.rect((70, 40, 490, 720), fill=background)
    y = 150
    for t in title:
        s.center(y, t, 44, (255, 255, 255), bold=True)
        y += 58
    s.hline(y + 20, 150, 410, (255, 255, 255), 3)
    s.center(y + 50, author.upper(), 22, (245, 245, 245))
    s.rect((300, 520, 530, 680), fill=(255, 235, 120), outline=(214, 190, 60), width=2)
    s.text(415, 560, "My rating:", 22, (60, 60, 60), anchor="ma")
    s.text(415, 600, rating, 40, (30, 30, 30), bold=True, anchor="ma")
    return s.png()


def passport_page(fields: list[tuple[str, str]], machine_lines: list[str]) -> bytes:
    """A passport data page (fictional layout): photo box, labelled fields and two machine-readable lines."""
    s = Sheet(900, 600, (233, 240, 236))
    s.rect((0, 0, 900, 70), fill=(26, 35, 126))
    s.text(30, 20, "PASSPORT  -  UNITED STATES OF AMERICA", 26, (255, 255, 255), bold=True)
    s.rect((40, 110, 250, 380), fill=(200, 208, 204), outline=(120, 130, 126), width=2)
    s.text(145, 235, "PHOTO", 22, (120, 130, 126), anchor="ma")
    y = 100
    for label, value in fields:
        s.text(290, y, label, 15, GREY)
        s.text(290, y + 20, value, 22, INK, bold=True)
        y += 58
    s.rect((0, 480, 900, 600), fill=(246, 248, 247))
    for i, line in enumerate(machine_lines):
        s.text(40, 500 + 40 * i, line, 24, INK)
    return s.png()


def talk_card(title: list[str], speaker: str, affiliation: str, when: str, room: str,
              color: tuple[int, int, int]) -> bytes:
    """A conference session card."""
    s = Sheet(640, 420, (255, 255, 255))
    s.rect((0, 0, 640, 64), fill=color)
    s.text(24, 20, "DevSummit 2026  -  Tuesday, April 21", 22, (255, 255, 255), bold=True)
    y = 96
    for t in title:
        s.text(24, y, t, 34, INK, bold=True)
        y += 44
    s.text(24, y + 20, speaker, 26, color, bold=True)
    s.text(24, y + 56, affiliation, 18, GREY)
    s.hline(330, 24, 616, LIGHT, 2)
    s.text(24, 350, when, 22, INK)
    s.text(616, 350, room, 22, INK, bold=True, anchor="ra")
    return s.png()


def zone_map(line: str, stations: list[tuple[str, int]], colors: dict[int, tuple[int, int, int]]) -> bytes:
    """A transit line diagram with fare-zone bands."""
    s = Sheet(900, 420, (255, 255, 255))
    s.text(30, 24, f"{line} - fare zones", 30, INK, bold=True)
    x0, step_x = 90, 180
    for i, (name, zone) in enumerate(stations):
        x = x0 + i * step_x
        s.rect((x - step_x / 2, 110, x + step_x / 2, 330), fill=colors[zone])
        s.text(x, 300, f"Zone {zone}", 18, (60, 60, 60), bold=True, anchor="ma")
    s.draw.line((x0, 200, x0 + step_x * (len(stations) - 1), 200), fill=(21, 101, 192), width=10)
    for i, (name, zone) in enumerate(stations):
        x = x0 + i * step_x
        s.draw.ellipse((x - 14, 186, x + 14, 214), fill=(255, 255, 255), outline=(21, 101, 192), width=5)
        s.text(x, 230, name, 19, INK, anchor="ma")
    s.text(30, 370, "Fares are charged by the highest zone travelled. Monthly passes list the zones they cover.", 17,
           GREY)
    return s.png()


# =========================================================================================== entity rows
SEED_TIME = "2026-04-10T09:00:00"


def gmail_user(uid: int, first: str, last: str, email: str, *, contact: bool = True) -> dict[str, Any]:
    """A gmail.users row: contact-style people (id 200+) or email-only recipients (id 10100+)."""
    if contact:
        return {"id": uid, "first_name": first, "last_name": last, "email": email, "password": "default_password",
                "status": "active", "created_at": "2025-01-01T00:00:00", "last_logged_in": "2025-01-01T00:00:00"}
    return {"id": uid, "first_name": first, "last_name": last, "email": email, "password": "placeholder_password",
            "status": "active"}


def phone_user(uid: int, first: str, last: str, phone: str) -> dict[str, Any]:
    return {"id": uid, "first_name": first, "last_name": last, "phone_number": phone, "password": "default_password",
            "created_at": "2025-01-01T00:00:00", "last_logged_in": "2025-01-01T00:00:00"}


def contact(cid: int, owner: int, first: str, last: str, email: str | None, phone: str | None,
            relationships: list[str], created_at: str = "2025-09-12T10:00:00") -> dict[str, Any]:
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
    return {"id": tid, "project_id": pid, "section_id": None, "user_id": owner, "title": title,
            "description": description, "due_date": due, "priority": priority, "is_completed": False,
            "duration": None, "duration_unit": None, "order_index": order, "assignee_id": None, "assigner_id": None,
            "created_at": f"2026-04-10T09:{order:02d}:00"}


def note(nid: int, owner: int, title: str, content: str, *, stamp: str = SEED_TIME) -> dict[str, Any]:
    return {"id": nid, "user_id": owner, "title": title, "content": content, "tags": [], "created_at": stamp,
            "updated_at": stamp, "pinned": False}


def reminder(rid: str, content: str, created: str, when: str) -> dict[str, Any]:
    return {"reminder_id": rid, "content": content, "creation_datetime": created, "reminder_datetime": when,
            "latitude": None, "longitude": None}


# =========================================================================================== spec builders
EXACT = "column_exact_match_similarity"
ROUGE = "column_rouge_l_similarity"
IGNORE = "column_ignore_similarity"
DT_NAIVE = "column_datetime_naive_equal_similarity"


def _create(table: str, data: dict[str, Any], measures: dict[str, str], source: str = "appworld") -> dict[str, Any]:
    key = "table" if source == "appworld" else "namespace"
    return {"operation": "create", "source": source, key: table, "entity_data": data,
            "column_similarity_measure": {c: measures.get(c, IGNORE) for c in data}}


def create_note(owner: int, title: str, content: str) -> dict[str, Any]:
    return _create("simple_note.notes", {"user_id": owner, "title": title, "content": content, "tags": [],
                                         "pinned": False, "created_at": NOW, "updated_at": NOW},
                   {"user_id": EXACT, "title": ROUGE, "content": ROUGE, "pinned": EXACT})


def create_email(sender: int, recipients: list[int], subject: str, body: str) -> dict[str, Any]:
    return _create("gmail.emails", {"sender_id": sender, "recipient_ids": recipients, "subject": subject,
                                    "body": body, "response_to_email_id": None, "created_at": NOW},
                   {"sender_id": EXACT, "recipient_ids": EXACT, "subject": ROUGE, "body": ROUGE})


def create_task(pid: int, owner: int, title: str, *, priority: str = "medium", description: str | None = None,
                due: str | None = None) -> dict[str, Any]:
    data = {"project_id": pid, "section_id": None, "user_id": owner, "title": title, "description": description,
            "due_date": due, "priority": priority, "is_completed": False, "duration": None, "duration_unit": None,
            "order_index": 0, "assignee_id": None, "assigner_id": None, "created_at": NOW}
    measures = {"project_id": EXACT, "user_id": EXACT, "title": ROUGE, "priority": EXACT, "is_completed": EXACT}
    if description is not None:
        measures["description"] = ROUGE
    if due is not None:
        measures["due_date"] = EXACT
    return _create("todoist.tasks", data, measures)


def create_comment(task_id: int, owner: int, content: str) -> dict[str, Any]:
    return _create("todoist.task_comments", {"task_id": task_id, "user_id": owner, "content": content,
                                             "created_at": NOW},
                   {"task_id": EXACT, "user_id": EXACT, "content": ROUGE})


def create_contact(owner: int, first: str, last: str, email: str, phone: str) -> dict[str, Any]:
    return _create("phone.contacts", {"user_id": owner, "first_name": first, "last_name": last, "email": email,
                                      "phone_number": phone, "relationships": [], "birthday": None,
                                      "home_address": None, "work_address": None, "created_at": NOW},
                   {"user_id": EXACT, "first_name": EXACT, "last_name": EXACT, "email": EXACT, "phone_number": EXACT})


def create_text(sender: int, receiver: int, message: str) -> list[dict[str, Any]]:
    """A sent text: the global message and one user_text_messages row per party."""
    glob = _create("phone.global_text_messages", {"sender_id": sender, "receiver_id": receiver, "message": message,
                                                  "created_at": NOW},
                   {"sender_id": EXACT, "receiver_id": EXACT, "message": ROUGE})
    links = [_create("phone.user_text_messages", {"global_text_message_id": 200, "user_id": uid, "created_at": NOW},
                     {"user_id": EXACT}) for uid in (sender, receiver)]
    return [glob, *links]


def create_event(title: str, start: str, end: str) -> dict[str, Any]:
    data = {"calendar_event_id": "calendar_events_calendar_event_100", "calendar_id": "calendar_events_calendar_100",
            "title": title, "description": None, "start_datetime": start, "end_datetime": end, "is_all_day": False,
            "recurrence_frequency": None, "recurrence_interval": None, "recurrence_until_datetime": None,
            "recurrence_parent_id": None, "recurrence_exclude_datetime": [], "latitude": None, "longitude": None,
            "place_id": None, "formatted_address": None, "attendee_names": [], "attendee_emails": []}
    return _create("CALENDAR_EVENTS", data, {"title": ROUGE, "start_datetime": DT_NAIVE, "end_datetime": DT_NAIVE,
                                             "is_all_day": EXACT}, source="agentsandbox")


def create_reminder(content: str, when: str) -> dict[str, Any]:
    data = {"reminder_id": "reminder_100", "content": content, "creation_datetime": NOW, "reminder_datetime": when,
            "latitude": None, "longitude": None}
    return _create("REMINDER", data, {"content": ROUGE, "reminder_datetime": DT_NAIVE}, source="agentsandbox")


def create_alarm(owner: int, time: str, label: str) -> dict[str, Any]:
    data = {"user_id": owner, "time": time, "repeat_days": [], "label": label, "enabled": True,
            "snooze_minutes": 15, "vibration": True, "created_at": NOW}
    return _create("phone.alarms", data, {"user_id": EXACT, "time": EXACT, "label": ROUGE, "enabled": EXACT})


def update(table: str, row_id: Any, fields: dict[str, Any], measures: dict[str, str], *, id_column: str = "id",
           source: str = "appworld") -> dict[str, Any]:
    key = "table" if source == "appworld" else "namespace"
    return {"operation": "update", "source": source, key: table, "entity_id_column": id_column,
            "entity_id_value": row_id, "expected_fields": fields,
            "column_similarity_measure": {**measures, id_column: EXACT}}


def update_task(tid: int, **fields: Any) -> dict[str, Any]:
    measures = {c: (ROUGE if c in ("title", "description") else EXACT) for c in fields}
    return update("todoist.tasks", tid, fields, measures)


def update_note(nid: int, content: str, seed_updated_at: str = SEED_TIME) -> dict[str, Any]:
    # released style: the seed's updated_at (ignored) and tags: [] without a measure
    return update("simple_note.notes", nid, {"updated_at": seed_updated_at, "content": content, "tags": []},
                  {"updated_at": IGNORE, "content": ROUGE})


def delete(table: str, row_id: Any, *, id_column: str = "id", source: str = "appworld") -> dict[str, Any]:
    key = "table" if source == "appworld" else "namespace"
    return {"operation": "delete", "source": source, key: table, "entity_id_column": id_column,
            "entity_id_value": row_id, "column_similarity_measure": {id_column: EXACT}}


# =========================================================================================== scenario model
def step(tool: str, save_as: str | None = None, **arguments: Any) -> dict[str, Any]:
    """One reference-solution step."""
    out: dict[str, Any] = {"tool": tool, "arguments": arguments}
    if save_as:
        out["save_as"] = save_as
    return out


@dataclass
class Round:
    provide: list[int]  # 1-based image numbers delivered with this round
    query: str
    instructions: str
    steps: list[dict[str, Any]]
    reply: str


@dataclass
class Definition:
    """Everything one scenario file is generated from."""

    number: int
    user: User
    description: str
    flow: str
    arrival: str
    challenge: str
    disambiguation: bool
    dataset_type: str
    images: list[tuple[str, Callable[[], bytes]]]
    rounds: list[Round]
    specs: list[dict[str, Any]]
    criteria: str
    appworld: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    agentsandbox: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"mmtsb_nominal_{self.number:03d}"

    def image_path(self, index: int) -> str:
        slug = self.images[index][0]
        return f"images/n{self.number:03d}_{index + 1}_{slug}.png"


# =========================================================================================== scenarios
def money(x: float) -> str:
    return f"${x:,.2f}"


def s001() -> Definition:
    """aggregate / upfront / none: three offsite receipts -> an expense note and an email to Glen."""
    uid, first = BRENDA.id, BRENDA.first
    cafe, cab, prints = 52.85, 42.40, 66.06
    total = round(cafe + cab + prints, 2)
    note_title = "Offsite expenses - April 14"
    note_body = (f"Bluebird Cafe: {money(cafe)}\nRainier Cab Co.: {money(cab)}\nQuickPrint Copy Center: "
                 f"{money(prints)}\nGrand total: {money(total)}")
    subject = "Offsite expense summary"
    body = (f"Hi Glen,\n\nThe team offsite on April 14 came to {money(total)} in total: Bluebird Cafe {money(cafe)}, "
            f"Rainier Cab Co. {money(cab)} and QuickPrint Copy Center {money(prints)}. Could you process the "
            f"reimbursement?\n\nThanks,\n{first}")
    images = [
        ("receipt_cafe", lambda: receipt(
            ["Bluebird Cafe", "412 Alder St, Seattle WA", "(206) 555-0187"],
            ["Date: 04/14/2026   08:12 AM", "Server: Jonah   Table: 7", "Order #4471"],
            [("4 x Cappuccino @ 4.75", "19.00"), ("3 x Blueberry muffin @ 3.50", "10.50"),
             ("2 x Breakfast burrito @ 9.25", "18.50")],
            [("Subtotal", "48.00"), ("Sales tax 10.1%", "4.85"), ("TOTAL", money(cafe))],
            ["Paid by VISA ****1234", "Thank you - see you soon!"])),
        ("receipt_taxi", lambda: receipt(
            ["Rainier Cab Co.", "Trip receipt - Cab #218"],
            ["Date: 04/14/2026", "Pickup: 09:02 AM  SeaTac Airport", "Drop-off: 09:41 AM  Pier 70"],
            [("Metered fare", "31.40"), ("Airport pickup fee", "5.00"), ("Tip", "6.00")],
            [("TOTAL", money(cab))],
            ["Driver ID 5521", "Questions? rainiercab.example"])),
        ("receipt_print", lambda: receipt(
            ["QuickPrint Copy Center", "88 Western Ave, Seattle WA"],
            ["04/14/2026  10:17 AM", "Job #PR-3390"],
            [("6 x Color poster 18x24 @ 7.50", "45.00"), ("12 x Name badge @ 1.25", "15.00")],
            [("Subtotal", "60.00"), ("Sales tax 10.1%", "6.06"), ("TOTAL", money(prints))],
            ["Paid by VISA ****1234"])),
    ]
    rounds = [
        Round([1, 2, 3],
              "These are the receipts from Tuesday's team offsite. Please create a note titled 'Offsite expenses - "
              "April 14' that lists each vendor with its receipt total, and the grand total at the end.",
              "Send all three receipts and ask for the expense note. Do not state any amounts yourself; the assistant "
              "must read them from the receipts. If it asks how to format the note, tell it one line per vendor with "
              "the receipt total, then a grand-total line. Once it confirms the note is created, move on to the next "
              "round.",
              [step("simple_note_create_note", "expense_note", title=note_title, content=note_body)],
              f"I created the note '{note_title}': Bluebird Cafe {money(cafe)}, Rainier Cab Co. {money(cab)}, "
              f"QuickPrint Copy Center {money(prints)}; grand total {money(total)}."),
        Round([],
              "Great. Now email Glen a short summary with the grand total so he can reimburse me. Use the subject "
              "'Offsite expense summary'.",
              "Ask the assistant to email Glen the grand total and the per-vendor amounts. You have two contacts "
              "named Glen: if the assistant asks which one, say Glen Moore, your coworker (not Glen Peterson, your "
              "accountant). If it picks one without asking, check that it is Glen Moore and correct it otherwise. If "
              "the total it states differs from the one in the note, point it back to the receipts. End the "
              "conversation once the email is sent.",
              [step("contacts_search_contacts", "glen", query="Glen Moore"),
               step("gmail_send_email", email_addresses=["$glen.0.email"], subject=subject, body=body)],
              f"I emailed Glen Moore the summary with the grand total of {money(total)}."),
    ]
    specs = [create_note(uid, note_title, note_body), create_email(uid, [55], subject, body)]
    criteria = (f"A note titled '{note_title}' must list Bluebird Cafe {money(cafe)}, Rainier Cab Co. {money(cab)} and "
                f"QuickPrint Copy Center {money(prints)} with a grand total of {money(total)}. An email with the "
                f"subject '{subject}' must be sent to Glen Moore (gl.moore@gmail.com, the coworker the user means; "
                f"not Glen Peterson) stating the grand total of {money(total)}.")
    return Definition(1, BRENDA, "Brenda organised a team offsite and is filing the expenses: she turns three "
                      "receipts into an expense note and asks her coworker Glen to reimburse the total.",
                      "aggregate", "upfront", "none", True, "synthetic_document", images, rounds, specs, criteria,
                      appworld={"phone.contacts": [contact(200, uid, "Glen", "Peterson", "glen.peterson@petersoncpa.com",
                                                           "(206) 555-0112", ["accountant"])],
                                "gmail.users": [gmail_user(200, "Glen", "Peterson", "glen.peterson@petersoncpa.com")],
                                "phone.users": [phone_user(200, "Glen", "Peterson", "(206) 555-0112")]})


def s002() -> Definition:
    """filter / progressive / error_correction: only the free events from four flyers go on the calendar."""
    uid = CHRISTINA.id
    swap = ("Spring Plant Swap", "2026-04-18T10:00:00", "2026-04-18T12:00:00")
    yoga = ("Sunset Yoga in the Park", "2026-04-19T18:00:00", "2026-04-19T19:00:00")
    text = ("Free events this weekend: Spring Plant Swap on Saturday, April 18 from 10:00 AM to 12:00 PM at "
            "Greenwood Library Garden, and Sunset Yoga in the Park on Sunday, April 19 from 6:00 PM to 7:00 PM at "
            "Gas Works Park.")
    images = [
        ("flyer_plant_swap", lambda: poster((236, 246, 232), (46, 125, 50), "Greenwood Library presents",
                                            ["Spring", "Plant Swap"],
                                            ["Saturday, April 18, 2026", "10:00 AM - 12:00 PM",
                                             "Greenwood Library Garden", "Bring a cutting, take a cutting!"],
                                            "FREE ADMISSION")),
        ("flyer_jazz", lambda: poster((232, 238, 250), (40, 53, 147), "Live music on the waterfront",
                                      ["Jazz on", "the Pier"],
                                      ["Saturday, April 18, 2026", "7:00 PM - 9:00 PM", "Pier 62 Pavilion",
                                       "Featuring the Elliott Bay Quartet"],
                                      "TICKETS $25")),
        ("flyer_book_fair", lambda: poster((250, 242, 230), (191, 87, 0), "Fremont Friends of the Library",
                                           ["Community", "Book Fair"],
                                           ["Sunday, April 19, 2026", "1:00 PM - 4:00 PM", "Fremont Community Hall",
                                            "Used books from $1 - kids enter free"],
                                           "ENTRY $5")),
        ("flyer_yoga", lambda: poster((248, 236, 244), (136, 14, 79), "Seattle Parks community class",
                                      ["Sunset Yoga", "in the Park"],
                                      ["Sunday, April 19, 2026", "6:00 PM - 7:00 PM", "Gas Works Park",
                                       "All levels - bring your own mat"],
                                      "FREE")),
    ]
    rounds = [
        Round([1, 2],
              "I'm planning my weekend. Of these two flyers, put only the free events on my Personal calendar, with "
              "the exact times shown.",
              "Send the first two flyers. Ask the assistant to add only the free events to your Personal calendar with "
              "the times printed on the flyers. Do not say which events are free; let it read the prices. Once it "
              "confirms what it added, move on to the next round.",
              [step("search_calendars", "personal", title="Personal"),
               step("create_calendar_event", calendar_id="$personal.0.calendar_id", title=swap[0],
                    start_datetime=swap[1] + TZ, end_datetime=swap[2] + TZ)],
              "Only the Spring Plant Swap is free (the jazz night costs $25), so I added it to your Personal calendar "
              "for Saturday, April 18, 10:00 AM to 12:00 PM."),
        Round([3, 4],
              "Here are two more flyers. Same rule: add the free ones to my Personal calendar. The book fair is free "
              "too, right? Add it as well.",
              "Send the two new flyers and ask for the same free-only rule. Casually insist that the book fair is "
              "free; this is a deliberate mistake, since its flyer says entry is $5 (only kids enter free). If the "
              "assistant points out the $5 entry, accept the correction and tell it to skip the book fair. If it adds "
              "the book fair anyway, tell it to look at the entry price on the flyer and remove the event. Move on "
              "once the free events are on the calendar.",
              [step("create_calendar_event", calendar_id="$personal.0.calendar_id", title=yoga[0],
                    start_datetime=yoga[1] + TZ, end_datetime=yoga[2] + TZ)],
              "I added Sunset Yoga in the Park (Sunday, 6:00-7:00 PM). The book fair is not free: its flyer says "
              "entry is $5 (only kids get in free), so I left it off."),
        Round([],
              "Thanks. Text Ronald the list of free events we're going to this weekend, with their days and times.",
              "Ask the assistant to text Ronald the free events with their days and times. You have two contacts "
              "named Ronald: if the assistant asks which one, say your husband, Ronald Harrison (not Ronald Baker, "
              "your neighbor). If it texts Ronald Baker, tell it that was the wrong Ronald. End the conversation once "
              "the text is sent to your husband.",
              [step("contacts_search_contacts", "ronald", query="Ronald Harrison"),
               step("messages_send_text_message", phone_number="$ronald.0.phone_number", message=text)],
              "I texted Ronald the two free events with their days and times."),
    ]
    specs = [create_event(*swap), create_event(*yoga), *create_text(uid, 12, text)]
    criteria = ("Only the free events must be added to the Personal calendar: 'Spring Plant Swap' on April 18, 2026 "
                "from 10:00 AM to 12:00 PM and 'Sunset Yoga in the Park' on April 19, 2026 from 6:00 PM to 7:00 PM. "
                "The Jazz on the Pier ($25) and the Community Book Fair ($5 entry, despite the user claiming it was "
                "free) must not be added. A text message listing the two free events with their days and times must "
                "be sent to Ronald Harrison, her husband (not to her neighbor Ronald Baker).")
    return Definition(2, CHRISTINA, "Christina is choosing weekend activities from event flyers. She only wants the "
                      "free ones on her calendar, misremembers one flyer's price, and shares the plan with her "
                      "husband.", "filter", "progressive", "error_correction", True, "synthetic_poster", images,
                      rounds, specs, criteria,
                      appworld={"phone.contacts": [contact(200, uid, "Ronald", "Baker", "ron.baker@fastmail.com",
                                                           "(206) 555-0164", ["neighbor"])],
                                "gmail.users": [gmail_user(200, "Ronald", "Baker", "ron.baker@fastmail.com")],
                                "phone.users": [phone_user(200, "Ronald", "Baker", "(206) 555-0164")]})


def s003() -> Definition:
    """compare / mixed / goal_change: choose a flight by price, then by arrival time; a luggage reminder."""
    uid = SIMONE.id
    sw = ("SW 418", "SkyWay Air", "6:05 AM", "8:14 AM", "$289", "2026-04-20T06:05:00", "2026-04-20T08:14:00")
    ns = ("NS 1127", "Northstar", "7:40 AM", "9:52 AM", "$247", "2026-04-20T07:40:00", "2026-04-20T09:52:00")
    cj = ("CJ 92", "Cascade Jet", "5:30 AM", "9:05 AM", "$199", "2026-04-20T05:30:00", "2026-04-20T09:05:00")

    def option(f: tuple[str, ...], stops: str) -> Callable[[], bytes]:
        return lambda: phone_screen("FareFinder", (0, 105, 92), "Mon, Apr 20  -  SEA to SFO", [
            (f"{f[1]}  {f[0]}", f"Departs Seattle (SEA) {f[2]}  -  arrives San Francisco (SFO) {f[3]}", f[4]),
            ("Stops", stops, ""), ("Fare class", "Economy, 1 carry-on included", ""),
        ], note="Prices per adult, taxes included. Times are local.")

    description = "SkyWay Air SW 418, departs SEA 6:05 AM, arrives SFO 8:14 AM"
    luggage = "Ask the Hotel Zephyr front desk to hold my luggage"
    images = [
        ("flight_skyway", option(sw, "Nonstop")),
        ("flight_northstar", option(ns, "Nonstop")),
        ("flight_cascade", option(cj, "1 stop - Portland (PDX), 55 min layover")),
        ("summit_agenda", lambda: document(
            "Bay Data Summit 2026", "Moscone West, San Francisco", (74, 20, 140), "Monday, April 20 - Agenda",
            [("Venue", "Moscone West, Level 2"), ("Badge pickup", "from 9:30 AM")],
            (["Session", "", "", "Time"], [["Badge pickup and coffee", "", "", "9:30 AM"],
                                          ["Opening keynote: Data at the Edge", "", "", "11:30 AM"],
                                          ["Lunch", "", "", "12:30 PM"], ["Workshops", "", "", "2:00 PM"]]))),
        ("hotel_booking", lambda: document(
            "Hotel Zephyr", "250 Beach St, San Francisco CA", (0, 96, 100), "Reservation confirmed",
            [("Guest", "Simone Whitaker"), ("Confirmation", "ZPH-20417"), ("Check-in", "Mon, Apr 20, 2026 - 3:00 PM"),
             ("Check-out", "Wed, Apr 22, 2026 - 11:00 AM"), ("Room", "1 King, non-smoking")],
            paragraphs=[("Early check-in is not guaranteed. Our front desk is happy to hold luggage for guests "
                         "who arrive before check-in time.")])),
    ]
    rounds = [
        Round([1, 2],
              "I need to fly to San Francisco on Monday for a conference. Compare these two nonstop options and put "
              "the cheaper one on my Work calendar, titled 'Flight to San Francisco (<flight number>)', from "
              "departure to arrival.",
              "Send the two flight screenshots and ask the assistant to add the cheaper one to your Work calendar "
              "with the title format you gave. Do not mention the prices yourself. Once it confirms the event, move "
              "on to the next round.",
              [step("search_calendars", "work", title="Work"),
               step("create_calendar_event", "flight", calendar_id="$work.0.calendar_id",
                    title=f"Flight to San Francisco ({ns[0]})", start_datetime=ns[5] + TZ, end_datetime=ns[6] + TZ)],
              "Northstar NS 1127 is cheaper ($247 vs $289), so I added 'Flight to San Francisco (NS 1127)' to your "
              "Work calendar on Monday from 7:40 to 9:52 AM."),
        Round([3],
              "Another option just came in. If it's cheaper than the flight on my calendar, replace the calendar "
              "event with this one.",
              "Send the third flight screenshot and ask the assistant to switch the calendar event if this option is "
              "cheaper than the one already booked on your calendar. Once it confirms, move on to the next round.",
              [step("modify_calendar_event", calendar_event_id="$flight", title=f"Flight to San Francisco ({cj[0]})",
                    start_datetime=cj[5] + TZ, end_datetime=cj[6] + TZ)],
              "Cascade Jet CJ 92 is cheaper at $199, so the calendar event now shows that flight (5:30 to 9:05 AM, "
              "with a stop in Portland)."),
        Round([],
              "Actually, forget the cheapest rule; I don't want a layover that early. Go with whichever nonstop flight "
              "arrives earliest and update the calendar. Then mark the 'Book flight' task in my 'San Francisco trip' "
              "project as done and put the airline, flight number and times in its description.",
              "Change your mind: you no longer want the cheapest flight but the nonstop option that arrives earliest. "
              "Ask the assistant to update the calendar event accordingly, then to complete the 'Book flight' task in "
              "your 'San Francisco trip' Todoist project with the airline, flight number and times in the task "
              "description. If it asks which options count, say only the two nonstop flights. Move on once both "
              "are done.",
              [step("modify_calendar_event", calendar_event_id="$flight", title=f"Flight to San Francisco ({sw[0]})",
                    start_datetime=sw[5] + TZ, end_datetime=sw[6] + TZ),
               step("todoist_show_projects", "trip", query="San Francisco trip"),
               step("todoist_show_tasks", "trip_tasks", project_id="$trip.0.project_id"),
               step("todoist_update_task", task_id="$trip_tasks.no_section_tasks.0.task_id", is_completed=True,
                    description=description)],
              "SkyWay Air SW 418 arrives first (8:14 AM), so the event is now 'Flight to San Francisco (SW 418)', "
              "6:05 to 8:14 AM. The 'Book flight' task is completed with the flight details in its description."),
        Round([4, 5],
              "Here's the summit agenda and my hotel booking. Compare the hotel check-in time with the opening "
              "keynote: if I can check in before the keynote, remind me to drop my bags at check-in time; otherwise "
              "remind me, 30 minutes before the keynote, to ask the front desk to hold my luggage.",
              "Send the agenda and the hotel confirmation and ask for the reminder exactly as described in your "
              "query. Do not state the times yourself. End the conversation once the reminder is set.",
              [step("add_reminder", content=luggage, reminder_datetime="2026-04-20T11:00:00" + TZ)],
              "Check-in is at 3:00 PM but the keynote starts at 11:30 AM, so I set a reminder for Monday at 11:00 AM: "
              "'Ask the Hotel Zephyr front desk to hold my luggage'."),
    ]
    trip, link = project(400, uid, "San Francisco trip", "teal")
    specs = [create_event(f"Flight to San Francisco ({sw[0]})", sw[5], sw[6]),
             update_task(6500, is_completed=True, description=description),
             create_reminder(luggage, "2026-04-20T11:00:00")]
    criteria = ("The Work calendar must end with exactly one flight event, 'Flight to San Francisco (SW 418)' on "
                "April 20, 2026 from 6:05 AM to 8:14 AM (the user first chose the cheapest flight, then switched to "
                "the nonstop flight arriving earliest). The 'Book flight' task in the 'San Francisco trip' project "
                "must be completed with SkyWay Air SW 418 and its times in the description. A reminder to ask the "
                "Hotel Zephyr front desk to hold the luggage must be set for April 20, 2026 at 11:00 AM, 30 minutes "
                "before the 11:30 AM keynote, because hotel check-in is only at 3:00 PM.")
    return Definition(3, SIMONE, "Simone is booking travel to a data summit in San Francisco. She compares flight "
                      "offers as they come in, changes her selection rule halfway, and plans around the hotel "
                      "check-in time.", "compare", "mixed", "goal_change", False, "synthetic_screenshot", images,
                      rounds, specs, criteria,
                      appworld={"todoist.projects": [trip], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500, 400, uid, "Book flight", 1),
                                                  task(6501, 400, uid, "Pack laptop charger", 2)],
                                "gmail.users": []})


def s004() -> Definition:
    """compute / late / state_mutation: three utility bills update a budget note and a task's due date."""
    uid = THOMAS.id
    power, water, gas = 86.42, 41.17, 57.90
    utilities = round(power + water + gas, 2)
    budget = round(1450 + 520 + utilities, 2)
    seed_content = "Rent: $1,450.00\nGroceries: $520.00\nUtilities: TBD"
    new_content = f"Rent: $1,450.00\nGroceries: $520.00\nUtilities: {money(utilities)}\nTotal: {money(budget)}"

    def bill(company: str, sub: str, color: tuple[int, int, int], account: str, period: str, amount: float,
             due: str, usage: str) -> Callable[[], bytes]:
        return lambda: document(company, sub, color, "Statement", [
            ("Customer", "Thomas Solomon"), ("Account", account), ("Billing period", period), ("Usage", usage)],
            totals=[("Previous balance", "$0.00"), ("Current charges", money(amount)), ("Amount due", money(amount))],
            paragraphs=[f"Payment due date: {due}",
                        "Pay online, by phone or by mail. Thank you for being a customer."])

    images = [
        ("bill_power", bill("Puget Power & Light", "Electric service", (230, 126, 34), "4471-2290",
                            "Mar 10 - Apr 9, 2026", power, "April 28, 2026", "612 kWh")),
        ("bill_water", bill("Cascade Water Utility", "Water and sewer", (21, 101, 192), "WS-88014",
                            "Mar 1 - Mar 31, 2026", water, "April 24, 2026", "4,120 gallons")),
        ("bill_gas", bill("Evergreen Natural Gas", "Residential gas service", (46, 125, 50), "G-310552",
                          "Mar 12 - Apr 11, 2026", gas, "May 2, 2026", "38 therms")),
    ]
    rounds = [
        Round([],
              "I'm doing my April budget. I keep a note called 'Household budget - April'. Can you tell me what's in "
              "it so far?",
              "Ask the assistant to find your 'Household budget - April' note and tell you what it contains. Do not "
              "send any images yet. Once it reports the note's content, move on to the next round.",
              [step("simple_note_search_notes", "budget_hits", query="Household budget - April"),
               step("simple_note_show_note", "budget", note_id="$budget_hits.0.note_id")],
              "Your note lists Rent $1,450.00, Groceries $520.00 and Utilities TBD."),
        Round([1, 2, 3],
              "Here are this month's three utility bills. Add them up, replace the 'Utilities: TBD' line in my budget "
              "note with the total, and add a line at the end with the new total of all expenses.",
              "Send the three bills and ask the assistant to compute the utilities total and update the note as "
              "described. Do not give any amounts yourself. If it asks about the format, use the same style as the "
              "other lines, e.g. 'Utilities: $X' and 'Total: $Y'. Once it confirms the update, move on.",
              [step("simple_note_update_note", note_id="$budget_hits.0.note_id", content=new_content)],
              f"The bills add up to {money(utilities)} ({money(power)} + {money(water)} + {money(gas)}). The note now "
              f"shows Utilities: {money(utilities)} and Total: {money(budget)}."),
        Round([],
              "Now move the due date of my 'Pay utility bills' task in the Home project to the earliest due date "
              "among the three bills, and set its priority to high.",
              "Ask the assistant to set the 'Pay utility bills' Todoist task's due date to the earliest of the three "
              "bills' due dates and raise its priority to high. If it asks which project, say 'Home'. End the "
              "conversation once the task is updated.",
              [step("todoist_show_projects", "home", query="Home"),
               step("todoist_show_tasks", "home_tasks", project_id="$home.0.project_id"),
               step("todoist_update_task", task_id="$home_tasks.no_section_tasks.0.task_id", due_date="2026-04-24",
                    priority="high")],
              "The earliest due date is the water bill's, April 24, 2026. 'Pay utility bills' is now due then, with "
              "high priority."),
    ]
    home, link = project(400, uid, "Home", "berry_red")
    specs = [update_note(3200, new_content), update_task(6500, due_date="2026-04-24", priority="high")]
    criteria = (f"The 'Household budget - April' note must replace 'Utilities: TBD' with the utilities total "
                f"{money(utilities)} (electric {money(power)} + water {money(water)} + gas {money(gas)}) and end with "
                f"a total of {money(budget)}. The 'Pay utility bills' task in the Home project must be due on "
                f"2026-04-24 (the water bill's due date, the earliest) with high priority.")
    return Definition(4, THOMAS, "Thomas is finishing his April household budget: he reads his budget note, then "
                      "sends the month's utility bills so the totals and his bill-payment task can be updated.",
                      "compute", "late", "state_mutation", False, "synthetic_document", images, rounds, specs,
                      criteria,
                      appworld={"simple_note.notes": [note(3200, uid, "Household budget - April", seed_content)],
                                "todoist.projects": [home], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500, 400, uid, "Pay utility bills", 1, due="2026-04-30"),
                                                  task(6501, 400, uid, "Renew car registration", 2)],
                                "gmail.users": []})



def s005() -> Definition:
    """validate / upfront / state_mutation: check two invoices against a purchase order, act on the result."""
    uid, first = BRENDA.id, BRENDA.first
    comment = ("Discrepancy with PO-7781: invoice LP-0417 bills 3 packs of tri-fold brochures ($360.00) but the PO "
               "ordered 2 ($240.00), so the invoice total is $540.00 instead of $420.00 ($120.00 over).")
    subject = "Corrected invoice needed for LP-0417"
    body = ("Hi Marco,\n\nInvoice LP-0417 bills 3 packs of tri-fold brochures ($360.00), but our purchase order "
            "PO-7781 ordered 2 packs ($240.00). The invoice total should be $420.00 instead of $540.00, a difference "
            f"of $120.00. Could you send us a corrected invoice?\n\nThanks,\n{first}")
    heads = ["Item", "Qty", "Unit price", "Amount"]
    images = [
        ("purchase_order", lambda: document(
            "Harbor Analytics", "1200 Westlake Ave N, Seattle WA", (38, 50, 56), "Purchase Order PO-7781",
            [("Date", "April 2, 2026"), ("Ordered by", "Brenda Webster"),
             ("Deliver to", "Harbor Analytics, Suite 400")],
            (heads, [["Northwind Office Supply: copy paper (case)", "10", "38.00", "380.00"],
                     ["Northwind Office Supply: blue pens (box)", "20", "6.50", "130.00"],
                     ["Lakeside Printing: business cards (500)", "4", "45.00", "180.00"],
                     ["Lakeside Printing: tri-fold brochures (250)", "2", "120.00", "240.00"]]),
            totals=[("PO total", "$930.00")])),
        ("invoice_northwind", lambda: document(
            "Northwind Office Supply", "Invoice - accounts: dana.whitfield@northwindoffice.com", (21, 101, 192),
            "Invoice INV-2291",
            [("Bill to", "Harbor Analytics"), ("Your PO", "PO-7781"), ("Invoice date", "April 9, 2026"),
             ("Terms", "Net 30")],
            (heads, [["Copy paper, letter (case)", "10", "38.00", "380.00"],
                     ["Ballpoint pens, blue (box of 12)", "20", "6.50", "130.00"]]),
            totals=[("Subtotal", "$510.00"), ("Total due", "$510.00")])),
        ("invoice_lakeside", lambda: document(
            "Lakeside Printing", "Billing contact: Marco Bellini - marco.bellini@lakesideprinting.com",
            (123, 31, 162), "Invoice LP-0417",
            [("Bill to", "Harbor Analytics"), ("Your PO", "PO-7781"), ("Invoice date", "April 10, 2026"),
             ("Terms", "Net 15")],
            (heads, [["Business cards (box of 500)", "4", "45.00", "180.00"],
                     ["Tri-fold brochures (pack of 250)", "3", "120.00", "360.00"]]),
            totals=[("Subtotal", "$540.00"), ("Total due", "$540.00")])),
    ]
    rounds = [
        Round([1, 2, 3],
              "Here's our purchase order and the two invoices we received. Check every invoice line against the PO. "
              "If an invoice matches exactly, mark its payment task in my 'Vendor payments' project as complete. If "
              "it doesn't, leave the task open but add a comment to it describing the discrepancy.",
              "Send the purchase order and both invoices. Ask the assistant to validate each invoice against the PO "
              "and act as described in your query. Do not point out any discrepancy yourself. If it asks what the "
              "comment should say, tell it to name the line, the quantities and the amount difference. Move on once "
              "it reports what it did.",
              [step("todoist_show_projects", "payments", query="Vendor payments"),
               step("todoist_show_tasks", "payment_tasks", project_id="$payments.0.project_id"),
               step("todoist_update_task", task_id="$payment_tasks.no_section_tasks.0.task_id", is_completed=True),
               step("todoist_post_task_comment", task_id="$payment_tasks.no_section_tasks.1.task_id",
                    content=comment)],
              "Northwind's INV-2291 matches the PO ($510.00), so I completed its payment task. Lakeside's LP-0417 "
              "bills 3 brochure packs instead of 2 ($540.00 instead of $420.00); I left that task open and commented "
              "on it."),
        Round([],
              "Email the vendor whose invoice didn't match and ask for a corrected invoice, mentioning the exact "
              "difference. Also delete the 'Order toner for the office printer' task; Glen already ordered it.",
              "Ask the assistant to email the billing contact printed on the mismatching invoice asking for a "
              "corrected invoice with the exact difference, and to delete the toner task. If it asks for the "
              "address, tell it the contact is on the invoice. End the conversation once both are done.",
              [step("gmail_send_email", email_addresses=["marco.bellini@lakesideprinting.com"], subject=subject,
                    body=body),
               step("todoist_delete_task", task_id="$payment_tasks.no_section_tasks.2.task_id")],
              "I emailed Marco Bellini at Lakeside Printing about the $120.00 difference and deleted the toner task."),
    ]
    payments, link = project(400, uid, "Vendor payments", "blue")
    specs = [update_task(6500, is_completed=True), create_comment(6501, uid, comment),
             create_email(uid, [201], subject, body), delete("todoist.tasks", 6502)]
    criteria = ("The 'Pay Northwind Office Supply invoice INV-2291' task must be completed because INV-2291 matches "
                "PO-7781 ($510.00). The 'Pay Lakeside Printing invoice LP-0417' task must stay open with a comment "
                "explaining that the invoice bills 3 packs of tri-fold brochures instead of the 2 ordered ($540.00 vs "
                "$420.00, $120.00 over). An email asking for a corrected invoice and stating the $120.00 difference "
                "must be sent to marco.bellini@lakesideprinting.com, and the 'Order toner for the office printer' "
                "task must be deleted.")
    return Definition(5, BRENDA, "Brenda handles vendor payments for her team. She validates two supplier invoices "
                      "against the purchase order before paying, flags the mismatch and cleans up her task list.",
                      "validate", "upfront", "state_mutation", False, "synthetic_document", images, rounds, specs,
                      criteria,
                      appworld={"phone.contacts": [
                                    contact(200, uid, "Dana", "Whitfield", "dana.whitfield@northwindoffice.com",
                                            "(425) 555-0133", ["vendor"]),
                                    contact(201, uid, "Marco", "Bellini", "marco.bellini@lakesideprinting.com",
                                            "(206) 555-0176", ["vendor"])],
                                "todoist.projects": [payments], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [
                                    task(6500, 400, uid, "Pay Northwind Office Supply invoice INV-2291", 1,
                                         due="2026-05-09"),
                                    task(6501, 400, uid, "Pay Lakeside Printing invoice LP-0417", 2, due="2026-04-25"),
                                    task(6502, 400, uid, "Order toner for the office printer", 3)],
                                "gmail.users": [
                                    gmail_user(200, "Dana", "Whitfield", "dana.whitfield@northwindoffice.com"),
                                    gmail_user(201, "Marco", "Bellini", "marco.bellini@lakesideprinting.com")],
                                "phone.users": [phone_user(200, "Dana", "Whitfield", "(425) 555-0133"),
                                                phone_user(201, "Marco", "Bellini", "(206) 555-0176")]})


def s006() -> Definition:
    """lookup_chain / late / none: a worksheet whose answers feed each other, resolved by web search."""
    uid = CHRISTINA.id
    answers = "1. Vincent van Gogh\n2. 1889\n3. The Eiffel Tower\n4. About 330 metres, including its antennas"
    note_title = "Maya - History Detective answers"
    remind = "Sign Maya's History Detective worksheet"
    subject = "Maya's History Detective worksheet"
    body = ("Hello Mr. Okafor,\n\nMaya has finished all four questions of the History Detective worksheet and will "
            "hand it in on Monday, April 20.\n\nBest regards,\nChristina Harrison")
    images = [
        ("worksheet", lambda: document(
            "Lakeview Elementary", "Grade 5 - Social Studies", (0, 121, 107), "History Detective - Week 12",
            [("Student", "Maya Harrison"), ("Due", "Monday, April 20")],
            paragraphs=[("Each answer unlocks the next question. Use a web search and write down your answers "
                         "in order."),
                        "1. Which painter created 'The Starry Night'?",
                        "2. In what year did that painter create it?",
                        "3. Which Paris landmark was completed in that same year?",
                        "4. How tall is that landmark today, including its antennas?"])),
        ("teacher_note", lambda: document(
            "A note from Mr. Okafor", "Lakeview Elementary - Room 12", (0, 121, 107), "Reminder for parents",
            [("Worksheet", "History Detective - Week 12"), ("Due", "Monday, April 20, 2026"),
             ("Contact", "dokafor@lakeviewelementary.org")],
            paragraphs=[("Please look over the worksheet with your child and sign it the evening before it is "
                         "due. Reply by email if you have any questions.")])),
    ]
    rounds = [
        Round([],
              "My daughter Maya has a history worksheet where each question builds on the previous one. I'll send "
              "it over in a moment - can you help me look up the answers online?",
              "Tell the assistant about the worksheet without sending any image yet and ask whether it can help "
              "look the answers up online. Once it agrees, move on to the next round.",
              [],
              "Of course. Send me the worksheet and I'll look up each answer in order."),
        Round([1],
              "Here's the worksheet. Please find each answer with a web search, in order, and save them in a new "
              "note titled 'Maya - History Detective answers', one numbered line per question.",
              "Send the worksheet and ask the assistant to research the questions in order and save the answers in "
              "the note. Do not give any answers yourself. If it asks about the format, say one numbered line per "
              "question with just the answer. Once the note is saved, move on to the next round.",
              [step("web_search_serper", "q1", query="The Starry Night painter"),
               step("web_search_serper", "q2", query="year The Starry Night was painted by Van Gogh"),
               step("web_search_serper", "q3", query="Paris landmark completed in 1889"),
               step("web_search_serper", "q4", query="Eiffel Tower height including antennas"),
               step("simple_note_create_note", "answers", title=note_title, content=answers)],
              "Van Gogh painted The Starry Night in 1889, the year the Eiffel Tower was completed; it is about 330 "
              "metres tall with its antennas. The answers are saved in the note."),
        Round([2],
              "This note from her teacher came home with it. Set a reminder at 7 PM the evening before the worksheet "
              "is due so I remember to sign it, and email the teacher that Maya finished all four questions.",
              "Send the teacher's note and ask for the reminder and the email as described. Do not give the due "
              "date or the teacher's address yourself; both are on the note. End the conversation once the reminder "
              "is set and the email is sent.",
              [step("add_reminder", content=remind, reminder_datetime="2026-04-19T19:00:00" + TZ),
               step("gmail_send_email", email_addresses=["dokafor@lakeviewelementary.org"], subject=subject,
                    body=body)],
              "The worksheet is due Monday, April 20, so the reminder is set for Sunday, April 19 at 7:00 PM, and I "
              "emailed Mr. Okafor that Maya finished all four questions."),
    ]
    specs = [create_note(uid, note_title, answers), create_reminder(remind, "2026-04-19T19:00:00"),
             create_email(uid, [10100], subject, body)]
    criteria = ("A note titled 'Maya - History Detective answers' must give, in order: Vincent van Gogh; 1889; the "
                "Eiffel Tower; about 330 metres including its antennas. A reminder to sign the worksheet must be set "
                "for April 19, 2026 at 7:00 PM (the evening before the April 20 due date), and an email must be sent "
                "to dokafor@lakeviewelementary.org saying Maya finished all four questions.")
    return Definition(6, CHRISTINA, "Christina helps her daughter with a chained history worksheet: each answer, "
                      "found on the web, unlocks the next question; then she handles the teacher's request.",
                      "lookup_chain", "late", "none", False, "synthetic_document", images, rounds, specs, criteria,
                      appworld={"gmail.users": [gmail_user(10100, "Daniel", "Okafor", "dokafor@lakeviewelementary.org",
                                                           contact=False)]})


def s007() -> Definition:
    """cross_reference / progressive / none: business cards matched against follow-up tasks."""
    uid, first = SIMONE.id, SIMONE.first
    people = [  # (first, last, title, company, email, phone, colour)
        ("Priya", "Raman", "Head of Partnerships", "Brightline Robotics", "priya.raman@brightlinerobotics.com",
         "(206) 555-0148", (0, 137, 123)),
        ("Tomas", "Reyes", "Data Science Lead", "Tidewater Analytics", "t.reyes@tidewateranalytics.io",
         "(503) 555-0192", (21, 101, 192)),
        ("Hannah", "Cole", "Sales Director", "Granite Peak Outfitters", "hannah.cole@granitepeak.com",
         "(208) 555-0117", (93, 64, 55)),
        ("Liam", "O'Connor", "Chief Technology Officer", "Summit Solar", "liam.oconnor@summitsolar.energy",
         "(541) 555-0163", (245, 124, 0)),
        ("Grace", "Kim", "Procurement Manager", "Orchard Health", "grace.kim@orchardhealth.org", "(425) 555-0136",
         (67, 160, 71)),
        ("Nadia", "Flores", "Marketing Manager", "Copperleaf Studios", "nadia@copperleafstudios.com",
         "(360) 555-0129", (173, 20, 87)),
    ]

    def comment(i: int) -> str:
        f, l_, title, _, mail = people[i][:5]
        return f"Contact: {f} {l_}, {title} - {mail}"

    def render(i: int) -> Callable[[], bytes]:
        f, l_, title, company, mail, phone, color = people[i]
        return lambda: card(f"{f} {l_}", title, company, mail, phone, color)

    subject = "Great meeting you at the expo"
    body = ("Hi all,\n\nIt was great meeting you at the Northwest Tech Expo this week. I'll follow up with each of you "
            f"individually over the next few days about next steps.\n\nBest,\n{first}")
    matched = [0, 1, 3, 4]
    tasks = "$expo_tasks.no_section_tasks"
    rounds = [
        Round([1, 2],
              "I'm sorting the business cards from the expo. My Todoist project 'Expo follow-ups' has a task for each "
              "company I promised to follow up with. For each card that matches one of those companies, add a "
              "comment to the task with the person's name, title and email.",
              "Send the first two cards and explain the matching rule. Do not say which companies match; the "
              "assistant has to compare the cards with the tasks. Once it confirms the comments, move on.",
              [step("todoist_show_projects", "expo", query="Expo follow-ups"),
               step("todoist_show_tasks", "expo_tasks", project_id="$expo.0.project_id"),
               step("todoist_post_task_comment", task_id=f"{tasks}.0.task_id", content=comment(0)),
               step("todoist_post_task_comment", task_id=f"{tasks}.1.task_id", content=comment(1))],
              "Both cards match: I commented on the Brightline Robotics task (Priya Raman) and the Tidewater "
              "Analytics task (Tomas Reyes)."),
        Round([3, 4],
              "Two more cards. Same thing for any that match a follow-up task. Anyone whose company isn't in the "
              "project, just add them to my contacts with their email and phone number.",
              "Send the next two cards and repeat the rule, adding that non-matching people go into your contacts "
              "with email and phone number. Once it confirms, move on.",
              [step("todoist_post_task_comment", task_id=f"{tasks}.3.task_id", content=comment(3)),
               step("contacts_add_contact", first_name="Hannah", last_name="Cole", email=people[2][4],
                    phone_number=people[2][5])],
              "Liam O'Connor matches Summit Solar, so I commented on that task. Granite Peak Outfitters has no "
              "follow-up task, so I added Hannah Cole to your contacts."),
        Round([5],
              "Here's another one.",
              "Send the fifth card without further explanation; the assistant should apply the same rules. Once it "
              "confirms, move on.",
              [step("todoist_post_task_comment", task_id=f"{tasks}.2.task_id", content=comment(4))],
              "Grace Kim is from Orchard Health, so I added her details as a comment on that follow-up task."),
        Round([6],
              "Last card. After that, send one email to everyone whose card matched a follow-up task saying it was "
              "great meeting them at the expo and that I'll follow up individually.",
              "Send the last card, then ask for a single email to all the people whose cards matched a follow-up "
              "task. If the assistant asks who they are, tell it to work it out from the cards it processed. End the "
              "conversation once the email is sent.",
              [step("contacts_add_contact", first_name="Nadia", last_name="Flores", email=people[5][4],
                    phone_number=people[5][5]),
               step("gmail_send_email", email_addresses=[people[i][4] for i in matched], subject=subject, body=body)],
              "Nadia Flores (Copperleaf Studios) went into your contacts, and I emailed Priya, Tomas, Liam and Grace."),
    ]
    expo, link = project(400, uid, "Expo follow-ups", "orange")
    companies = ["Brightline Robotics", "Tidewater Analytics", "Orchard Health", "Summit Solar"]
    specs = [create_comment(6500, uid, comment(0)), create_comment(6501, uid, comment(1)),
             create_comment(6503, uid, comment(3)), create_comment(6502, uid, comment(4)),
             create_contact(uid, "Hannah", "Cole", people[2][4], people[2][5]),
             create_contact(uid, "Nadia", "Flores", people[5][4], people[5][5]),
             create_email(uid, [10100, 10101, 10102, 10103], subject, body)]
    criteria = ("Each follow-up task in 'Expo follow-ups' must get a comment with the matching card's person: "
                "Brightline Robotics - Priya Raman, Head of Partnerships, priya.raman@brightlinerobotics.com; "
                "Tidewater Analytics - Tomas Reyes, Data Science Lead, t.reyes@tidewateranalytics.io; Summit Solar - "
                "Liam O'Connor, Chief Technology Officer, liam.oconnor@summitsolar.energy; Orchard Health - Grace Kim, "
                "Procurement Manager, grace.kim@orchardhealth.org. Hannah Cole (hannah.cole@granitepeak.com, (208) "
                "555-0117) and Nadia Flores (nadia@copperleafstudios.com, (360) 555-0129) must be added to the "
                "contacts. One email saying it was great meeting them at the expo must be sent to Priya, Tomas, Liam "
                "and Grace.")
    return Definition(7, SIMONE, "Simone is back from a tech expo with a stack of business cards and cross-references "
                      "them with the companies she promised to follow up with.", "cross_reference", "progressive",
                      "none", False, "synthetic_poster", [(f"card_{people[i][0].lower()}", render(i)) for i in range(6)],
                      rounds, specs, criteria,
                      appworld={"todoist.projects": [expo], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500 + i, 400, uid, f"Follow up with {c}", i + 1)
                                                  for i, c in enumerate(companies)],
                                "gmail.users": [gmail_user(10100 + j, people[i][0], people[i][1], people[i][4],
                                                           contact=False) for j, i in enumerate(matched)]})


def s008() -> Definition:
    """aggregate / progressive / goal_change: recipes merged into one shopping list, then trimmed."""
    uid = THOMAS.id
    title = "Weekend shopping list"
    chicken = ["Chicken thighs: 2 lb", "Lemons: 2", "Garlic: 6 cloves", "Fresh thyme: 1 bunch", "Olive oil"]
    pasta = ["Spaghetti: 1 lb", "Cherry tomatoes: 2 pints", "Fresh basil: 1 bunch", "Garlic: 4 cloves",
             "Parmesan: 1 cup", "Olive oil"]
    parfait = ["Greek yogurt: 32 oz", "Mixed berries: 2 pints", "Granola: 2 cups", "Honey"]
    first_list = ["Chicken thighs: 2 lb", "Lemons: 2", "Garlic: 10 cloves", "Fresh thyme: 1 bunch", "Olive oil",
                  "Spaghetti: 1 lb", "Cherry tomatoes: 2 pints", "Fresh basil: 1 bunch", "Parmesan: 1 cup"]
    second_list = first_list + parfait
    final_list = ["Chicken thighs: 2 lb", "Lemons: 2", "Fresh thyme: 1 bunch", "Greek yogurt: 32 oz",
                  "Mixed berries: 2 pints", "Granola: 2 cups"]

    def lines(items: list[str]) -> str:
        return "\n".join(f"- {i}" for i in items)

    images = [
        ("recipe_chicken", lambda: recipe_card("Lemon Herb Chicken", "Serves 4", chicken, (198, 40, 40))),
        ("recipe_pasta", lambda: recipe_card("Tomato Basil Pasta", "Serves 4", pasta, (230, 81, 0))),
        ("recipe_parfait", lambda: recipe_card("Berry Yogurt Parfait", "Serves 4", parfait, (106, 27, 154))),
        ("pantry_note", lambda: phone_screen("Notes", (255, 179, 0), "Pantry check - Apr 16", [
            ("Already have", "Olive oil, garlic, honey, spaghetti, rice, flour", ""),
            ("Running low", "Salt, black pepper", "")], note="Checked the fridge and the pantry on Thursday.")),
    ]
    rounds = [
        Round([1, 2],
              "I'm cooking these two recipes this weekend. Create a note called 'Weekend shopping list' that combines "
              "all their ingredients into one list, adding up quantities for anything that appears in both.",
              "Send the two recipe cards and ask for one combined shopping list note, with quantities summed for "
              "shared ingredients. If it asks about the format, say one '- item: quantity' line per ingredient. Once "
              "the note exists, move on.",
              [step("simple_note_create_note", "shopping", title=title, content=lines(first_list))],
              "The note 'Weekend shopping list' has 9 items; garlic appears in both recipes, so it's 10 cloves."),
        Round([3],
              "Add this dessert's ingredients to the list too.",
              "Send the dessert recipe and ask the assistant to add its ingredients to the same note. Once it "
              "confirms, move on.",
              [step("simple_note_update_note", note_id="$shopping.note_id", content=lines(second_list))],
              "I added Greek yogurt, mixed berries, granola and honey to the list."),
        Round([4],
              "Change of plans: we're eating out on Saturday, so drop the pasta completely. Here's what's already in "
              "my pantry, so remove anything I already have. Then add a task 'Buy groceries for Sunday' to my Todoist "
              "Inbox, due Saturday, April 18.",
              "Tell the assistant you no longer make the pasta, send the pantry screenshot and ask it to remove the "
              "pasta's ingredients and everything you already have from the list, then to create the Inbox task due "
              "April 18. If it asks whether the chicken still needs garlic, say you already have garlic. End the "
              "conversation once the list is updated and the task created.",
              [step("simple_note_update_note", note_id="$shopping.note_id", content=lines(final_list)),
               step("todoist_show_projects", "inbox", query="Inbox"),
               step("todoist_create_task", project_id="$inbox.0.project_id", title="Buy groceries for Sunday",
                    due_date="2026-04-18")],
              "The list now has 6 items (chicken thighs, lemons, thyme, Greek yogurt, berries and granola), and the "
              "task 'Buy groceries for Sunday' is in your Inbox, due April 18."),
    ]
    specs = [create_note(uid, title, lines(final_list)),
             create_task(uid, uid, "Buy groceries for Sunday", due="2026-04-18")]
    criteria = ("A note 'Weekend shopping list' must end with exactly: chicken thighs 2 lb, lemons 2, fresh thyme 1 "
                "bunch, Greek yogurt 32 oz, mixed berries 2 pints, granola 2 cups (the pasta's ingredients are dropped "
                "after the change of plans, and olive oil, garlic and honey are already in the pantry). A Todoist "
                "task 'Buy groceries for Sunday' must be in the Inbox, due 2026-04-18.")
    return Definition(8, THOMAS, "Thomas plans his weekend cooking from recipe cards, merges the ingredients into one "
                      "shopping list, then changes plans and trims the list against his pantry.", "aggregate",
                      "progressive", "goal_change", False, "synthetic_poster", images, rounds, specs, criteria)

def s009() -> Definition:
    """filter / late / state_mutation: library reminders created, deleted and moved; reading list updated."""
    uid = BRENDA.id
    phm = ("Return 'Project Hail Mary' to the library", "2026-04-21T10:00:00")
    klara = ("Return 'Klara and the Sun' to the library", "2026-04-23T10:00:00")
    text = "Hi Sarah! I just finished The Midnight Library and loved it - I can lend it to you if you'd like."
    images = [
        ("library_checkouts", lambda: phone_screen("Library", (0, 96, 100), "Checked out (4)", [
            ("Project Hail Mary", "Andy Weir", "Due Apr 21"), ("Piranesi", "Susanna Clarke", "Due Apr 30"),
            ("Klara and the Sun", "Kazuo Ishiguro", "Due Apr 23"),
            ("The Overstory", "Richard Powers - renewed", "Due May 6")],
            note="Seattle Public Library - account of Brenda Webster. Updated Apr 16, 2026.")),
        ("return_receipt", lambda: receipt(
            ["Seattle Public Library", "Fremont Branch"], ["Return receipt", "04/16/2026  03:12 PM", "Patron: B. WEBSTER"],
            [("Braiding Sweetgrass", "RETURNED"), ("  Robin Wall Kimmerer", "")],
            [("Items still checked out", "4")], ["Thank you for returning on time!"])),
        ("renewal_notice", lambda: document(
            "Seattle Public Library", "Account notice", (0, 96, 100), "Renewal confirmation",
            [("Patron", "Brenda Webster"), ("Item", "The Overstory - Richard Powers"),
             ("Previous due date", "April 22, 2026"), ("New due date", "May 6, 2026"), ("Renewals left", "1")],
            paragraphs=["Your item was renewed successfully. No further action is needed."])),
        ("cover_educated", lambda: book_cover(["EDUCATED"], "Tara Westover", (84, 110, 122), "4/5")),
        ("cover_midnight_library", lambda: book_cover(["THE", "MIDNIGHT", "LIBRARY"], "Matt Haig", (40, 53, 147),
                                                      "5/5")),
    ]
    reading = "$reading_tasks.no_section_tasks"
    rounds = [
        Round([],
              "I want to tidy up my library books with you. First, which reminders do I have about returning books?",
              "Ask the assistant which book-return reminders you currently have. Do not send any images yet. Once it "
              "lists them, move on to the next round.",
              [step("search_reminder", "return_reminders", content="Return to the library")],
              "You have two: return 'The Overstory' (April 22, 10:00 AM) and return 'Braiding Sweetgrass' (April 20, "
              "10:00 AM)."),
        Round([1],
              "Here's my current checkout list from the library app. For every book due within the next 7 days, "
              "create a reminder at 10 AM on its due date to return it, worded like my existing ones.",
              "Send the checkout screenshot and ask for return reminders for the books due within 7 days (by April "
              "23), at 10 AM on each due date, worded like your existing reminders. Do not name the books yourself. "
              "Once it confirms, move on.",
              [step("add_reminder", content=phm[0], reminder_datetime=phm[1] + TZ),
               step("add_reminder", content=klara[0], reminder_datetime=klara[1] + TZ)],
              "Two books are due within 7 days: Project Hail Mary (April 21) and Klara and the Sun (April 23). I "
              "created a 10 AM return reminder for each."),
        Round([2, 3],
              "These came in today: a return receipt and a renewal notice. Delete the reminder for the book I "
              "returned, move the Overstory reminder to 10 AM on its new due date, and mark the returned book as done "
              "in my 'Reading list' project.",
              "Send the return receipt and the renewal notice and ask for the three changes. Do not name the "
              "returned book or the new due date yourself. Once it confirms, move on.",
              [step("search_reminder", "sweetgrass", content="Return 'Braiding Sweetgrass' to the library"),
               step("remove_reminder", reminder_id="$sweetgrass.0.reminder_id"),
               step("search_reminder", "overstory", content="Return 'The Overstory' to the library"),
               step("modify_reminder", reminder_id="$overstory.0.reminder_id",
                    reminder_datetime="2026-05-06T10:00:00" + TZ),
               step("todoist_show_projects", "reading", query="Reading list"),
               step("todoist_show_tasks", "reading_tasks", project_id="$reading.0.project_id"),
               step("todoist_update_task", task_id=f"{reading}.1.task_id", is_completed=True)],
              "I deleted the Braiding Sweetgrass reminder, moved the Overstory reminder to May 6 at 10:00 AM, and "
              "marked 'Read Braiding Sweetgrass' as done."),
        Round([4, 5],
              "I just finished these two books. Mark both as done in my Reading list, and text Sarah Ritter that I "
              "can lend her the one I rated higher.",
              "Send the photos of the two covers with your rating notes. Ask the assistant to complete both reading "
              "tasks and text Sarah Ritter offering to lend the higher-rated book. Do not say which one you rated "
              "higher. End the conversation once the text is sent.",
              [step("todoist_update_task", task_id=f"{reading}.2.task_id", is_completed=True),
               step("todoist_update_task", task_id=f"{reading}.3.task_id", is_completed=True),
               step("contacts_search_contacts", "sarah", query="Sarah Ritter"),
               step("messages_send_text_message", phone_number="$sarah.0.phone_number", message=text)],
              "Both tasks are done. You rated The Midnight Library 5/5 (Educated 4/5), so I texted Sarah offering to "
              "lend it."),
    ]
    reading_list, link = project(400, uid, "Reading list", "lavender")
    titles = ["The Overstory", "Braiding Sweetgrass", "Educated", "The Midnight Library", "Project Hail Mary"]
    specs = [create_reminder(*phm), create_reminder(*klara),
             delete("REMINDER", "reminder_101", id_column="reminder_id", source="agentsandbox"),
             update("REMINDER", "reminder_100", {"reminder_datetime": "2026-05-06T10:00:00"},
                    {"reminder_datetime": DT_NAIVE}, id_column="reminder_id", source="agentsandbox"),
             update_task(6501, is_completed=True), update_task(6502, is_completed=True),
             update_task(6503, is_completed=True), *create_text(uid, 98, text)]
    criteria = ("Return reminders must exist for 'Project Hail Mary' (April 21, 2026, 10:00 AM) and 'Klara and the "
                "Sun' (April 23, 2026, 10:00 AM), the two books due within 7 days. The 'Braiding Sweetgrass' "
                "reminder must be deleted (the book was returned) and the 'The Overstory' reminder moved to May 6, "
                "2026 at 10:00 AM (its renewed due date). In the 'Reading list' project, 'Read Braiding Sweetgrass', "
                "'Read Educated' and 'Read The Midnight Library' must be completed. A text to Sarah Ritter must offer "
                "to lend The Midnight Library (rated 5/5, above Educated's 4/5).")
    return Definition(9, BRENDA, "Brenda keeps her library loans and her reading list in order: she sets return "
                      "reminders for the books due soon, cleans up after a return and a renewal, and recommends a "
                      "book to a friend.", "filter", "late", "state_mutation", False, "synthetic_screenshot", images,
                      rounds, specs, criteria,
                      agentsandbox={"reminder": [
                          reminder("reminder_100", "Return 'The Overstory' to the library", "2026-04-08T18:00:00" + TZ,
                                   "2026-04-22T10:00:00" + TZ),
                          reminder("reminder_101", "Return 'Braiding Sweetgrass' to the library",
                                   "2026-04-06T18:00:00" + TZ, "2026-04-20T10:00:00" + TZ),
                          reminder("reminder_102", "Water the plants", "2026-04-12T08:00:00" + TZ,
                                   "2026-04-18T09:00:00" + TZ)]},
                      appworld={"todoist.projects": [reading_list], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500 + i, 400, uid, f"Read '{t}'", i + 1)
                                                  for i, t in enumerate(titles)],
                                "gmail.users": []})


def s010() -> Definition:
    """compare / upfront / error_correction: four regional revenue charts, a wrong guess from the user."""
    uid, first = CHRISTINA.id, CHRISTINA.first
    regions = {"North": [142, 138, 149], "South": [128, 149, 162], "East": [155, 133, 140], "West": [119, 121, 140]}
    colors = {"North": "#1565c0", "South": "#2e7d32", "East": "#ef6c00", "West": "#6a1b9a"}
    title = "Prepare Q1 spotlight on South region"
    description = "West had the biggest February-to-March increase: +$19K ($121K to $140K)."
    subject = "Q1 regional revenue ranking"
    body = ("Hi Glen,\n\nHere is the Q1 2026 revenue ranking by region:\n1. South - $439K\n2. North - $429K\n"
            f"3. East - $428K\n4. West - $380K\n\nBest,\n{first}")

    def chart(region: str) -> Callable[[], bytes]:
        return lambda: bar_chart(f"Q1 2026 revenue - {region} region", ["Jan", "Feb", "Mar"], regions[region],
                                 colors[region], "Revenue (thousand USD)")

    rounds = [
        Round([1, 2, 3, 4],
              "These are the Q1 revenue charts for our four regions. Which region had the highest total Q1 revenue? "
              "I'm pretty sure it was North. Create a task 'Prepare Q1 spotlight on <region> region' with high "
              "priority in my 'Quarterly review' project for the top region.",
              "Send the four charts. Claim that North had the highest total; this is a deliberate mistake (South is "
              "highest with $439K; North has $429K). If the assistant corrects you with the totals, accept it and "
              "let it create the task for the correct region. If it creates the task for North, ask it to add up "
              "the three months for every region again and fix the task. Move on once the task is right.",
              [step("todoist_show_projects", "review", query="Quarterly review"),
               step("todoist_create_task", "spotlight", project_id="$review.0.project_id", title=title,
                    priority="high")],
              "Actually South had the highest Q1 total: $439K (128 + 149 + 162), ahead of North at $429K, East at "
              "$428K and West at $380K. I created 'Prepare Q1 spotlight on South region' with high priority."),
        Round([],
              "Thanks for catching that. Which region had the biggest jump from February to March? Put that in the "
              "task's description.",
              "Ask which region grew most from February to March and have the assistant write it into the new "
              "task's description. Do not give any numbers. Move on once the description is set.",
              [step("todoist_update_task", task_id="$spotlight.task_id", description=description)],
              "West grew the most, +$19K from $121K to $140K; that's now in the task's description."),
        Round([],
              "Finally, email Glen Moore the ranking of all four regions by Q1 total, highest first, with the totals. "
              "Subject: 'Q1 regional revenue ranking'.",
              "Ask the assistant to email Glen Moore the full ranking with totals. If it asks for his address, tell "
              "it to check your contacts. End the conversation once the email is sent.",
              [step("contacts_search_contacts", "glen", query="Glen Moore"),
               step("gmail_send_email", email_addresses=["$glen.0.email"], subject=subject, body=body)],
              "I emailed Glen the ranking: South $439K, North $429K, East $428K, West $380K."),
    ]
    review, link = project(400, uid, "Quarterly review", "green")
    specs = [create_task(400, uid, title, priority="high", description=description),
             create_email(uid, [55], subject, body)]
    criteria = ("A high-priority task 'Prepare Q1 spotlight on South region' must be created in the 'Quarterly "
                "review' project (South has the highest Q1 total, $439K; the user's guess of North, $429K, was wrong) "
                "with a description saying West had the biggest February-to-March increase (+$19K, $121K to $140K). "
                "An email to Glen Moore must rank the regions by Q1 total: South $439K, North $429K, East $428K, West "
                "$380K.")
    return Definition(10, CHRISTINA, "Christina prepares her quarterly review from four regional revenue charts, "
                      "misremembers the top region, and reports the ranking to her colleague Glen.", "compare",
                      "upfront", "error_correction", False, "synthetic_chart",
                      [(f"chart_{r.lower()}", chart(r)) for r in regions], rounds, specs, criteria,
                      appworld={"todoist.projects": [review], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [task(6500, 400, uid, "Book the review meeting room", 1)],
                                "gmail.users": []})


def s011() -> Definition:
    """validate / mixed / none: travel documents checked against the profile, the entry rule and the trip dates."""
    uid, first = SIMONE.id, SIMONE.first
    note_title = "Lisbon trip"
    note_body = ("Hotel: Casa do Rio Guesthouse\nBooking reference: CR-7731\nCheck-in: Fri 15 May 2026\n"
                 "Check-out: Sun 24 May 2026\nOutbound flight: TP 1234 (Seattle to Lisbon, 14 May 2026)\n"
                 "Return flight: TP 1235 (Lisbon to Seattle, 24 May 2026)")
    remind = "Pack passport and print the Casa do Rio booking"
    subject = "Travel insurance extension for Lisbon trip"
    body = ("Hi Ines,\n\nMy Meridian travel insurance policy MT-448190 only covers 14 May to 20 May 2026, but I fly "
            "back from Lisbon on 24 May 2026 (TP 1235). Could you extend the coverage through 24 May?\n\nThanks,\n"
            f"{first}")

    def ticket(flight: str, origin: str, dep: str, dest: str, arr: str) -> Callable[[], bytes]:
        return lambda: document(
            "TAP Air Portugal", "Electronic ticket receipt", (183, 28, 28), f"Flight {flight}",
            [("Passenger", "WHITAKER/SIMONE MS"), ("Booking ref", "K7QZ2M"), ("From", origin), ("Departs", dep),
             ("To", dest), ("Arrives", arr), ("Class", "Economy")],
            paragraphs=[("Times are local. Please arrive at the airport at least 3 hours before international "
                         "departures.")])

    images = [
        ("passport", lambda: passport_page(
            [("Surname", "WHITAKER"), ("Given names", "SIMONE"), ("Date of birth", "03 SEP 1969"),
             ("Date of issue", "13 AUG 2016"), ("Date of expiry", "12 AUG 2026"), ("Passport No.", "548213907")],
            ["P<USAWHITAKER<<SIMONE<<<<<<<<<<<<<<<<<<<<<<<", "5482139076USA6909035F2608125<<<<<<<<<<<<<<06"])),
        ("ticket_outbound", ticket("TP 1234", "Seattle (SEA)", "Thu 14 May 2026, 6:40 PM", "Lisbon (LIS)",
                                   "Fri 15 May 2026, 1:55 PM")),
        ("entry_checklist", lambda: document(
            "Atlas Travel", "Your trip to Portugal", (0, 105, 92), "Schengen entry checklist",
            [("Destination", "Portugal (Schengen area)"), ("Traveller", "Simone Whitaker")],
            paragraphs=[("1. Your passport must be valid for at least 3 months after the date you leave the "
                         "Schengen area."),
                        "2. Your passport must have been issued within the last 10 years.",
                        "3. Keep your return ticket and accommodation booking with you at border control."])),
        ("ticket_return", ticket("TP 1235", "Lisbon (LIS)", "Sun 24 May 2026, 1:15 PM", "Seattle (SEA)",
                                 "Sun 24 May 2026, 4:40 PM")),
        ("guesthouse_booking", lambda: document(
            "Casa do Rio Guesthouse", "Rua do Alecrim 51, Lisbon", (121, 85, 72), "Booking confirmation",
            [("Guest", "Simone Whitaker"), ("Booking reference", "CR-7731"),
             ("Check-in", "Fri 15 May 2026, from 2:00 PM"), ("Check-out", "Sun 24 May 2026, by 11:00 AM"),
             ("Nights", "9"), ("Room", "Double room, river view")])),
        ("insurance_card", lambda: card("Simone Whitaker", "Policy MT-448190  -  Destination: Portugal",
                                        "Meridian Travel Insurance", "Coverage: 14 May 2026 - 20 May 2026",
                                        "Emergency line: +1 (800) 555-0199", (13, 71, 161))),
    ]
    rounds = [
        Round([1, 2],
              "I'm flying to Lisbon next month. Here's my passport and my outbound ticket. Check that the name and "
              "date of birth on the passport match my profile, and that the ticket is in the same name.",
              "Send the passport page and the outbound ticket and ask the assistant to check them against your "
              "profile. Do not state your date of birth. Once it reports the result, move on.",
              [step("supervisor_show_profile", "profile")],
              "Everything matches: the passport shows Simone Whitaker, born 3 September 1969, as in your profile, and "
              "the ticket is issued to WHITAKER/SIMONE."),
        Round([3, 4],
              "Here's the entry rule from my travel agent and my return ticket. Is my passport valid long enough? If "
              "not, add a high-priority task 'Renew passport before Lisbon trip' to my Todoist Inbox, due April 24.",
              "Send the checklist and the return ticket and ask the assistant to validate the passport against the "
              "rule. Do not do the date arithmetic yourself. Once it answers (and creates the task if needed), move "
              "on.",
              [step("todoist_show_projects", "inbox", query="Inbox"),
               step("todoist_create_task", project_id="$inbox.0.project_id", title="Renew passport before Lisbon "
                    "trip", priority="high", due_date="2026-04-24")],
              "No: you leave Lisbon on 24 May 2026, so the passport must be valid until at least 24 August 2026, but "
              "it expires on 12 August 2026. I added the high-priority renewal task, due April 24."),
        Round([5],
              "And here's the guesthouse booking. Does it cover every night between my arrival and my return flight? "
              "If it does, save a note called 'Lisbon trip' with the hotel name, booking reference, check-in and "
              "check-out dates, and both flight numbers.",
              "Send the booking confirmation and ask the assistant to check it against the flights, then save the "
              "note as described. If it asks about the format, say one line per item. Once it confirms, move on.",
              [step("simple_note_create_note", title=note_title, content=note_body)],
              "Yes: you land on 15 May and fly back on 24 May, and the booking runs from 15 to 24 May (9 nights). "
              "The 'Lisbon trip' note is saved."),
        Round([],
              "Add a reminder for 8 PM the evening before my outbound flight to pack my passport and print the "
              "guesthouse booking.",
              "Ask for the reminder without giving the date; the assistant should take it from the outbound ticket. "
              "Once it confirms, move on.",
              [step("add_reminder", content=remind, reminder_datetime="2026-05-13T20:00:00" + TZ)],
              "Done: a reminder on Wednesday, 13 May 2026 at 8:00 PM to pack your passport and print the Casa do Rio "
              "booking."),
        Round([6],
              "Last one: my travel insurance card. Does it cover the whole trip? If not, email my travel agent Ines "
              "asking her to extend it through my return date. Then switch on low battery mode - my phone's almost "
              "dead.",
              "Send the insurance card and ask for the check, the email to Ines (Ines Duarte, in your contacts) if "
              "needed, and then low battery mode. End the conversation once all of it is done.",
              [step("contacts_search_contacts", "ines", query="Ines Duarte"),
               step("gmail_send_email", email_addresses=["$ines.0.email"], subject=subject, body=body),
               step("set_low_battery_mode_status", on=True)],
              "The policy only covers 14 to 20 May, so I emailed Ines asking to extend it through 24 May, and low "
              "battery mode is now on."),
    ]
    specs = [create_task(uid, uid, "Renew passport before Lisbon trip", priority="high", due="2026-04-24"),
             create_note(uid, note_title, note_body), create_reminder(remind, "2026-05-13T20:00:00"),
             create_email(uid, [200], subject, body),
             update("SETTING", "04640c30-8f3b-4e27-a1d6-3c9b5e7f2d41", {"low_battery_mode": True},
                    {"low_battery_mode": EXACT}, id_column="device_id", source="agentsandbox")]
    criteria = ("A high-priority task 'Renew passport before Lisbon trip' due 2026-04-24 must be in the Inbox, "
                "because the passport expires on 12 August 2026, before the required 24 August 2026 (3 months after "
                "leaving Lisbon on 24 May). A note 'Lisbon trip' must record Casa do Rio Guesthouse, booking CR-7731, "
                "check-in 15 May 2026, check-out 24 May 2026 and flights TP 1234 and TP 1235. A reminder to pack the "
                "passport and print the booking must be set for 13 May 2026 at 8:00 PM. An email to Ines Duarte must "
                "ask to extend travel insurance policy MT-448190 (14-20 May) through 24 May 2026, and low battery "
                "mode must be turned on.")
    return Definition(11, SIMONE, "Simone prepares a trip to Lisbon and has the assistant validate her passport, "
                      "bookings and insurance against her profile, the entry rules and her flight dates.", "validate",
                      "mixed", "none", False, "synthetic_document", images, rounds, specs, criteria,
                      appworld={"phone.contacts": [contact(200, uid, "Ines", "Duarte", "ines.duarte@atlastravel.com",
                                                           "(206) 555-0150", ["travel agent"])],
                                "gmail.users": [gmail_user(200, "Ines", "Duarte", "ines.duarte@atlastravel.com")],
                                "phone.users": [phone_user(200, "Ines", "Duarte", "(206) 555-0150")]})


def s012() -> Definition:
    """compute / progressive / state_mutation: a dinner bill split four ways updates an existing draft."""
    uid, first = BRENDA.id, BRENDA.first
    seed_body = f"Hi all,\n\nThanks for a fun night at Osteria Lupa! Your share is: TBD\n\n{first}"
    new_body = (f"Hi all,\n\nThanks for a fun night at Osteria Lupa! The total charged was $156.00 including a $24.00 "
                f"tip, so your share is $39.00 each.\n\n{first}")
    text = "Thanks Jessica, got your $39.00 for the Osteria Lupa dinner!"
    friends = [(20, "Alexander", "Riddle", "alexander-ridd@gmail.com"), (22, "Jessica", "Miller", "jes.mill@gmail.com"),
               (66, "Marcus", "Smith", "ma_smith@gmail.com")]
    draft_stamp = "2026-04-16T21:10:00"
    draft = {"id": 700, "user_id": uid, "recipient_ids": [f[0] for f in friends],
             "recipient_email_addresses": [f[3] for f in friends],
             "recipient_names": [f"{f[1]} {f[2]}" for f in friends],
             "subject": "Dinner at Osteria Lupa - your share", "body": seed_body, "belongs_to_email_thread_id": None,
             "response_to_email_id": None, "scheduled_send_at": None, "created_at": draft_stamp,
             "updated_at": draft_stamp}
    images = [
        ("receipt_osteria", lambda: receipt(
            ["Osteria Lupa", "1120 Pike St, Seattle WA"], ["04/15/2026  08:47 PM", "Table 12 - 4 guests"],
            [("Burrata", "16.00"), ("Margherita pizza", "18.00"), ("Tagliatelle al ragu", "24.00"),
             ("Grilled branzino", "32.00"), ("2 x Tiramisu @ 9.00", "18.00"), ("3 x Sparkling water @ 4.00", "12.00")],
            [("Subtotal", "120.00"), ("Tax 10%", "12.00"), ("TOTAL", "$132.00")], ["Grazie! Tip not included."])),
        ("card_slip", lambda: receipt(
            ["Osteria Lupa", "Customer copy"], ["04/15/2026  09:31 PM", "VISA ****1234  APPROVED"],
            [("Amount", "132.00"), ("Tip", "24.00")], [("TOTAL CHARGED", "$156.00")],
            ["Signature on file: B. Webster"])),
        ("payment_notice", lambda: phone_screen("Venmo", (0, 140, 255), "Notifications", [
            ("Jessica Miller paid you", "Osteria Lupa dinner - just now", "$39.00"),
            ("Your weekly summary", "3 payments received this week", "")])),
    ]
    rounds = [
        Round([1],
              "Dinner last night with Jessica, Alexander and Marcus - here's the receipt. We're splitting everything "
              "evenly four ways, tip included; the tip is on the card slip I'll send next. For now, what's the total "
              "before the tip?",
              "Send the receipt and ask only for the total before tip. Do not give any amount yourself. Once the "
              "assistant answers, move on to the next round.",
              [],
              "The receipt total before tip is $132.00 ($120.00 of food and drinks plus $12.00 tax)."),
        Round([2],
              "Here's the card slip. Work out each person's share of the total charged and update my draft 'Dinner "
              "at Osteria Lupa - your share' so it states the amount per person instead of TBD.",
              "Send the card slip and ask the assistant to compute the per-person share of the total charged (four "
              "people) and to update the existing draft instead of writing a new one. Do not give the amounts "
              "yourself. Once it confirms, move on.",
              [step("gmail_show_drafts", "drafts", query="Dinner at Osteria Lupa"),
               step("gmail_update_draft", draft_id="$drafts.0.draft_id", body=new_body)],
              "The slip shows $156.00 charged ($132.00 + $24.00 tip), so each of the four shares is $39.00. The "
              "draft now says so."),
        Round([3],
              "Jessica already paid me back. Take her off the draft's recipients, and text her a thank-you confirming "
              "the amount.",
              "Send the payment screenshot and ask the assistant to remove Jessica from the draft's recipients (keep "
              "Alexander and Marcus) and text her a thank-you with the amount she paid. End the conversation once "
              "both are done.",
              [step("gmail_update_draft", draft_id="$drafts.0.draft_id",
                    email_addresses=[friends[0][3], friends[2][3]]),
               step("contacts_search_contacts", "jessica", query="Jessica Miller"),
               step("messages_send_text_message", phone_number="$jessica.0.phone_number", message=text)],
              "Jessica is off the draft (Alexander and Marcus remain) and I texted her thanks for the $39.00."),
    ]
    specs = [update("gmail.drafts", 700, {"updated_at": draft_stamp, "body": new_body, "recipient_ids": [20, 66]},
                    {"updated_at": IGNORE, "body": ROUGE, "recipient_ids": EXACT}),
             *create_text(uid, 22, text)]
    criteria = ("The existing draft 'Dinner at Osteria Lupa - your share' must state that the total charged was "
                "$156.00 including the $24.00 tip and that each share is $39.00, and its recipients must be only "
                "Alexander Riddle and Marcus Smith (Jessica Miller removed after paying). A text to Jessica Miller "
                "must thank her for the $39.00.")
    return Definition(12, BRENDA, "Brenda paid for a group dinner and settles up with her friends: she works out "
                      "the per-person share from the receipt and the card slip and keeps her draft request up to "
                      "date as payments come in.", "compute", "progressive", "state_mutation", False,
                      "synthetic_document", images, rounds, specs, criteria,
                      appworld={"gmail.drafts": [draft], "gmail.users": []})


def s013() -> Definition:
    """cross_reference / upfront / goal_change: conference talks by known contacts go on the calendar."""
    uid = THOMAS.id
    talks = [  # (title lines, speaker, affiliation, start, end, when, room, in contacts)
        (["Scaling Postgres", "for Analytics"], "Glen Moore", "Harbor Analytics", "09:00", "09:45",
         "9:00 - 9:45 AM", "Room A", True),
        (["Edge Caching", "Patterns"], "Dr. Lena Park", "Northwind Cloud", "09:00", "09:45", "9:00 - 9:45 AM",
         "Room B", False),
        (["Designing Accessible", "Dashboards"], "Jessica Miller", "Brightline Labs", "10:30", "11:15",
         "10:30 - 11:15 AM", "Room C", True),
        (["Rust for Data", "Pipelines"], "Victor Huang", "Tidewater Analytics", "11:30", "12:15",
         "11:30 AM - 12:15 PM", "Room A", False),
        (["Incident Reviews", "That Work"], "Sarah Ritter", "Summit Systems", "13:30", "14:15", "1:30 - 2:15 PM",
         "Room B", True),
        (["The Future of", "On-Device AI"], "Amara Okoye", "Copperleaf Research", "15:00", "15:45",
         "3:00 - 3:45 PM", "Main Hall", False),
    ]
    palette = [(21, 101, 192), (0, 137, 123), (123, 31, 162), (230, 81, 0), (198, 40, 40), (56, 142, 60)]

    def render(i: int) -> Callable[[], bytes]:
        t = talks[i]
        return lambda: talk_card(t[0], t[1], t[2], t[5], t[6], palette[i])

    def event_args(i: int) -> dict[str, str]:
        t = talks[i]
        return {"title": " ".join(t[0]), "start_datetime": f"2026-04-21T{t[3]}:00{TZ}",
                "end_datetime": f"2026-04-21T{t[4]}:00{TZ}"}

    text = ("Hi Sarah, I have to leave DevSummit at noon on Tuesday, so I'll miss your talk 'Incident Reviews That "
            "Work'. Could you share your slides?")
    lookups = [step("contacts_search_contacts", t[1].split()[-2].lower() if t[1].startswith("Dr.") else
                    t[1].split()[0].lower(), query=t[1].replace("Dr. ", "")) for t in talks]
    rounds = [
        Round([1, 2, 3, 4, 5, 6],
              "These are the six talks at DevSummit next Tuesday. Put on my Work calendar only the talks given by "
              "people in my contacts, with the talk title as the event title and the times on the card.",
              "Send all six session cards and ask the assistant to cross-check the speakers with your contacts and "
              "add only those talks to your Work calendar. Do not say which speakers you know. Once it confirms the "
              "events, move on.",
              [*lookups, step("search_calendars", "work", title="Work"),
               step("create_calendar_event", calendar_id="$work.0.calendar_id", **event_args(0)),
               step("create_calendar_event", calendar_id="$work.0.calendar_id", **event_args(2)),
               step("create_calendar_event", "sarah_talk", calendar_id="$work.0.calendar_id", **event_args(4))],
              "Three speakers are in your contacts: Glen Moore, Jessica Miller and Sarah Ritter. I added their talks "
              "to your Work calendar for Tuesday, April 21."),
        Round([],
              "Change of plans: I can only stay until noon on Tuesday. Remove any of those talks that start after "
              "12:00, and text the speaker whose talk I'll miss to ask for the slides.",
              "Tell the assistant you now have to leave at noon. Ask it to remove the calendar talks starting after "
              "12:00 and to text that speaker for the slides. If it asks who, say it's whoever's talk you'll miss. "
              "End the conversation once the event is removed and the text sent.",
              [step("remove_calendar_event", calendar_event_id="$sarah_talk"),
               step("messages_send_text_message", phone_number="$sarah.0.phone_number", message=text)],
              "I removed 'Incident Reviews That Work' (1:30 PM) and texted Sarah Ritter asking for her slides."),
    ]
    specs = [create_event(event_args(0)["title"], "2026-04-21T09:00:00", "2026-04-21T09:45:00"),
             create_event(event_args(2)["title"], "2026-04-21T10:30:00", "2026-04-21T11:15:00"),
             *create_text(uid, 98, text)]
    criteria = ("The Work calendar must end with two DevSummit talks on April 21, 2026: 'Scaling Postgres for "
                "Analytics' (Glen Moore, 9:00-9:45 AM) and 'Designing Accessible Dashboards' (Jessica Miller, "
                "10:30-11:15 AM). 'Incident Reviews That Work' (Sarah Ritter, 1:30 PM) is added first and then "
                "removed after the user decides to leave at noon; talks by speakers who are not contacts (Lena Park, "
                "Victor Huang, Amara Okoye) must never be added. A text to Sarah Ritter must ask for the slides of "
                "her talk.")
    return Definition(13, THOMAS, "Thomas is attending a developer conference. He puts the talks given by people he "
                      "knows on his calendar, then cuts his day short and asks a speaker for her slides.",
                      "cross_reference", "upfront", "goal_change", False, "synthetic_poster",
                      [(f"talk_{t[1].split()[-1].lower()}", render(i)) for i, t in enumerate(talks)], rounds, specs,
                      criteria)


def s014() -> Definition:
    """lookup_chain / mixed / error_correction: invite -> timetable -> alarm; zone map -> pass -> task."""
    uid = CHRISTINA.id
    visit = ("Site visit - Harbor Point Office", "2026-04-17T09:30:00", "2026-04-17T11:00:00")
    timetable = [["07:42", "08:05", "08:31"], ["08:05", "08:28", "08:54"], ["08:27", "08:50", "09:16"],
                 ["08:49", "09:12", "09:38"], ["09:12", "09:35", "10:01"]]
    images = [
        ("meeting_invite", lambda: phone_screen("Mail", (21, 101, 192), "Site visit - Harbor Point Office", [
            ("From", "Alexander Riddle", ""), ("When", "Friday, April 17, 9:30 - 11:00 AM", ""),
            ("Where", "Harbor Point Office, 40 Harbor Point Blvd - a 15-minute walk from Harbor Point station", "")],
            note="Security check-in closes at 9:30 sharp, so please be at the front desk on time.")),
        ("timetable", lambda: document(
            "Metro Transit", "Blue Line - weekday timetable", (21, 101, 192), "Blue Line: Maple Grove to Harbor Point",
            [("Service", "Monday - Friday"), ("Valid from", "March 2, 2026")],
            (["Train", "Maple Grove", "Central", "Harbor Point"],
             [[f"BL {101 + i}", *row] for i, row in enumerate(timetable)]),
            paragraphs=["Departure times from Maple Grove and Central; arrival time at Harbor Point."],
            columns=((40, "la"), (330, "ra"), (530, "ra"), (780, "ra")))),
        ("zone_map", lambda: zone_map("Blue Line", [("Maple Grove", 1), ("Lakeview", 1), ("Central", 2),
                                                    ("Riverside", 2), ("Harbor Point", 3)],
                                      {1: (227, 242, 253), 2: (232, 245, 233), 3: (255, 243, 224)})),
        ("monthly_pass", lambda: card("Christina Harrison", "Monthly pass - April 2026", "Metro Transit",
                                      "Valid zones: 1-2", "Valid: Apr 1 - Apr 30, 2026", (21, 101, 192))),
    ]
    rounds = [
        Round([1, 2],
              "I have a site visit tomorrow morning (invite attached) and I'll take the Blue Line from Maple Grove "
              "(timetable attached). I think the 8:27 train works - set an alarm 45 minutes before it.",
              "Send the invite and the timetable. Insist that the 8:27 train works; this is a deliberate mistake: it "
              "reaches Harbor Point at 9:16, and with the 15-minute walk you would arrive at 9:31, after security "
              "closes at 9:30. If the assistant points this out, accept it and ask for the alarm 45 minutes before "
              "the correct train (the 8:05). If it sets the alarm for 7:42 without comment, ask whether you will "
              "really make it by 9:30 given the walk. Move on once the alarm is right.",
              [step("alarms_create_alarm", time="07:20", label="Train to Harbor Point")],
              "The 8:27 arrives at 9:16, and with the 15-minute walk you'd reach the office at 9:31, after check-in "
              "closes. The 8:05 arrives at 8:54, so I set the alarm for 7:20, 45 minutes before it."),
        Round([],
              "Good catch. Also put the site visit on my Work calendar, with the title and times from the invite.",
              "Ask for the calendar event without giving the times; they are on the invite. Once it confirms, move "
              "on.",
              [step("search_calendars", "work", title="Work"),
               step("create_calendar_event", calendar_id="$work.0.calendar_id", title=visit[0],
                    start_datetime=visit[1] + TZ, end_datetime=visit[2] + TZ)],
              "'Site visit - Harbor Point Office' is on your Work calendar for Friday from 9:30 to 11:00 AM."),
        Round([3],
              "Which fare zone is Harbor Point in? Here's the zone map.",
              "Send the zone map and ask which zone Harbor Point is in. Once the assistant answers, move on.",
              [],
              "Harbor Point is in Zone 3."),
        Round([4],
              "Here's my monthly pass. Does it cover that zone? If not, add a task 'Buy a Zone 3 add-on ticket' to my "
              "Todoist Inbox, due tomorrow.",
              "Send the pass and ask the assistant to check it and add the task if needed. End the conversation once "
              "it answers and, if needed, creates the task.",
              [step("todoist_show_projects", "inbox", query="Inbox"),
               step("todoist_create_task", project_id="$inbox.0.project_id", title="Buy a Zone 3 add-on ticket",
                    due_date="2026-04-17")],
              "Your pass only covers zones 1-2, so I added 'Buy a Zone 3 add-on ticket' to your Inbox, due April 17."),
    ]
    specs = [create_alarm(uid, "07:20", "Train to Harbor Point"), create_event(*visit),
             create_task(uid, uid, "Buy a Zone 3 add-on ticket", due="2026-04-17")]
    criteria = ("An alarm must be set for 07:20, 45 minutes before the 8:05 Blue Line train from Maple Grove (the "
                "user's 8:27 suggestion arrives at 9:16, too late with the 15-minute walk to be at the office by "
                "9:30). A Work calendar event 'Site visit - Harbor Point Office' must be created for April 17, 2026 "
                "from 9:30 to 11:00 AM. Because the monthly pass covers zones 1-2 and Harbor Point is in zone 3, a "
                "task 'Buy a Zone 3 add-on ticket' due 2026-04-17 must be in the Todoist Inbox.")
    return Definition(14, CHRISTINA, "Christina plans tomorrow's commute to a site visit: she chains the invite, the "
                      "train timetable, the fare-zone map and her transit pass, and gets the train wrong at first.",
                      "lookup_chain", "mixed", "error_correction", False, "synthetic_screenshot", images, rounds,
                      specs, criteria)


# =========================================================================================== assembly
SCENARIOS: list[Callable[[], Definition]] = []  # filled at the end of the file


def check_definition(d: Definition) -> None:
    """Fail loudly on a scenario that breaks the set's own conventions."""
    delivered = [k for r in d.rounds for k in r.provide]
    where = f"{d.name}"
    if sorted(delivered) != list(range(1, len(d.images) + 1)):
        raise ValueError(f"{where}: every image must be delivered exactly once; got {delivered}")
    if not 2 <= len(d.rounds) <= 5 or not 2 <= len(d.images) <= 6:
        raise ValueError(f"{where}: 2-5 rounds and 2-6 images expected")
    first = bool(d.rounds[0].provide)
    later = any(r.provide for r in d.rounds[1:])
    expected = {"upfront": first and not later, "late": not first and later,
                "progressive": first and later, "mixed": first and later}
    if not expected.get(d.arrival, False):
        raise ValueError(f"{where}: image_arrival {d.arrival!r} does not fit the rounds' deliveries")


#: device-side id columns of created rows: their values are placeholders (never compared), made unique per file
PLACEHOLDER_IDS = {"CALENDAR_EVENTS": ("calendar_event_id", "calendar_events_calendar_event_{}"),
                   "REMINDER": ("reminder_id", "reminder_{}")}


def number_placeholder_ids(specs: list[dict[str, Any]]) -> None:
    """Give each created device row its own placeholder id (200, 201, ...; seeds use 100+)."""
    counters: dict[str, int] = {}
    for spec in specs:
        ns = spec.get("namespace")
        if spec["operation"] == "create" and ns in PLACEHOLDER_IDS:
            column, pattern = PLACEHOLDER_IDS[ns]
            counters[ns] = counters.get(ns, 199) + 1
            spec["entity_data"][column] = pattern.format(counters[ns])


def scenario_json(d: Definition) -> dict[str, Any]:
    """The scenario file's content, in the released key order."""
    check_definition(d)
    script_rounds = [ScriptRound(i + 1, [k - 1 for k in r.provide], r.query, r.instructions)
                     for i, r in enumerate(d.rounds)]
    first_turn: dict[str, Any] = {"sender": "USER", "recipient": "AGENT", "content": script_rounds[0].query}
    if script_rounds[0].provide_image_ids:
        first_turn["image_ids"] = script_rounds[0].provide_image_ids
    solution = {"version": 1, "rounds": [{"round": i + 1, "steps": r.steps, "reply": r.reply}
                                         for i, r in enumerate(d.rounds)]}
    expected_tools = list(dict.fromkeys(s["tool"] for r in d.rounds for s in r.steps))
    appworld = dict(d.appworld)
    appworld.setdefault("gmail.users", [])
    number_placeholder_ids(d.specs)
    return {
        "name": d.name,
        "base_scenario": "base",
        "description": d.description,
        "difficulty": "easy",
        "appworld_base_task": "_base_",
        "device_state_id": d.user.email,
        "reference_time": REFERENCE_TIME,
        "agentsandbox_entities": d.agentsandbox,
        "appworld_entities": appworld,
        "image_paths": [d.image_path(i) for i in range(len(d.images))],
        "messages": [{"sender": "SYSTEM", "recipient": "USER",
                      "content": render_user_script(script_rounds, len(d.images))}, first_turn],
        "milestones": [],
        "entity_diff_specs": d.specs,
        "task_completion_criteria": d.criteria,
        "categories": ["APPWORLD", "MULTIPLE_USER_TURN"],
        "max_messages": 100,
        "metadata": {
            "original_scenario_id": d.name,
            "expected_tools": expected_tools,
            "image_arrival": {str(r.number): r.provide_names for r in script_rounds if r.provide_image_ids},
            "image_delivery_map": [{"query": r.query, "image_ids": r.provide_image_ids}
                                   for r in script_rounds[1:] if r.provide_image_ids],
            "scenario_metadata": {"num_images": len(d.images), "num_user_rounds": len(d.rounds),
                                  "selected_flow_type": d.flow, "image_arrival": d.arrival,
                                  "challenge_type": d.challenge, "require_disambiguation": d.disambiguation,
                                  "dataset_type": d.dataset_type},
            "reference_solution": solution,
        },
    }


def write_scenario(out_dir: Path, d: Definition, data: dict[str, Any]) -> list[Path]:
    """Write one scenario's images and file under ``out_dir``; returns the written paths."""
    written = []
    for i, (_, render) in enumerate(d.images):
        path = out_dir / d.image_path(i)
        path.write_bytes(render())
        written.append(path)
    path = out_dir / f"{d.name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [*written, path]


def build(out_dir: Path, only: set[int] | None = None) -> list[Path]:
    """Write every scenario (and its images) under ``out_dir``; returns the written paths."""
    written = []
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    for make in SCENARIOS:
        d = make()
        if not only or d.number in only:
            written += write_scenario(out_dir, d, scenario_json(d))
    return written


def cli(argv: list[str] | None, description: str, default_out: Path,
        build_set: Callable[[Path, set[int] | None], list[Path]]) -> int:
    """The generators' command line: ``--out DIR`` and ``--only N...``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=default_out, help="output folder (default: %(default)s)")
    parser.add_argument("--only", type=int, nargs="*", help="scenario numbers to build (default: all)")
    args = parser.parse_args(argv)
    paths = build_set(args.out, set(args.only) if args.only else None)
    print(f"wrote {len(paths)} files under {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return cli(argv, __doc__.splitlines()[0], OUT_DIR, build)


SCENARIOS.extend([s001, s002, s003, s004, s005, s006, s007, s008, s009, s010, s011, s012, s013, s014])

if __name__ == "__main__":
    raise SystemExit(main())
