"""The music player: queue in music_players.queue_song_ids, play/pause/next/previous (cyclic), loop,
shuffle, seek, volume, and play counts."""

from __future__ import annotations

from testkit import MAIN_ID, call_err, call_ok

PLAYERS = "spotify.music_players"


def _player(world):
    (row,) = world.select(PLAYERS, "user_id = ?", (MAIN_ID,))
    return row


def test_reads_never_create_a_player(session, world):
    assert call_ok(session, "spotify_show_song_queue") == []
    assert call_ok(session, "spotify_show_volume") == {"volume": 5}
    assert "queue is empty" in call_err(session, "spotify_show_current_song").message
    assert world.count(PLAYERS) == 0
    assert "queue is empty" in call_err(session, "spotify_play_music").message
    assert "queue is empty" in call_err(session, "spotify_pause_music").message
    assert "queue is empty" in call_err(session, "spotify_next_song").message
    assert "queue is empty" in call_err(session, "spotify_previous_song").message
    assert "queue is empty" in call_err(session, "spotify_seek_song", seek_seconds=3).message
    assert "queue is empty" in call_err(session, "spotify_loop_song", loop=True).message
    assert "queue is empty" in call_err(session, "spotify_shuffle_song_queue").message
    assert world.count(PLAYERS) == 0


def test_queue_and_playback(session, world):
    call_ok(session, "spotify_add_to_queue", song_id=7)
    call_ok(session, "spotify_add_to_queue", album_id=2)  # songs 4, 5, 6
    player = _player(world)
    assert player["id"] == 300 and player["queue_song_ids"] == [7, 4, 5, 6]
    assert player["cursor_position"] == 0 and player["is_playing"] is False
    plays = world.get("spotify.songs", 7)["play_count"]
    assert call_ok(session, "spotify_play_music") == {"message": "Music is playing.", "song_id": 7}
    assert world.get("spotify.songs", 7)["play_count"] == plays  # resuming is not a new play
    assert "already playing" in call_err(session, "spotify_play_music").message
    current = call_ok(session, "spotify_show_current_song")
    assert current["song_id"] == 7 and current["is_playing"] is True and current["queue_position"] == 0
    plays_4 = world.get("spotify.songs", 4)["play_count"]
    assert call_ok(session, "spotify_next_song")["song_id"] == 4
    assert world.get("spotify.songs", 4)["play_count"] == plays_4  # play counts are the catalogue's (AppWorld)
    assert call_ok(session, "spotify_previous_song")["song_id"] == 7
    assert call_ok(session, "spotify_previous_song")["song_id"] == 6  # cyclic
    assert call_ok(session, "spotify_next_song")["song_id"] == 7
    queue = call_ok(session, "spotify_show_song_queue")
    assert [q["song_id"] for q in queue] == [7, 4, 5, 6] and [q["position"] for q in queue] == [0, 1, 2, 3]
    assert queue[0]["is_current"] and queue[0]["is_playing"] and not queue[1]["is_current"]
    call_ok(session, "spotify_pause_music")
    assert "already paused" in call_err(session, "spotify_pause_music").message
    assert _player(world)["is_playing"] is False
    before = world.get("spotify.songs", 5)["play_count"]
    assert call_ok(session, "spotify_play_music", queue_position=2)["song_id"] == 5
    assert world.get("spotify.songs", 5)["play_count"] == before
    assert "queue_position" in call_err(session, "spotify_play_music", queue_position=9).message
    assert "at most one" in call_err(session, "spotify_play_music", song_id=1, album_id=1).message


def test_play_song_album_and_playlist(session, world):
    before = world.get("spotify.songs", 10)["play_count"]
    assert call_ok(session, "spotify_play_music", song_id=10)["song_id"] == 10
    assert world.get("spotify.songs", 10)["play_count"] == before
    assert call_ok(session, "spotify_play_music", album_id=1)["song_id"] == 1
    assert _player(world)["queue_song_ids"] == [10, 1, 2, 3] and _player(world)["cursor_position"] == 1
    pid = call_ok(session, "spotify_create_playlist", title="Two")["playlist_id"]
    assert "has no songs" in call_err(session, "spotify_play_music", playlist_id=pid).message
    call_ok(session, "spotify_add_song_to_playlist", playlist_id=pid, song_id=20)
    call_ok(session, "spotify_add_song_to_playlist", playlist_id=pid, song_id=21)
    assert call_ok(session, "spotify_play_music", playlist_id=pid)["song_id"] == 20
    call_ok(session, "spotify_add_to_queue", playlist_id=pid)
    assert _player(world)["queue_song_ids"][-2:] == [20, 21]
    assert "does not exist" in call_err(session, "spotify_play_music", song_id=9999).message
    assert "exactly one" in call_err(session, "spotify_add_to_queue").message
    assert "exactly one" in call_err(session, "spotify_add_to_queue", song_id=1, playlist_id=pid).message
    assert "does not exist" in call_err(session, "spotify_add_to_queue", album_id=9999).message


