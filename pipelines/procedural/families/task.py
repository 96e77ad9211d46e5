"""The task kind (something to do by a due date, with a priority and a reference code, from an organisation)
drawn five ways: a notice letter, a request form, a multi-column newsletter page with an action item, a
handwritten whiteboard to-do and an email open in a desktop mail client."""

from __future__ import annotations

import random
from datetime import date

from pipelines.procedural.families.base import Content, knob_family, long_date, short_date, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done, paper
from pipelines.procedural.render.canvas import GREY, INK, Canvas
from pipelines.procedural.render.hand import HAND_FACES, PENS, hand_line
from pipelines.procedural.render.screens import desktop

__all__ = ["TASK_FAMILIES", "sample", "values"]

DOMAINS = ("todoist", "reminder", "calendar", "simple_note")
TASKS = ["Renew parking permit", "Submit insurance claim", "Return library books", "Pay water bill",
         "Schedule furnace inspection", "Update emergency contacts", "Book dentist cleaning", "Send RSVP for gala",
         "Replace smoke detector batteries", "File expense report", "Register for spring league",
         "Pick up dry cleaning", "Renew passport photos", "Confirm catering order", "Submit timesheet",
         "Recycle old electronics", "Sign field trip form", "Order new filters"]
ORGS = ["City of Seattle", "Evergreen Insurance", "Lakeside Library", "Harbor Utilities", "Pine Street School",
        "Northwest Medical", "Community Center", "Facilities Team"]
PRIORITIES = ("high", "medium", "low")


def sample(rng: random.Random) -> Content:
    """A task due April 17-30, 2026."""
    return {"title": rng.choice(TASKS), "due": date(2026, 4, rng.randint(17, 30)).isoformat(),
            "priority": rng.choice(PRIORITIES), "ref": f"{rng.choice('ABCDKMRT')}-{rng.randint(1000, 9999)}",
            "org": rng.choice(ORGS)}


def values(c: Content) -> list[str]:
    return [c["title"], long_date(c["due"]), short_date(c["due"]), c["ref"], c["org"]]


def facts(c: Content) -> list[str]:
    return [f"task: {c['title']}", f"due: {c['due']}", f"priority: {c['priority']}", f"reference: {c['ref']}",
            f"from: {c['org']}"]


def _due(c: Content) -> str:
    d = date.fromisoformat(c["due"])
    return f"{long_date(c['due'])}, {d.year}"


def _letter(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "notice_letter")
    accent = st.choice(ACCENTS)
    face = st.choice(["serif", "stix", "sans"])
    w = 760
    cv = Canvas(w, 1000, paper(st), knobs)
    cv.text(60, 46, c["org"], 24, accent, "serif_bold" if face != "sans" else "sans_bold")
    cv.text(w - 60, 52, f"Ref. {c['ref']}", 14, GREY, face, anchor="ra")
    cv.hline(90, 60, w - 60, accent, 2)
    y = 130.0
    cv.text(60, y, "NOTICE", 18, INK, "sans_bold")
    y += 40
    y = cv.wrapped(60, y, f"Our records show that the following item is still open on your account: "
                   f"{c['title'].lower()}. Please complete it by {_due(c)}.", w - 120, 15, INK, face, 1.5) + 14
    y = cv.wrapped(60, y, f"This request is marked {c['priority']} priority. If you have already taken care of "
                   "it, no further action is needed.", w - 120, 15, INK, face, 1.5) + 20
    cv.rect((60, y, w - 60, y + 90), fill=(244, 245, 249), outline=(210, 212, 220))
    cv.text(80, y + 14, "Action", 13, GREY, "sans_bold")
    cv.text(200, y + 14, c["title"], 14, INK, "sans_bold")
    cv.text(80, y + 48, "Due by", 13, GREY, "sans_bold")
    cv.text(200, y + 48, _due(c), 14, INK, "sans")
    y += 130
    cv.text(60, y, "Thank you,", 15, INK, face)
    cv.text(60, y + 30, c["org"], 15, INK, face)
    return done(cv, knobs, st, crop_to=y + 80, max_side=720)


def _form(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "request_form")
    accent = st.choice(ACCENTS)
    w = 760
    cv = Canvas(w, 760, paper(st), knobs)
    cv.rect((0, 0, w, 70), fill=accent)
    cv.text(30, 20, f"{c['org']} - Request form", 22, (255, 255, 255), "sans_bold")
    fields = [("Request", c["title"]), ("Reference no.", c["ref"]), ("Complete by", _due(c)),
              ("Priority", c["priority"].capitalize()), ("Submitted by", st.choice(["Front desk", "Office",
                                                                                    "Online portal"]))]
    y = 110.0
    for label, value in fields:
        cv.text(40, y, label, 13, GREY, "sans_bold")
        cv.rect((220, y - 8, w - 40, y + 26), fill=(255, 255, 255), outline=(190, 192, 200))
        cv.text(232, y, value, 15, INK, st.choice(["sans", "mono"]))
        y += 56
    y += 10
    for label in ("Approved", "Pending", "Rejected"):
        cv.rect((40, y, 58, y + 18), outline=GREY, width=2)
        if label == "Pending":
            cv.draw.line((42, y + 9, 48, y + 16, 57, y + 2), fill=INK, width=3)
        cv.text(66, y, label, 13, INK, "sans")
        y += 30
    return done(cv, knobs, st, crop_to=y + 30, max_side=720)


