"""Spotify tables (AppWorld layout).

Column sets of the tables the released scenario files fill (artists, albums, songs, playlists,
playlist_songs, music_players, user_library_albums) follow those files exactly; the others are shaped after
what the catalog's tools return. Per-user relations (likes, libraries, downloads, follows) are one row per
(user, item) with the time it was made in ``created_at``.
"""

from mmtsb.apps.accounts import users_table
from mmtsb.apps.amazon.schema import payment_cards_table, subscriptions_table
from mmtsb.world.schema import Table, table

APP = "spotify"

#: table names the reference catalog uses for a table the scenario files name differently: the album
#: library is ``user_library_albums`` (so the song library follows it), and the queue, volume and playback
#: state live in the one ``music_players`` row of each user.
CATALOG_ALIASES: dict[str, str] = {"spotify.album_library": "spotify.user_library_albums",
                                   "spotify.song_library": "spotify.user_library_songs",
                                   "spotify.song_queue": "spotify.music_players"}


def _user_item(name: str, item: str) -> Table:
    """A (user, item) relation with its time, e.g. song_likes(user_id, song_id, created_at)."""
    return table(APP, name, {"id": "int", "user_id": "int", item: "int", "created_at": "datetime"})


def _reviews(name: str, item: str) -> Table:
    return table(APP, name, {"id": "int", item: "int", "user_id": "int", "rating": "int", "title": "str",
                             "text": "str", "created_at": "datetime"})



TABLES = (
    users_table(APP, {"is_premium": "bool"}),
    table(APP, "artists", {"id": "int", "name": "str", "genre": "str", "created_at": "datetime",
                           "follower_count": "int"}),
    table(APP, "albums", {"id": "int", "title": "str", "artist_ids": "json", "release_date": "datetime",
                          "genre": "str", "rating": "float", "like_count": "int", "review_count": "int"}),
    table(APP, "songs", {"id": "int", "title": "str", "artist_ids": "json", "album_id": "int", "duration": "int",
                         "release_date": "datetime", "genre": "str", "play_count": "int", "rating": "float",
                         "like_count": "int", "review_count": "int"}),
    table(APP, "playlists", {"id": "int", "title": "str", "user_id": "int", "created_at": "datetime",
                             "is_public": "bool", "rating": "float", "like_count": "int", "review_count": "int"}),
    table(APP, "playlist_songs", {"id": "int", "playlist_id": "int", "song_id": "int", "added_at": "datetime"}),
    _user_item("song_likes", "song_id"),
    _user_item("album_likes", "album_id"),
    _user_item("playlist_likes", "playlist_id"),
    _user_item("user_library_songs", "song_id"),
    _user_item("user_library_albums", "album_id"),
    _user_item("downloaded_songs", "song_id"),
    _user_item("artist_followers", "artist_id"),
    _reviews("song_reviews", "song_id"),
    _reviews("album_reviews", "album_id"),
    _reviews("playlist_reviews", "playlist_id"),
    # one per user: the queue (song ids in order), the cursor into it, playback state and volume (0..10)
    table(APP, "music_players", {"id": "int", "user_id": "int", "queue_song_ids": "json", "is_playing": "bool",
                                 "is_looping": "bool", "cursor_position": "int", "played_seconds": "int",
                                 "volume": "int"}),
    payment_cards_table(APP),
    subscriptions_table(APP, "premium_subscriptions"),
)
