"""Per-user collections: likes (songs, albums, playlists), the song and album libraries, downloads and
followed artists. Each is one row per (user, item); likes and follows also move the item's counter."""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

from mmtsb.apps.common import api_error
from mmtsb.apps.spotify import core
from mmtsb.apps.spotify.core import (ALBUM_LIBRARY, ALBUM_LIKES, ALBUMS, APP, ARTISTS, AUTHED, DOWNLOADS, FOLLOWS,
                                     PLAYLIST_LIKES, PLAYLISTS, SONG_LIBRARY, SONG_LIKES, SONGS, Names)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


# ---------------------------------------------------------------------------------------------- helpers
def _add(world: World, key: str, item_col: str, item_id: int, what: str, already: str,
         counter: tuple[str, str] | None = None) -> dict[str, str]:
    """Insert the (user, item) row; ``counter`` = (table, column) moved by +1."""
    uid = core.my_id(world)
    if core.relation(world, key, item_col, uid, item_id) is not None:
        raise api_error(already)
    core.insert(world, key, {"user_id": uid, item_col: item_id, "created_at": core.now(world)})
    if counter is not None:
        core.bump(world, counter[0], item_id, counter[1], +1)
    return {"message": what}


def _remove(world: World, key: str, item_col: str, item_id: int, what: str, missing: str,
            counter: tuple[str, str] | None = None) -> dict[str, str]:
    row = core.relation(world, key, item_col, core.my_id(world), item_id)
    if row is None:
        raise api_error(missing)
    world.delete(key, row["id"])
    if counter is not None:
        core.bump(world, counter[0], item_id, counter[1], -1)
    return {"message": what}


def _mine(world: World, key: str) -> list[dict[str, Any]]:
    return world.select(key, "user_id = ?", (core.my_id(world),))


def _song_rows(world: World, key: str, stamp: str, names: Names) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(song row, view with the relation time as ``stamp``) for the user's rows of a song relation."""
    songs = {s["id"]: s for s in world.select(SONGS)}
    out = []
    for rel in _mine(world, key):
        song = songs.get(rel["song_id"])
        if song is not None:
            out.append((song, {**core.song_brief(song, names), "play_count": song.get("play_count") or 0,
                               stamp: rel.get("created_at")}))
    return out


def _album_rows(world: World, key: str, stamp: str, names: Names) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    out = []
    for rel in _mine(world, key):
        album = world.get(ALBUMS, rel["album_id"])
        if album is not None:
            out.append((album, {**core.album_view(world, album, names), stamp: rel.get("created_at")}))
    return out


def _page(pairs: list[tuple[dict[str, Any], dict[str, Any]]], query: str | None,
          text_of: Callable[[dict[str, Any]], tuple[str | None, ...]], page_index: int | None,
          page_limit: int | None, sort_by: str | None, allowed: tuple[str, ...], default: str) -> list[dict[str, Any]]:
    """Rank/sort/paginate views; the query is matched against the underlying rows."""
    views = [dict(v, _row=r) for r, v in pairs]
    page = core.ranked_page(views, query, lambda v: text_of(v["_row"]), page_index, page_limit, sort_by,
                            allowed, default)
    return [{k: v for k, v in view.items() if k != "_row"} for view in page]


# ---------------------------------------------------------------------------------------------- song likes
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SONG_LIKES,))
def spotify_like_song(world: World, song_id: int) -> dict[str, str]:
    """Likes a song (adds it to your liked songs and raises its like count).

    Args:
        song_id: the song's id.

    Returns:
        {message}
    """
    core.get_song(world, song_id)
    return _add(world, SONG_LIKES, "song_id", song_id, "Song liked.", f"You have already liked song {song_id}.",
                (SONGS, "like_count"))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SONG_LIKES,))
def spotify_unlike_song(world: World, song_id: int) -> dict[str, str]:
    """Removes your like from a song.

    Args:
        song_id: the song's id.

    Returns:
        {message}
    """
    core.get_song(world, song_id)
    return _remove(world, SONG_LIKES, "song_id", song_id, "Song unliked.", f"You have not liked song {song_id}.",
                   (SONGS, "like_count"))


