"""Shared Spotify logic: table keys, id allocation, lookups with visibility rules, views and validation.

Views are what the tools return: songs, albums, artists and playlists with their artists' names and
the album title resolved, so an agent rarely needs a second call. Lookups raise the reference's
``API error`` with a message that names the id, and private playlists of other users are reported as
missing (a user never learns that someone else's private playlist exists).
"""

from __future__ import annotations

from datetime import date
from typing import Any
from collections.abc import Callable, Iterable

from mmtsb.apps.common import api_error, current_user, existing_row, paginate, parse_date, relevance, sort_rows
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

APP = "spotify"
ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)

USERS = "spotify.users"
ARTISTS = "spotify.artists"
ALBUMS = "spotify.albums"
SONGS = "spotify.songs"
PLAYLISTS = "spotify.playlists"
PLAYLIST_SONGS = "spotify.playlist_songs"
SONG_LIKES = "spotify.song_likes"
ALBUM_LIKES = "spotify.album_likes"
PLAYLIST_LIKES = "spotify.playlist_likes"
SONG_LIBRARY = "spotify.user_library_songs"
ALBUM_LIBRARY = "spotify.user_library_albums"
DOWNLOADS = "spotify.downloaded_songs"
FOLLOWS = "spotify.artist_followers"
SONG_REVIEWS = "spotify.song_reviews"
ALBUM_REVIEWS = "spotify.album_reviews"
PLAYLIST_REVIEWS = "spotify.playlist_reviews"
PLAYERS = "spotify.music_players"
CARDS = "spotify.payment_cards"
SUBSCRIPTIONS = "spotify.premium_subscriptions"

#: new rows continue the id ranges the released scenario files use (playlists 800+, players 300+, ...)
ID_FLOORS = {PLAYLISTS: 800, PLAYLIST_SONGS: 200, ALBUM_LIBRARY: 800, SONG_LIBRARY: 800, PLAYERS: 300,
             SONG_LIKES: 200, ALBUM_LIKES: 200, PLAYLIST_LIKES: 200, FOLLOWS: 200, DOWNLOADS: 200,
             SONG_REVIEWS: 200, ALBUM_REVIEWS: 200, PLAYLIST_REVIEWS: 200, CARDS: 200, SUBSCRIPTIONS: 200}
BIG_INT = 9223372036854775807
LINK_BASE = "https://spotify.com"


# ---------------------------------------------------------------------------------------------- basics
def now(world: World) -> str:
    return world.clock.now_str()


def me(world: World) -> dict[str, Any]:
    """The logged-in Spotify user (PermissionError when logged out)."""
    return current_user(world, APP)


def my_id(world: World) -> int:
    return int(me(world)["id"])


def insert(world: World, key: str, row: dict[str, Any]) -> int:
    """Insert a row with the next id of its table (never below the table's id floor)."""
    new_id = max(world.next_id(key), ID_FLOORS.get(key, 1))
    world.insert(key, {**row, "id": new_id})
    return new_id


def bump(world: World, key: str, row_id: int, column: str, delta: int) -> None:
    """Move a counter by ``delta`` (never below zero)."""
    row = world.get(key, row_id)
    if row is not None:
        world.update(key, row_id, {column: max(0, int(row.get(column) or 0) + delta)})


def user_brief(world: World, user_id: int | None) -> dict[str, Any] | None:
    """``{name, email}`` of a Spotify user, or None for an unknown id."""
    user = world.get(USERS, user_id) if user_id is not None else None
    if user is None:
        return None
    return {"name": f"{user['first_name']} {user['last_name']}".strip(), "email": user.get("email")}


def user_by_email(world: World, email: str, field: str) -> dict[str, Any]:
    from mmtsb.apps.accounts import check_email, find_user

    check_email(email)
    user = find_user(world, APP, email)
    if user is None:
        raise api_error(f"No Spotify user with {field} {email!r}.")
    return user


# ---------------------------------------------------------------------------------------------- validation
def check_range(value: float | int | None, field: str, low: float, high: float) -> None:
    if value is not None and not low <= value <= high:
        raise api_error(f"{field} must be between {low:g} and {high:g}; got {value!r}.")


def check_min_max(low: Any, high: Any, low_field: str, high_field: str) -> None:
    if low is not None and high is not None and low > high:
        raise api_error(f"{low_field} ({low!r}) must not be greater than {high_field} ({high!r}).")


def check_non_negative(value: int | None, field: str) -> None:
    if value is not None and value < 0:
        raise api_error(f"{field} must be >= 0; got {value!r}.")


