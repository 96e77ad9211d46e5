"""The music player: one ``music_players`` row per user holding the queue (``queue_song_ids``), the cursor
(the current song's 0-based position), play/pause and loop state, the playback offset and the volume.

The queue is cyclic: the song after the last one is the first. Starting a song counts one play of it.
Reading tools never write; the player row is created by the first tool that changes it.
"""

from __future__ import annotations

from random import Random
from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.spotify import core
from mmtsb.apps.spotify.core import APP, AUTHED, PLAYERS, SONGS, USERS, Names
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

QUEUE = "spotify.music_players"
DEFAULT_VOLUME = 5


# ---------------------------------------------------------------------------------------------- state
def player(world: World) -> dict[str, Any]:
    """The user's player row, or an unsaved default one (no id) when they never used the player."""
    uid = core.my_id(world)
    rows = world.select(PLAYERS, "user_id = ?", (uid,))
    if rows:
        p = dict(rows[0])
    else:
        p = {"user_id": uid, "queue_song_ids": [], "is_playing": False, "is_looping": False,
             "cursor_position": None, "played_seconds": 0, "volume": DEFAULT_VOLUME}
    p["queue_song_ids"] = list(p.get("queue_song_ids") or [])
    cursor = p.get("cursor_position")
    if p["queue_song_ids"] and (cursor is None or not 0 <= cursor < len(p["queue_song_ids"])):
        p["cursor_position"] = 0  # a scenario row may leave the cursor unset or out of range
    return p


def save(world: World, p: dict[str, Any]) -> None:
    fields = {k: p.get(k) for k in ("queue_song_ids", "is_playing", "is_looping", "cursor_position",
                                    "played_seconds", "volume")}
    if p.get("id") is None:
        p["id"] = core.insert(world, PLAYERS, {"user_id": p["user_id"], **fields})
    else:
        world.update(PLAYERS, p["id"], fields)


def _current_id(p: dict[str, Any]) -> int:
    if not p["queue_song_ids"]:
        raise api_error("The song queue is empty: play or queue a song, album or playlist first.")
    return p["queue_song_ids"][p["cursor_position"]]


def _start(world: World, p: dict[str, Any], position: int) -> int:
    """Make ``position`` the current song and play it from the start (a song's play_count is the catalogue's
    figure, which playing does not change, as in AppWorld)."""
    p.update(cursor_position=position, played_seconds=0, is_playing=True)
    return p["queue_song_ids"][position]


def _songs_of(world: World, song_id: int | None, album_id: int | None, playlist_id: int | None,
              verb: str) -> tuple[list[int], str]:
    """Song ids (and a label) for exactly one of song/album/playlist."""
    given = [n for n, v in (("song_id", song_id), ("album_id", album_id), ("playlist_id", playlist_id))
             if v is not None]
    if len(given) != 1:
        raise api_error(f"Pass exactly one of song_id, album_id or playlist_id to {verb}.")
    if song_id is not None:
        core.get_song(world, song_id)
        return [song_id], "Song"
    if album_id is not None:
        core.get_album(world, album_id)
        ids, label = core.album_song_ids(world, album_id), "Album"
    else:
        core.visible_playlist(world, playlist_id, core.my_id(world))  # type: ignore[arg-type]
        ids, label = core.playlist_song_ids(world, playlist_id), "Playlist"  # type: ignore[arg-type]
    if not ids:
        raise api_error(f"{label} {album_id if album_id is not None else playlist_id} has no songs.")
    return ids, label


def _check_position(p: dict[str, Any], position: int, field: str) -> None:
    size = len(p["queue_song_ids"])
    if size == 0:
        raise api_error("The song queue is empty.")
    if not 0 <= position < size:
        raise api_error(f"{field} must be between 0 and {size - 1} (the queue has {size} songs); got {position}.")


def _entry(song: dict[str, Any] | None, song_id: int, names: Names) -> dict[str, Any]:
    if song is None:  # a queued id whose song no longer exists
        return {"song_id": song_id, "title": None, "album_id": None, "album_title": None, "duration": None,
                "artists": []}
    return core.song_brief(song, names)


