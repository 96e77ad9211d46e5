"""The departure kind (a train, bus or ferry leaving on a given day and time from a platform) drawn four ways:
a station sign photographed on the platform, a printed boarding pass, a trip-planner screen and a route map."""

from __future__ import annotations

import random
from datetime import date

from pipelines.procedural.families.base import Content, knob_family, clock_time, long_date, short_date, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done, paper
from pipelines.procedural.render.canvas import GREY, INK, Canvas
from pipelines.procedural.render.screens import phone, phone_rows

__all__ = ["DEPARTURE_FAMILIES", "sample", "values"]

DOMAINS = ("alarms", "reminder", "calendar", "simple_note")
MODES = {"Train": ["S1", "S3", "N2", "Cascades 504"], "Bus": ["Route 40", "Route 62", "RapidRide E", "Route 8"],
         "Ferry": ["F1 Bainbridge", "F2 Bremerton", "Water Taxi"]}
DESTINATIONS = ["Tacoma Dome", "Everett Station", "Airport", "Olympia", "Bainbridge Island", "Bremerton",
                "Lynnwood", "Bellingham", "Portland Union", "Redmond Tech", "Northgate", "Vashon"]


def sample(rng: random.Random) -> Content:
    """A departure on April 17-25, 2026 between 6 AM and 9 PM, at a :x5 minute."""
    mode = rng.choice(sorted(MODES))
    hh, mm = rng.randint(6, 21), rng.choice([5, 10, 15, 20, 25, 35, 40, 45, 50, 55])
    return {"mode": mode, "line": rng.choice(MODES[mode]), "destination": rng.choice(DESTINATIONS),
            "date": date(2026, 4, rng.randint(17, 25)).isoformat(), "time": f"{hh:02d}:{mm:02d}",
            "platform": str(rng.randint(1, 9))}


def values(c: Content) -> list[str]:
    return [c["line"], c["destination"], clock_time(c["time"]), c["time"], long_date(c["date"]),
            short_date(c["date"])]


def facts(c: Content) -> list[str]:
    return [f"{c['mode']} {c['line']} to {c['destination']}", f"date: {c['date']}", f"departs: {c['time']}",
            f"platform: {c['platform']}"]


def _sign(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "platform_sign")
    w, h = 900, 420
    cv = Canvas(w, h, (70, 74, 80), knobs)
    cv.rect((30, 40, w - 30, h - 60), fill=(14, 16, 20), radius=8)
    amber = (255, 176, 40)
    cv.text(60, 64, f"PLATFORM {c['platform']}", 22, (220, 220, 225), "sans_bold")
    d = date.fromisoformat(c["date"])
    cv.text(w - 60, 64, f"{d:%a} {d:%d %b}".upper(), 20, (220, 220, 225), "mono", anchor="ra")
    cv.hline(104, 50, w - 50, (60, 60, 66), 2)
    cv.text(60, 130, "TIME", 15, (150, 150, 160), "mono")
    cv.text(220, 130, "SERVICE", 15, (150, 150, 160), "mono")
    cv.text(470, 130, "DESTINATION", 15, (150, 150, 160), "mono")
    cv.text(60, 170, c["time"], 34, amber, "mono_bold")
    cv.text(220, 176, c["line"].upper(), 24, amber, "mono")
    cv.text(470, 176, c["destination"].upper(), 24, amber, "mono")
    cv.text(60, 250, st.choice(["ON TIME", "BOARDING SOON", "PLEASE STAND BEHIND THE LINE"]), 18, amber, "mono")
    for x in (120, w - 120):
        cv.rect((x - 6, h - 60, x + 6, h), fill=(120, 120, 126))
    return done(cv, knobs, st, photo=True, tilt=5, perspective=0.07, lighting=0.5, noise=0.7, max_side=800)


