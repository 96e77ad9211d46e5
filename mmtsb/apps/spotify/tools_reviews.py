"""Reviews of songs, albums and playlists: one per user and item, rated 1 to 5.

Every write keeps the item's ``review_count`` and average ``rating`` consistent: the average is updated
incrementally from the item's own counters, so items whose counters describe a larger audience than the
seeded review rows stay plausible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from mmtsb.apps.common import api_error
from mmtsb.apps.spotify import core
from mmtsb.apps.spotify.core import (ALBUM_REVIEWS, ALBUMS, APP, AUTHED, ONLINE, PLAYLIST_REVIEWS, PLAYLISTS,
                                     SONG_REVIEWS, SONGS)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


@dataclass(frozen=True)
class Kind:
    """What is reviewed: its review table, item table and id column, and the id name in results."""

    reviews: str
    items: str
    item_col: str
    view_id: str
    lookup: Callable[[World, int], dict[str, Any]]


def _visible_playlist(world: World, playlist_id: int) -> dict[str, Any]:
    return core.visible_playlist(world, playlist_id, core.my_id(world))


SONG = Kind(SONG_REVIEWS, SONGS, "song_id", "song_review_id", core.get_song)
ALBUM = Kind(ALBUM_REVIEWS, ALBUMS, "album_id", "album_review_id", core.get_album)
PLAYLIST = Kind(PLAYLIST_REVIEWS, PLAYLISTS, "playlist_id", "playlist_review_id", _visible_playlist)


def _view(world: World, kind: Kind, review: dict[str, Any]) -> dict[str, Any]:
    return {kind.view_id: review["id"], kind.item_col: review[kind.item_col], "rating": review.get("rating"),
            "title": review.get("title") or "", "text": review.get("text") or "",
            "created_at": review.get("created_at"), "user": core.user_brief(world, review.get("user_id"))}


def _check_rating(rating: int | None, field: str = "rating") -> None:
    if rating is not None and not 1 <= rating <= 5:
        raise api_error(f"{field} must be an integer from 1 to 5; got {rating!r}.")


def _retally(world: World, kind: Kind, item_id: int, add: int | None = None, remove: int | None = None) -> None:
    """Move the item's review_count and average rating for one review added, removed or re-rated."""
    item = world.get(kind.items, item_id)
    if item is None:
        return
    count, avg = int(item.get("review_count") or 0), float(item.get("rating") or 0.0)
    total = avg * count
    if remove is not None and count > 0:
        total, count = total - remove, count - 1
    if add is not None:
        total, count = total + add, count + 1
    rating = round(min(5.0, max(0.0, total / count)), 2) if count > 0 else 0.0
    world.update(kind.items, item_id, {"review_count": count, "rating": rating})


def _own_review(world: World, kind: Kind, review_id: int) -> dict[str, Any]:
    review = world.get(kind.reviews, review_id)
    if review is None or review.get("user_id") != core.my_id(world):
        raise api_error(f"You have no review with review_id={review_id} ({kind.view_id.replace('_id', '')}s of "
                        "other users cannot be changed).")
    return review


def _list(world: World, kind: Kind, item_id: int, query: str | None, user_email: str | None, min_rating: int | None,
          max_rating: int | None, page_index: int | None, page_limit: int | None,
          sort_by: str | None) -> list[dict[str, Any]]:
    kind.lookup(world, item_id)
    _check_rating(min_rating, "min_rating")
    _check_rating(max_rating, "max_rating")
    lo, hi = min_rating or 1, max_rating or 5
    core.check_min_max(lo, hi, "min_rating", "max_rating")
    author = core.user_by_email(world, user_email, "user_email")["id"] if user_email is not None else None
    rows = [r for r in world.select(kind.reviews, f"{kind.item_col} = ?", (item_id,))
            if lo <= (r.get("rating") or 0) <= hi and (author is None or r.get("user_id") == author)]
    page = core.ranked_page(rows, query, lambda r: (r.get("title"), r.get("text")), page_index, page_limit,
                            sort_by, ("rating", "created_at"), "-created_at")
    return [_view(world, kind, r) for r in page]


def _create(world: World, kind: Kind, item_id: int, rating: int, title: str | None, text: str | None) -> dict:
    kind.lookup(world, item_id)
    _check_rating(rating)
    uid = core.my_id(world)
    mine = world.select(kind.reviews, f"user_id = ? AND {kind.item_col} = ?", (uid, item_id))
    if mine:
        raise api_error(f"You have already reviewed {kind.item_col.replace('_id', '')} {item_id} (review_id="
                        f"{mine[0]['id']}); update or delete that review instead.")
    review_id = core.insert(world, kind.reviews, {kind.item_col: item_id, "user_id": uid, "rating": rating,
                                                  "title": title or "", "text": text or "",
                                                  "created_at": core.now(world)})
    _retally(world, kind, item_id, add=rating)
    return {"message": "Review posted.", kind.view_id: review_id}


