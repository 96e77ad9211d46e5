"""Device state the tools depend on: settings (network, location, battery) and app login sessions.

Login sessions live in the internal ``main.auth_sessions`` table, so they are part of the world's
state (snapshots, savepoints) but never appear in diffs or guardrails. This module knows no app: which
apps exist, and which of them a base world logs into, is decided by whoever builds the world; sessions are
kept for the app names it is given.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from mmtsb.world.schema import Table, table
from mmtsb.world.world import World

AUTH_TABLE = "main.auth_sessions"
SETTING_TABLE = "SETTING"

DEFAULT_SETTINGS: dict[str, Any] = {"cellular": True, "wifi": True, "location_service": True,
                                    "low_battery_mode": False}


def core_tables() -> list[Table]:
    """Tables every World has regardless of apps."""
    return [table("main", "auth_sessions", {"app": "str", "username": "str", "access_token": "str",
                                            "token_type": "str", "expires_at": "datetime"}, primary_key="app",
                  internal=True)]


def settings(world: World) -> dict[str, Any]:
    """The device settings row (defaults when the world has no SETTING table or row)."""
    if not world.has_table(SETTING_TABLE):
        return dict(DEFAULT_SETTINGS)
    rows = world.rows(SETTING_TABLE)
    return rows[0] if rows else dict(DEFAULT_SETTINGS)


def network_available(world: World) -> bool:
    s = settings(world)
    return bool(s.get("cellular")) or bool(s.get("wifi"))


def login(world: World, app: str, username: str, *, expires_at: datetime | None = None) -> dict[str, str]:
    """Open a session for ``app``; returns ``{access_token, token_type}`` as the AppWorld login does.

    ``expires_at`` (world time) ends the token's validity; None keeps it for the whole episode (the base world's
    auto-login: the reference freezes AppWorld's clock, so its tokens never expire)."""
    token = hashlib.sha256(f"{app}:{username}:{world.now().isoformat()}".encode()).hexdigest()[:40]
    expires = None if expires_at is None else expires_at.replace(tzinfo=None).isoformat(timespec="seconds")
    world.insert(AUTH_TABLE, {"app": app, "username": username, "access_token": token, "token_type": "Bearer",
                              "expires_at": expires}, replace=True)
    return {"access_token": token, "token_type": "Bearer"}


def session_expired(world: World, session: dict[str, Any]) -> bool:
    """Whether a session's token has expired at the world's current time."""
    expires = session.get("expires_at")
    return expires is not None and datetime.fromisoformat(str(expires)) < world.clock.now_naive()


def logout(world: World, app: str) -> None:
    world.delete(AUTH_TABLE, app)


def session_of(world: World, app: str) -> dict[str, Any] | None:
    """The login session of an app, or None when logged out."""
    return world.get(AUTH_TABLE, app)


def is_logged_in(world: World, app: str) -> bool:
    return session_of(world, app) is not None