@tool(domain=APP, requires=AUTHED, tables=(SONG_LIKES,))
def spotify_show_liked_songs(world: World, page_index: int | None = 0, page_limit: int | None = 5,
                             sort_by: str | None = "-liked_at") -> list[dict[str, Any]]:
    """Lists the songs you liked.

    Args:
        page_index: the page to return, from 0.
        page_limit: songs per page, 1 to 20.
        sort_by: +/- liked_at, play_count or title; default -liked_at (most recently liked first).

    Returns:
        list[{song_id, title, album_id, album_title, duration, artists, play_count, liked_at}]
    """
    names = Names(world)
    return _page(_song_rows(world, SONG_LIKES, "liked_at", names), None, lambda r: (r["title"],), page_index,
                 page_limit, sort_by, ("liked_at", "play_count", "title"), "-liked_at")


# ---------------------------------------------------------------------------------------------- album likes
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ALBUM_LIKES,))
def spotify_like_album(world: World, album_id: int) -> dict[str, str]:
    """Likes an album (raises its like count).

    Args:
        album_id: the album's id.

    Returns:
        {message}
    """
    core.get_album(world, album_id)
    return _add(world, ALBUM_LIKES, "album_id", album_id, "Album liked.",
                f"You have already liked album {album_id}.", (ALBUMS, "like_count"))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ALBUM_LIKES,))
def spotify_unlike_album(world: World, album_id: int) -> dict[str, str]:
    """Removes your like from an album.

    Args:
        album_id: the album's id.

    Returns:
        {message}
    """
    core.get_album(world, album_id)
    return _remove(world, ALBUM_LIKES, "album_id", album_id, "Album unliked.",
                   f"You have not liked album {album_id}.", (ALBUMS, "like_count"))


@tool(domain=APP, requires=AUTHED, tables=(ALBUM_LIKES,))
def spotify_show_liked_albums(world: World, page_index: int | None = 0, page_limit: int | None = 5,
                              sort_by: str | None = "-liked_at") -> list[dict[str, Any]]:
    """Lists the albums you liked.

    Args:
        page_index: the page to return, from 0.
        page_limit: albums per page, 1 to 20.
        sort_by: +/- liked_at or title; default -liked_at.

    Returns:
        list[{album_id, title, genre, artists, rating, like_count, review_count, release_date, song_ids,
        shareable_link, liked_at}]
    """
    names = Names(world)
    return _page(_album_rows(world, ALBUM_LIKES, "liked_at", names), None, lambda r: (r["title"],), page_index,
                 page_limit, sort_by, ("liked_at", "title"), "-liked_at")


# ---------------------------------------------------------------------------------------------- playlist likes
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLIST_LIKES,))
def spotify_like_playlist(world: World, playlist_id: int) -> dict[str, str]:
    """Likes a playlist (yours or a public one; raises its like count).

    Args:
        playlist_id: the playlist's id.

    Returns:
        {message}
    """
    core.visible_playlist(world, playlist_id, core.my_id(world))
    return _add(world, PLAYLIST_LIKES, "playlist_id", playlist_id, "Playlist liked.",
                f"You have already liked playlist {playlist_id}.", (PLAYLISTS, "like_count"))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLIST_LIKES,))
def spotify_unlike_playlist(world: World, playlist_id: int) -> dict[str, str]:
    """Removes your like from a playlist.

    Args:
        playlist_id: the playlist's id.

    Returns:
        {message}
    """
    if world.get(PLAYLISTS, playlist_id) is None:
        raise api_error(f"Playlist with playlist_id={playlist_id} does not exist.")
    return _remove(world, PLAYLIST_LIKES, "playlist_id", playlist_id, "Playlist unliked.",
                   f"You have not liked playlist {playlist_id}.", (PLAYLISTS, "like_count"))


