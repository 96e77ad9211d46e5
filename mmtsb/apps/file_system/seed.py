"""File system base rows: every base person as a user, and the main user's home directory tree.

``~/`` is ``/home/<first name, lower case>/`` (as the released files write it: ``/home/chris/...`` with
``tilde_path`` ``~/...``); it holds ``documents/``, ``downloads/`` (where downloads land by default) and
``photos/``.
"""

from __future__ import annotations

import re

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import BaseContext
from mmtsb.world.world import World

DIRECTORIES = "file_system.directories"
SEED_TIME = "2023-01-01T00:00:00"
HOME_SUBDIRECTORIES = ("documents/", "downloads/", "photos/")
#: ids of the seeded home tree (scenario rows use ids of 200 and more, so they never collide)
SEED_DIRECTORY_IDS = tuple(range(1, len(HOME_SUBDIRECTORIES) + 2))


def home_path(first_name: str) -> str:
    """The absolute home directory of a user, e.g. ``/home/brenda/`` for Brenda."""
    slug = re.sub(r"[^a-z0-9]+", "", first_name.lower()) or "user"
    return f"/home/{slug}/"


def seed(world: World, base: BaseContext) -> None:
    seed_users(world, "file_system", base.people)
    main = base.main_user
    home = home_path(main.first_name)
    for dir_id, relative in zip(SEED_DIRECTORY_IDS, ("", *HOME_SUBDIRECTORIES)):
        world.insert(DIRECTORIES, {"id": dir_id, "path": home + relative, "tilde_path": "~/" + relative,
                                   "user_id": main.id, "created_at": SEED_TIME, "updated_at": SEED_TIME})


def drop_shadowed_seed_directories(world: World) -> int:
    """Remove seeded home directories that a scenario row re-declares (same owner and path).

    Scenario files may define, say, ``~/documents/`` themselves with their own id; keeping both rows would
    leave two directories with one path. When the scenario's rows place the owner's home elsewhere (their
    ``path`` and ``tilde_path`` say ``~/`` is ``/home/christopher/``), the seeded tree moves there first, so
    the user has one home. Call after injecting the scenario's entities; returns how many seeded rows were
    removed.
    """
    _align_seeded_home(world)
    removed = 0
    for dir_id in SEED_DIRECTORY_IDS:
        seeded = world.get(DIRECTORIES, dir_id)
        if seeded is None:
            continue
        twins = world.select(DIRECTORIES, "path = ? AND user_id IS ? AND id != ?",
                             (seeded["path"], seeded["user_id"], dir_id))
        if twins:
            removed += world.delete(DIRECTORIES, dir_id)
    return removed


def _scenario_home(world: World, user_id: int) -> str | None:
    """The home directory the scenario's own rows imply for a user (None when they do not say)."""
    for key in (DIRECTORIES, "file_system.files"):
        for row in world.select(key, "user_id = ?", (user_id,)):
            if key == DIRECTORIES and row["id"] in SEED_DIRECTORY_IDS:
                continue
            path, tilde = str(row.get("path") or ""), str(row.get("tilde_path") or "")
            if path.startswith("/") and tilde.startswith("~/") and path.endswith(tilde[2:]):
                home = path[:len(path) - len(tilde[2:])]
                return home if home.endswith("/") else home + "/"
    return None


def _align_seeded_home(world: World) -> None:
    seeded = [r for r in (world.get(DIRECTORIES, i) for i in SEED_DIRECTORY_IDS) if r is not None]
    if not seeded or seeded[0]["tilde_path"] != "~/":
        return
    old_home = seeded[0]["path"]
    new_home = _scenario_home(world, seeded[0]["user_id"])
    if new_home is None or new_home == old_home:
        return
    for row in seeded:
        if row["user_id"] == seeded[0]["user_id"] and row["path"].startswith(old_home):
            world.update(DIRECTORIES, row["id"], {"path": new_home + row["path"][len(old_home):]})