def test_seek_loop_volume(session, world):
    call_ok(session, "spotify_play_music", song_id=3)
    duration = world.get("spotify.songs", 3)["duration"]
    call_ok(session, "spotify_seek_song", seek_seconds=42)
    assert call_ok(session, "spotify_show_current_song")["played_seconds"] == 42
    assert "between 0 and" in call_err(session, "spotify_seek_song", seek_seconds=duration + 1).message
    call_ok(session, "spotify_loop_song", loop=True)
    assert _player(world)["is_looping"] is True
    call_ok(session, "spotify_loop_song", loop=False)
    assert call_ok(session, "spotify_show_current_song")["is_looping"] is False
    call_ok(session, "spotify_set_volume", volume=9)
    assert call_ok(session, "spotify_show_volume") == {"volume": 9} and _player(world)["volume"] == 9
    assert "between 0 and 10" in call_err(session, "spotify_set_volume", volume=11).message
    assert "between 0 and 10" in call_err(session, "spotify_set_volume", volume=-1).message


def test_move_remove_shuffle_clear(session, world):
    for song_id in (1, 2, 3, 4, 5):
        call_ok(session, "spotify_add_to_queue", song_id=song_id)
    call_ok(session, "spotify_play_music", queue_position=1)  # song 2 is current
    call_ok(session, "spotify_move_song_in_queue", current_position=4, new_position=0)
    player = _player(world)
    assert player["queue_song_ids"] == [5, 1, 2, 3, 4] and player["cursor_position"] == 2
    call_ok(session, "spotify_move_song_in_queue", current_position=2, new_position=4)  # move the current song
    assert _player(world)["queue_song_ids"] == [5, 1, 3, 4, 2] and _player(world)["cursor_position"] == 4
    assert "new_position" in call_err(session, "spotify_move_song_in_queue", current_position=0,
                                      new_position=5).message
    call_ok(session, "spotify_remove_song_from_queue", position=0)
    assert _player(world)["queue_song_ids"] == [1, 3, 4, 2] and _player(world)["cursor_position"] == 3
    call_ok(session, "spotify_remove_song_from_queue", position=3)  # the current song: the next one (cyclic)
    assert _player(world)["queue_song_ids"] == [1, 3, 4] and _player(world)["cursor_position"] == 0
    assert "position" in call_err(session, "spotify_remove_song_from_queue", position=3).message
    call_ok(session, "spotify_add_to_queue", album_id=10)
    current = call_ok(session, "spotify_show_current_song")["song_id"]
    before = sorted(_player(world)["queue_song_ids"])
    call_ok(session, "spotify_shuffle_song_queue")
    player = _player(world)
    assert sorted(player["queue_song_ids"]) == before and player["queue_song_ids"][0] == current
    assert player["cursor_position"] == 0
    call_ok(session, "spotify_clear_song_queue")
    player = _player(world)
    assert player["queue_song_ids"] == [] and player["cursor_position"] is None and player["is_playing"] is False
    assert "queue is empty" in call_err(session, "spotify_remove_song_from_queue", position=0).message
    assert "queue is empty" in call_err(session, "spotify_move_song_in_queue", current_position=0,
                                        new_position=0).message


def test_clear_queue_and_player_need_login(session, world):
    call_ok(session, "spotify_clear_song_queue")
    assert _player(world)["queue_song_ids"] == []
    call_ok(session, "spotify_logout")
    for name, args in (("spotify_clear_song_queue", {}), ("spotify_show_song_queue", {}),
                       ("spotify_show_volume", {}), ("spotify_set_volume", {"volume": 3})):
        assert "Not authenticated" in call_err(session, name, **args).message


def test_a_scenario_player_row_with_an_unset_cursor(session, world):
    world.insert(PLAYERS, {"id": 300, "user_id": MAIN_ID, "queue_song_ids": [8, 9], "is_playing": False,
                           "is_looping": False, "cursor_position": None, "played_seconds": 0, "volume": 4})
    assert call_ok(session, "spotify_show_current_song")["song_id"] == 8
    assert call_ok(session, "spotify_show_volume") == {"volume": 4}
    call_ok(session, "spotify_add_to_queue", song_id=10)
    assert world.count(PLAYERS) == 1 and world.get(PLAYERS, 300)["queue_song_ids"] == [8, 9, 10]
