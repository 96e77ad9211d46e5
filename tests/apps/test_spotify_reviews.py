"""Reviews of songs, albums and playlists: one per user and item, counters and averages kept consistent."""

from __future__ import annotations

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

from mmtsb.world import device

OTHER_ID = 20
KINDS = [("song", "spotify.songs", "song_id"), ("album", "spotify.albums", "album_id")]


def _unreviewed(world, table, col):
    taken = {r[col] for r in world.select(f"spotify.{col[:-3]}_reviews", "user_id = ?", (MAIN_ID,))}
    return next(r["id"] for r in world.rows(table) if r["id"] not in taken)


@pytest.mark.parametrize("kind, table, col", KINDS)
def test_review_lifecycle_keeps_count_and_average(session, world, kind, table, col):
    item_id = _unreviewed(world, table, col)
    before = world.get(table, item_id)
    n, avg = before["review_count"], before["rating"]
    out = call_ok(session, f"spotify_review_{kind}", **{col: item_id}, rating=5, title="Great",
                  text="Loved every minute")
    review_id = out[f"{kind}_review_id"]
    after = world.get(table, item_id)
    assert after["review_count"] == n + 1 and after["rating"] == pytest.approx((avg * n + 5) / (n + 1), abs=0.01)
    assert "already reviewed" in call_err(session, f"spotify_review_{kind}", **{col: item_id}, rating=4).message
    shown = call_ok(session, f"spotify_show_{kind}_review", review_id=review_id)
    assert shown[f"{kind}_review_id"] == review_id and shown["user"]["email"] == MAIN_EMAIL
    listed = call_ok(session, f"spotify_show_{kind}_reviews", **{col: item_id})
    assert listed[0][f"{kind}_review_id"] == review_id  # newest first
    assert call_ok(session, f"spotify_show_{kind}_reviews", **{col: item_id}, query="loved")[0]["title"] == "Great"
    mine = call_ok(session, f"spotify_show_{kind}_reviews", **{col: item_id}, user_email=MAIN_EMAIL)
    assert [r[f"{kind}_review_id"] for r in mine] == [review_id]
    assert call_ok(session, f"spotify_show_{kind}_reviews", **{col: item_id}, max_rating=4,
                   user_email=MAIN_EMAIL) == []
    call_ok(session, f"spotify_update_{kind}_review", review_id=review_id, rating=1)
    assert world.get(table, item_id)["review_count"] == n + 1
    assert world.get(table, item_id)["rating"] == pytest.approx((avg * n + 1) / (n + 1), abs=0.02)
    assert "Nothing to update" in call_err(session, f"spotify_update_{kind}_review", review_id=review_id).message
    assert "1 to 5" in call_err(session, f"spotify_update_{kind}_review", review_id=review_id, rating=6).message
    call_ok(session, f"spotify_delete_{kind}_review", review_id=review_id)
    final = world.get(table, item_id)
    assert final["review_count"] == n and final["rating"] == pytest.approx(avg, abs=0.03)
    assert "no review" in call_err(session, f"spotify_delete_{kind}_review", review_id=review_id).message
    assert "does not exist" in call_err(session, f"spotify_show_{kind}_review", review_id=review_id).message
    assert "1 to 5" in call_err(session, f"spotify_review_{kind}", **{col: item_id}, rating=0).message
    assert "does not exist" in call_err(session, f"spotify_review_{kind}", **{col: 9999}, rating=3).message
    assert "does not exist" in call_err(session, f"spotify_show_{kind}_reviews", **{col: 9999}).message
    assert "sort_by" in call_err(session, f"spotify_show_{kind}_reviews", **{col: item_id}, sort_by="-title").message


def test_seeded_reviews_are_listed_with_their_authors(session, world):
    review = world.rows("spotify.album_reviews")[0]
    listed = call_ok(session, "spotify_show_album_reviews", album_id=review["album_id"], page_limit=20)
    assert review["id"] in {r["album_review_id"] for r in listed}
    author = world.get("spotify.users", review["user_id"])
    assert any(r["user"]["email"] == author["email"] for r in listed)


def test_other_users_reviews_cannot_be_changed(session, world):
    review = next(r for r in world.rows("spotify.song_reviews") if r["user_id"] != MAIN_ID)
    assert "no review" in call_err(session, "spotify_update_song_review", review_id=review["id"], rating=1).message
    assert "no review" in call_err(session, "spotify_delete_song_review", review_id=review["id"]).message
    assert world.get("spotify.song_reviews", review["id"]) == review


def test_playlist_reviews_follow_playlist_visibility(session, world):
    device.login(world, "spotify", world.get("spotify.users", OTHER_ID)["email"])
    public = call_ok(session, "spotify_create_playlist", title="Open Mic", is_public=True)["playlist_id"]
    private = call_ok(session, "spotify_create_playlist", title="Diary")["playlist_id"]
    own_review = call_ok(session, "spotify_review_playlist", playlist_id=private, rating=4)["playlist_review_id"]
    device.login(world, "spotify", MAIN_EMAIL)
    review_id = call_ok(session, "spotify_review_playlist", playlist_id=public, rating=3, title="Nice",
                        text="Good picks")["playlist_review_id"]
    row = world.get("spotify.playlists", public)
    assert (row["review_count"], row["rating"]) == (1, 3.0)
    assert call_ok(session, "spotify_show_playlist_privates", playlist_id=public)["reviewed"] is True
    assert call_ok(session, "spotify_show_playlist_review", review_id=review_id)["text"] == "Good picks"
    assert call_ok(session, "spotify_show_playlist_reviews", playlist_id=public)[0]["rating"] == 3
    call_ok(session, "spotify_update_playlist_review", review_id=review_id, rating=5, text="Even better")
    assert world.get("spotify.playlists", public)["rating"] == 5.0
    assert "does not exist" in call_err(session, "spotify_review_playlist", playlist_id=private, rating=2).message
    assert "does not exist" in call_err(session, "spotify_show_playlist_reviews", playlist_id=private).message
    assert "does not exist" in call_err(session, "spotify_show_playlist_review", review_id=own_review).message
    assert "no review" in call_err(session, "spotify_update_playlist_review", review_id=own_review,
                                   rating=1).message
    call_ok(session, "spotify_delete_playlist_review", review_id=review_id)
    assert (world.get("spotify.playlists", public)["review_count"], world.get("spotify.playlists", public)["rating"]) \
        == (0, 0.0)
    assert "no review" in call_err(session, "spotify_delete_playlist_review", review_id=review_id).message
