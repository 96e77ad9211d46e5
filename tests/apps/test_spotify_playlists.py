"""Playlists: creation, songs in order, visibility per user, search and library listings."""

from __future__ import annotations

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

from mmtsb.world import device

OTHER_ID = 20


def _other(world):
    return world.get("spotify.users", OTHER_ID)


def test_create_fill_show_update_delete(session, world):
    out = call_ok(session, "spotify_create_playlist", title="Road Songs")
    pid = out["playlist_id"]
    row = world.get("spotify.playlists", pid)
    assert pid == 800 and row["user_id"] == MAIN_ID and row["is_public"] is False
    assert (row["rating"], row["like_count"], row["review_count"]) == (0.0, 0, 0)
    for song_id in (12, 3, 40):
        call_ok(session, "spotify_add_song_to_playlist", playlist_id=pid, song_id=song_id)
    assert "already in playlist" in call_err(session, "spotify_add_song_to_playlist", playlist_id=pid,
                                             song_id=3).message
    assert "does not exist" in call_err(session, "spotify_add_song_to_playlist", playlist_id=pid,
                                        song_id=7777).message
    shown = call_ok(session, "spotify_show_playlist", playlist_id=pid)
    assert [s["song_id"] for s in shown["songs"]] == [12, 3, 40]
    assert shown["owner"] == {"name": "Brenda Webster", "email": MAIN_EMAIL}
    call_ok(session, "spotify_remove_song_from_playlist", playlist_id=pid, song_id=3)
    assert "not in playlist" in call_err(session, "spotify_remove_song_from_playlist", playlist_id=pid,
                                         song_id=3).message
    call_ok(session, "spotify_update_playlist", playlist_id=pid, title="Road Trip", is_public=True)
    assert world.get("spotify.playlists", pid)["title"] == "Road Trip"
    assert "Nothing to update" in call_err(session, "spotify_update_playlist", playlist_id=pid).message
    assert "title" in call_err(session, "spotify_update_playlist", playlist_id=pid, title="").message
    assert "title" in call_err(session, "spotify_create_playlist", title="  ").message
    assert "titles must be unique" in call_err(session, "spotify_create_playlist", title="Road Trip").message
    call_ok(session, "spotify_delete_playlist", playlist_id=pid)
    assert world.get("spotify.playlists", pid) is None
    assert world.select("spotify.playlist_songs", "playlist_id = ?", (pid,)) == []
    assert "does not exist" in call_err(session, "spotify_delete_playlist", playlist_id=pid).message
    assert "does not exist" in call_err(session, "spotify_show_playlist", playlist_id=pid).message


def test_visibility_of_other_users_playlists(session, world):
    device.login(world, "spotify", _other(world)["email"])
    secret = call_ok(session, "spotify_create_playlist", title="Secret Mix")["playlist_id"]
    shared = call_ok(session, "spotify_create_playlist", title="Shared Mix", is_public=True)["playlist_id"]
    call_ok(session, "spotify_add_song_to_playlist", playlist_id=shared, song_id=1)
    device.login(world, "spotify", MAIN_EMAIL)
    assert "does not exist" in call_err(session, "spotify_show_playlist", playlist_id=secret).message
    assert "does not exist" in call_err(session, "spotify_show_playlist_privates", playlist_id=secret).message
    assert call_ok(session, "spotify_show_playlist", playlist_id=shared)["songs"][0]["song_id"] == 1
    assert "another user" in call_err(session, "spotify_add_song_to_playlist", playlist_id=shared,
                                      song_id=2).message
    assert "another user" in call_err(session, "spotify_update_playlist", playlist_id=shared, title="Mine").message
    assert "another user" in call_err(session, "spotify_remove_song_from_playlist", playlist_id=shared,
                                      song_id=1).message
    found = {p["playlist_id"] for p in call_ok(session, "spotify_search_playlists", query="mix", page_limit=20)}
    assert shared in found and secret not in found
    flags = call_ok(session, "spotify_show_playlist_privates", playlist_id=shared)
    assert flags == {"liked": False, "reviewed": False, "in_playlist_library": False}


def test_playlist_library_and_search(session, world):
    newest = call_ok(session, "spotify_create_playlist", title="Zumba Beats", is_public=True)["playlist_id"]
    library = call_ok(session, "spotify_show_playlist_library", page_limit=20)
    assert library[0]["playlist_id"] == newest and all(p["owner"]["email"] == MAIN_EMAIL for p in library)
    private = call_ok(session, "spotify_show_playlist_library", is_public=False, page_limit=20)
    assert private and all(not p["is_public"] for p in private)
    assert call_ok(session, "spotify_show_playlist_library", query="zumba")[0]["playlist_id"] == newest
    by_title = call_ok(session, "spotify_show_playlist_library", sort_by="+title", page_limit=20)
    assert [p["title"] for p in by_title] == sorted(p["title"] for p in by_title)
    assert "sort_by" in call_err(session, "spotify_show_playlist_library", sort_by="-like_count").message
    assert call_ok(session, "spotify_show_playlist_privates", playlist_id=newest)["in_playlist_library"] is True

    popular = call_ok(session, "spotify_search_playlists", page_limit=20)
    likes = [p["like_count"] for p in popular]
    assert likes == sorted(likes, reverse=True)
    public = world.select("spotify.playlists", "is_public = 1 AND user_id != ?", (MAIN_ID,))[0]
    owner = world.get("spotify.users", public["user_id"])
    owned = call_ok(session, "spotify_search_playlists", owner_email=owner["email"], page_limit=20)
    assert owned and all(p["owner"]["email"] == owner["email"] for p in owned)
    assert "No Spotify user" in call_err(session, "spotify_search_playlists", owner_email="ghost@nowhere.com").message
    assert "min_like_count" in call_err(session, "spotify_search_playlists", min_like_count=10,
                                        max_like_count=1).message
