"""Playlists: your own (public or private) and other users' public ones; songs in a playlist keep the
order they were added in."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.spotify import core
from mmtsb.apps.spotify.core import (APP, AUTHED, BIG_INT, PLAYLIST_LIKES, PLAYLIST_REVIEWS, PLAYLIST_SONGS,
                                     PLAYLISTS, Names)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _text(playlist: dict[str, Any]) -> tuple[str | None, ...]:
    return (playlist["title"],)


def _views(world: World, playlists: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [core.playlist_view(world, p) for p in playlists]


@tool(domain=APP, requires=AUTHED, tables=(PLAYLISTS,))
def spotify_show_playlist_library(world: World, query: str | None = "", is_public: bool | None = None,
                                  page_index: int | None = 0, page_limit: int | None = 5,
                                  sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the playlists you own.

    Args:
        query: words matched against playlist titles, best matches first; empty lists all.
        is_public: keeps only public (true) or only private (false) playlists.
        page_index: the page to return, from 0.
        page_limit: playlists per page, 1 to 20.
        sort_by: +/- created_at or title; default -created_at (newest first) without a query.

    Returns:
        list[{playlist_id, title, is_public, rating, like_count, review_count, owner, created_at, song_ids,
        shareable_link}]
    """
    mine = world.select(PLAYLISTS, "user_id = ?", (core.my_id(world),))
    if is_public is not None:
        mine = [p for p in mine if bool(p.get("is_public")) == is_public]
    page = core.ranked_page(mine, query, _text, page_index, page_limit, sort_by, ("created_at", "title"),
                            "-created_at")
    return _views(world, page)


@tool(domain=APP, requires=AUTHED, tables=(PLAYLISTS,))
def spotify_search_playlists(world: World, query: str | None = "", min_like_count: int | None = 0,
                             max_like_count: int | None = 9223372036854775807, min_rating: float | None = 0.0,
                             max_rating: float | None = 5.0, owner_email: str | None = None,
                             page_index: int | None = 0, page_limit: int | None = 5,
                             sort_by: str | None = None) -> list[dict[str, Any]]:
    """Searches public playlists plus your own private ones.

    Args:
        query: words matched against playlist titles, best matches first; empty lists all.
        min_like_count: fewest likes.
        max_like_count: most likes.
        min_rating: lowest average rating, 0 to 5.
        max_rating: highest average rating, 0 to 5.
        owner_email: keeps playlists owned by the user with this email.
        page_index: the page to return, from 0.
        page_limit: playlists per page, 1 to 20.
        sort_by: +/- like_count, rating or created_at; default -like_count without a query.

    Returns:
        list[{playlist_id, title, is_public, rating, like_count, review_count, owner, created_at, song_ids,
        shareable_link}]
    """
    core.check_non_negative(min_like_count, "min_like_count")
    core.check_range(min_rating, "min_rating", 0, 5)
    core.check_range(max_rating, "max_rating", 0, 5)
    l_lo, l_hi = min_like_count or 0, BIG_INT if max_like_count is None else max_like_count
    r_lo, r_hi = min_rating or 0.0, 5.0 if max_rating is None else max_rating
    core.check_min_max(l_lo, l_hi, "min_like_count", "max_like_count")
    core.check_min_max(r_lo, r_hi, "min_rating", "max_rating")
    owner_id = core.user_by_email(world, owner_email, "owner_email")["id"] if owner_email is not None else None
    uid = core.my_id(world)
    found = [p for p in world.select(PLAYLISTS)
             if (p.get("is_public") or p.get("user_id") == uid)
             and (owner_id is None or p.get("user_id") == owner_id)
             and l_lo <= (p.get("like_count") or 0) <= l_hi and r_lo <= (p.get("rating") or 0.0) <= r_hi]
    page = core.ranked_page(found, query, _text, page_index, page_limit, sort_by,
                            ("like_count", "rating", "created_at"), "-like_count")
    return _views(world, page)


def _check_unique_title(world: World, user_id: int, title: str, playlist_id: int | None = None) -> None:
    """A user's playlists have distinct titles (AppWorld's uniqueness of (title, user))."""
    if any(p["id"] != playlist_id for p in world.select(PLAYLISTS, "user_id = ? AND title = ?", (user_id, title))):
        raise api_error(f"You already have a playlist titled {title!r}; playlist titles must be unique.")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLISTS,))
def spotify_create_playlist(world: World, title: str, is_public: bool = False) -> dict[str, Any]:
    """Creates an empty playlist that you own (add songs with spotify_add_song_to_playlist).

    Args:
        title: the playlist title (at least 1 character).
        is_public: true makes it visible to every user; private (false) by default.

    Returns:
        {message, playlist_id}
    """
    core.check_text(title, "title")
    _check_unique_title(world, core.my_id(world), title)
    playlist_id = core.insert(world, PLAYLISTS, {"title": title, "user_id": core.my_id(world),
                                                 "created_at": core.now(world), "is_public": bool(is_public),
                                                 "rating": 0.0, "like_count": 0, "review_count": 0})
    return {"message": "Playlist created.", "playlist_id": playlist_id}