# ---------------------------------------------------------------------------------------------- reading
@tool(domain=APP, requires=AUTHED, tables=(QUEUE,))
def spotify_show_current_song(world: World) -> dict[str, Any]:
    """Shows the song at the play head of the queue, with playback state.

    Returns:
        {song_id, title, album_id, album_title, duration, artists, played_seconds, is_playing, is_looping,
        queue_position}
    """
    p = player(world)
    song_id = _current_id(p)
    return {**_entry(world.get(SONGS, song_id), song_id, Names(world)), "played_seconds": p.get("played_seconds") or 0,
            "is_playing": bool(p.get("is_playing")), "is_looping": bool(p.get("is_looping")),
            "queue_position": p["cursor_position"]}


@tool(domain=APP, requires=AUTHED, tables=(QUEUE,))
def spotify_show_song_queue(world: World) -> list[dict[str, Any]]:
    """Lists the play queue in order; positions are 0-based and the queue is cyclic (after the last song
    comes the first). The current song has is_current true.

    Returns:
        list[{position, song_id, title, album_id, album_title, duration, artists, is_current, is_playing}]
    """
    p = player(world)
    names = Names(world)
    songs = {s["id"]: s for s in world.select(SONGS)} if p["queue_song_ids"] else {}
    out = []
    for pos, sid in enumerate(p["queue_song_ids"]):
        current = pos == p["cursor_position"]
        out.append({"position": pos, **_entry(songs.get(sid), sid, names), "is_current": current,
                    "is_playing": current and bool(p.get("is_playing"))})
    return out


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def spotify_show_volume(world: World) -> dict[str, int]:
    """Reports the player volume (0 to 10).

    Returns:
        {volume}
    """
    return {"volume": int(player(world).get("volume") or 0)}


# ---------------------------------------------------------------------------------------------- playback
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_play_music(world: World, song_id: int | None = None, album_id: int | None = None,
                       playlist_id: int | None = None, queue_position: int | None = None) -> dict[str, Any]:
    """Starts playback. Pass at most one argument: a song, album or playlist is appended to the queue and its
    first song starts playing; queue_position plays the queued song at that position; with no argument
    the current song resumes.

    Args:
        song_id: a song to queue and play.
        album_id: an album whose songs are queued (in album order) and played.
        playlist_id: a playlist (yours or public) whose songs are queued and played.
        queue_position: a 0-based position in the queue to play.

    Returns:
        {message, song_id}
    """
    if sum(v is not None for v in (song_id, album_id, playlist_id, queue_position)) > 1:
        raise api_error("Pass at most one of song_id, album_id, playlist_id or queue_position.")
    p = player(world)
    if queue_position is not None:
        _check_position(p, queue_position, "queue_position")
        played = _start(world, p, queue_position)
    elif song_id is None and album_id is None and playlist_id is None:
        played = _current_id(p)
        if p.get("is_playing"):
            raise api_error(f"Song {played} is already playing.")
        p["is_playing"] = True
    else:
        ids, _ = _songs_of(world, song_id, album_id, playlist_id, "play")
        first = len(p["queue_song_ids"])
        p["queue_song_ids"] = p["queue_song_ids"] + ids
        played = _start(world, p, first)
    save(world, p)
    return {"message": "Music is playing.", "song_id": played}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_pause_music(world: World) -> dict[str, str]:
    """Pauses playback (resume with spotify_play_music and no arguments).

    Returns:
        {message}
    """
    p = player(world)
    _current_id(p)
    if not p.get("is_playing"):
        raise api_error("Music is already paused.")
    p["is_playing"] = False
    save(world, p)
    return {"message": "Music paused."}


