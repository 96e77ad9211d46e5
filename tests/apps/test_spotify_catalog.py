"""The generated music catalogue and the browsing tools (search ranking, filters, details, private flags,
recommendations)."""

from __future__ import annotations

from testkit import MAIN_EMAIL, MAIN_ID, REFERENCE_TIME, call_err, call_ok

from mmtsb.apps.spotify.catalogue import MAX_CATALOGUE_ID, catalogue, user_history


# ---------------------------------------------------------------------------------------------- the seed
def test_catalogue_is_deterministic_consistent_and_below_scenario_ids(world):
    rows = catalogue().rows
    songs, albums, artists = rows["spotify.songs"], rows["spotify.albums"], rows["spotify.artists"]
    assert len(artists) == 30 and len(albums) == 60 and len(songs) == 192
    assert max(r["id"] for key in rows for r in rows[key]) <= MAX_CATALOGUE_ID
    artist_ids, album_ids = {a["id"] for a in artists}, {a["id"] for a in albums}
    assert all(set(s["artist_ids"]) <= artist_ids and (s["album_id"] is None or s["album_id"] in album_ids)
               for s in songs)
    assert len({s["title"] for s in songs}) == len(songs)
    assert all(120 <= s["duration"] <= 420 and 0 < s["rating"] <= 5 for s in songs)
    assert world.rows("spotify.songs")[0] == {**songs[0]}
    assert user_history(MAIN_ID, "Brenda") == user_history(MAIN_ID, "Brenda")
    mine = world.select("spotify.playlists", "user_id = ?", (MAIN_ID,))
    assert {"Brenda's Favorites", "Chill Evenings"} <= {p["title"] for p in mine}


def test_the_seed_writes_each_catalogue_table_with_one_statement(monkeypatch):
    """The seed's fast path: ``bulk_insert`` sends one ``executemany`` per catalogue table (never a statement
    per row) and the rows read back as generated. Its cost is measured by ``benchmarks/seed_cost.py``."""
    from mmtsb.apps.base_world import build_base_world
    from mmtsb.apps.spotify.seed import bulk_insert

    rows = catalogue().rows
    w = build_base_world(MAIN_EMAIL, MAIN_ID, REFERENCE_TIME)
    try:
        for key in rows:
            w.db.execute(f"DELETE FROM {w.table(key).qualified}")
        statements: list[tuple[str, str]] = []

        def recording(kind, send):
            def run(sql, *args):
                statements.append((kind, sql))
                return send(sql, *args)
            return run

        for kind in ("execute", "executemany"):
            monkeypatch.setattr(w.db, kind, recording(kind, getattr(w.db, kind)))
        for key, table_rows in rows.items():
            bulk_insert(w, key, table_rows)
        bulk_insert(w, "spotify.songs", [])  # nothing to write: no statement
        monkeypatch.undo()
        assert [(kind, sql.split(" (")[0]) for kind, sql in statements] == [
            ("executemany", f"INSERT INTO {w.table(key).qualified}") for key, table_rows in rows.items() if table_rows]
        assert all(w.rows(key) == sorted(table_rows, key=lambda r: r["id"]) for key, table_rows in rows.items())
    finally:
        w.close()


# ---------------------------------------------------------------------------------------------- songs
def test_search_songs_ranks_titles_first_and_filters(session, world):
    song = world.get("spotify.songs", 10)
    top = call_ok(session, "spotify_search_songs", query=song["title"])[0]
    assert top["song_id"] == 10 and top["album_title"] == world.get("spotify.albums", song["album_id"])["title"]
    assert top["artists"][0]["name"] == world.get("spotify.artists", song["artist_ids"][0])["name"]
    jazz = call_ok(session, "spotify_search_songs", genre="jazz", page_limit=20)
    assert jazz and all(s["genre"] == "Jazz" for s in jazz)
    by_artist = call_ok(session, "spotify_search_songs", artist_id=1, page_limit=20)
    assert by_artist and all(any(a["id"] == 1 for a in s["artists"]) for s in by_artist)
    assert all(s["album_id"] == 3 for s in call_ok(session, "spotify_search_songs", album_id=3))
    popular = call_ok(session, "spotify_search_songs", sort_by="-play_count", page_limit=20)
    assert [s["play_count"] for s in popular] == sorted((s["play_count"] for s in popular), reverse=True)
    assert popular[0]["play_count"] == max(s["play_count"] for s in world.rows("spotify.songs"))
    short = call_ok(session, "spotify_search_songs", max_duration=150, min_release_date="2020-01-01", page_limit=20)
    assert all(s["duration"] <= 150 and s["release_date"] >= "2020-01-01" for s in short)
    assert call_ok(session, "spotify_search_songs", query="zzzqqq") == []
    page2 = call_ok(session, "spotify_search_songs", page_index=1, page_limit=3)
    assert [s["song_id"] for s in page2] == [4, 5, 6]


