"""Seed the Todoist tables: every base person is a user with an Inbox project and its owner link."""

from __future__ import annotations

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import BaseContext
from mmtsb.apps.todoist.schema import LINKS, PROJECTS
from mmtsb.world.world import World

#: base rows are written before a scenario's: Inbox projects and their links take ids 1..110 (the user's
#: id), below the 400+ projects and 50000+ links that scenario files insert
SEED_CREATED_AT = "2023-01-01T00:00:00"


def seed(world: World, base: BaseContext) -> None:
    """Every base person is a Todoist user with an Inbox project (and the owner's collaborator link)."""
    seed_users(world, "todoist", base.people)
    for p in base.people:
        world.insert(PROJECTS, {"id": p.id, "user_id": p.id, "name": "Inbox", "color": "charcoal", "is_inbox": True,
                                "description": "", "created_at": SEED_CREATED_AT})
        world.insert(LINKS, {"id": p.id, "project_id": p.id, "user_id": p.id, "is_favorite": False,
                             "is_archived": False, "created_at": SEED_CREATED_AT})