def _skip(world: World, step: int) -> dict[str, Any]:
    p = player(world)
    _current_id(p)
    position = (p["cursor_position"] + step) % len(p["queue_song_ids"])
    if p.get("is_playing"):
        song_id = _start(world, p, position)
    else:
        p.update(cursor_position=position, played_seconds=0)
        song_id = p["queue_song_ids"][position]
    save(world, p)
    return {"message": "Now at the {} song.".format("next" if step > 0 else "previous"), "song_id": song_id}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_previous_song(world: World) -> dict[str, Any]:
    """Skips back to the previous song in the queue (from the first song, to the last one).

    Returns:
        {message, song_id}
    """
    return _skip(world, -1)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_next_song(world: World) -> dict[str, Any]:
    """Skips to the next song in the queue (from the last song, to the first one).

    Returns:
        {message, song_id}
    """
    return _skip(world, +1)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_seek_song(world: World, seek_seconds: int) -> dict[str, str]:
    """Moves the play head of the current song to a time offset.

    Args:
        seek_seconds: seconds from the start of the song, 0 up to its duration.

    Returns:
        {message}
    """
    p = player(world)
    song = world.get(SONGS, _current_id(p))
    duration = int((song or {}).get("duration") or 0)
    if not 0 <= seek_seconds <= duration:
        raise api_error(f"seek_seconds must be between 0 and {duration} (the song's duration); got {seek_seconds}.")
    p["played_seconds"] = seek_seconds
    save(world, p)
    return {"message": f"Seeked to {seek_seconds} seconds."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_loop_song(world: World, loop: bool) -> dict[str, str]:
    """Turns looping of the current song on or off.

    Args:
        loop: true repeats the current song, false plays on through the queue.

    Returns:
        {message}
    """
    p = player(world)
    _current_id(p)
    p["is_looping"] = bool(loop)
    save(world, p)
    return {"message": f"Looping is {'on' if loop else 'off'}."}


# ---------------------------------------------------------------------------------------------- queue
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_add_to_queue(world: World, song_id: int | None = None, album_id: int | None = None,
                         playlist_id: int | None = None) -> dict[str, str]:
    """Adds a song, an album's songs or a playlist's songs to the end of the queue (pass exactly one).

    Args:
        song_id: a song to queue.
        album_id: an album whose songs are queued in album order.
        playlist_id: a playlist (yours or public) whose songs are queued in playlist order.

    Returns:
        {message}
    """
    ids, label = _songs_of(world, song_id, album_id, playlist_id, "add to the queue")
    p = player(world)
    p["queue_song_ids"] = p["queue_song_ids"] + ids
    if p.get("cursor_position") is None:
        p.update(cursor_position=0, played_seconds=0)
    save(world, p)
    return {"message": f"{label} added to the queue ({len(ids)} song{'s' if len(ids) != 1 else ''})."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_move_song_in_queue(world: World, current_position: int, new_position: int) -> dict[str, str]:
    """Moves a queued song to another position; the current song keeps playing.

    Args:
        current_position: the song's 0-based position now.
        new_position: the 0-based position to move it to.

    Returns:
        {message}
    """
    p = player(world)
    _check_position(p, current_position, "current_position")
    _check_position(p, new_position, "new_position")
    queue = p["queue_song_ids"]
    marks = list(range(len(queue)))  # follow the current song through the move
    marks.insert(new_position, marks.pop(current_position))
    queue.insert(new_position, queue.pop(current_position))
    p["cursor_position"] = marks.index(p["cursor_position"])
    save(world, p)
    return {"message": f"Moved the song from position {current_position} to {new_position}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_shuffle_song_queue(world: World) -> dict[str, str]:
    """Shuffles the queue; the current song stays current and moves to position 0.

    Returns:
        {message}
    """
    p = player(world)
    current = _current_id(p)
    rest = list(p["queue_song_ids"])
    del rest[p["cursor_position"]]
    Random(f"{core.now(world)}:{p['queue_song_ids']}").shuffle(rest)
    p.update(queue_song_ids=[current, *rest], cursor_position=0)
    save(world, p)
    return {"message": "Song queue shuffled."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_clear_song_queue(world: World) -> dict[str, str]:
    """Empties the queue and stops playback.

    Returns:
        {message}
    """
    p = player(world)
    p.update(queue_song_ids=[], cursor_position=None, is_playing=False, played_seconds=0)
    save(world, p)
    return {"message": "Song queue cleared."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUEUE,))
def spotify_remove_song_from_queue(world: World, position: int) -> dict[str, str]:
    """Removes the queued song at a position; removing the current song makes the next one current.

    Args:
        position: the song's 0-based position in the queue.

    Returns:
        {message}
    """
    p = player(world)
    _check_position(p, position, "position")
    queue = p["queue_song_ids"]
    del queue[position]
    cursor = p["cursor_position"]
    if not queue:
        p.update(cursor_position=None, is_playing=False, played_seconds=0)
    elif position < cursor:
        p["cursor_position"] = cursor - 1
    elif position == cursor:
        p.update(cursor_position=cursor % len(queue), played_seconds=0)
    save(world, p)
    return {"message": f"Removed the song at position {position} from the queue."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def spotify_set_volume(world: World, volume: int) -> dict[str, str]:
    """Sets the player volume.

    Args:
        volume: 0 (muted) to 10 (loudest).

    Returns:
        {message}
    """
    if not 0 <= volume <= 10:
        raise api_error(f"volume must be between 0 and 10; got {volume}.")
    p = player(world)
    p["volume"] = volume
    save(world, p)
    return {"message": f"Volume set to {volume}."}
