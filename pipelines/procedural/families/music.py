"""The music kind (an artist, an album and one of its songs: something the user can find on Spotify) drawn
three ways: a gig poster on a wall, an album sleeve on a table among other objects, and a now-playing screen."""

from __future__ import annotations

import random
import textwrap

from pipelines.procedural.families.base import Content, knob_family, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done
from pipelines.procedural.render.canvas import GREY, INK, Canvas, mix
from pipelines.procedural.render.scene import object_blob, soften
from pipelines.procedural.render.screens import phone

__all__ = ["MUSIC_FAMILIES", "sample", "values"]

DOMAINS = ("spotify",)
ARTISTS = ["The Velvet Tides", "Marisol Vega", "Copper Lanterns", "Nightjar Collective", "Ellis Moreno",
           "Glass Harbor", "Juno Park", "The Driftwood Kings", "Ada Okoro", "Northern Static", "Lila Brandt",
           "Paper Satellites"]
ALBUMS = ["Salt and Static", "Blue Hour Letters", "Midnight Cartography", "Paper Moons", "Low Tide Radio",
          "Golden Interference", "Winter Orchard", "Signal Fires", "Quiet Machines", "Harbor Lights"]
SONGS = ["Lanterns in the Rain", "Ferris Wheel Heart", "Cold Coffee Morning", "Northbound Again", "Neon Cathedral",
         "Letters to June", "Half Past Never", "Satellite Lullaby", "Glasshouse Summer", "Static Bloom",
         "Paper Boats", "Runaway Compass", "Velvet Thunder", "Tangerine Skyline", "Kite String Waltz",
         "Saltwater Sermon"]
GENRES = ["indie", "pop", "folk", "jazz", "electronic", "rock"]


def sample(rng: random.Random) -> Content:
    """An artist, an album from 2019-2025 and one song on it (3-6 minutes)."""
    return {"artist": rng.choice(ARTISTS), "album": rng.choice(ALBUMS), "song": rng.choice(SONGS),
            "year": rng.randint(2019, 2025), "genre": rng.choice(GENRES), "duration": rng.randint(170, 360)}


