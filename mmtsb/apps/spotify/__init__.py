"""Spotify: music catalogue (artists, albums, songs), playlists, libraries, likes, reviews, playback."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.amazon.seed import card_row
from mmtsb.apps.base import App, BaseContext
from mmtsb.apps.spotify.catalogue import catalogue, user_history
from mmtsb.apps.spotify.schema import TABLES
from mmtsb.world.world import World

TOOL_MODULES = tuple(f"mmtsb.apps.spotify.{m}" for m in (
    "tools_account", "tools_catalog", "tools_library", "tools_playlists", "tools_reviews", "tools_player",
    "tools_premium"))


def bulk_insert(world: World, key: str, rows: Iterable[dict[str, Any]]) -> None:
    """Insert many rows that share one column set with a single executemany (the seed's fast path)."""
    rows = list(rows)
    if not rows:
        return
    t = world.table(key)
    cols = list(rows[0])
    quoted = ", ".join(f'"{c}"' for c in cols)
    sql = f"INSERT INTO {t.qualified} ({quoted}) VALUES ({', '.join('?' for _ in cols)})"
    encoded = [t.encode_row(r) for r in rows]
    world.db.executemany(sql, [[e[c] for c in cols] for e in encoded])


def seed(world: World, base: BaseContext) -> None:
    """Every base person as a (non-premium) user, the main user's payment card, the generated music
    catalogue and the main user's listening history.

    No music player is seeded: scenario files bring their own ``music_players`` row for the main user, and
    the playback tools create one on first use when none exists.
    """
    seed_users(world, "spotify", base.people, {"is_premium": False})
    world.insert("spotify.payment_cards", card_row(base.main_user))
    for key, rows in catalogue().rows.items():
        bulk_insert(world, key, rows)
    for key, rows in user_history(base.main_user.id, base.main_user.first_name).items():
        bulk_insert(world, key, rows)


APP = App(
    name="spotify", tables=TABLES, tool_modules=TOOL_MODULES, seed=seed,
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
        # subscribing marks the user premium; a receipt download writes a file (and stamps its folder)
        "spotify.premium_subscriptions": ("spotify.users", "file_system.files", "file_system.directories"),
    },
    id_offsets={"spotify.playlists": 700},
)

__all__ = ["APP"]
