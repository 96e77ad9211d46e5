"""The metric kind (one measure over 3-6 labels, for this period and optionally the last) drawn four ways:
a chart (bar, horizontal bar, line, pie, scatter or grouped bars with a legend, by style), a table in a report
page, an infographic and a desktop analytics dashboard."""

from __future__ import annotations

import random

from pipelines.procedural.families.base import Content, knob_family, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done, paper
from pipelines.procedural.render.canvas import GREY, INK, Canvas, mix
from pipelines.procedural.render.charts import chart_image
from pipelines.procedural.render.screens import desktop, table

__all__ = ["METRIC_FAMILIES", "fmt", "sample", "sample_group", "values"]

DOMAINS = ("simple_note", "file_system", "gmail", "todoist")
#: title, unit, label pool, value range
TOPICS = [("Units sold by region", "", ["North", "South", "East", "West", "Central", "Coastal"], (40, 400)),
          ("Monthly spending by category", "$", ["Groceries", "Rent", "Transport", "Dining", "Utilities",
                                                  "Fitness"], (60, 900)),
          ("Website visits by channel", "", ["Search", "Social", "Email", "Direct", "Referral", "Ads"],
           (300, 4800)),
          ("Volunteer hours by team", "", ["Garden", "Kitchen", "Library", "Tutoring", "Cleanup", "Outreach"],
           (12, 160)),
          ("Support tickets by product", "", ["Router", "Camera", "Thermostat", "Doorbell", "Speaker", "Hub"],
           (20, 320)),
          ("Steps per day (thousands)", "k", ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], (3, 18)),
          ("Energy use by appliance", " kWh", ["Heater", "Fridge", "Washer", "Dryer", "Oven", "Lights"], (15, 240)),
          ("Donations by campaign", "$", ["Spring", "Gala", "Online", "Schools", "Matching", "Events"],
           (300, 5200))]
PERIODS = [("Q1 2026", "Q4 2025"), ("March 2026", "February 2026"), ("2026", "2025"), ("This week", "Last week")]