def _update(world: World, kind: Kind, review_id: int, rating: int | None, title: str | None,
            text: str | None) -> dict[str, str]:
    review = _own_review(world, kind, review_id)
    _check_rating(rating)
    fields = {k: v for k, v in (("rating", rating), ("title", title), ("text", text)) if v is not None}
    if not fields:
        raise api_error("Nothing to update: give rating, title and/or text.")
    world.update(kind.reviews, review_id, fields)
    if rating is not None and rating != review.get("rating"):
        _retally(world, kind, review[kind.item_col], add=rating, remove=review.get("rating") or 0)
    return {"message": "Review updated."}


def _delete(world: World, kind: Kind, review_id: int) -> dict[str, str]:
    review = _own_review(world, kind, review_id)
    world.delete(kind.reviews, review_id)
    _retally(world, kind, review[kind.item_col], remove=review.get("rating") or 0)
    return {"message": "Review deleted."}


def _show(world: World, kind: Kind, review_id: int) -> dict[str, Any]:
    review = world.get(kind.reviews, review_id)
    if review is None:
        raise api_error(f"Review with review_id={review_id} does not exist.")
    kind.lookup(world, review[kind.item_col])  # a private playlist's reviews stay private
    return _view(world, kind, review)


# ---------------------------------------------------------------------------------------------- songs
@tool(domain=APP, requires=ONLINE, tables=(SONG_REVIEWS,))
def spotify_show_song_reviews(world: World, song_id: int, query: str | None = "", user_email: str | None = None,
                              min_rating: int | None = 1, max_rating: int | None = 5, page_index: int | None = 0,
                              page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the reviews of a song.

    Args:
        song_id: the song's id.
        query: words matched against review titles and texts, best matches first; empty lists all.
        user_email: keeps reviews written by the user with this email.
        min_rating: lowest rating, 1 to 5.
        max_rating: highest rating, 1 to 5.
        page_index: the page to return, from 0.
        page_limit: reviews per page, 1 to 20.
        sort_by: +/- rating or created_at; default -created_at (newest first) without a query.

    Returns:
        list[{song_review_id, song_id, rating, title, text, created_at, user}]
    """
    return _list(world, SONG, song_id, query, user_email, min_rating, max_rating, page_index, page_limit, sort_by)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SONG_REVIEWS,))
def spotify_review_song(world: World, song_id: int, rating: int, title: str | None = "",
                        text: str | None = "") -> dict[str, Any]:
    """Rates and reviews a song (one review per song; it updates the song's rating and review count).

    Args:
        song_id: the song's id.
        rating: 1 to 5 stars.
        title: the review title (may be empty).
        text: the review text (may be empty).

    Returns:
        {message, song_review_id}
    """
    return _create(world, SONG, song_id, rating, title, text)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SONG_REVIEWS,))
def spotify_update_song_review(world: World, review_id: int, rating: int | None = None, title: str | None = None,
                               text: str | None = None) -> dict[str, str]:
    """Edits one of your song reviews.

    Args:
        review_id: the song review's id.
        rating: the new rating, 1 to 5; unchanged when omitted.
        title: the new title; unchanged when omitted.
        text: the new text; unchanged when omitted.

    Returns:
        {message}
    """
    return _update(world, SONG, review_id, rating, title, text)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(SONG_REVIEWS,))
def spotify_delete_song_review(world: World, review_id: int) -> dict[str, str]:
    """Deletes one of your song reviews.

    Args:
        review_id: the song review's id.

    Returns:
        {message}
    """
    return _delete(world, SONG, review_id)


@tool(domain=APP, requires=ONLINE, tables=(SONG_REVIEWS,))
def spotify_show_song_review(world: World, review_id: int) -> dict[str, Any]:
    """Returns one song review.

    Args:
        review_id: the song review's id.

    Returns:
        {song_review_id, song_id, rating, title, text, created_at, user}
    """
    return _show(world, SONG, review_id)


# ---------------------------------------------------------------------------------------------- albums
@tool(domain=APP, requires=ONLINE, tables=(ALBUM_REVIEWS,))
def spotify_show_album_reviews(world: World, album_id: int, query: str | None = "", user_email: str | None = None,
                               min_rating: int | None = 1, max_rating: int | None = 5, page_index: int | None = 0,
                               page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the reviews of an album.

    Args:
        album_id: the album's id.
        query: words matched against review titles and texts, best matches first; empty lists all.
        user_email: keeps reviews written by the user with this email.
        min_rating: lowest rating, 1 to 5.
        max_rating: highest rating, 1 to 5.
        page_index: the page to return, from 0.
        page_limit: reviews per page, 1 to 20.
        sort_by: +/- rating or created_at; default -created_at without a query.

    Returns:
        list[{album_review_id, album_id, rating, title, text, created_at, user}]
    """
    return _list(world, ALBUM, album_id, query, user_email, min_rating, max_rating, page_index, page_limit, sort_by)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ALBUM_REVIEWS,))
