"""Seed the Spotify tables: the base people as users, the main user's card, the generated catalogue and the
main user's listening history."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.amazon.seed import card_row
from mmtsb.apps.base import BaseContext
from mmtsb.apps.spotify.catalogue import catalogue, user_history
from mmtsb.world.world import World


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