def day(text: str | None, field: str, default: str) -> date:
    """A ``YYYY-MM-DD`` bound (the default when None)."""
    return parse_date(default if text is None else text, field).date()


def in_days(stamp: str | None, low: date, high: date) -> bool:
    """Whether a stored timestamp's date lies in [low, high] (rows without a date never match)."""
    if not stamp:
        return False
    return low.isoformat() <= str(stamp)[:10] <= high.isoformat()


def check_text(value: str | None, field: str) -> str | None:
    if value is not None and not value.strip():
        raise api_error(f"{field} must be at least 1 character long.")
    return value


# ---------------------------------------------------------------------------------------------- lookups
def get_song(world: World, song_id: int) -> dict[str, Any]:
    return existing_row(world, SONGS, song_id, "Song", "song_id")


def get_album(world: World, album_id: int) -> dict[str, Any]:
    return existing_row(world, ALBUMS, album_id, "Album", "album_id")


def get_artist(world: World, artist_id: int) -> dict[str, Any]:
    return existing_row(world, ARTISTS, artist_id, "Artist", "artist_id")


def visible_playlist(world: World, playlist_id: int, user_id: int) -> dict[str, Any]:
    """A playlist the user owns or a public one (another user's private playlist reads as missing)."""
    playlist = world.get(PLAYLISTS, playlist_id)
    if playlist is None or not (playlist.get("is_public") or playlist.get("user_id") == user_id):
        raise api_error(f"Playlist with playlist_id={playlist_id} does not exist.")
    return playlist


def own_playlist(world: World, playlist_id: int, user_id: int) -> dict[str, Any]:
    """A playlist the user owns (a public playlist of someone else cannot be changed)."""
    playlist = visible_playlist(world, playlist_id, user_id)
    if playlist.get("user_id") != user_id:
        raise api_error(f"Playlist with playlist_id={playlist_id} belongs to another user; only its owner can "
                        "change it.")
    return playlist


def relation(world: World, key: str, item_col: str, user_id: int, item_id: int) -> dict[str, Any] | None:
    """The (user, item) row of a relation table (like, library entry, follow, download), if any."""
    rows = world.select(key, f"user_id = ? AND {item_col} = ?", (user_id, item_id))
    return rows[0] if rows else None


def album_song_ids(world: World, album_id: int) -> list[int]:
    return [r["id"] for r in world.select(SONGS, "album_id = ?", (album_id,))]


def playlist_song_ids(world: World, playlist_id: int) -> list[int]:
    links = world.select(PLAYLIST_SONGS, "playlist_id = ?", (playlist_id,), order_by='"added_at", "id"')
    return [r["song_id"] for r in links]


# ---------------------------------------------------------------------------------------------- views
class Names:
    """Artist names and album titles loaded once per call, for building many views cheaply."""

    def __init__(self, world: World) -> None:
        self.artists = {a["id"]: a["name"] for a in world.query('SELECT id, name FROM "spotify"."artists"')}
        self.albums = {a["id"]: a["title"] for a in world.query('SELECT id, title FROM "spotify"."albums"')}

    def artists_of(self, ids: Iterable[int] | None) -> list[dict[str, Any]]:
        return [{"id": i, "name": self.artists.get(i)} for i in (ids or [])]


def song_brief(song: dict[str, Any], names: Names) -> dict[str, Any]:
    """The short song view used by libraries, queues and recommendations."""
    return {"song_id": song["id"], "title": song["title"], "album_id": song.get("album_id"),
            "album_title": names.albums.get(song.get("album_id")), "duration": song.get("duration"),
            "artists": names.artists_of(song.get("artist_ids"))}


def song_view(song: dict[str, Any], names: Names) -> dict[str, Any]:
    """The full public song view."""
    return {**song_brief(song, names), "release_date": song.get("release_date"), "genre": song.get("genre"),
            "play_count": song.get("play_count") or 0, "rating": song.get("rating") or 0.0,
            "like_count": song.get("like_count") or 0, "review_count": song.get("review_count") or 0,
            "shareable_link": f"{LINK_BASE}/song/{song['id']}"}


def album_view(world: World, album: dict[str, Any], names: Names, with_songs: bool = False) -> dict[str, Any]:
    """The public album view; ``with_songs`` lists its songs (id, title, duration)."""
    out = {"album_id": album["id"], "title": album["title"], "genre": album.get("genre"),
           "artists": names.artists_of(album.get("artist_ids")), "rating": album.get("rating") or 0.0,
           "like_count": album.get("like_count") or 0, "review_count": album.get("review_count") or 0,
           "release_date": album.get("release_date")}
    songs = world.select(SONGS, "album_id = ?", (album["id"],))
    if with_songs:
        out["songs"] = [{"song_id": s["id"], "title": s["title"], "duration": s.get("duration")} for s in songs]
    else:
        out["song_ids"] = [s["id"] for s in songs]
    out["shareable_link"] = f"{LINK_BASE}/album/{album['id']}"
    return out


