"""Browsing the catalogue: genres, songs, albums and artists (search and details), the user's private
flags on them, and personalised recommendations."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mmtsb.apps.common import paginate
from mmtsb.apps.spotify import core
from mmtsb.apps.spotify.core import (ALBUM_LIBRARY, ALBUM_LIKES, ALBUM_REVIEWS, ALBUMS, APP, ARTISTS, AUTHED, BIG_INT,
                                     DOWNLOADS, FOLLOWS, ONLINE, SONG_LIBRARY, SONG_LIKES, SONG_REVIEWS, SONGS, Names)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


@tool(domain=APP, requires=ONLINE, tables=(SONGS,))
def spotify_show_genres(world: World) -> list[str]:
    """Lists all music genres of the catalogue, alphabetically (use them as the genre filter of searches).

    Returns:
        list[str]
    """
    rows = world.query('SELECT DISTINCT genre FROM "spotify"."songs" WHERE genre IS NOT NULL '
                       'UNION SELECT DISTINCT genre FROM "spotify"."albums" WHERE genre IS NOT NULL')
    return sorted({r["genre"] for r in rows}, key=str.lower)


def _genre_matches(value: str | None, genre: str | None) -> bool:
    return genre is None or (value or "").strip().lower() == genre.strip().lower()


@tool(domain=APP, requires=ONLINE, tables=(SONGS,))
def spotify_search_songs(world: World, query: str | None = "", artist_id: int | None = None,
                         album_id: int | None = None, genre: str | None = None,
                         min_release_date: str | None = "1500-01-01", max_release_date: str | None = "3000-01-01",
                         min_duration: int | None = 0, max_duration: int | None = 9223372036854775807,
                         min_rating: float | None = 0.0, max_rating: float | None = 5.0, min_like_count: int | None = 0,
                         max_like_count: int | None = 9223372036854775807, min_play_count: int | None = 0,
                         max_play_count: int | None = 9223372036854775807, page_index: int | None = 0,
                         page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Searches songs by title, artist, album or genre words, with filters; best matches first.

    Args:
        query: words matched against the song title (strongest), artist names, album title and genre;
            empty lists every song that passes the filters.
        artist_id: keeps songs by (or featuring) this artist.
        album_id: keeps songs of this album.
        genre: keeps songs of this genre (case-insensitive; see spotify_show_genres).
        min_release_date: earliest release date, YYYY-MM-DD.
        max_release_date: latest release date, YYYY-MM-DD.
        min_duration: shortest duration in seconds.
        max_duration: longest duration in seconds.
        min_rating: lowest average rating, 0 to 5.
        max_rating: highest average rating, 0 to 5.
        min_like_count: fewest likes.
        max_like_count: most likes.
        min_play_count: fewest plays.
        max_play_count: most plays.
        page_index: the page to return, from 0.
        page_limit: songs per page, 1 to 20.
        sort_by: +/- rating, like_count or play_count (e.g. '-play_count' for the most played first); with a
            query, results are ranked by relevance and the page is then sorted.

    Returns:
        list[{song_id, title, album_id, album_title, duration, artists, release_date, genre, play_count, rating,
        like_count, review_count, shareable_link}]
    """
    low = core.day(min_release_date, "min_release_date", "1500-01-01")
    high = core.day(max_release_date, "max_release_date", "3000-01-01")
    for value, name in ((min_duration, "min_duration"), (max_duration, "max_duration"),
                        (min_like_count, "min_like_count"), (min_play_count, "min_play_count")):
        core.check_non_negative(value, name)
    core.check_range(min_rating, "min_rating", 0, 5)
    core.check_range(max_rating, "max_rating", 0, 5)
    bounds = {"duration": (min_duration or 0, BIG_INT if max_duration is None else max_duration),
              "rating": (min_rating or 0.0, 5.0 if max_rating is None else max_rating),
              "like_count": (min_like_count or 0, BIG_INT if max_like_count is None else max_like_count),
              "play_count": (min_play_count or 0, BIG_INT if max_play_count is None else max_play_count)}
    for col, (lo, hi) in bounds.items():
        core.check_min_max(lo, hi, f"min_{col}", f"max_{col}")
    names = Names(world)
    songs = [s for s in world.select(SONGS)
             if (artist_id is None or artist_id in (s.get("artist_ids") or []))
             and (album_id is None or s.get("album_id") == album_id) and _genre_matches(s.get("genre"), genre)
             and core.in_days(s.get("release_date"), low, high)
             and all(lo <= (s.get(col) or 0) <= hi for col, (lo, hi) in bounds.items())]
    page = core.ranked_page(songs, query, lambda s: core.song_text(s, names), page_index, page_limit, sort_by,
                            ("rating", "like_count", "play_count"))
    return [core.song_view(s, names) for s in page]


