"""The person kind (name, job title, company, email, phone: the business card's content) drawn four more
ways: a card photographed on a table, a conference badge, a letter's signature block and a networking app's
profile screen."""

from __future__ import annotations

from pipelines.procedural.families import cards
from pipelines.procedural.families.base import Content, knob_family, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done, paper
from pipelines.procedural.render.canvas import GREY, INK, Canvas, mix
from pipelines.procedural.render.knobs import Knobs
from pipelines.procedural.render.screens import phone, phone_rows

__all__ = ["PERSON_FAMILIES"]

DOMAINS = ("contacts", "gmail", "messages", "simple_note")
_LETTER_BODY = [
    "Thank you for taking the time to meet with us last week. We enjoyed learning about your plans for the "
    "coming season and would be glad to continue the conversation.",
    "I have attached a short summary of what we discussed. Please let me know if anything is missing or if a "
    "different time would suit you better for a follow-up call.",
    "We look forward to working together.",
]


def _name(c: Content) -> str:
    return f"{c['first']} {c['last']}"


def _card(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "card_photo")
    accent = st.choice(ACCENTS)
    w, h = 640, 370
    cv = Canvas(w, h, paper(st), knobs)
    left = st.random() < 0.5
    if left:
        cv.rect((0, 0, 16, h), fill=accent)
    else:
        cv.rect((0, h - 56, w, h), fill=accent)
    face = st.choice(["sans", "serif"])
    cv.text(44, 42, c["company"], 18, accent, face + "_bold")
    cv.text(44, 120, _name(c), 34, INK, face + "_bold")
    cv.text(44, 170, c["title"], 18, GREY, face)
    cv.text(44, 226, c["email"], 17, INK, "sans")
    cv.text(44, 256, c["phone"], 17, INK, "sans")
    return done(cv, knobs, st, photo=True, tilt=9, perspective=0.05, lighting=0.3, noise=0.88, max_side=800)


def _badge(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "name_badge")
    accent = st.choice(ACCENTS)
    w, h = 440, 600
    cv = Canvas(w, h, (250, 250, 250), knobs)
    cv.rect((0, 0, w, 130), fill=accent)
    cv.rect((w / 2 - 40, 14, w / 2 + 40, 30), fill=(230, 230, 230), radius=8)
    cv.center(52, st.choice(["SUMMIT 2026", "EXPO 2026", "FORUM 2026", "CONNECT 2026"]), 24, (255, 255, 255),
              "sans_bold")
    cv.center(96, "ATTENDEE", 13, mix((255, 255, 255), accent, 0.2), "sans")
    cv.center(180, c["first"], 44, INK, "sans_bold")
    cv.center(240, c["last"], 30, INK, "sans")
    cv.center(300, c["title"], 16, GREY, "sans")
    cv.center(330, c["company"], 18, accent, "sans_bold")
    cv.hline(400, 40, w - 40, (210, 210, 215))
    cv.center(430, c["email"], 14, INK, "sans")
    cv.center(458, c["phone"], 14, INK, "sans")
    return done(cv, knobs, st, photo=True, tilt=6, perspective=0.07, lighting=0.45, noise=1.4, max_side=760)


def _letter(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "letter")
    accent = st.choice(ACCENTS)
    face = st.choice(["serif", "sans", "stix"])
    w = 760
    cv = Canvas(w, 1050, paper(st), knobs)
    cv.text(60, 50, c["company"], 24, accent, "serif_bold" if face != "sans" else "sans_bold")
    cv.hline(90, 60, w - 60, accent, 2)
    y = 130.0
    cv.text(60, y, st.choice(["Dear colleague,", "Hello,", "Dear friend,"]), 15, INK, face)
    y += cv.line_height(15, 2.0)
    for para in _LETTER_BODY:
        y = cv.wrapped(60, y, para, w - 120, 15, INK, face, spacing=1.5) + 12
    y += 10
    cv.text(60, y, st.choice(["Kind regards,", "Best wishes,", "Sincerely,"]), 15, INK, face)
    y += cv.line_height(15, 2.6)
    cv.text(60, y, _name(c), 17, INK, face + "_bold" if face in ("serif", "sans", "stix") else face)
    y += cv.line_height(17, 1.5)
    for line in (c["title"], c["company"], c["email"], c["phone"]):
        cv.text(60, y, line, 14, GREY, face)
        y += cv.line_height(14, 1.5)
    return done(cv, knobs, st, crop_to=y + 40, keep=[(0, 0, w, y + 40)], max_side=720)


def _profile(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "profile_screen")
    accent = st.choice(ACCENTS)
    cv, y = phone(knobs, st, "Network", accent, "Profile", height=680)
    cv.draw.ellipse((150, y + 10, 240, y + 100), fill=mix(accent, (255, 255, 255), 0.5))
    cv.center(y + 40, f"{c['first'][0]}{c['last'][0]}", 28, (255, 255, 255), "sans_bold")
    y += 112
    cv.center(y, _name(c), 18, (235, 235, 240) if getattr(cv, "dark", False) else INK, "sans_bold")
    y += 30
    cv.center(y, f"{c['title']} at {c['company']}", 12, GREY, "sans")
    y += 32
    phone_rows(cv, y, [("Email", c["email"], ""), ("Mobile", c["phone"], ""), ("Company", c["company"], ""),
                       ("Connections", f"{st.randint(40, 480)} mutual", "")], size=13)
    return done(cv, knobs, st, max_side=800)


_family = knob_family("person", DOMAINS, cards.sample, cards.values, cards.facts)


PERSON_FAMILIES = (
    _family("card_photo", "document", "synthetic_document", "business card", _card),
    _family("name_badge", "scene_text", "synthetic_scene_text", "badge", _badge),
    _family("letter", "document", "synthetic_document", "letter", _letter),
    _family("profile_screen", "screenshot", "synthetic_screenshot", "profile screenshot", _profile),
)
