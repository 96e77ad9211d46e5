"""Spotify: music catalogue (artists, albums, songs), playlists, libraries, likes, reviews, playback."""

from __future__ import annotations

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.amazon.seed import card_row
from mmtsb.apps.base import App, BaseContext
from mmtsb.apps.spotify.schema import TABLES
from mmtsb.world.world import World


def seed(world: World, base: BaseContext) -> None:
    """Every base person as a (non-premium) user, and the main user's payment card.

    No music player is seeded: scenario files bring their own ``music_players`` row for the main user, and
    the playback tools create one on first use when none exists.
    """
    seed_users(world, "spotify", base.people, {"is_premium": False})
    world.insert("spotify.payment_cards", card_row(base.main_user))


APP = App(
    name="spotify", tables=TABLES, tool_modules=(), seed=seed,
    companions={
        "spotify.playlists": ("spotify.playlist_songs",),
        # likes, reviews and follows keep the counters of what they point at up to date
        "spotify.playlist_likes": ("spotify.playlists",),
        "spotify.song_likes": ("spotify.songs",),
        "spotify.album_likes": ("spotify.albums",),
        "spotify.artist_followers": ("spotify.artists",),
        "spotify.song_reviews": ("spotify.songs",),
        "spotify.album_reviews": ("spotify.albums",),
        "spotify.playlist_reviews": ("spotify.playlists",),
        # playing music counts plays
        "spotify.music_players": ("spotify.songs",),
        "spotify.premium_subscriptions": ("spotify.users", "file_system.files"),
    },
    id_offsets={"spotify.playlists": 700},
)

__all__ = ["APP"]