@tool(domain=APP, requires=ONLINE, tables=(SONGS,))
def spotify_show_song(world: World, song_id: int) -> dict[str, Any]:
    """Returns one song's public details.

    Args:
        song_id: the song's id.

    Returns:
        {song_id, title, album_id, album_title, duration, artists, release_date, genre, play_count, rating,
        like_count, review_count, shareable_link}
    """
    return core.song_view(core.get_song(world, song_id), Names(world))


def _reviewed(world: World, key: str, item_col: str, user_id: int, item_id: int) -> bool:
    return bool(world.select(key, f"user_id = ? AND {item_col} = ?", (user_id, item_id)))


@tool(domain=APP, requires=AUTHED, tables=(SONG_LIKES, SONG_LIBRARY, DOWNLOADS))
def spotify_show_song_privates(world: World, song_id: int) -> dict[str, Any]:
    """Shows your private flags for a song: liked, reviewed, saved in your song library, downloaded.

    Args:
        song_id: the song's id.

    Returns:
        {liked, reviewed, in_song_library, downloaded}
    """
    core.get_song(world, song_id)
    uid = core.my_id(world)
    return {"liked": core.relation(world, SONG_LIKES, "song_id", uid, song_id) is not None,
            "reviewed": _reviewed(world, SONG_REVIEWS, "song_id", uid, song_id),
            "in_song_library": core.relation(world, SONG_LIBRARY, "song_id", uid, song_id) is not None,
            "downloaded": core.relation(world, DOWNLOADS, "song_id", uid, song_id) is not None}


@tool(domain=APP, requires=ONLINE, tables=(ALBUMS,))
def spotify_search_albums(world: World, query: str | None = "", min_rating: float | None = 0.0,
                          max_rating: float | None = 5.0, min_release_date: str | None = "1500-01-01",
                          max_release_date: str | None = "3000-01-01", min_like_count: int | None = 0,
                          max_like_count: int | None = 9223372036854775807, genre: str | None = None,
                          page_index: int | None = 0, page_limit: int | None = 5,
                          sort_by: str | None = None) -> list[dict[str, Any]]:
    """Searches albums by title, artist or genre words, with filters; best matches first.

    Args:
        query: words matched against the album title (strongest), artist names and genre; empty lists every
            album that passes the filters.
        min_rating: lowest average rating, 0 to 5.
        max_rating: highest average rating, 0 to 5.
        min_release_date: earliest release date, YYYY-MM-DD.
        max_release_date: latest release date, YYYY-MM-DD.
        min_like_count: fewest likes.
        max_like_count: most likes.
        genre: keeps albums of this genre (case-insensitive).
        page_index: the page to return, from 0.
        page_limit: albums per page, 1 to 20.
        sort_by: +/- rating or release_date (e.g. '-release_date' for the newest first).

    Returns:
        list[{album_id, title, genre, artists, rating, like_count, review_count, release_date, song_ids,
        shareable_link}]
    """
    core.check_range(min_rating, "min_rating", 0, 5)
    core.check_range(max_rating, "max_rating", 0, 5)
    core.check_non_negative(min_like_count, "min_like_count")
    low = core.day(min_release_date, "min_release_date", "1500-01-01")
    high = core.day(max_release_date, "max_release_date", "3000-01-01")
    r_lo, r_hi = min_rating or 0.0, 5.0 if max_rating is None else max_rating
    l_lo, l_hi = min_like_count or 0, BIG_INT if max_like_count is None else max_like_count
    core.check_min_max(r_lo, r_hi, "min_rating", "max_rating")
    core.check_min_max(l_lo, l_hi, "min_like_count", "max_like_count")
    names = Names(world)
    albums = [a for a in world.select(ALBUMS)
              if r_lo <= (a.get("rating") or 0.0) <= r_hi and l_lo <= (a.get("like_count") or 0) <= l_hi
              and _genre_matches(a.get("genre"), genre) and core.in_days(a.get("release_date"), low, high)]
    page = core.ranked_page(albums, query, lambda a: core.album_text(a, names), page_index, page_limit, sort_by,
                            ("rating", "release_date"))
    return [core.album_view(world, a, names) for a in page]


@tool(domain=APP, requires=ONLINE, tables=(ALBUMS,))
def spotify_show_album(world: World, album_id: int) -> dict[str, Any]:
    """Returns one album's public details, with its songs.

    Args:
        album_id: the album's id.

    Returns:
        {album_id, title, genre, artists, rating, like_count, review_count, release_date, songs, shareable_link}
    """
    return core.album_view(world, core.get_album(world, album_id), Names(world), with_songs=True)


