"""A deterministic music catalogue of our own: artists, albums, songs, sample reviews and public playlists.

The catalogue is generated once per process from a fixed seed (it does not depend on the scenario) and
inserted into every World in bulk, so it costs a few milliseconds. Its ids stay below 200: the released
scenario files number their own artists, albums and songs from 200 upwards, so the two never collide.

Counters (``play_count``, ``like_count``, ``follower_count``, ``review_count``) describe the whole,
notional listener population; the rows seeded here are a sample of it. Tools keep the counters
consistent from then on (every like, follow or review moves its counter by exactly one).

Per-user rows for the main user (liked songs, libraries, followed artists, downloads, two playlists) are
derived from the main user's id, so each scenario's user has a believable history.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta
from random import Random
from typing import Any

SEED = 20260416
#: catalogue ids stay below the range the released scenario files use (200 and more)
MAX_CATALOGUE_ID = 199

#: (name, genre): fictional artists, two albums each
ARTISTS: tuple[tuple[str, str], ...] = (
    ("Nora Vale", "Pop"), ("Luna Park", "Pop"), ("Jasper Reed", "Pop"), ("Mira Chen", "Pop"),
    ("The Paper Comets", "Rock"), ("Iron Harbor", "Rock"), ("Static Bloom", "Rock"),
    ("MC Orbit", "Hip-Hop"), ("Kairo Blaze", "Hip-Hop"), ("Dellwood Kings", "Hip-Hop"),
    ("Amara Sol", "R&B"), ("Velvet Hour", "R&B"),
    ("The Blue Lantern Trio", "Jazz"), ("Miles Okafor", "Jazz"),
    ("Elena Moravec", "Classical"), ("Aurora Chamber Orchestra", "Classical"),
    ("Pixel Tides", "Electronic"), ("Nightshift Signal", "Electronic"),
    ("Tucker Maywood", "Country"), ("The Dusty Roads", "Country"),
    ("Paper Moons", "Indie"), ("Fern & Finch", "Indie"), ("Echo Valley", "Indie"),
    ("Willow Creek", "Folk"), ("Hazel Arden", "Folk"),
    ("Obsidian Crown", "Metal"), ("Island Pulse", "Reggae"), ("Delta Ray Hollis", "Blues"),
    ("Sol Marisol", "Latin"), ("Los Cometas", "Latin"),
)

_ADJ = ("Golden", "Silver", "Quiet", "Electric", "Velvet", "Broken", "Endless", "Hidden", "Neon", "Wild",
        "Crimson", "Northern", "Hollow", "Lucky", "Midnight", "Distant", "Open", "Burning", "Gentle", "Paper",
        "Faded", "Restless", "Sunlit", "Frozen", "Secret", "Little", "Blue", "Last", "Lonely", "Bright")
_NOUN = ("Hearts", "Rivers", "Skylines", "Echoes", "Horizons", "Lanterns", "Signals", "Gardens", "Mirrors",
         "Highways", "Tides", "Letters", "Shadows", "Satellites", "Harbors", "Fields", "Waves", "Streets",
         "Dreams", "Stars", "Windows", "Mountains", "Promises", "Summers", "Engines", "Oceans", "Cities", "Roses")
_SONG_PATTERNS = ("{adj} {noun}", "{noun} of {place}", "Dancing in the {noun1}", "Take Me to the {noun1}",
                  "{adj} Love", "Under {adj} {noun}", "When the {noun1} Falls", "{place} Nights",
                  "Hold On to the {noun1}", "Chasing {noun}", "{adj} Again", "Back to {place}")
_PLACES = ("Avalon", "Memphis", "Lisbon", "Kyoto", "Marrakesh", "Brooklyn", "Valencia", "Oslo", "Havana",
           "Santa Fe", "Dublin", "Nairobi", "Montreal", "Seville", "Tahoe", "Savannah")
_PLAYLIST_TITLES = ("Morning Commute", "Workout Mix", "Late Night Drive", "Sunday Chill", "Focus Flow",
                    "Road Trip Classics", "Rainy Day", "Party Starters", "Dinner Jazz", "Throwback Hits",
                    "Indie Discoveries", "Study Session", "Summer Vibes", "Feel Good Favorites", "Acoustic Evening",
                    "Deep Focus", "Cardio Boost", "Coffeehouse", "Golden Oldies", "Weekend Energy")
_REVIEW_TEXTS = ((5, "Instant classic", "I keep coming back to this one. Every track works."),
                 (5, "Masterful", "Beautiful production and songwriting from start to finish."),
                 (4, "Really enjoyable", "A couple of weaker moments, but overall a great listen."),
                 (4, "Solid", "Great on repeat during my commute."),
                 (3, "Mixed feelings", "Some highlights, some filler. Worth a listen anyway."),
                 (2, "Not for me", "Too repetitive for my taste."),
                 (1, "Disappointing", "Expected much more after the last release."))

SONGS_PER_ALBUM = 3
SINGLES = 12
CATALOGUE_TIME = "2024-01-01T00:00:00"


@dataclass(frozen=True)
class Catalogue:
    """Rows per table key (plain dicts, ready for ``World.insert``)."""

    rows: dict[str, tuple[dict[str, Any], ...]]


def _date(rng: Random, start_year: int, end_year: int) -> str:
    return f"{rng.randint(start_year, end_year)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T00:00:00"


def _song_title(rng: Random, used: set[str]) -> str:
    while True:
        pattern = rng.choice(_SONG_PATTERNS)
        title = pattern.format(adj=rng.choice(_ADJ), noun=rng.choice(_NOUN), place=rng.choice(_PLACES),
                               noun1=rng.choice(_NOUN).rstrip("s"))
        if title not in used:
            used.add(title)
            return title


def _album_title(rng: Random, used: set[str]) -> str:
    while True:
        core = f"{rng.choice(_ADJ)} {rng.choice(_NOUN)}"
        article = rng.random() < 0.25
        if core not in used:  # "The X" and "X" count as the same title
            used.add(core)
            return f"The {core}" if article else core


def _artists(rng: Random) -> list[dict[str, Any]]:
    return [{"id": i, "name": name, "genre": genre, "created_at": _date(rng, 2008, 2021),
             "follower_count": rng.randint(800, 250_000)} for i, (name, genre) in enumerate(ARTISTS, start=1)]


def _albums_and_songs(rng: Random, artists: list[dict[str, Any]]) -> tuple[list[dict], list[dict]]:
    albums: list[dict[str, Any]] = []
    songs: list[dict[str, Any]] = []
    album_titles: set[str] = set()
    song_titles: set[str] = set()
    by_genre: dict[str, list[int]] = {}
    for a in artists:
        by_genre.setdefault(a["genre"], []).append(a["id"])

    def song(artist: dict[str, Any], album_id: int | None, release: str) -> dict[str, Any]:
        ids = [artist["id"]]
        peers = [p for p in by_genre[artist["genre"]] if p != artist["id"]]
        if peers and rng.random() < 0.15:
            ids.append(rng.choice(peers))  # a featured artist of the same genre
        plays = int(rng.lognormvariate(11, 1.3))
        return {"id": len(songs) + 1, "title": _song_title(rng, song_titles), "artist_ids": ids,
                "album_id": album_id, "duration": rng.randint(125, 410), "release_date": release,
                "genre": artist["genre"], "play_count": plays, "rating": round(rng.uniform(2.8, 4.9), 1),
                "like_count": max(1, plays // rng.randint(15, 60)), "review_count": rng.randint(3, 400)}

    for artist in artists:
        for _ in range(2):
            release = _date(rng, 2005, 2025)
            album_id = len(albums) + 1
            albums.append({"id": album_id, "title": _album_title(rng, album_titles), "artist_ids": [artist["id"]],
                           "release_date": release, "genre": artist["genre"],
                           "rating": round(rng.uniform(2.9, 4.9), 1), "like_count": rng.randint(50, 60_000),
                           "review_count": rng.randint(3, 900)})
            songs.extend(song(artist, album_id, release) for _ in range(SONGS_PER_ALBUM))
    for _ in range(SINGLES):
        artist = rng.choice(artists)
        songs.append(song(artist, None, _date(rng, 2015, 2025)))
    return albums, songs


def _after(rng: Random, stamp: str, latest: str = "2026-03-31T00:00:00") -> str:
    """A day after ``stamp`` (within about a year) and before ``latest``."""
    start = datetime.fromisoformat(stamp)
    end = min(datetime.fromisoformat(latest), start + timedelta(days=400))
    span = max(1, (end - start).days)
    return (start + timedelta(days=rng.randint(1, span))).replace(hour=rng.randint(7, 22)).isoformat()


def _reviews(rng: Random, item: str, items: list[dict[str, Any]], share: float) -> list[dict[str, Any]]:
    """A sample of reviews by base users (1..110) on a share of the items, written after their release."""
    out: list[dict[str, Any]] = []
    for it in items:
        if rng.random() >= share:
            continue
        for user_id in rng.sample(range(1, 111), rng.randint(1, 2)):
            rating, title, text = rng.choice(_REVIEW_TEXTS)
            out.append({"id": len(out) + 1, item: it["id"], "user_id": user_id, "rating": rating, "title": title,
                        "text": text, "created_at": _after(rng, it["release_date"])})
    return out


def _playlists(rng: Random, songs: list[dict[str, Any]]) -> tuple[list[dict], list[dict]]:
    playlists: list[dict[str, Any]] = []
    links: list[dict[str, Any]] = []
    for i, title in enumerate(_PLAYLIST_TITLES, start=1):
        created = _date(rng, 2023, 2025)
        public = rng.random() < 0.85
        playlists.append({"id": i, "title": title, "user_id": rng.randint(1, 110), "created_at": created,
                          "is_public": public, "rating": 0.0, "like_count": rng.randint(0, 900) if public else 0,
                          "review_count": 0})
        released = [s for s in songs if s["release_date"] <= created]
        for song in rng.sample(released, rng.randint(4, 9)):
            links.append({"id": len(links) + 1, "playlist_id": i, "song_id": song["id"], "added_at": created})
    return playlists, links


@functools.cache
def catalogue() -> Catalogue:
    """The shared catalogue (generated once; rows are never mutated by callers)."""
    rng = Random(SEED)
    artists = _artists(rng)
    albums, songs = _albums_and_songs(rng, artists)
    assert len(songs) <= MAX_CATALOGUE_ID and len(albums) <= MAX_CATALOGUE_ID
    playlists, links = _playlists(rng, songs)
    return Catalogue({
        "spotify.artists": tuple(artists), "spotify.albums": tuple(albums), "spotify.songs": tuple(songs),
        "spotify.song_reviews": tuple(_reviews(rng, "song_id", songs, 0.2)),
        "spotify.album_reviews": tuple(_reviews(rng, "album_id", albums, 0.5)),
        "spotify.playlists": tuple(playlists), "spotify.playlist_songs": tuple(links),
    })


def user_history(user_id: int, first_name: str) -> dict[str, list[dict[str, Any]]]:
    """A believable listening history for one user (the main user): likes, libraries, follows, downloads
    and two playlists of their own. Ids continue after the catalogue's rows."""
    cat = catalogue().rows
    rng = Random(f"spotify-history:{user_id}")
    songs, albums, artists = cat["spotify.songs"], cat["spotify.albums"], cat["spotify.artists"]
    favourite = rng.sample(sorted({a["genre"] for a in artists}), 3)
    liked_songs = rng.sample([s for s in songs if s["genre"] in favourite], 6)
    liked_artists = rng.sample([a for a in artists if a["genre"] in favourite], 3)

    def rel(item: str, chosen: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"id": i, "user_id": user_id, item: c["id"], "created_at": _date(rng, 2024, 2025)}
                for i, c in enumerate(chosen, start=1)]

    n_playlists = len(cat["spotify.playlists"])
    own = [{"id": n_playlists + 1, "title": f"{first_name}'s Favorites", "user_id": user_id,
            "created_at": "2025-03-02T18:20:00", "is_public": True, "rating": 0.0, "like_count": 3,
            "review_count": 0},
           {"id": n_playlists + 2, "title": "Chill Evenings", "user_id": user_id,
            "created_at": "2025-09-14T21:05:00", "is_public": False, "rating": 0.0, "like_count": 0,
            "review_count": 0}]
    first_link = len(cat["spotify.playlist_songs"]) + 1
    links = [{"id": first_link + i, "playlist_id": own[0]["id"], "song_id": s["id"], "added_at": own[0]["created_at"]}
             for i, s in enumerate(liked_songs[:4])]
    calm = [s for s in songs if s["genre"] in ("Jazz", "Classical", "Folk", "Indie")]
    links += [{"id": first_link + len(links) + i, "playlist_id": own[1]["id"], "song_id": s["id"],
               "added_at": own[1]["created_at"]} for i, s in enumerate(rng.sample(calm, 3))]
    public_others = [p for p in cat["spotify.playlists"] if p["is_public"] and p["user_id"] != user_id]
    saved = liked_songs[:4] + rng.sample([s for s in songs if s not in liked_songs], 3)
    return {
        "spotify.song_likes": rel("song_id", liked_songs),
        "spotify.album_likes": rel("album_id", rng.sample([a for a in albums if a["genre"] in favourite], 2)),
        "spotify.playlist_likes": rel("playlist_id", rng.sample(public_others, 2)),
        "spotify.user_library_songs": rel("song_id", saved),
        "spotify.user_library_albums": rel("album_id", rng.sample([a for a in albums if a["genre"] in favourite], 3)),
        "spotify.artist_followers": rel("artist_id", liked_artists),
        "spotify.downloaded_songs": rel("song_id", liked_songs[:2]),
        "spotify.playlists": own,
        "spotify.playlist_songs": links,
    }
