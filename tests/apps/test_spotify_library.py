"""Per-user collections: likes with their counters, song/album libraries, downloads and followed artists."""

from __future__ import annotations

from testkit import MAIN_ID, call_err, call_ok

from mmtsb.world import device

OTHER_ID = 20


def _fresh_song(world, key="spotify.song_likes"):
    taken = {r["song_id"] for r in world.select(key, "user_id = ?", (MAIN_ID,))}
    return next(s["id"] for s in world.rows("spotify.songs") if s["id"] not in taken)


def test_like_and_unlike_song_move_the_counter(session, world):
    song_id = _fresh_song(world)
    before = world.get("spotify.songs", song_id)["like_count"]
    call_ok(session, "spotify_like_song", song_id=song_id)
    assert world.get("spotify.songs", song_id)["like_count"] == before + 1
    assert call_ok(session, "spotify_show_song_privates", song_id=song_id)["liked"] is True
    assert "already liked" in call_err(session, "spotify_like_song", song_id=song_id).message
    liked = call_ok(session, "spotify_show_liked_songs", page_limit=20)
    assert liked[0]["song_id"] == song_id and liked[0]["liked_at"] == "2026-04-16T23:51:15"
    by_title = call_ok(session, "spotify_show_liked_songs", sort_by="+title", page_limit=20)
    assert [s["title"] for s in by_title] == sorted(s["title"] for s in by_title)
    call_ok(session, "spotify_unlike_song", song_id=song_id)
    assert world.get("spotify.songs", song_id)["like_count"] == before
    assert "have not liked" in call_err(session, "spotify_unlike_song", song_id=song_id).message
    assert "does not exist" in call_err(session, "spotify_like_song", song_id=5555).message
    assert "sort_by" in call_err(session, "spotify_show_liked_songs", sort_by="-rating").message


def test_like_and_unlike_album(session, world):
    taken = {r["album_id"] for r in world.select("spotify.album_likes", "user_id = ?", (MAIN_ID,))}
    album_id = next(a["id"] for a in world.rows("spotify.albums") if a["id"] not in taken)
    before = world.get("spotify.albums", album_id)["like_count"]
    call_ok(session, "spotify_like_album", album_id=album_id)
    assert world.get("spotify.albums", album_id)["like_count"] == before + 1
    assert call_ok(session, "spotify_show_liked_albums")[0]["album_id"] == album_id
    assert "already liked" in call_err(session, "spotify_like_album", album_id=album_id).message
    call_ok(session, "spotify_unlike_album", album_id=album_id)
    assert world.get("spotify.albums", album_id)["like_count"] == before
    assert "have not liked" in call_err(session, "spotify_unlike_album", album_id=album_id).message
    assert "page_limit" in call_err(session, "spotify_show_liked_albums", page_limit=99).message


def test_like_playlists_respects_visibility(session, world):
    public = world.insert("spotify.playlists", {"title": "Their Public", "user_id": OTHER_ID, "is_public": True,
                                                "created_at": "2025-01-01T00:00:00", "rating": 0.0, "like_count": 4,
                                                "review_count": 0})
    private = world.insert("spotify.playlists", {"title": "Their Secret", "user_id": OTHER_ID, "is_public": False,
                                                 "created_at": "2025-01-01T00:00:00", "rating": 0.0,
                                                 "like_count": 0, "review_count": 0})
    call_ok(session, "spotify_like_playlist", playlist_id=public)
    assert world.get("spotify.playlists", public)["like_count"] == 5
    assert call_ok(session, "spotify_show_liked_playlists")[0]["playlist_id"] == public
    assert "does not exist" in call_err(session, "spotify_like_playlist", playlist_id=private).message
    assert "already liked" in call_err(session, "spotify_like_playlist", playlist_id=public).message
    world.update("spotify.playlists", public, {"is_public": False})  # hidden by its owner
    assert public not in {p["playlist_id"] for p in call_ok(session, "spotify_show_liked_playlists", page_limit=20)}
    call_ok(session, "spotify_unlike_playlist", playlist_id=public)
    assert world.get("spotify.playlists", public)["like_count"] == 4
    assert "have not liked" in call_err(session, "spotify_unlike_playlist", playlist_id=public).message
    assert "does not exist" in call_err(session, "spotify_unlike_playlist", playlist_id=98765).message
    assert "sort_by" in call_err(session, "spotify_show_liked_playlists", sort_by="like_count").message


def test_song_library(session, world):
    song_id = _fresh_song(world, "spotify.user_library_songs")
    call_ok(session, "spotify_add_song_to_library", song_id=song_id)
    assert "already in your library" in call_err(session, "spotify_add_song_to_library", song_id=song_id).message
    assert call_ok(session, "spotify_show_song_library")[0]["song_id"] == song_id
    title = world.get("spotify.songs", song_id)["title"]
    assert call_ok(session, "spotify_show_song_library", query=title)[0]["song_id"] == song_id
    assert call_ok(session, "spotify_show_song_privates", song_id=song_id)["in_song_library"] is True
    call_ok(session, "spotify_remove_song_from_library", song_id=song_id)
    assert "not in your library" in call_err(session, "spotify_remove_song_from_library", song_id=song_id).message
    assert "does not exist" in call_err(session, "spotify_add_song_to_library", song_id=4444).message
    assert "sort_by" in call_err(session, "spotify_show_song_library", sort_by="-liked_at").message