@tool(domain=APP, requires=AUTHED, tables=(PLAYLIST_LIKES,))
def spotify_show_liked_playlists(world: World, page_index: int | None = 0, page_limit: int | None = 5,
                                 sort_by: str | None = "-liked_at") -> list[dict[str, Any]]:
    """Lists the playlists you liked (those that are still yours or public).

    Args:
        page_index: the page to return, from 0.
        page_limit: playlists per page, 1 to 20.
        sort_by: +/- liked_at or title; default -liked_at.

    Returns:
        list[{playlist_id, title, is_public, rating, like_count, review_count, owner, created_at, song_ids,
        shareable_link, liked_at}]
    """
    uid = core.my_id(world)
    pairs = []
    for rel in _mine(world, PLAYLIST_LIKES):
        playlist = world.get(PLAYLISTS, rel["playlist_id"])
        if playlist is not None and (playlist.get("is_public") or playlist.get("user_id") == uid):
            pairs.append((playlist, {**core.playlist_view(world, playlist), "liked_at": rel.get("created_at")}))
    return _page(pairs, None, lambda r: (r["title"],), page_index, page_limit, sort_by, ("liked_at", "title"),
                 "-liked_at")


# ---------------------------------------------------------------------------------------------- song library
@tool(domain=APP, requires=AUTHED, tables=(SONG_LIBRARY,))
def spotify_show_song_library(world: World, query: str | None = "", page_index: int | None = 0,
                              page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the songs saved in your library.

    Args:
        query: words matched against title, artists, album and genre, best matches first; empty lists all.
        page_index: the page to return, from 0.
        page_limit: songs per page, 1 to 20.
        sort_by: +/- added_at or title; default -added_at (most recently added first) without a query.

    Returns:
        list[{song_id, title, album_id, album_title, duration, artists, play_count, added_at}]
    """
    names = Names(world)
    return _page(_song_rows(world, SONG_LIBRARY, "added_at", names), query, lambda r: core.song_text(r, names),
                 page_index, page_limit, sort_by, ("added_at", "title"), "-added_at")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SONG_LIBRARY,))
def spotify_add_song_to_library(world: World, song_id: int) -> dict[str, str]:
    """Saves a song to your library.

    Args:
        song_id: the song's id.

    Returns:
        {message}
    """
    core.get_song(world, song_id)
    return _add(world, SONG_LIBRARY, "song_id", song_id, "Song added to your library.",
                f"Song {song_id} is already in your library.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SONG_LIBRARY,))
def spotify_remove_song_from_library(world: World, song_id: int) -> dict[str, str]:
    """Removes a song from your library.

    Args:
        song_id: the song's id.

    Returns:
        {message}
    """
    return _remove(world, SONG_LIBRARY, "song_id", song_id, "Song removed from your library.",
                   f"Song {song_id} is not in your library.")


# ---------------------------------------------------------------------------------------------- album library
@tool(domain=APP, requires=AUTHED, tables=(ALBUM_LIBRARY,))
def spotify_show_album_library(world: World, query: str | None = "", page_index: int | None = 0,
                               page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the albums saved in your library.

    Args:
        query: words matched against title, artists and genre, best matches first; empty lists all.
        page_index: the page to return, from 0.
        page_limit: albums per page, 1 to 20.
        sort_by: +/- added_at or title; default -added_at without a query.

    Returns:
        list[{album_id, title, genre, artists, rating, like_count, review_count, release_date, song_ids,
        shareable_link, added_at}]
    """
    names = Names(world)
    return _page(_album_rows(world, ALBUM_LIBRARY, "added_at", names), query, lambda r: core.album_text(r, names),
                 page_index, page_limit, sort_by, ("added_at", "title"), "-added_at")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ALBUM_LIBRARY,))
