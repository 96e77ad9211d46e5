"""Event posters and talk cards: title, date, start and end time, venue (domains: calendar, reminders)."""

from __future__ import annotations

import random
import textwrap
from datetime import date

from mmtsb.authoring.images import poster, talk_card
from pipelines.procedural.families.base import (
    Content, ImageFamily, clock_time, long_date, short_date, style_rng, tint,
)

__all__ = ["EVENTS"]

_TITLES = ["Jazz on the Pier", "Night Market Social", "Indie Film Evening", "Spring Poetry Slam", "Robotics Meetup",
           "Salsa Dance Night", "Urban Sketching Walk", "Data Viz Workshop", "Vinyl Swap Meet", "Sunset Yoga Session",
           "Board Game Marathon", "Open Mic Comedy", "Climate Tech Talk", "Pottery Taster Class", "Trivia Showdown",
           "Startup Pitch Night"]
_HOSTS = ["Harbor Arts Collective", "Seattle Makers Guild", "Fremont Community Center", "Pine Street Studio",
          "Lakeside Library", "Cascade Tech Forum", "Union Square Events", "The Blue Door Club"]
_VENUES = ["Pier 62 Pavilion", "Town Hall, Room 2B", "Ballard Commons", "Greenlake Boathouse", "Hub Loft, 4th Floor",
           "Central Library Auditorium", "Westlake Plaza", "Capitol Hill Arts Space"]


def sample(rng: random.Random) -> Content:
    """An event on April 17-30, 2026 (after the reference day), 1-3 hours long, starting 9 AM to 8 PM."""
    start = rng.choice([9, 10, 11, 13, 14, 17, 18, 19, 20])
    minute = rng.choice([0, 0, 30])
    length = rng.choice([60, 90, 120, 180])
    end_min = start * 60 + minute + length
    return {"title": rng.choice(_TITLES), "host": rng.choice(_HOSTS), "venue": rng.choice(_VENUES),
            "date": date(2026, 4, rng.randint(17, 30)).isoformat(), "start": f"{start:02d}:{minute:02d}",
            "end": f"{end_min // 60:02d}:{end_min % 60:02d}", "price": rng.choice(["Free", "$10", "$15", "$25"])}


def draw(c: Content, style_seed: int) -> bytes:
    """A poster or a talk card (the style seed picks the layout and the colours)."""
    st = style_rng(style_seed, "event")
    when = f"{long_date(c['date'])}  {clock_time(c['start'])} - {clock_time(c['end'])}"
    accent = tint(st, 30, 170)
    if st.random() < 0.5:
        background = (st.randint(235, 255), st.randint(235, 255), st.randint(225, 250))
        return poster(background, accent, c["host"], textwrap.wrap(c["title"], 14),
                      [long_date(c["date"]), f"{clock_time(c['start'])} - {clock_time(c['end'])}", c["venue"]],
                      c["price"], width=560, height=760)
    return talk_card(c["host"], textwrap.wrap(c["title"], 24), c["venue"], f"Tickets: {c['price']}", when,
                     short_date(c["date"]), accent)


def values(c: Content) -> list[str]:
    """Title, host, venue, the date and time forms."""
    return [c["title"], c["host"], c["venue"], long_date(c["date"]), short_date(c["date"]), clock_time(c["start"]),
            clock_time(c["end"])]


def facts(c: Content) -> list[str]:
    return [f"title: {c['title']}", f"date: {c['date']}", f"start: {c['start']}", f"end: {c['end']}",
            f"venue: {c['venue']}", f"host: {c['host']}", f"price: {c['price']}"]


EVENTS = ImageFamily("event_poster", "scene_text", "synthetic_poster", ("calendar", "reminder"), True, "poster",
                     sample, draw, values, facts, kind="event")