def test_album_library(session, world):
    taken = {r["album_id"] for r in world.select("spotify.user_library_albums", "user_id = ?", (MAIN_ID,))}
    album_id = next(a["id"] for a in world.rows("spotify.albums") if a["id"] not in taken)
    call_ok(session, "spotify_add_album_to_library", album_id=album_id)
    (row,) = world.select("spotify.user_library_albums", "user_id = ? AND album_id = ?", (MAIN_ID, album_id))
    assert row["id"] >= 800 and row["created_at"] == "2026-04-16T23:51:15"
    assert "already in your library" in call_err(session, "spotify_add_album_to_library", album_id=album_id).message
    shown = call_ok(session, "spotify_show_album_library", page_limit=20)
    assert shown[0]["album_id"] == album_id and shown[0]["added_at"] == "2026-04-16T23:51:15"
    assert len(shown) == len(taken) + 1
    call_ok(session, "spotify_remove_album_from_library", album_id=album_id)
    assert "not in your library" in call_err(session, "spotify_remove_album_from_library", album_id=album_id).message
    assert "does not exist" in call_err(session, "spotify_add_album_to_library", album_id=4444).message
    assert "page_index" in call_err(session, "spotify_show_album_library", page_index=-2).message


def test_downloads(session, world):
    song_id = _fresh_song(world, "spotify.downloaded_songs")
    call_ok(session, "spotify_download_song", song_id=song_id)
    assert "already downloaded" in call_err(session, "spotify_download_song", song_id=song_id).message
    listed = call_ok(session, "spotify_show_downloaded_songs", page_limit=20)
    assert listed[0]["song_id"] == song_id and "created_at" not in listed[0]
    assert call_ok(session, "spotify_show_downloaded_songs", min_downloaded_at="2026-04-16")[0]["song_id"] == song_id
    assert call_ok(session, "spotify_show_downloaded_songs", min_downloaded_at="2026-04-17") == []
    oldest = call_ok(session, "spotify_show_downloaded_songs", sort_by="+created_at")
    assert oldest[-1]["song_id"] == song_id
    assert call_ok(session, "spotify_show_song_privates", song_id=song_id)["downloaded"] is True
    call_ok(session, "spotify_remove_downloaded_song", song_id=song_id)
    assert "not among your downloads" in call_err(session, "spotify_remove_downloaded_song", song_id=song_id).message
    assert "min_downloaded_at" in call_err(session, "spotify_show_downloaded_songs", min_downloaded_at="x").message


def test_follow_artists(session, world):
    taken = {r["artist_id"] for r in world.select("spotify.artist_followers", "user_id = ?", (MAIN_ID,))}
    artist_id = next(a["id"] for a in world.rows("spotify.artists") if a["id"] not in taken)
    row = world.get("spotify.artists", artist_id)
    before = call_ok(session, "spotify_show_artist", artist_id=artist_id)["follower_count"]
    call_ok(session, "spotify_follow_artist", artist_id=artist_id)
    # the count rises by the new follower row, and the artist's row is not written (AppWorld counts the rows)
    assert call_ok(session, "spotify_show_artist", artist_id=artist_id)["follower_count"] == before + 1
    assert world.get("spotify.artists", artist_id) == row
    assert "already follow" in call_err(session, "spotify_follow_artist", artist_id=artist_id).message
    following = call_ok(session, "spotify_show_following_artists", page_limit=20)
    assert following[0]["artist_id"] == artist_id and len(following) == len(taken) + 1
    name = world.get("spotify.artists", artist_id)["name"]
    assert call_ok(session, "spotify_show_following_artists", query=name)[0]["artist_id"] == artist_id
    call_ok(session, "spotify_unfollow_artist", artist_id=artist_id)
    assert call_ok(session, "spotify_show_artist", artist_id=artist_id)["follower_count"] == before
    assert "do not follow" in call_err(session, "spotify_unfollow_artist", artist_id=artist_id).message
    assert "does not exist" in call_err(session, "spotify_follow_artist", artist_id=999).message
    assert "sort_by" in call_err(session, "spotify_show_following_artists", sort_by="-genre").message


def test_private_collections_belong_to_their_owner(session, world):
    mine = {r["song_id"] for r in world.select("spotify.song_likes", "user_id = ?", (MAIN_ID,))}
    device.login(world, "spotify", world.get("spotify.users", OTHER_ID)["email"])
    assert call_ok(session, "spotify_show_liked_songs") == []
    assert call_ok(session, "spotify_show_song_library") == []
    song_id = next(iter(mine))
    assert call_ok(session, "spotify_show_song_privates", song_id=song_id)["liked"] is False