def test_search_songs_failures(session):
    assert "sort_by" in call_err(session, "spotify_search_songs", sort_by="-title").message
    assert "min_release_date" in call_err(session, "spotify_search_songs", min_release_date="01/02/2020").message
    assert "min_rating" in call_err(session, "spotify_search_songs", min_rating=7).message
    assert "min_duration" in call_err(session, "spotify_search_songs", min_duration=300, max_duration=100).message
    assert "page_limit" in call_err(session, "spotify_search_songs", page_limit=21).message


def test_show_song_and_privates(session, world):
    song = call_ok(session, "spotify_show_song", song_id=1)
    assert song["song_id"] == 1 and song["shareable_link"].endswith("/song/1") and song["review_count"] > 0
    assert "does not exist" in call_err(session, "spotify_show_song", song_id=9999).message
    liked = world.select("spotify.song_likes", "user_id = ?", (MAIN_ID,))[0]["song_id"]
    flags = call_ok(session, "spotify_show_song_privates", song_id=liked)
    assert flags["liked"] is True and set(flags) == {"liked", "reviewed", "in_song_library", "downloaded"}
    assert "does not exist" in call_err(session, "spotify_show_song_privates", song_id=9999).message


def test_show_genres_and_the_network_requirement(session):
    genres = call_ok(session, "spotify_show_genres")
    assert "Pop" in genres and "Jazz" in genres and genres == sorted(genres, key=str.lower)
    call_ok(session, "set_wifi_status", on=False)
    call_ok(session, "set_cellular_service_status", on=False)
    err = call_err(session, "spotify_show_genres")
    assert err.type == "ConnectionError" and "Network" in err.message


# ---------------------------------------------------------------------------------------------- albums
def test_albums(session, world):
    album = world.get("spotify.albums", 5)
    found = call_ok(session, "spotify_search_albums", query=album["title"])
    assert found[0]["album_id"] == 5 and len(found[0]["song_ids"]) == 3
    rated = call_ok(session, "spotify_search_albums", min_rating=4.5, sort_by="-rating", page_limit=20)
    assert rated and all(a["rating"] >= 4.5 for a in rated)
    assert [a["rating"] for a in rated] == sorted((a["rating"] for a in rated), reverse=True)
    assert all(a["genre"] == "Rock" for a in call_ok(session, "spotify_search_albums", genre="Rock"))
    shown = call_ok(session, "spotify_show_album", album_id=5)
    assert [s["song_id"] for s in shown["songs"]] == [13, 14, 15] and shown["artists"][0]["name"]
    assert "does not exist" in call_err(session, "spotify_show_album", album_id=999).message
    assert "sort_by" in call_err(session, "spotify_search_albums", sort_by="+like_count").message
    assert "max_release_date" in call_err(session, "spotify_search_albums", max_release_date="2020-13-01").message
    saved = world.select("spotify.user_library_albums", "user_id = ?", (MAIN_ID,))[0]["album_id"]
    assert call_ok(session, "spotify_show_album_privates", album_id=saved)["in_album_library"] is True
    assert "does not exist" in call_err(session, "spotify_show_album_privates", album_id=999).message


# ---------------------------------------------------------------------------------------------- artists
def test_artists(session, world):
    found = call_ok(session, "spotify_search_artists", query="paper")
    assert {a["name"] for a in found} >= {"The Paper Comets", "Paper Moons"}
    assert call_ok(session, "spotify_search_artists", query="Paper Moons")[0]["name"] == "Paper Moons"
    big = call_ok(session, "spotify_search_artists", sort_by="-follower_count", page_limit=20)
    assert [a["follower_count"] for a in big] == sorted((a["follower_count"] for a in big), reverse=True)
    assert all(a["genre"] == "Latin" for a in call_ok(session, "spotify_search_artists", genre="latin"))
    assert "min_follower_count" in call_err(session, "spotify_search_artists", min_follower_count=-1).message
    assert call_ok(session, "spotify_show_artist", artist_id=1)["name"] == "Nora Vale"
    assert "does not exist" in call_err(session, "spotify_show_artist", artist_id=777).message
    followed = world.select("spotify.artist_followers", "user_id = ?", (MAIN_ID,))[0]["artist_id"]
    assert call_ok(session, "spotify_show_artist_following", artist_id=followed) == {"following": True}
    assert "does not exist" in call_err(session, "spotify_show_artist_following", artist_id=777).message


# ---------------------------------------------------------------------------------------------- recommendations
def test_recommendations_follow_taste_and_skip_known_songs(session, world):
    recs = call_ok(session, "spotify_show_recommendations", page_limit=10)
    assert len(recs) == 10 and set(recs[0]) == {"song_id", "title", "album_id", "album_title", "duration", "artists"}
    known = {r["song_id"] for key in ("spotify.song_likes", "spotify.user_library_songs", "spotify.downloaded_songs")
             for r in world.select(key, "user_id = ?", (MAIN_ID,))}
    assert not known & {r["song_id"] for r in recs}
    liked_genres = {world.get("spotify.songs", s)["genre"] for s in known}
    assert world.get("spotify.songs", recs[0]["song_id"])["genre"] in liked_genres
    assert "page_limit" in call_err(session, "spotify_show_recommendations", page_limit=0).message
    call_ok(session, "spotify_logout")
    assert "Not authenticated" in call_err(session, "spotify_show_recommendations").message
