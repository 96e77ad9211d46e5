"""Seed the SimpleNote tables: every base person is a user; notes start empty."""

from __future__ import annotations

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import BaseContext
from mmtsb.world.world import World


def seed(world: World, base: BaseContext) -> None:
    """Every base person is a SimpleNote user (no notes: scenario files bring their own)."""
    seed_users(world, "simple_note", base.people)
