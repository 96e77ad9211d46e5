"""Spotify: playlist titles unique per user."""

from mmtsb.testing.appworld.plan import call, sequence

SEQUENCES = [
    sequence(
        "spotify playlists",
        call("spotify_create_playlist", label="p1", title="Road"),
        call("spotify_create_playlist", title="Road"),
        call("spotify_create_playlist", label="p2", title="Chill"),
        call("spotify_update_playlist", playlist_id="$p2.playlist_id", title="Road"),
        call("spotify_update_playlist", playlist_id="$p2.playlist_id", title="Calm"),
        call("spotify_create_playlist", as_="bob", title="Road"),
        call("spotify_show_playlist", playlist_id="$p1.playlist_id"),
        call("spotify_update_playlist", as_="bob", playlist_id="$p1.playlist_id", title="Mine"),
        call("spotify_delete_playlist", playlist_id="$p1.playlist_id"),
        call("spotify_delete_playlist", playlist_id="$p1.playlist_id"),
        call("spotify_show_playlist_library"),
        call("spotify_create_playlist", title=""),
    ),
]
