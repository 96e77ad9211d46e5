"""Parking signage: a photographed pay-and-display station in a car park, its tariff board (the car park, the
level, the tariff per hour, the maximum stay, the hours it charges) above the ticket it printed for one stay
(the bay, the date, the time in and the expiry, hours x tariff, the tax and the total paid).

The content is an expense (vendor = the car park; subtotal, tax, total), so every expense recipe builds over it
(the parking costs totalled, split on Splitwise, requested on Venmo, checked against a budget), plus what a
car-park sign shows."""

from __future__ import annotations

import random
from datetime import date

from pipelines.procedural.families.base import (
    Content, ImageFamily, clock_time, long_date, money, short_date, style_rng,
)
from pipelines.procedural.families.drawing import done
from pipelines.procedural.families.expense import DOMAINS
from pipelines.procedural.render.canvas import GREY, INK, Canvas
from pipelines.procedural.render.knobs import Knobs

__all__ = ["PARKING_FAMILIES", "sample", "values"]

_CAR_PARKS = [("Alder Street Garage", "410 Alder St, Seattle WA"), ("Harborview Park & Pay", "32 Quay Ln, Tacoma WA"),
              ("Cedar Plaza Parking", "655 Cedar Ln, Bellevue WA"), ("Lakeside Deck", "19 Shore Dr, Kirkland WA"),
              ("Beacon Car Park", "1207 Beacon Ave, Seattle WA"), ("Juniper Lot", "88 Juniper Way, Renton WA"),
              ("Waterfront Park & Pay", "6 Pier Way, Everett WA"), ("Summit Avenue Garage", "940 Summit Ave, Seattle WA"),
              ("Northlake Park & Ride", "2300 Northlake Rd, Lynnwood WA"),
              ("Madrona Civic Garage", "71 Madrona St, Olympia WA")]
_HOURS = ["Mon-Sat 7 AM - 10 PM", "Daily 6 AM - midnight", "Mon-Fri 8 AM - 6 PM", "Daily 24 hours",
          "Mon-Sun 7 AM - 9 PM"]


def sample(rng: random.Random) -> Content:
    """One paid stay on April 1-16, 2026: 1-4 hours at a tariff of $2.00-$6.75 an hour, within the car park's
    maximum stay, with the parking tax on top."""
    vendor, address = rng.choice(_CAR_PARKS)
    rate = rng.randint(8, 27) * 25 / 100
    hours = rng.randint(1, 4)
    max_stay = rng.choice([h for h in (2, 3, 4, 6, 8) if h >= hours])
    tax_rate = rng.choice([10.0, 12.5, 15.5])
    subtotal = round(rate * hours, 2)
    tax = round(subtotal * tax_rate / 100, 2)
    hh, mm = rng.randint(7, 17), rng.randint(0, 59)
    return {"vendor": vendor, "address": address, "date": date(2026, 4, rng.randint(1, 16)).isoformat(),
            "time": f"{hh:02d}:{mm:02d}", "expires": f"{hh + hours:02d}:{mm:02d}",
            "order": rng.randint(100000, 999999), "level": rng.choice(["P1", "P2", "P3", "P4", "B1", "B2"]),
            "bay": f"{rng.choice('ABCDEFGH')}{rng.randint(10, 99)}",
            "rate": rate, "hours": hours, "max_stay": max_stay, "open": rng.choice(_HOURS),
            "items": [{"name": f"Parking {hours} h @ {rate:.2f}/h", "qty": hours, "price": rate, "amount": subtotal}],
            "subtotal": subtotal, "tax_rate": tax_rate, "tax": tax, "total": round(subtotal + tax, 2)}


def values(c: Content) -> list[str]:
    """The car park, its address, the bay, the ticket number, the date forms, the times and every amount."""
    d = date.fromisoformat(c["date"])
    amounts = (c["rate"], c["subtotal"], c["tax"], c["total"])
    return [c["vendor"], c["address"], f"Bay {c['bay']}", c["bay"], str(c["order"]), f"{d:%m/%d/%Y}",
            short_date(c["date"]), long_date(c["date"]), clock_time(c["time"]), clock_time(c["expires"]),
            *(f"{a:.2f}" for a in amounts), *(money(a) for a in amounts)]