def minutes(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def values(c: Content) -> list[str]:
    return [c["artist"], c["album"], c["song"], minutes(c["duration"])]


def facts(c: Content) -> list[str]:
    return [f"artist: {c['artist']}", f"album: {c['album']} ({c['year']})", f"song: {c['song']}",
            f"length: {minutes(c['duration'])}"]


def _gig_poster(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "gig_poster")
    accent = st.choice(ACCENTS)
    w, h = 540, 760
    cv = Canvas(w, h, mix(accent, (20, 20, 24), 0.55), knobs)
    for _i in range(6):
        r = st.randint(60, 200)
        x, y = st.randint(0, w), st.randint(0, h)
        cv.draw.ellipse((x - r, y - r, x + r, y + r), outline=mix(accent, (255, 255, 255), 0.3), width=3)
    y = 90.0
    cv.center(50, "LIVE", 20, (255, 220, 120), "sans_bold")
    for line in textwrap.wrap(c["artist"].upper(), 14):
        cv.center(y, line, 42, (255, 255, 255), st.choice(["sans_bold", "serif_bold"]))
        y += cv.line_height(42, 1.15)
    y += 30
    cv.center(y, "the new album", 18, (230, 230, 230), "serif_italic")
    y += cv.line_height(18, 1.5)
    cv.center(y, c["album"], 30, (255, 220, 120), "sans_bold")
    y += cv.line_height(30, 2.0)
    cv.center(y, "featuring the single", 16, (230, 230, 230), "serif_italic")
    y += cv.line_height(16, 1.5)
    cv.center(y, f"\u201c{c['song']}\u201d", 24, (255, 255, 255), "sans")
    cv.center(h - 80, st.choice(["The Crocodile", "Neumos", "The Showbox", "Tractor Tavern"]), 18,
              (230, 230, 230), "sans")
    return done(cv, knobs, st, photo=True, tilt=6, perspective=0.06, lighting=0.45, noise=0.7, max_side=800)


def _sleeve(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "album_sleeve")
    accent = st.choice(ACCENTS)
    w, h = 900, 640
    cv = Canvas(w, h, st.choice([(150, 112, 80), (120, 100, 90), (90, 96, 104)]), knobs)
    object_blob(cv, (40, 380, 200, 600), tuple(st.randint(80, 200) for _ in range(3)), st, "jar")
    object_blob(cv, (720, 80, 860, 300), tuple(st.randint(80, 200) for _ in range(3)), st, "can")
    cv.draw.ellipse((620, 360, 880, 620), fill=(20, 20, 22))
    cv.draw.ellipse((715, 455, 785, 525), fill=mix(accent, (255, 255, 255), 0.3))
    soften(cv, 1.5)
    x0, y0, size = 250, 90, 420
    cv.rect((x0, y0, x0 + size, y0 + size), fill=mix(accent, (255, 255, 255), 0.25))
    for i in range(5):
        cv.draw.line((x0, y0 + 80 + i * 60, x0 + size, y0 + 40 + i * 70), fill=mix(accent, (0, 0, 0), 0.25), width=8)
    cv.rect((x0 + 20, y0 + 20, x0 + size - 20, y0 + 120), fill=(250, 248, 240))
    cv.text(x0 + 34, y0 + 30, c["artist"], 22, INK, "sans_bold")
    cv.text(x0 + 34, y0 + 66, c["album"], 20, GREY, "serif_italic")
    cv.rect((x0 + size - 190, y0 + size - 70, x0 + size - 14, y0 + size - 16), fill=(255, 230, 90), radius=6)
    cv.text(x0 + size - 182, y0 + size - 64, "incl. the single", 10, INK, "sans")
    cv.text(x0 + size - 182, y0 + size - 48, c["song"], 12, INK, "sans_bold")
    return done(cv, knobs, st, lighting=0.5, noise=0.52, perspective=0.03, max_side=800)


def _now_playing(c: Content, style_seed: int, knobs) -> bytes:
    st = style_rng(style_seed, "now_playing")
    accent = st.choice(ACCENTS)
    cv, y = phone(knobs, st, "Music", accent, "Now playing", height=720)
    dark = getattr(cv, "dark", False)
    fg = (235, 235, 240) if dark else INK
    cv.rect((45, y + 20, 345, y + 320), fill=mix(accent, (255, 255, 255), 0.35), radius=12)
    cv.center(y + 150, c["album"], 15, (255, 255, 255), "serif_italic", 45, 345)
    y += 350
    cv.text(30, y, c["song"], 19, fg, "sans_bold")
    y += 32
    cv.text(30, y, c["artist"], 14, GREY, "sans")
    y += 22
    cv.text(30, y, f"{c['album']} \u00b7 {c['year']}", 12, GREY, "sans")
    y += 40
    cv.rect((30, y, 360, y + 4), fill=(190, 190, 198))
    frac = st.uniform(0.15, 0.7)
    cv.rect((30, y, 30 + 330 * frac, y + 4), fill=accent)
    y += 12
    cv.text(30, y, minutes(int(c["duration"] * frac)), 11, GREY, "sans")
    cv.text(360, y, minutes(c["duration"]), 11, GREY, "sans", anchor="ra")
    return done(cv, knobs, st, max_side=800)


_family = knob_family("music", DOMAINS, sample, values, facts)


MUSIC_FAMILIES = (
    _family("gig_poster", "scene_text", "synthetic_scene_text", "gig poster", _gig_poster),
    _family("album_sleeve", "photo", "synthetic_photo", "album photo", _sleeve),
    _family("now_playing", "screenshot", "synthetic_screenshot", "music screenshot", _now_playing),
)