def _pass(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "boarding_pass")
    accent = st.choice(ACCENTS)
    w, h = 780, 320
    cv = Canvas(w, h, paper(st), knobs)
    cv.rect((0, 0, w, 64), fill=accent)
    cv.text(24, 18, f"{c['mode'].upper()} TICKET", 22, (255, 255, 255), "sans_bold")
    cv.text(w - 24, 22, st.choice(["Sound Transit", "Metro Lines", "Puget Ferries", "Cascade Rail"]), 15,
            (240, 240, 240), "sans", anchor="ra")
    cols = [("SERVICE", c["line"]), ("TO", c["destination"]), ("DATE", long_date(c["date"])),
            ("DEPARTS", clock_time(c["time"])), ("PLATFORM", c["platform"])]
    for i, (label, value) in enumerate(cols):
        x, y = 24 + (i % 3) * 250, 90 + (i // 3) * 100
        cv.text(x, y, label, 12, GREY, "sans_bold")
        cv.text(x, y + 22, value, 19, INK, "sans_bold" if label in ("DEPARTS", "TO") else "sans")
    for i in range(30):
        cv.rect((w - 200 + i * 6, h - 60, w - 198 + i * 6 + st.choice([0, 1, 2]), h - 20), fill=INK)
    cv.text(24, h - 40, f"Fare paid  \u00b7  ref {st.randint(100000, 999999)}", 12, GREY, "mono")
    photo = st.random() < 0.5
    return done(cv, knobs, st, photo=photo, tilt=7 if photo else 0, perspective=0.04 if photo else 0,
                lighting=0.3 if photo else 0, noise=0.7 if photo else 0, keep=[(0, 0, w, h)])


def _trip_screen(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "trip_screen")
    accent = st.choice(ACCENTS)
    cv, y = phone(knobs, st, "Transit", accent, "Trip details", height=700,
                  subtitle=f"{long_date(c['date'])}")
    hh, mm = map(int, c["time"].split(":"))
    arrive = f"{(hh + (mm + 47) // 60) % 24:02d}:{(mm + 47) % 60:02d}"
    phone_rows(cv, y + 6, [(f"{c['mode']} {c['line']}", f"to {c['destination']}", ""),
                           ("Departs", f"Platform {c['platform']}", clock_time(c["time"])),
                           ("Arrives", c["destination"], clock_time(arrive)),
                           ("Ticket", "Mobile ticket active", st.choice(["$3.25", "$5.50", "$9.00"]))], size=13)
    return done(cv, knobs, st, max_side=800)


def _map(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "route_map")
    accent = st.choice(ACCENTS)
    w, h = 900, 620
    cv = Canvas(w, h, (236, 234, 226), knobs)
    for _ in range(14):  # streets
        if st.random() < 0.5:
            y = st.randint(0, h)
            cv.draw.line((0, y, w, y + st.randint(-60, 60)), fill=(255, 255, 255), width=st.choice([6, 10]))
        else:
            x = st.randint(0, w)
            cv.draw.line((x, 0, x + st.randint(-60, 60), h), fill=(255, 255, 255), width=st.choice([6, 10]))
    cv.rect((st.randint(40, 300), st.randint(300, 500), st.randint(320, 420), st.randint(520, 600)),
            fill=(200, 226, 190))
    cv.draw.ellipse((600, 40, 860, 200), fill=(180, 210, 236))
    pts = [(80, 540), (260, 430), (430, 380), (600, 250), (800, 150)]
    cv.draw.line(pts, fill=accent, width=9)
    for x, y in pts:
        cv.draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=(255, 255, 255), outline=accent, width=4)
    cv.text(96, 556, "You are here", 13, INK, "sans_bold")
    x, y = pts[-1]
    cv.rect((x - 210, y + 22, x + 60, y + 118), fill=(255, 255, 255), outline=accent, width=2, radius=6)
    cv.text(x - 200, y + 30, f"{c['line']} \u2192 {c['destination']}", 14, INK, "sans_bold")
    cv.text(x - 200, y + 54, f"{short_date(c['date'])}, departs {clock_time(c['time'])}", 13, INK, "sans")
    cv.text(x - 200, y + 78, f"Platform {c['platform']}", 13, GREY, "sans")
    return done(cv, knobs, st, lighting=0.2, perspective=0.02, max_side=800)


_family = knob_family("departure", DOMAINS, sample, values, facts)


DEPARTURE_FAMILIES = (
    _family("platform_sign", "photo", "synthetic_photo", "platform photo", _sign),
    _family("boarding_pass", "document", "synthetic_receipt", "ticket", _pass),
    _family("trip_screen", "screenshot", "synthetic_screenshot", "trip screenshot", _trip_screen),
    _family("route_map", "photo", "synthetic_photo", "map", _map),
)