def spotify_review_album(world: World, album_id: int, rating: int, title: str | None = "",
                         text: str | None = "") -> dict[str, Any]:
    """Rates and reviews an album (one review per album; it updates the album's rating and review count).

    Args:
        album_id: the album's id.
        rating: 1 to 5 stars.
        title: the review title (may be empty).
        text: the review text (may be empty).

    Returns:
        {message, album_review_id}
    """
    return _create(world, ALBUM, album_id, rating, title, text)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ALBUM_REVIEWS,))
def spotify_update_album_review(world: World, review_id: int, rating: int | None = None, title: str | None = None,
                                text: str | None = None) -> dict[str, str]:
    """Edits one of your album reviews.

    Args:
        review_id: the album review's id.
        rating: the new rating, 1 to 5; unchanged when omitted.
        title: the new title; unchanged when omitted.
        text: the new text; unchanged when omitted.

    Returns:
        {message}
    """
    return _update(world, ALBUM, review_id, rating, title, text)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ALBUM_REVIEWS,))
def spotify_delete_album_review(world: World, review_id: int) -> dict[str, str]:
    """Deletes one of your album reviews.

    Args:
        review_id: the album review's id.

    Returns:
        {message}
    """
    return _delete(world, ALBUM, review_id)


@tool(domain=APP, requires=ONLINE, tables=(ALBUM_REVIEWS,))
def spotify_show_album_review(world: World, review_id: int) -> dict[str, Any]:
    """Returns one album review.

    Args:
        review_id: the album review's id.

    Returns:
        {album_review_id, album_id, rating, title, text, created_at, user}
    """
    return _show(world, ALBUM, review_id)


# ---------------------------------------------------------------------------------------------- playlists
@tool(domain=APP, requires=AUTHED, tables=(PLAYLIST_REVIEWS,))
def spotify_show_playlist_reviews(world: World, playlist_id: int, query: str | None = "",
                                  user_email: str | None = None, min_rating: int | None = 1,
                                  max_rating: int | None = 5, page_index: int | None = 0, page_limit: int | None = 5,
                                  sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the reviews of a playlist you own or a public one.

    Args:
        playlist_id: the playlist's id.
        query: words matched against review titles and texts, best matches first; empty lists all.
        user_email: keeps reviews written by the user with this email.
        min_rating: lowest rating, 1 to 5.
        max_rating: highest rating, 1 to 5.
        page_index: the page to return, from 0.
        page_limit: reviews per page, 1 to 20.
        sort_by: +/- rating or created_at; default -created_at without a query.

    Returns:
        list[{playlist_review_id, playlist_id, rating, title, text, created_at, user}]
    """
    return _list(world, PLAYLIST, playlist_id, query, user_email, min_rating, max_rating, page_index, page_limit,
                 sort_by)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLIST_REVIEWS,))
def spotify_review_playlist(world: World, playlist_id: int, rating: int, title: str | None = "",
                            text: str | None = "") -> dict[str, Any]:
    """Rates and reviews a playlist you own or a public one (one review per playlist).

    Args:
        playlist_id: the playlist's id.
        rating: 1 to 5 stars.
        title: the review title (may be empty).
        text: the review text (may be empty).

    Returns:
        {message, playlist_review_id}
    """
    return _create(world, PLAYLIST, playlist_id, rating, title, text)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLIST_REVIEWS,))
def spotify_update_playlist_review(world: World, review_id: int, rating: int | None = None,
                                   title: str | None = None, text: str | None = None) -> dict[str, str]:
    """Edits one of your playlist reviews.

    Args:
        review_id: the playlist review's id.
        rating: the new rating, 1 to 5; unchanged when omitted.
        title: the new title; unchanged when omitted.
        text: the new text; unchanged when omitted.

    Returns:
        {message}
    """
    return _update(world, PLAYLIST, review_id, rating, title, text)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PLAYLIST_REVIEWS,))
def spotify_delete_playlist_review(world: World, review_id: int) -> dict[str, str]:
    """Deletes one of your playlist reviews.

    Args:
        review_id: the playlist review's id.

    Returns:
        {message}
    """
    return _delete(world, PLAYLIST, review_id)


@tool(domain=APP, requires=AUTHED, tables=(PLAYLIST_REVIEWS,))
def spotify_show_playlist_review(world: World, review_id: int) -> dict[str, Any]:
    """Returns one review of a playlist you own or a public one.

    Args:
        review_id: the playlist review's id.

    Returns:
        {playlist_review_id, playlist_id, rating, title, text, created_at, user}
    """
    return _show(world, PLAYLIST, review_id)