def sample(rng: random.Random) -> Content:
    """3-6 labels with whole values for this period, and half the time the previous period's values too."""
    title, unit, pool, (lo, hi) = rng.choice(TOPICS)
    labels = rng.sample(pool, rng.randint(3, 6))
    vals = rng.sample(range(lo, hi + 1), len(labels))
    period, prev_period = rng.choice(PERIODS)
    prev = [max(lo, v + rng.randint(-(hi - lo) // 5, (hi - lo) // 5)) for v in vals] if rng.random() < 0.5 else None
    if prev and any(p == v for p, v in zip(prev, vals)):
        prev = [p + 1 if p == v else p for p, v in zip(prev, vals)]
    return {"title": title, "unit": unit, "labels": labels, "values": vals, "period": period,
            "prev_values": prev, "prev_period": prev_period if prev else None}


MONTHS = ["January 2026", "February 2026", "March 2026", "April 2026", "May 2025", "June 2025", "July 2025",
          "August 2025", "September 2025", "October 2025", "November 2025", "December 2025"]


def sample_group(rng: random.Random, n: int) -> list[Content]:
    """``n`` images of one measure over the same labels for different months (a series of reports), each with
    the month's targets when the series has them."""
    title, unit, pool, (lo, hi) = rng.choice(TOPICS)
    labels = rng.sample(pool, rng.randint(3, 5))
    months = sorted(rng.sample(range(12), n))
    with_target = rng.random() < 0.5
    out = []
    for mo in months:
        vals = [rng.randint(lo, hi) for _ in labels]
        target = [round(rng.randint(lo, hi), -1) or lo for _ in labels] if with_target else None
        out.append({"title": title, "unit": unit, "labels": labels, "values": vals, "period": MONTHS[mo],
                    "prev_values": target, "prev_period": "Target" if with_target else None})
    return out


def fmt(v: float, unit: str) -> str:
    """A value as the images print it: ``$1,250``, ``14k``, ``120 kWh``, ``300``."""
    text = f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}"
    return f"{unit}{text}" if unit == "$" else f"{text}{unit}"


def values(c: Content) -> list[str]:
    """The printed figures (the category names are what a user may name; the numbers are what must be read)."""
    out = [fmt(v, c["unit"]) for v in c["values"]]
    out += [fmt(v, c["unit"]) for v in c["prev_values"] or []]
    return [v for v in out if len(v) >= 3]


def facts(c: Content) -> list[str]:
    out = [f"{c['title']} ({c['period']})"]
    out += [f"{lab}: {fmt(v, c['unit'])}" for lab, v in zip(c["labels"], c["values"])]
    if c["prev_values"]:
        out += [f"{c['prev_period']} {lab}: {fmt(v, c['unit'])}" for lab, v in zip(c["labels"], c["prev_values"])]
    return out


def _series(c: Content) -> list[tuple[str, list[float]]]:
    out = [(c["period"], c["values"])]
    if c["prev_values"]:
        out = [(c["prev_period"], c["prev_values"]), *out]
    return out


def _chart(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "chart")
    kinds = ["grouped", "line"] if c["prev_values"] else ["bar", "barh", "line", "pie", "scatter"]
    kind = st.choice(kinds)
    if kind == "pie" and min(c["values"]) <= 0:
        kind = "bar"
    img = chart_image(kind, c["title"], c["labels"], _series(c), c["unit"], knobs, st,
                      subtitle="" if c["prev_values"] else c["period"])
    cv = Canvas(img.width, img.height, (255, 255, 255), knobs)  # matplotlib's white figure
    cv.img.paste(img)
    return done(cv, knobs, st, max_side=800)  # the knobs' clutter below the chart, never over it, as every family


def _rows(c: Content) -> tuple[list[str], list[list[str]]]:
    if c["prev_values"]:
        return (["", c["prev_period"], c["period"]],
                [[lab, fmt(p, c["unit"]), fmt(v, c["unit"])] for lab, p, v in zip(c["labels"], c["prev_values"],
                                                                                   c["values"])])
    return ["", c["period"]], [[lab, fmt(v, c["unit"])] for lab, v in zip(c["labels"], c["values"])]


def _report_table(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "report_table")
    accent = st.choice(ACCENTS)
    w = 820
    cv = Canvas(w, 1000, paper(st), knobs)
    face = st.choice(["serif", "sans", "stix"])
    cv.text(50, 40, st.choice(["Quarterly report", "Annual summary", "Board update", "Program review"]), 13,
            GREY, face)
    cv.text(50, 62, c["title"], 22, INK, "serif_bold" if face != "sans" else "sans_bold")
    y = 110.0
    col = (w - 130) / 2
    for x in (50, 80 + col):  # two text columns above the table (multi-column page)
        yy = y
        for _ in range(2):
            yy = cv.wrapped(x, yy, "This section summarises the figures collected for the period. Numbers are "
                            "rounded to whole units and checked against the source records before publication.",
                            col, 12, GREY, face) + 8
    y += 150
    head, rows = _rows(c)
    widths = [240, 180, 180][:len(head)]
    cv.text(50, y, f"Table {st.randint(1, 9)}. {c['title']}", 13, accent, face)
    y = table(cv, 50, y + 28, widths, head, rows, size=14, align=["l", "r", "r"][:len(head)], face="sans")
    return done(cv, knobs, st, crop_to=y + 40, max_side=720)


def _infographic(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "infographic")
    accent = st.choice(ACCENTS)
    n = len(c["labels"])
    cols = 3 if n > 4 else 2
    rows_n = (n + cols - 1) // cols
    w = 300 * cols + 60
    h = 180 + rows_n * 210
    cv = Canvas(w, h, mix(accent, (255, 255, 255), 0.9), knobs)
    cv.rect((0, 0, w, 120), fill=accent)
    cv.text(30, 28, c["title"], 26, (255, 255, 255), "sans_bold")
    cv.text(30, 74, c["period"], 16, mix((255, 255, 255), accent, 0.2), "sans")
    for i, (lab, v) in enumerate(zip(c["labels"], c["values"])):
        x, y = 30 + (i % cols) * 300, 150 + (i // cols) * 210
        cv.rect((x, y, x + 280, y + 190), fill=(255, 255, 255), radius=14)
        cv.draw.ellipse((x + 20, y + 20, x + 70, y + 70), fill=mix(accent, (255, 255, 255), 0.4))
        cv.text(x + 90, y + 30, lab, 18, GREY, "sans_bold")
        cv.text(x + 20, y + 96, fmt(v, c["unit"]), 40, accent, "sans_bold")
        if c["prev_values"]:
            cv.text(x + 20, y + 152, f"{c['prev_period']}: {fmt(c['prev_values'][i], c['unit'])}", 13, GREY, "sans")
    return done(cv, knobs, st, max_side=800)


def _dashboard(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "dashboard")
    accent = st.choice(ACCENTS)
    cv, x, y = desktop(knobs, st, st.choice(["Insights", "Metrics Hub", "Dashboard"]), accent, c["title"],
                       ["Overview", "Reports", "Exports", "Alerts", "Settings"])
    cv.text(x, y, f"Period: {c['period']}" + (f"   compared with {c['prev_period']}" if c["prev_values"] else ""),
            11, GREY, "sans")
    y += 26
    for i, (lab, v) in enumerate(zip(c["labels"][:3], c["values"][:3])):
        bx = x + i * 200
        cv.rect((bx, y, bx + 186, y + 70), fill=(255, 255, 255), outline=(220, 220, 228), radius=6)
        cv.text(bx + 10, y + 8, lab, 11, GREY, "sans")
        cv.text(bx + 10, y + 30, fmt(v, c["unit"]), 22, INK, "sans_bold")
    y += 90
    head, rows = _rows(c)
    table(cv, x, y, [260, 150, 150][:len(head)], head, rows, size=11, align=["l", "r", "r"][:len(head)])
    return done(cv, knobs, st, max_side=960)


_family = knob_family("metric", DOMAINS, sample, values, facts)


METRIC_FAMILIES = (
    _family("chart", "chart", "synthetic_chart", "chart", _chart),
    _family("report_table", "document", "synthetic_document", "report page", _report_table),
    _family("infographic", "chart", "synthetic_infographic", "infographic", _infographic),
    _family("dashboard", "screenshot", "synthetic_screenshot", "dashboard screenshot", _dashboard),
)