def spotify_add_album_to_library(world: World, album_id: int) -> dict[str, str]:
    """Saves an album to your library.

    Args:
        album_id: the album's id.

    Returns:
        {message}
    """
    core.get_album(world, album_id)
    return _add(world, ALBUM_LIBRARY, "album_id", album_id, "Album added to your library.",
                f"Album {album_id} is already in your library.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ALBUM_LIBRARY,))
def spotify_remove_album_from_library(world: World, album_id: int) -> dict[str, str]:
    """Removes an album from your library.

    Args:
        album_id: the album's id.

    Returns:
        {message}
    """
    return _remove(world, ALBUM_LIBRARY, "album_id", album_id, "Album removed from your library.",
                   f"Album {album_id} is not in your library.")


# ---------------------------------------------------------------------------------------------- downloads
@tool(domain=APP, requires=AUTHED, tables=(DOWNLOADS,))
def spotify_show_downloaded_songs(world: World, query: str | None = "", min_downloaded_at: str | None = "1500-01-01",
                                  max_downloaded_at: str | None = "3000-01-01", page_index: int | None = 0,
                                  page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches your downloaded songs.

    Args:
        query: words matched against title, artists, album and genre, best matches first; empty lists all.
        min_downloaded_at: earliest download date, YYYY-MM-DD.
        max_downloaded_at: latest download date, YYYY-MM-DD.
        page_index: the page to return, from 0.
        page_limit: songs per page, 1 to 20.
        sort_by: +/- created_at or downloaded_at (both the download time); default -downloaded_at.

    Returns:
        list[{song_id, title, album_id, album_title, duration, artists, play_count, downloaded_at}]
    """
    low = core.day(min_downloaded_at, "min_downloaded_at", "1500-01-01")
    high = core.day(max_downloaded_at, "max_downloaded_at", "3000-01-01")
    names = Names(world)
    pairs = [(row, {**view, "created_at": view["downloaded_at"]})
             for row, view in _song_rows(world, DOWNLOADS, "downloaded_at", names)
             if core.in_days(view["downloaded_at"], low, high)]
    page = _page(pairs, query, lambda r: core.song_text(r, names), page_index, page_limit, sort_by,
                 ("created_at", "downloaded_at"), "-downloaded_at")
    return [{k: v for k, v in view.items() if k != "created_at"} for view in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DOWNLOADS,))
def spotify_download_song(world: World, song_id: int) -> dict[str, str]:
    """Downloads a song for offline listening.

    Args:
        song_id: the song's id.

    Returns:
        {message}
    """
    core.get_song(world, song_id)
    return _add(world, DOWNLOADS, "song_id", song_id, "Song downloaded.", f"Song {song_id} is already downloaded.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(DOWNLOADS,))
def spotify_remove_downloaded_song(world: World, song_id: int) -> dict[str, str]:
    """Removes a song from your downloads.

    Args:
        song_id: the song's id.

    Returns:
        {message}
    """
    return _remove(world, DOWNLOADS, "song_id", song_id, "Downloaded song removed.",
                   f"Song {song_id} is not among your downloads.")


# ---------------------------------------------------------------------------------------------- artists
@tool(domain=APP, requires=AUTHED, tables=(FOLLOWS,))
def spotify_show_following_artists(world: World, query: str | None = "", page_index: int | None = 0,
                                   page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the artists you follow.

    Args:
        query: words matched against artist name and genre, best matches first; empty lists all.
        page_index: the page to return, from 0.
        page_limit: artists per page, 1 to 20.
        sort_by: +/- followed_at or name; default -followed_at without a query.

    Returns:
        list[{artist_id, name, genre, follower_count, created_at, shareable_link, followed_at}]
    """
    pairs = []
    for rel in _mine(world, FOLLOWS):
        artist = world.get(ARTISTS, rel["artist_id"])
        if artist is not None:
            artist = core.with_followers(world, [artist])[0]
            pairs.append((artist, {**core.artist_view(artist), "followed_at": rel.get("created_at")}))
    return _page(pairs, query, lambda r: (r["name"], r.get("genre")), page_index, page_limit, sort_by,
                 ("followed_at", "name"), "-followed_at")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FOLLOWS,))
def spotify_follow_artist(world: World, artist_id: int) -> dict[str, str]:
    """Follows an artist (raises their follower count).

    Args:
        artist_id: the artist's id.

    Returns:
        {message}
    """
    core.get_artist(world, artist_id)
    return _add(world, FOLLOWS, "artist_id", artist_id, "Artist followed.",
                f"You already follow artist {artist_id}.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FOLLOWS,))
def spotify_unfollow_artist(world: World, artist_id: int) -> dict[str, str]:
    """Unfollows an artist.

    Args:
        artist_id: the artist's id.

    Returns:
        {message}
    """
    core.get_artist(world, artist_id)
    return _remove(world, FOLLOWS, "artist_id", artist_id, "Artist unfollowed.",
                   f"You do not follow artist {artist_id}.")
