"""Spotify: music catalogue (artists, albums, songs), playlists, libraries, likes, reviews, playback."""

from __future__ import annotations

from mmtsb.apps.base import App
from mmtsb.apps.gmail.delivery import MAIL_TABLES
from mmtsb.apps.spotify.schema import TABLES
from mmtsb.apps.spotify.seed import seed

TOOL_MODULES = tuple(f"mmtsb.apps.spotify.{m}" for m in (
    "tools_account", "tools_catalog", "tools_library", "tools_playlists", "tools_reviews", "tools_player",
    "tools_premium"))

APP = App(
    name="spotify", tables=TABLES, tool_modules=TOOL_MODULES, seed=seed,
    companions={
        "spotify.playlists": ("spotify.playlist_songs",),
        # likes, reviews and follows keep the counters of what they point at up to date
        "spotify.playlist_likes": ("spotify.playlists",),
        "spotify.song_likes": ("spotify.songs",),
        "spotify.album_likes": ("spotify.albums",),
        "spotify.song_reviews": ("spotify.songs",),
        "spotify.album_reviews": ("spotify.albums",),
        "spotify.playlist_reviews": ("spotify.playlists",),
        # subscribing mails a receipt (AppWorld); a receipt download writes a file (and stamps its folder)
        "spotify.premium_subscriptions": ("file_system.files", "file_system.directories", *MAIL_TABLES),
    },
    id_offsets={"spotify.playlists": 700},
)

__all__ = ["APP"]
