"""The event kind (title, host, venue, date, start, end, price: the event poster's content) drawn four more
ways: a poster photographed on a wall, a ticket, a calendar invitation on a phone and a handwritten sticky
note."""

from __future__ import annotations

import textwrap
from datetime import date

from pipelines.procedural.families import events
from pipelines.procedural.families.base import Content, knob_family, clock_time, long_date, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done, paper
from pipelines.procedural.render.canvas import GREY, INK, Canvas, mix
from pipelines.procedural.render.hand import HAND_FACES, PENS, hand_line
from pipelines.procedural.render.knobs import Knobs
from pipelines.procedural.render.screens import phone, phone_rows

__all__ = ["EVENT_FAMILIES"]

DOMAINS = ("calendar", "reminder", "alarms", "messages", "simple_note")


def _when(c: Content) -> str:
    return f"{clock_time(c['start'])} - {clock_time(c['end'])}"


def _wall_poster(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "wall_poster")
    accent = st.choice(ACCENTS)
    bg = mix(accent, (255, 255, 255), st.uniform(0.75, 0.92))
    w, h = 520, 720
    cv = Canvas(w, h, bg, knobs)
    cv.rect((0, 0, w, 150), fill=accent)
    cv.center(40, c["host"].upper(), 17, (255, 255, 255), "sans_bold")
    cv.center(80, st.choice(["presents", "invites you to", "welcomes you to"]), 15, (235, 235, 235), "serif_italic")
    y = 190.0
    face = st.choice(["sans_bold", "serif_bold", "mono_bold"])
    for line in textwrap.wrap(c["title"], 13):
        cv.center(y, line, 44, INK, face)
        y += cv.line_height(44, 1.2)
    y += 30
    cv.center(y, long_date(c["date"]), 24, accent, "sans_bold")
    y += cv.line_height(24, 1.6)
    cv.center(y, _when(c), 24, INK, "sans")
    y += cv.line_height(24, 1.8)
    cv.center(y, c["venue"], 20, GREY, "sans")
    cv.rect((w / 2 - 70, h - 90, w / 2 + 70, h - 46), fill=accent, radius=10)
    cv.center(h - 82, c["price"], 20, (255, 255, 255), "sans_bold")
    return done(cv, knobs, st, photo=True, tilt=7, perspective=0.06, lighting=0.4, noise=1.22, max_side=800)


def _ticket(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "event_ticket")
    accent = st.choice(ACCENTS)
    w, h = 760, 300
    cv = Canvas(w, h, paper(st), knobs)
    cv.rect((0, 0, 200, h), fill=accent)
    cv.text(100, 40, "ADMIT", 20, (255, 255, 255), "sans_bold", anchor="ma")
    cv.text(100, 70, "ONE", 30, (255, 255, 255), "sans_bold", anchor="ma")
    cv.text(100, 200, c["price"], 26, (255, 255, 255), "sans_bold", anchor="ma")
    for i in range(14):
        cv.rect((36 + i * 9, 250, 36 + i * 9 + st.choice([2, 3, 5]), 282), fill=(255, 255, 255))
    for y in range(0, h, 16):
        cv.draw.line((206, y, 206, y + 8), fill=GREY, width=2)
    cv.text(230, 26, c["host"], 15, GREY, "sans")
    y = 56.0
    for line in textwrap.wrap(c["title"], 26):
        cv.text(230, y, line, 28, INK, "sans_bold")
        y += cv.line_height(28, 1.2)
    y += 10
    d = date.fromisoformat(c["date"])
    cv.text(230, y, f"{d:%a}, {d:%b} {d.day}, {d.year}", 18, INK, "sans")
    y += cv.line_height(18, 1.5)
    cv.text(230, y, f"Starts {clock_time(c['start'])}  -  ends {clock_time(c['end'])}", 18, INK, "sans")
    y += cv.line_height(18, 1.5)
    cv.text(230, y, c["venue"], 16, GREY, "sans")
    cv.text(w - 24, h - 34, f"Seat {st.choice('ABCDEFGH')}{st.randint(1, 30)}", 14, GREY, "mono", anchor="ra")
    photo = st.random() < 0.5
    return done(cv, knobs, st, photo=photo, tilt=8 if photo else 0, perspective=0.04 if photo else 0,
                lighting=0.3 if photo else 0, noise=0.7 if photo else 0, keep=[(0, 0, w, h)])


def _invite(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "event_invite")
    accent = st.choice(ACCENTS)
    cv, y = phone(knobs, st, "Inbox", accent, "Invitation", height=700)
    d = date.fromisoformat(c["date"])
    y = phone_rows(cv, y + 6, [(c["title"], f"from {c['host']}", "")], size=15)
    phone_rows(cv, y, [("When", f"{long_date(c['date'])}, {d.year}", ""), ("Time", _when(c), ""),
                       ("Where", c["venue"], ""), ("Tickets", c["price"], ""),
                       ("Going?", "Yes  /  Maybe  /  No", "")], size=13)
    return done(cv, knobs, st, max_side=800)


def _sticky(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "event_note")
    ink, face = st.choice(PENS), st.choice(HAND_FACES)
    note = st.choice([(255, 240, 140), (255, 214, 224), (210, 240, 255), (220, 250, 200)])
    size = st.randint(24, 28)
    cv = Canvas(560, 420, note, knobs)
    d = date.fromisoformat(c["date"])
    lines = [*textwrap.wrap(c["title"], 22), f"{d:%a} {d:%b} {d.day}", _when(c), f"@ {c['venue']}"]
    y = 40.0
    for line in lines:
        hand_line(cv, 34, y, line, size, ink, st, face)
        y += cv.line_height(size, 1.45)
    return done(cv, knobs, st, photo=True, tilt=8, perspective=0.03, lighting=0.25, noise=0.88, max_side=700)


_family = knob_family("event", DOMAINS, events.sample, events.values, events.facts)


EVENT_FAMILIES = (
    _family("wall_poster", "scene_text", "synthetic_scene_text", "poster", _wall_poster),
    _family("event_ticket", "document", "synthetic_receipt", "ticket", _ticket),
    _family("event_invite", "screenshot", "synthetic_screenshot", "invitation screenshot", _invite),
    _family("event_note", "document", "synthetic_handwriting", "note", _sticky),
)