def facts(c: Content) -> list[str]:
    return [f"car park: {c['vendor']}", f"level: {c['level']}", f"tariff: {money(c['rate'])} per hour",
            f"maximum stay: {c['max_stay']} hours", f"charging hours: {c['open']}", f"bay: {c['bay']}",
            f"date: {c['date']}", f"parked: {c['time']} to {c['expires']} ({c['hours']} h)",
            f"subtotal: {money(c['subtotal'])}", f"tax: {money(c['tax'])}", f"total: {money(c['total'])}"]


def _station(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    """The tariff board on a concrete pillar, a painted bay number on the floor, and the ticket held in front."""
    st = style_rng(style_seed, "parking_sign")
    w, h = 900, 700
    concrete = (st.randint(150, 178),) * 3
    cv = Canvas(w, h, concrete, knobs)
    cv.rect((0, h - 150, w, h), fill=(88, 90, 94))  # the floor
    for x in (60, w - 60):  # bay lines
        cv.rect((x - 5, h - 150, x + 5, h), fill=(236, 226, 120))
    blue = st.choice([(20, 70, 150), (16, 96, 120), (40, 52, 120)])
    cv.rect((40, 30, 560, 420), fill=blue, radius=10)
    cv.rect((62, 50, 122, 110), fill=(255, 255, 255), radius=8)
    cv.text(92, 52, "P", 46, blue, "sans_bold", anchor="ma")
    cv.text(140, 56, c["vendor"].upper(), 19, (255, 255, 255), "sans_bold")
    cv.text(140, 86, f"LEVEL {c['level']}", 17, (220, 230, 255), "sans")
    cv.hline(128, 60, 540, (255, 255, 255), 2)
    cv.text(62, 146, "PAY & DISPLAY", 15, (220, 230, 255), "sans_bold")
    cv.text(62, 176, f"{money(c['rate'])} PER HOUR", 30, (255, 255, 255), "sans_bold")
    cv.text(62, 232, f"MAXIMUM STAY {c['max_stay']} HOURS", 19, (255, 255, 255), "sans_bold")
    cv.text(62, 270, f"Charges apply {c['open']}", 16, (220, 230, 255), "sans")
    cv.text(62, 300, st.choice(["Display ticket face up on the dashboard", "No return within 1 hour",
                                "Permit holders exempt"]), 14, (220, 230, 255), "sans")
    cv.text(62, 370, st.choice(["Card and coins accepted", "Pay by card only", "Exact change please"]), 14,
            (200, 210, 240), "sans")
    # the ticket, white thermal paper
    tx, ty, tw = 590, 90, 280
    cv.rect((tx, ty, tx + tw, ty + 340), fill=(250, 250, 246), radius=4)
    mono = st.choice(["mono", "cm_mono"])
    cv.text(tx + tw / 2, ty + 16, "PAY & DISPLAY", 16, INK, "mono_bold", anchor="ma")
    cv.text(tx + tw / 2, ty + 42, c["vendor"], 12, GREY, mono, anchor="ma")
    cv.text(tx + tw / 2, ty + 62, c["address"], 10, GREY, mono, anchor="ma")
    d = date.fromisoformat(c["date"])
    rows = [("TICKET", str(c["order"])), ("DATE", f"{d:%m/%d/%Y}"), ("BAY", c["bay"]), ("IN", clock_time(c["time"])),
            ("EXPIRES", clock_time(c["expires"])), (f"{c['hours']} H @ {c['rate']:.2f}", f"{c['subtotal']:.2f}"),
            (f"TAX {c['tax_rate']:g}%", f"{c['tax']:.2f}")]
    y = ty + 96
    for label, value in rows:
        cv.pair(tx + 16, tx + tw - 16, y, label, value, 14, INK, mono)
        y += cv.line_height(14, 1.75)
    cv.hline(y, tx + 12, tx + tw - 12, GREY, 1, dashed=True)
    cv.pair(tx + 16, tx + tw - 16, y + 12, "PAID", money(c["total"]), 18, INK, "mono_bold")
    # the bay number painted on the floor
    cv.text(w / 2, h - 120, c["bay"], 60, (236, 226, 120), "sans_bold", anchor="ma")
    return done(cv, knobs, st, photo=True, tilt=4, perspective=0.06, lighting=0.45, noise=0.8, max_side=820)


PARKING_FAMILIES = (
    ImageFamily("parking_sign", "photo", "synthetic_photo", DOMAINS, True, "parking photo", sample, _station,
                values, facts, kind="expense", takes_knobs=True),
)