def with_followers(world: World, artists: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Artists with ``follower_count`` = the catalogue's figure plus the follower rows of this world: following
    raises the count without writing the artist's row (AppWorld counts the follower rows)."""
    counts: dict[int, int] = {}
    for row in world.select(FOLLOWS):
        counts[row["artist_id"]] = counts.get(row["artist_id"], 0) + 1
    return [{**a, "follower_count": (a.get("follower_count") or 0) + counts.get(a["id"], 0)} for a in artists]


def artist_view(artist: dict[str, Any]) -> dict[str, Any]:
    return {"artist_id": artist["id"], "name": artist["name"], "genre": artist.get("genre"),
            "follower_count": artist.get("follower_count") or 0, "created_at": artist.get("created_at"),
            "shareable_link": f"{LINK_BASE}/artist/{artist['id']}"}


def playlist_view(world: World, playlist: dict[str, Any], names: Names | None = None,
                  with_songs: bool = False) -> dict[str, Any]:
    """The playlist view (owner as ``{name, email}``); ``with_songs`` lists its songs in playlist order."""
    out = {"playlist_id": playlist["id"], "title": playlist["title"], "is_public": bool(playlist.get("is_public")),
           "rating": playlist.get("rating") or 0.0, "like_count": playlist.get("like_count") or 0,
           "review_count": playlist.get("review_count") or 0, "owner": user_brief(world, playlist.get("user_id")),
           "created_at": playlist.get("created_at")}
    links = world.select(PLAYLIST_SONGS, "playlist_id = ?", (playlist["id"],), order_by='"added_at", "id"')
    if with_songs:
        names = names or Names(world)
        songs = {s["id"]: s for s in world.select(SONGS)} if links else {}
        out["songs"] = [{**song_brief(songs[link["song_id"]], names), "added_at": link.get("added_at")}
                        for link in links if link["song_id"] in songs]
    else:
        out["song_ids"] = [link["song_id"] for link in links]
    out["shareable_link"] = f"{LINK_BASE}/playlist/{playlist['id']}"
    return out


def song_text(song: dict[str, Any], names: Names) -> tuple[str | None, ...]:
    """What a song query is matched against: title, artists, album title, genre."""
    artists = " ".join(n or "" for n in (names.artists.get(i) for i in song.get("artist_ids") or []))
    return song["title"], artists, names.albums.get(song.get("album_id")), song.get("genre")


def album_text(album: dict[str, Any], names: Names) -> tuple[str | None, ...]:
    artists = " ".join(n or "" for n in (names.artists.get(i) for i in album.get("artist_ids") or []))
    return album["title"], artists, album.get("genre")


# ---------------------------------------------------------------------------------------------- search
def rank(rows: list[dict[str, Any]], query: str | None,
         text_of: Callable[[dict[str, Any]], tuple[str | None, ...]]) -> list[dict[str, Any]]:
    """Rows matching the query words, most relevant first: words found in the first field (the title or
    name) count double, and an exact title match ranks above everything else. Ties keep their order."""
    if not query or not query.strip():
        return rows
    wanted = query.strip().lower()
    scored = []
    for i, row in enumerate(rows):
        fields = text_of(row)
        score = relevance(query, *fields)
        if score <= 0:
            continue
        score += relevance(query, fields[0]) + (2.0 if (fields[0] or "").strip().lower() == wanted else 0.0)
        scored.append((-score, i, row))
    return [row for _, _, row in sorted(scored, key=lambda x: (x[0], x[1]))]


def ranked_page(rows: list[dict[str, Any]], query: str | None,
                text_of: Callable[[dict[str, Any]], tuple[str | None, ...]], page_index: int | None,
                page_limit: int | None, sort_by: str | None, allowed_sort: Iterable[str],
                default_sort: str | None = None) -> list[dict[str, Any]]:
    """The listing convention (TOOLS.md §4): with a query, rank by relevance, paginate, then sort within
    the page; without one, sort (``default_sort`` when none is given) and paginate."""
    allowed = list(allowed_sort)
    if query and query.strip():
        page = paginate(rank(rows, query, text_of), page_index, page_limit)
        return sort_rows(page, sort_by, allowed) if sort_by else page
    return paginate(sort_rows(rows, sort_by or default_sort, allowed), page_index, page_limit)