def _newsletter(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "newsletter")
    accent = st.choice(ACCENTS)
    w = 860
    cv = Canvas(w, 900, paper(st), knobs)
    face = st.choice(["serif", "stix"])
    cv.text(40, 30, f"{c['org']} News", 30, accent, "serif_bold")
    cv.text(w - 40, 44, st.choice(["April 2026", "Spring 2026", "Issue 14"]), 14, GREY, face, anchor="ra")
    cv.hline(84, 40, w - 40, INK, 2)
    col = (w - 120) / 3
    blurbs = ["Spring hours begin next month, and the front desk will open earlier on weekdays.",
              "Thanks to everyone who joined the clean-up day. More photos are on the notice board.",
              "Our new volunteers started this week; please make them feel welcome.",
              "Reminder: the car park will be repainted over two weekends."]
    ys = []
    for i in range(3):
        x, y = 40 + i * (col + 20), 104.0
        cv.text(x, y, st.choice(["Updates", "Around us", "Notes", "Community"]), 16, INK, "sans_bold")
        y += 30
        for b in blurbs[i:i + 2]:
            y = cv.wrapped(x, y, b, col, 12, GREY, face, 1.45) + 10
        ys.append(y)
    y = max(ys) + 10
    x = 40 + st.randrange(3) * (col + 20)
    cv.rect((x - 6, y, x + col + 6, y + 150), fill=(255, 246, 210), outline=accent, width=2)
    cv.text(x + 6, y + 10, "ACTION ITEM", 13, accent, "sans_bold")
    yy = cv.wrapped(x + 6, y + 36, c["title"], col - 12, 15, INK, "sans_bold", 1.3)
    cv.text(x + 6, yy + 6, f"Due {_due(c)}", 12, INK, "sans")
    cv.text(x + 6, yy + 28, f"Priority: {c['priority']}  \u00b7  {c['ref']}", 12, GREY, "sans")
    return done(cv, knobs, st, crop_to=y + 180, max_side=720)


def _whiteboard(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "whiteboard")
    ink, face = st.choice(PENS), st.choice(HAND_FACES)
    cv = Canvas(760, 460, (246, 248, 248), knobs)
    cv.rect((0, 0, 760, 14), fill=(170, 174, 180))
    d = date.fromisoformat(c["due"])
    y = 50.0
    hand_line(cv, 40, y, "TO DO", 30, ink, st, face)
    y += cv.line_height(30, 1.7)
    marks = {"high": "!!!", "medium": "!!", "low": "!"}
    hand_line(cv, 50, y, f"[ ] {c['title']}", 26, ink, st, face)
    y += cv.line_height(26, 1.5)
    hand_line(cv, 90, y, f"by {d:%a} {d.month}/{d.day}  {marks[c['priority']]} ({c['priority']})", 24, ink, st,
              face)
    y += cv.line_height(24, 1.5)
    hand_line(cv, 90, y, f"ref {c['ref']} - {c['org']}", 20, ink, st, face)
    return done(cv, knobs, st, photo=True, tilt=4, perspective=0.05, lighting=0.35, noise=0.7, max_side=800)


def _mail(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "mail_screen")
    accent = st.choice(ACCENTS)
    cv, x, y = desktop(knobs, st, "Mail", accent, f"Action needed: {c['title']}",
                       ["Inbox (12)", "Flagged", "Sent", "Drafts", "Archive"])
    cv.text(x, y, f"From: {c['org']} <noreply@example.org>", 11, GREY, "sans")
    cv.text(x, y + 18, "To: me", 11, GREY, "sans")
    cv.text(x, y + 36, f"Priority: {c['priority']}   Reference: {c['ref']}", 11, GREY, "sans")
    y += 70
    y = cv.wrapped(x, y, f"Hello, this is a reminder that the following needs your attention: {c['title']}. "
                   f"The deadline is {_due(c)}.", 780, 12, INK, "sans", 1.5) + 10
    cv.wrapped(x, y, "You can reply to this message if you have questions. This mailbox is monitored on weekdays.",
               780, 12, INK, "sans", 1.5)
    return done(cv, knobs, st, max_side=960)


_family = knob_family("task", DOMAINS, sample, values, facts)


TASK_FAMILIES = (
    _family("notice_letter", "document", "synthetic_document", "letter", _letter),
    _family("request_form", "document", "synthetic_document", "form", _form),
    _family("newsletter", "document", "synthetic_document", "newsletter page", _newsletter),
    _family("whiteboard", "scene_text", "synthetic_scene_text", "whiteboard photo", _whiteboard),
    _family("mail_screen", "screenshot", "synthetic_screenshot", "email screenshot", _mail),
)