@tool(domain=APP, requires=AUTHED, tables=(PLAYLISTS, PLAYLIST_SONGS))
def spotify_show_playlist(world: World, playlist_id: int) -> dict[str, Any]:
    """Returns a playlist you own or a public one, with its songs in playlist order.

    Args:
        playlist_id: the playlist's id.

    Returns:
        {playlist_id, title, is_public, rating, like_count, review_count, owner, created_at, songs,
        shareable_link}
    """
    playlist = core.visible_playlist(world, playlist_id, core.my_id(world))
    return core.playlist_view(world, playlist, Names(world), with_songs=True)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLISTS,))
def spotify_update_playlist(world: World, playlist_id: int, title: str | None = None,
                            is_public: bool | None = None) -> dict[str, str]:
    """Renames one of your playlists or changes its visibility.

    Args:
        playlist_id: the playlist's id.
        title: the new title (at least 1 character); unchanged when omitted.
        is_public: true to make it public, false to make it private; unchanged when omitted.

    Returns:
        {message}
    """
    core.own_playlist(world, playlist_id, core.my_id(world))
    core.check_text(title, "title")
    fields = {k: v for k, v in (("title", title), ("is_public", is_public)) if v is not None}
    if title is not None:
        _check_unique_title(world, core.my_id(world), title, playlist_id)
    if not fields:
        raise api_error("Nothing to update: give title and/or is_public.")
    world.update(PLAYLISTS, playlist_id, fields)
    return {"message": "Playlist updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLISTS,))
def spotify_delete_playlist(world: World, playlist_id: int) -> dict[str, str]:
    """Deletes one of your playlists and its song list.

    Args:
        playlist_id: the playlist's id.

    Returns:
        {message}
    """
    core.own_playlist(world, playlist_id, core.my_id(world))
    for link in world.select(PLAYLIST_SONGS, "playlist_id = ?", (playlist_id,)):
        world.delete(PLAYLIST_SONGS, link["id"])
    world.delete(PLAYLISTS, playlist_id)
    return {"message": "Playlist deleted."}


@tool(domain=APP, requires=AUTHED, tables=(PLAYLIST_LIKES,))
def spotify_show_playlist_privates(world: World, playlist_id: int) -> dict[str, Any]:
    """Shows your private flags for a playlist: liked, reviewed, and whether it is in your playlist library
    (that is, yours).

    Args:
        playlist_id: the playlist's id.

    Returns:
        {liked, reviewed, in_playlist_library}
    """
    uid = core.my_id(world)
    playlist = core.visible_playlist(world, playlist_id, uid)
    reviewed = world.select(PLAYLIST_REVIEWS, "user_id = ? AND playlist_id = ?", (uid, playlist_id))
    return {"liked": core.relation(world, PLAYLIST_LIKES, "playlist_id", uid, playlist_id) is not None,
            "reviewed": bool(reviewed), "in_playlist_library": playlist.get("user_id") == uid}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLIST_SONGS,))
def spotify_add_song_to_playlist(world: World, playlist_id: int, song_id: int) -> dict[str, str]:
    """Appends a song to the end of one of your playlists.

    Args:
        playlist_id: the playlist's id (it must be yours).
        song_id: the song's id.

    Returns:
        {message}
    """
    core.own_playlist(world, playlist_id, core.my_id(world))
    core.get_song(world, song_id)
    if song_id in core.playlist_song_ids(world, playlist_id):
        raise api_error(f"Song {song_id} is already in playlist {playlist_id}.")
    core.insert(world, PLAYLIST_SONGS, {"playlist_id": playlist_id, "song_id": song_id,
                                        "added_at": core.now(world)})
    return {"message": "Song added to the playlist."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLIST_SONGS,))
def spotify_remove_song_from_playlist(world: World, playlist_id: int, song_id: int) -> dict[str, str]:
    """Removes a song from one of your playlists.

    Args:
        playlist_id: the playlist's id (it must be yours).
        song_id: the song's id.

    Returns:
        {message}
    """
    core.own_playlist(world, playlist_id, core.my_id(world))
    links = world.select(PLAYLIST_SONGS, "playlist_id = ? AND song_id = ?", (playlist_id, song_id))
    if not links:
        raise api_error(f"Song {song_id} is not in playlist {playlist_id}.")
    for link in links:
        world.delete(PLAYLIST_SONGS, link["id"])
    return {"message": "Song removed from the playlist."}