@tool(domain=APP, requires=AUTHED, tables=(ALBUM_LIKES, ALBUM_LIBRARY))
def spotify_show_album_privates(world: World, album_id: int) -> dict[str, Any]:
    """Shows your private flags for an album: liked, reviewed, saved in your album library.

    Args:
        album_id: the album's id.

    Returns:
        {liked, reviewed, in_album_library}
    """
    core.get_album(world, album_id)
    uid = core.my_id(world)
    return {"liked": core.relation(world, ALBUM_LIKES, "album_id", uid, album_id) is not None,
            "reviewed": _reviewed(world, ALBUM_REVIEWS, "album_id", uid, album_id),
            "in_album_library": core.relation(world, ALBUM_LIBRARY, "album_id", uid, album_id) is not None}


@tool(domain=APP, requires=ONLINE, tables=(ARTISTS,))
def spotify_search_artists(world: World, query: str | None = "", genre: str | None = None,
                           min_follower_count: int | None = 0, max_follower_count: int | None = 9223372036854775807,
                           page_index: int | None = 0, page_limit: int | None = 5,
                           sort_by: str | None = None) -> list[dict[str, Any]]:
    """Searches artists by name or genre words, with genre and follower filters; best matches first.

    Args:
        query: words matched against the artist name (strongest) and genre; empty lists every artist.
        genre: keeps artists of this genre (case-insensitive).
        min_follower_count: fewest followers.
        max_follower_count: most followers.
        page_index: the page to return, from 0.
        page_limit: artists per page, 1 to 20.
        sort_by: +/-follower_count.

    Returns:
        list[{artist_id, name, genre, follower_count, created_at, shareable_link}]
    """
    core.check_non_negative(min_follower_count, "min_follower_count")
    lo, hi = min_follower_count or 0, BIG_INT if max_follower_count is None else max_follower_count
    core.check_min_max(lo, hi, "min_follower_count", "max_follower_count")
    artists = [a for a in core.with_followers(world, world.select(ARTISTS))
               if lo <= (a.get("follower_count") or 0) <= hi and _genre_matches(a.get("genre"), genre)]
    page = core.ranked_page(artists, query, lambda a: (a["name"], a.get("genre")), page_index, page_limit,
                            sort_by, ("follower_count",))
    return [core.artist_view(a) for a in page]


@tool(domain=APP, requires=ONLINE, tables=(ARTISTS,))
def spotify_show_artist(world: World, artist_id: int) -> dict[str, Any]:
    """Returns one artist's details (find their songs with spotify_search_songs(artist_id=...)).

    Args:
        artist_id: the artist's id.

    Returns:
        {artist_id, name, genre, follower_count, created_at, shareable_link}
    """
    return core.artist_view(core.with_followers(world, [core.get_artist(world, artist_id)])[0])


@tool(domain=APP, requires=AUTHED, tables=(FOLLOWS,))
def spotify_show_artist_following(world: World, artist_id: int) -> dict[str, bool]:
    """Tells whether you follow an artist.

    Args:
        artist_id: the artist's id.

    Returns:
        {following}
    """
    core.get_artist(world, artist_id)
    return {"following": core.relation(world, FOLLOWS, "artist_id", core.my_id(world), artist_id) is not None}


@tool(domain=APP, requires=AUTHED, tables=(SONGS,))
def spotify_show_recommendations(world: World, page_index: int | None = 0,
                                 page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists song recommendations personalised from your likes, library, downloads and followed artists.

    Songs you already liked or saved are left out; the rest are ranked by how well their artists and genre
    match your taste, then by popularity.

    Args:
        page_index: the page to return, from 0.
        page_limit: songs per page, 1 to 20.

    Returns:
        list[{song_id, title, album_id, album_title, duration, artists}]
    """
    uid = core.my_id(world)
    known: set[int] = set()
    for key in (SONG_LIKES, SONG_LIBRARY, DOWNLOADS):
        known |= {r["song_id"] for r in world.select(key, "user_id = ?", (uid,))}
    songs = {s["id"]: s for s in world.select(SONGS)}
    artist_taste: Counter[int] = Counter({r["artist_id"]: 2 for r in world.select(FOLLOWS, "user_id = ?", (uid,))})
    genre_taste: Counter[str] = Counter()
    for sid in known:
        song = songs.get(sid)
        if song is not None:
            artist_taste.update(song.get("artist_ids") or [])
            genre_taste[(song.get("genre") or "").lower()] += 1

    def score(song: dict[str, Any]) -> tuple[float, int, int]:
        taste = sum(artist_taste[a] for a in song.get("artist_ids") or []) * 2 + genre_taste[
            (song.get("genre") or "").lower()]
        return (-taste, -(song.get("play_count") or 0), song["id"])

    ranked = sorted((s for s in songs.values() if s["id"] not in known), key=score)
    names = Names(world)
    return [core.song_brief(s, names) for s in paginate(ranked, page_index, page_limit)]
